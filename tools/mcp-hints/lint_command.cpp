// mcp-hints lint: the offline linter for saved tools/list results.
#include <unistd.h>

#include <iostream>
#include <map>
#include <utility>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "mcp_hints/checks/lint.hpp"
#include "mcp_hints/report/report.hpp"
#include "option_values.hpp"
#include "report_output.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;

namespace {

const std::string kLintHelp = std::string(R"(usage: mcp-hints lint [OPTIONS] FILE...

Lints saved tools/list results: each tool against the JSON Schema of every proposal and of the
specification, then the consistency rules across proposals. FILE is a tools/list result
({"tools": [...]}), a JSON-RPC response wrapping one, a bare array of tools, or '-' for stdin.

options:
)") + kReportOptionsHelp + R"(  --jobs N               threads that lint a file's tools while it is read (default: the
                         machine's cores); the report does not change
  --max-bytes N          largest input accepted, in bytes (default 1073741824)
  --max-depth N          deepest nesting accepted (default 256)
  --max-string N         longest string or member name accepted, in bytes (default 16777216)
  --config FILE          the old name of --suppressions (check-server's --config reads hosts'
                         config files)
  -h, --help             this text

exit codes: 0 no finding at the fail-on level, 1 findings at or above it, 2 usage error or
unreadable or invalid input, 3 the report could not be written.
)";

}  // namespace

int lint_command(const std::vector<std::string>& args) {
  po::options_description options;
  add_report_options(options);
  options.add_options()("help,h", "")("jobs", po::value<Jobs>()->default_value(Jobs(), ""), "")(
      "max-bytes",
      po::value<Count>()->default_value(Count(InputLimits{}.max_bytes), std::to_string(InputLimits{}.max_bytes)), "")(
      "max-depth",
      po::value<Count>()->default_value(Count(InputLimits{}.max_depth), std::to_string(InputLimits{}.max_depth)),
      "")("max-string",
          po::value<Count>()->default_value(Count(InputLimits{}.max_string), std::to_string(InputLimits{}.max_string)),
          "")("config", po::value<std::string>(), "")("files", po::value<std::vector<std::string>>(), "");
  po::positional_options_description positional;
  positional.add("files", -1);
  const auto parsed = parse_arguments(args, options, &positional);
  if (!parsed) return bad_input;
  const auto& vm = *parsed;
  if (vm.count("help")) {
    std::cout << kLintHelp;
    return pass;
  }
  auto settings = read_report_settings(vm, "lint");
  if (!settings) return bad_input;
  if (vm.count("config")) {
    if (settings->config_path) return usage_error("lint", "give --suppressions or --config (its old name), not both");
    settings->config_path = vm["config"].as<std::string>();
    settings->config_flag = "--config";
  }
  if (vm.count("list-checks")) {
    print_checks(settings->format, false);
    return pass;
  }
  if (!vm.count("files")) {
    std::cerr << "mcp-hints lint: no input file (give FILE... or '-' for stdin)\n";
    return bad_input;
  }
  if (!read_suppression_files(*settings, "lint")) return bad_input;
  LintOptions lint_options;
  lint_options.spec_revision = settings->spec_revision;
  lint_options.pinned = settings->pinned;
  lint_options.jobs = vm["jobs"].as<Jobs>().value;
  lint_options.limits.max_bytes = vm["max-bytes"].as<Count>().value;
  lint_options.limits.max_depth = vm["max-depth"].as<Count>().value;
  lint_options.limits.max_string = vm["max-string"].as<Count>().value;
  Progress progress;
  lint_options.progress = [&](const std::string& file, std::size_t tools) {
    progress.show("lint: " + file + ": " + std::to_string(tools) + " tools...");
  };
  LintReport report;
  try {
    report = Linter(lint_options).lint_files(vm["files"].as<std::vector<std::string>>());
  } catch (const OptionError& e) {
    return option_error("lint", e, kLintOptionFlags);
  }
  // A file over one of the limits: the flag that raises it.
  const std::map<std::string, std::string> limit_flags = {
      {"max_bytes", "--max-bytes"}, {"max_depth", "--max-depth"}, {"max_string", "--max-string"}};
  for (auto& file : report.files)
    if (const auto flag = limit_flags.find(file.limit); file.error && flag != limit_flags.end())
      *file.error += " (" + flag->second + " raises it)";
  return write_report(std::move(report), *settings, "lint");
}

}  // namespace mcp_hints::cli
