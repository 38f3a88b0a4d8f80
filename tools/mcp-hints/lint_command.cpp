// mcp-hints lint: the offline linter for saved tools/list results.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "mcp_hints/checks.hpp"
#include "mcp_hints/lint.hpp"
#include "mcp_hints/report.hpp"
#include "mcp_hints/vocabulary.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;

namespace {

const char* kLintHelp = R"(usage: mcp-hints lint [OPTIONS] FILE...

Lints saved tools/list results: each tool against the JSON Schema of every proposal and of the
specification, then the consistency rules across proposals. FILE is a tools/list result
({"tools": [...]}), a JSON-RPC response wrapping one, a bare array of tools, or '-' for stdin.

options:
  --format FORMAT        text (default), json, sarif (2.1.0) or junit
  --output PATH          write the report to PATH instead of standard output
  --fail-on LEVEL        error (default), warning, info or never: the lowest finding level that fails
  --strict               same as --fail-on warning
  --spec-revision REV    specification revision for the Tool schema and the _meta prefix rule:
                         2025-06-18, 2025-11-25 (default) or 2026-07-28
  --color WHEN           auto (default: only on a terminal, unless NO_COLOR is set), always, never
  --max-bytes N          largest input accepted, in bytes (default 1073741824)
  --max-depth N          deepest nesting accepted (default 256)
  --max-string N         longest string or member name accepted, in bytes (default 16777216)
  --list-checks          list every check (id, level, proposal, summary) and exit
  -h, --help             this text

exit codes: 0 no finding at the fail-on level, 1 findings at or above it, 2 usage error or
unreadable or invalid input, 3 the report could not be written.
)";

void list_checks(std::ostream& out, const std::string& format) {
  if (format == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& c : lint_checks())
      list.push_back({{"id", c.info.id}, {"level", level_name(c.info.level)}, {"proposal", c.info.proposal},
                      {"summary", c.info.summary}});
    out << list.dump(2) << "\n";
    return;
  }
  for (const auto& c : lint_checks())
    out << std::left << std::setw(38) << c.info.id << std::setw(8) << level_name(c.info.level) << c.info.summary
        << "\n" << std::string(46, ' ') << "[" << c.info.proposal << "]\n";
}

// Progress for long runs: a line on stderr, at most once a second, only on a terminal.
class Progress {
 public:
  Progress() : enabled_(isatty(STDERR_FILENO)), last_(std::chrono::steady_clock::now()) {}
  void update(const std::string& file, std::size_t tools) {
    if (!enabled_) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::seconds(1)) return;
    last_ = now;
    shown_ = true;
    std::cerr << "\rlint: " << file << ": " << tools << " tools..." << std::flush;
  }
  ~Progress() {
    if (shown_) std::cerr << "\r\033[K" << std::flush;
  }

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace

int lint_command(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("help,h", "")("format", po::value<std::string>()->default_value("text"), "")(
      "output", po::value<std::string>(), "")("fail-on", po::value<std::string>()->default_value("error"), "")(
      "strict", "")("spec-revision", po::value<std::string>()->default_value("2025-11-25"), "")(
      "color", po::value<std::string>()->default_value("auto"), "")(
      "max-bytes", po::value<std::size_t>()->default_value(InputLimits{}.max_bytes), "")(
      "max-depth", po::value<std::size_t>()->default_value(InputLimits{}.max_depth), "")(
      "max-string", po::value<std::size_t>()->default_value(InputLimits{}.max_string), "")("list-checks", "")(
      "files", po::value<std::vector<std::string>>(), "");
  po::positional_options_description positional;
  positional.add("files", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(std::vector<std::string>(args.begin() + 1, args.end()))
                  .options(options)
                  .positional(positional)
                  .run(),
              vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "mcp-hints lint: " << e.what() << " (try 'mcp-hints lint --help')\n";
    return bad_input;
  }
  if (vm.count("help")) {
    std::cout << kLintHelp;
    return pass;
  }
  const std::string format = vm["format"].as<std::string>();
  if (format != "text" && format != "json" && format != "sarif" && format != "junit") {
    std::cerr << "mcp-hints lint: unknown --format '" << format << "' (text, json, sarif, junit)\n";
    return bad_input;
  }
  if (vm.count("list-checks")) {
    list_checks(std::cout, format);
    return pass;
  }
  ReportOptions report_options;
  const std::string fail_on = vm.count("strict") ? "warning" : vm["fail-on"].as<std::string>();
  if (fail_on == "never") {
    report_options.fail_on = std::nullopt;
  } else if (auto level = parse_level(fail_on)) {
    report_options.fail_on = level;
  } else {
    std::cerr << "mcp-hints lint: unknown --fail-on '" << fail_on << "' (error, warning, info, never)\n";
    return bad_input;
  }
  const std::string color = vm["color"].as<std::string>();
  if (color != "auto" && color != "always" && color != "never") {
    std::cerr << "mcp-hints lint: unknown --color '" << color << "' (auto, always, never)\n";
    return bad_input;
  }
  if (!vm.count("files")) {
    std::cerr << "mcp-hints lint: no input file (give FILE... or '-' for stdin)\n";
    return bad_input;
  }
  const bool to_file = vm.count("output") > 0;
  report_options.color = color == "always" || (color == "auto" && format == "text" && !to_file &&
                                               isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr);

  LintOptions lint_options;
  lint_options.spec_revision = vm["spec-revision"].as<std::string>();
  lint_options.limits.max_bytes = vm["max-bytes"].as<std::size_t>();
  lint_options.limits.max_depth = vm["max-depth"].as<std::size_t>();
  lint_options.limits.max_string = vm["max-string"].as<std::size_t>();
  Progress progress;
  lint_options.progress = [&](const std::string& file, std::size_t tools) { progress.update(file, tools); };
  LintReport report;
  try {
    report = Linter(lint_options).lint_files(vm["files"].as<std::vector<std::string>>());
  } catch (const std::invalid_argument& e) {
    std::cerr << "mcp-hints lint: " << e.what() << "\n";
    return bad_input;
  }

  std::ofstream file_out;
  if (to_file) {
    file_out.open(vm["output"].as<std::string>(), std::ios::binary | std::ios::trunc);
    if (!file_out) {
      std::cerr << "mcp-hints lint: cannot write " << vm["output"].as<std::string>() << "\n";
      return incomplete;
    }
  }
  std::ostream& out = to_file ? static_cast<std::ostream&>(file_out) : std::cout;
  if (format == "json") out << report_json(report, report_options).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  else if (format == "sarif") render_sarif(out, report, report_options);
  else if (format == "junit") render_junit(out, report, report_options);
  else render_text(out, report, report_options);
  out.flush();
  if (!out) {
    std::cerr << "mcp-hints lint: writing the report failed\n";
    return incomplete;
  }
  // Input errors are also said on stderr, one line each, whatever the report format.
  for (const auto& f : report.files)
    if (f.error && (format != "text" || to_file)) std::cerr << "mcp-hints lint: " << f.file << ": " << *f.error << "\n";
  if (report.has_input_error()) return bad_input;
  return report.fails(report_options.fail_on) ? findings : pass;
}

}  // namespace mcp_hints::cli
