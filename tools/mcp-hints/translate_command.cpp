// mcp-hints translate: rewrite a catalog's hints into another vocabulary revision or placement,
// with a report of what the target cannot express.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "mcp_hints/json/catalog_reader.hpp"
#include "mcp_hints/json/stream_writer.hpp"
#include "mcp_hints/report/output_file.hpp"
#include "mcp_hints/vocab/translate.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"
#include "placement_options.hpp"
#include "report_output.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;
using json = nlohmann::json;

namespace {

const char* kHelp = R"(usage: mcp-hints translate FILE --to NAME@REV [OPTIONS]

Rewrites a saved tools/list's hints into another vocabulary revision: every hint the target can
express is written in the target's keys (the most cautious value where hints disagree) and
removed from where it was; what the target cannot express stays as it was and is reported.
The specification's hints are never touched. Examples:
  --to trust-annotations@sep-1913     the seed's PascalCase action metadata as SEP-1913 camelCase
  --to action-security@seed           and back
  --to trust-annotations@sep-1913 --placement meta
                                      into _meta["io.modelcontextprotocol/action-metadata"], which
                                      SDK clients keep (they drop unknown annotation keys)
  --to risk-metadata@sep-2793 --placement both --meta-prefix com.example
                                      in annotations and mirrored as _meta["com.example/..."]

options:
  --to NAME@REV          the target revision (see 'mcp-hints vocab list')
  --placement P          annotations (default), meta or both: where a target that lives in
                         annotations is written
  --meta-prefix P        your reverse-DNS prefix for _meta mirrors, when the target has no _meta
                         home of its own
  --output PATH          write the catalog ({"tools": [...]}) to PATH instead of standard output
  --report PATH          write the loss report as JSON to PATH (it is always said on stderr)
  --spec-revision REV    the specification revision the hints are read under (default 2025-11-25)
  -h, --help             this text

exit codes: 0 translated without loss, 1 translated with losses (reported), 2 usage error or bad
input, 3 the output could not be written.
)";

}  // namespace

int translate_command(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("help,h", "")("to", po::value<std::string>(), "")("output", po::value<std::string>(), "")(
      "report", po::value<std::string>(), "")(
      "spec-revision", po::value<std::string>()->default_value(std::string(kDefaultSpecRevision)), "")(
      "file", po::value<std::vector<std::string>>(), "");
  add_placement_options(options, TranslateOptions{});
  po::variables_map vm;
  if (const auto exit = parse_command(args, options, kHelp, vm, "file")) return *exit;
  auto usage = [](const std::string& why) { return usage_error("translate", why); };
  if (!vm.count("to")) return usage("--to NAME@REV is required (see 'mcp-hints vocab list')");
  TranslateOptions translate;
  translate.target = Vocabulary::builtin().find(vm["to"].as<std::string>());
  if (!translate.target)
    return usage("--to: " + Vocabulary::builtin().not_found(vm["to"].as<std::string>(), Vocabulary::builtin().refs()));
  if (const auto exit = read_placement_options(vm, "translate", translate)) return *exit;
  translate.spec_revision = vm["spec-revision"].as<std::string>();
  const auto specs = Vocabulary::builtin().spec_revisions();
  if (std::find(specs.begin(), specs.end(), translate.spec_revision) == specs.end())
    return usage("unknown --spec-revision '" + translate.spec_revision + "'");
  try {
    validate_translate_options(translate);
  } catch (const OptionError& e) {
    return option_error("translate", e, {{"target", "--to"}, {"meta_prefix", "--meta-prefix"}});
  }

  const auto input = open_single_catalog(vm, "translate");
  if (!input) return bad_input;
  const std::string& file = input->file;
  // Each tool is written as it is translated, and each loss as it is found: to the output file's
  // temporary file, or to a spill that reaches standard output only once the whole input was read
  // (a catalog that turns out unreadable half-way writes nothing, as before).
  std::optional<AtomicFile> output_file, report_file;
  std::optional<SpillFile> spill;
  if (vm.count("output"))
    output_file.emplace(vm["output"].as<std::string>());
  else
    spill.emplace();
  if (vm.count("report")) report_file.emplace(vm["report"].as<std::string>());
  std::ostream& catalog_out = output_file ? output_file->stream() : spill->stream();
  JsonStreamWriter catalog(catalog_out, 2);
  catalog.begin_object();
  catalog.key("tools");
  catalog.begin_array();
  // The report's members after "losses" are known only at the end: its losses go first, as dump
  // orders them.
  std::optional<JsonStreamWriter> report;
  if (report_file) {
    report.emplace(report_file->stream(), 2);
    report->begin_object();
    report->key("losses");
    report->begin_array();
  }
  std::size_t written = 0, tools = 0, losses = 0;
  try {
    read_catalog(input->get(), InputLimits{}, [&](CatalogTool&& entry) {
      auto t = translate_tool(entry.tool, translate);
      written += t.written;
      const std::string name =
          entry.tool.is_object() && entry.tool.contains("name") ? entry.tool["name"].dump() : "(unnamed)";
      for (const auto& l : t.losses) {
        ++losses;
        if (report)
          report->value(
              {{"tool", tool_name(entry.tool)}, {"pointer", entry.pointer}, {"key", l.key}, {"message", l.message}});
        std::cerr << "mcp-hints translate: " << name << " " << l.key << ": " << l.message << "\n";
      }
      catalog.value(t.tool);
      ++tools;
    });
  } catch (const InputError& e) {
    return input_error("translate", file, e);
  }
  catalog.end();
  catalog.end();
  catalog_out << "\n";
  // An output that cannot be written is an OutputError: main says which and why, exit 3.
  if (output_file) {
    output_file->commit();
  } else {
    spill->copy_to(std::cout);
    if (!std::cout.flush()) return incomplete;  // main says it, in one line; nothing was written
  }
  if (report) {
    report->end();
    report->member("placement", placement_name(translate.placement));
    report->member("to", translate.target->ref());
    report->member("written", written);
    report->end();
    report_file->stream() << "\n";
    report_file->commit();
  }
  std::cerr << "mcp-hints translate: " << tools << " tool(s), " << written << " key(s) written in "
            << translate.target->ref() << ", " << losses << " loss(es)\n";
  return losses == 0 ? pass : static_cast<int>(findings);
}

}  // namespace mcp_hints::cli
