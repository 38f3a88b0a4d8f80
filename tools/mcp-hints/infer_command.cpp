// mcp-hints infer: bootstrap hints for tools that declare none, from their names and input
// schemas, each value marked inferred with its evidence.
#include <fstream>
#include <iostream>
#include <optional>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "mcp_hints/json/catalog_reader.hpp"
#include "mcp_hints/json/stream_writer.hpp"
#include "mcp_hints/report/output_file.hpp"
#include "mcp_hints/vocab/hint_model.hpp"
#include "mcp_hints/vocab/infer.hpp"
#include "placement_options.hpp"
#include "report_output.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;
using json = nlohmann::json;

namespace {

const char* kHelp = R"(usage: mcp-hints infer FILE [--to NAME@REV] [--all] [--format text|json] [--apply PATH]
                          [--placement P] [--meta-prefix P]

Infers hints for the tools of a saved tools/list that declare none, as SEP-2793's reference
implementation does: the verbs of the tool's name in ordered classes (delete/destroy/drop... ->
delete, high risk; send/post/publish... -> external, medium; create/apply/update... -> write,
medium; get/list/describe... -> read, low; the most consequential class any word belongs to
wins), risky flags in its input schema (force, recursive, cascade, all_namespaces, overwrite...)
raising the risk one grade, and scope parameters (namespace, cluster, node, org...) giving the
blast radius. Every value is marked inferred and carries its evidence.

options:
  --to NAME@REV          the vocabulary to write the inferred hints in: risk-metadata@sep-2793
                         (default), policy-hints@seed, spec, or any tool revision
  --all                  infer for every tool, also those that declare hints (to compare)
  --format F             text (default) or json
  --apply PATH           write the catalog to PATH with the inferred hints added to the tools
                         that had none (keys already there are never overwritten)
  --placement P          both (default), annotations or meta: where a revision that lives in
                         annotations is written; both mirrors each key in _meta, where SDK
                         clients keep it, so the output lints without placement warnings
  --meta-prefix P        the reverse-DNS prefix of those _meta mirrors when the revision has no
                         _meta home of its own (default mcp-hints.inferred: put yours)
  -h, --help             this text

'mcp-hints lint' uses the same inference to warn where declared hints contradict a name's strong
evidence (infer.contradicts-name: a delete_* tool declared read-only).

exit codes: 0 done, 2 usage error or bad input, 3 the output could not be written.
)";

// In annotations and mirrored in _meta, where SDK clients keep hints: lint warns of neither.
const TranslateOptions kDefaultPlacement = [] {
  TranslateOptions o;
  o.placement = TranslateOptions::Placement::both;
  o.meta_prefix = "mcp-hints.inferred";
  return o;
}();

bool declares_hints(const json& tool) {
  const auto hints = read_tool_hints(tool, Vocabulary::builtin(), kDefaultSpecRevision);
  for (const auto& c : hints.claims)
    if (!c.defaulted) return true;
  return !hints.unread.empty();
}

// One tool's result, as the text report lists it under its head.
void write_inference_text(std::ostream& out, const json& r) {
  out << "  " << (r["name"].is_string() ? r["name"].get<std::string>() : std::string("(unnamed)"))
      << (r["declared"].get<bool>() ? "  (declares hints)" : "") << "\n";
  if (r["inferred"].empty()) out << "      nothing inferred: no verb of the name is known\n";
  for (const auto& [facet, v] : r["inferred"].items()) {
    std::string evidence;
    for (const auto& e : v["evidence"]) evidence += (evidence.empty() ? "" : "; ") + e.get<std::string>();
    out << "      " << facet << " " << (v["value"].is_string() ? v["value"].get<std::string>() : v["value"].dump())
        << " (inferred: " << evidence << ")\n";
  }
  for (const auto& [pointer, value] : r["keys"].items()) out << "      -> " << pointer << " = " << value.dump() << "\n";
}

}  // namespace

int infer_command(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("help,h", "")("to", po::value<std::string>()->default_value("risk-metadata@sep-2793"), "")(
      "all", "")("format", po::value<std::string>()->default_value("text"), "")("apply", po::value<std::string>(), "")(
      "file", po::value<std::vector<std::string>>(), "");
  add_placement_options(options, kDefaultPlacement);
  po::variables_map vm;
  if (const auto exit = parse_command(args, options, kHelp, vm, "file")) return *exit;
  auto usage = [](const std::string& why) { return usage_error("infer", why); };
  const std::string format = vm["format"].as<std::string>();
  if (format != "text" && format != "json") return usage("unknown --format '" + format + "' (text, json)");
  const std::string to = vm["to"].as<std::string>();
  TranslateOptions placement;
  if (const auto exit = read_placement_options(vm, "infer", placement)) return *exit;
  try {
    validate_inference_target(to, placement);
  } catch (const OptionError& e) {
    return option_error("infer", e, {{"target", "--to"}, {"meta_prefix", "--meta-prefix"}});
  }
  const auto input = open_single_catalog(vm, "infer");
  if (!input) return bad_input;
  // Every tool's result is written as it is made, to a spill: the report's head counts them. The
  // catalog of --apply goes to its file's temporary file as each tool is read.
  SpillFile spill;
  std::optional<JsonStreamWriter> results;  // --format json: the array "tools", at its depth
  if (format == "json") {
    results.emplace(spill.stream(), 2, 1);
    results->begin_array();
  }
  std::optional<AtomicFile> apply_file;
  std::optional<JsonStreamWriter> catalog;
  if (vm.count("apply")) {
    apply_file.emplace(vm["apply"].as<std::string>());
    catalog.emplace(apply_file->stream(), 2);
    catalog->begin_object();
    catalog->key("tools");
    catalog->begin_array();
  }
  std::size_t skipped = 0, inferred = 0, examined = 0;
  try {
    read_catalog(input->get(), InputLimits{}, [&](CatalogTool&& entry) {
      const bool declared = declares_hints(entry.tool);
      if (declared && !vm.count("all")) {
        ++skipped;
        if (catalog) catalog->value(entry.tool);
        return;
      }
      const Inference inference = infer_tool(entry.tool);
      const json applied = apply_inference(entry.tool, inference, to, placement);
      json values = json::object();
      for (const auto& v : inference.values)
        values[v.facet] = {{"value", v.value}, {"inferred", true}, {"evidence", v.evidence}};
      json keys = json::object();
      for (const auto& op : json::diff(entry.tool, applied))
        if (op["op"] == "add" || op["op"] == "replace") keys[op["path"].get<std::string>()] = op["value"];
      const json result = {{"name", tool_name(entry.tool)},
                           {"pointer", entry.pointer},
                           {"declared", declared},
                           {"verb", inference.verb.empty() ? json() : json(inference.verb)},
                           {"verbEvidence", inference.verb_evidence.empty() ? json() : json(inference.verb_evidence)},
                           {"strong", inference.strong},
                           {"inferred", values},
                           {"keys", keys}};
      ++examined;
      inferred += !inference.values.empty();
      if (catalog) catalog->value(declared ? entry.tool : applied);
      if (results)
        results->value(result);
      else
        write_inference_text(spill.stream(), result);
    });
  } catch (const InputError& e) {
    return input_error("infer", input->file, e);
  }
  if (catalog) {
    catalog->end();
    catalog->end();
    apply_file->stream() << "\n";
    apply_file->commit();
  }
  if (results) {
    results->end();
    JsonStreamWriter w(std::cout, 2);
    w.object({{"file", input->file}, {"to", to}, {"skippedDeclared", skipped}},
             {{"tools", [&] { w.raw([&](std::ostream& out) { spill.copy_to(out); }); }}});
    std::cout << "\n";
    return pass;
  }
  std::cout << input->file << ": " << examined << " tool(s) examined, " << inferred << " with inferred hints, "
            << skipped << " skipped (they declare hints; --all includes them); written as " << to << "\n";
  spill.copy_to(std::cout);
  return pass;
}

}  // namespace mcp_hints::cli
