// mcp-hints translate: rewrite a catalog's hints into another vocabulary revision or placement,
// with a report of what the target cannot express.
#include <filesystem>
#include <fstream>
#include <iostream>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "mcp_hints/json/catalog_reader.hpp"
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
  json tools = json::array();
  json losses = json::array();
  std::size_t written = 0;
  try {
    read_catalog(input->get(), InputLimits{}, [&](CatalogTool&& entry) {
      auto t = translate_tool(entry.tool, translate);
      written += t.written;
      const std::string name =
          entry.tool.is_object() && entry.tool.contains("name") ? entry.tool["name"].dump() : "(unnamed)";
      for (const auto& l : t.losses) {
        losses.push_back(
            {{"tool", tool_name(entry.tool)}, {"pointer", entry.pointer}, {"key", l.key}, {"message", l.message}});
        std::cerr << "mcp-hints translate: " << name << " " << l.key << ": " << l.message << "\n";
      }
      tools.push_back(std::move(t.tool));
    });
  } catch (const InputError& e) {
    return input_error("translate", file, e);
  }
  const std::string text = json{{"tools", tools}}.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  // An output that cannot be written is an OutputError: main says which and why, exit 3.
  if (vm.count("output"))
    write_file_atomically(vm["output"].as<std::string>(), text);
  else
    std::cout << text;
  if (vm.count("report"))
    write_file_atomically(vm["report"].as<std::string>(), json{{"to", translate.target->ref()},
                                                               {"placement", placement_name(translate.placement)},
                                                               {"written", written},
                                                               {"losses", losses}}
                                                                  .dump(2) +
                                                              "\n");
  std::cerr << "mcp-hints translate: " << tools.size() << " tool(s), " << written << " key(s) written in "
            << translate.target->ref() << ", " << losses.size() << " loss(es)\n";
  return losses.empty() ? pass : static_cast<int>(findings);
}

}  // namespace mcp_hints::cli
