#include "report_output.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>

#include "commands.hpp"
#include "mcp_hints/checks/checks.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/report/official_checks.hpp"
#include "mcp_hints/report/output_file.hpp"
#include "mcp_hints/report/trace.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;

const char* kReportOptionsHelp =
    R"(  --format FORMAT        text (default), json, sarif (2.1.0), junit, or github (GitHub Actions
                         workflow commands: each finding annotates its file:line:col)
  --output PATH          write the report to PATH instead of standard output
  --fail-on LEVEL        error, warning (default), info or never: the lowest finding level that
                         fails the run (a level is its basis's: error a MUST, warning a SHOULD or
                         an mcp-hints rule, info a MAY or a definition)
  --strict               same as --fail-on warning (the default)
  --spec-revision REV    specification revision for the Tool schema and the _meta prefix rule:
                         2025-06-18, 2025-11-25 (default) or 2026-07-28; check-server's
                         default is the revision the server speaks
  --color WHEN           auto (default: only on a terminal, unless NO_COLOR is set), always, never
  --vocab NAME@REV       pin the revision a vocabulary must use (repeatable), e.g.
                         trust-annotations@sep-1913: tools using another revision of it, or one
                         it replaced, are reported (vocab.pinned-revision) and validated
                         against the pinned one; without it each tool's revision is detected
                         from its keys
  --list-checks          list every check (id, level, proposal, summary, sentence) and exit
  --baseline FILE        findings in this baseline do not count (they stay in the report,
                         marked suppressed); an entry no finding matches is reported
                         (baseline.stale)
  --write-baseline FILE  write every finding of this run to FILE as the baseline (not with
                         --baseline; not written when the run is incomplete or an input bad)
  --suppressions FILE    the suppressions file (default: ./.mcp-hints.json when there is one):
                         {"suppressions": [{"checkId": ID or glob, "tool": glob, "reason": why}]};
                         a suppression without a reason is refused, one that matches nothing is
                         reported (suppression.unused)
  --show-suppressed      list suppressed findings in the text report (else only counted)
)";

void add_fail_on_options(po::options_description& options) {
  options.add_options()("fail-on", po::value<std::string>()->default_value("warning"), "")("strict", "");
}

void add_report_options(po::options_description& options) {
  add_fail_on_options(options);
  options.add_options()("format", po::value<std::string>()->default_value("text"), "")("output",
                                                                                       po::value<std::string>(), "")(
      "spec-revision", po::value<std::string>()->default_value(std::string(kDefaultSpecRevision)), "")(
      "color", po::value<std::string>()->default_value("auto"), "")("list-checks", "")(
      "vocab", po::value<std::vector<std::string>>()->composing(), "")("baseline", po::value<std::string>(), "")(
      "write-baseline", po::value<std::string>(), "")("suppressions", po::value<std::string>(), "")("show-suppressed",
                                                                                                    "");
}

std::optional<std::optional<Level>> read_fail_on(const po::variables_map& vm, const std::string& command) {
  const std::string given = vm["fail-on"].as<std::string>();
  if (vm.count("strict") && !vm["fail-on"].defaulted() && given != "warning") {
    usage_error(command, "--strict means --fail-on warning, not --fail-on " + given + ": give one of them");
    return std::nullopt;
  }
  const std::string fail_on = vm.count("strict") ? "warning" : given;
  if (fail_on == "never") return std::optional<Level>();
  if (auto level = parse_level(fail_on)) return std::optional<Level>(level);
  usage_error(command, "unknown --fail-on '" + fail_on + "' (error, warning, info, never)");
  return std::nullopt;
}

std::optional<po::variables_map> parse_arguments(const std::vector<std::string>& args,
                                                 const po::options_description& options,
                                                 const po::positional_options_description* positional) {
  po::variables_map vm;
  try {
    po::command_line_parser parser(std::vector<std::string>(args.begin() + 1, args.end()));
    parser.options(options);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "mcp-hints " << args[0] << ": " << e.what() << " (try 'mcp-hints " << args[0] << " --help')\n";
    return std::nullopt;
  }
  return vm;
}

std::optional<int> parse_command(const std::vector<std::string>& args, const po::options_description& options,
                                 const char* help, po::variables_map& vm, const char* positional) {
  po::positional_options_description files;
  if (positional) files.add(positional, -1);
  auto parsed = parse_arguments(args, options, positional ? &files : nullptr);
  if (!parsed) return static_cast<int>(bad_input);
  vm = std::move(*parsed);
  if (vm.count("help")) {
    std::cout << help;
    return static_cast<int>(pass);
  }
  return std::nullopt;
}

bool output_reader_gone() {
  pollfd out{STDOUT_FILENO, 0, 0};
  return ::poll(&out, 1, 0) == 1 && (out.revents & (POLLERR | POLLHUP)) != 0;
}

int usage_error(const std::string& command, const std::string& why) {
  std::cerr << "mcp-hints " << command << ": " << visible(why) << "\n";  // WHY may quote the input
  return bad_input;
}

int input_error(const std::string& command, const std::string& file, const InputError& e) {
  return usage_error(command, file + ": " + e.what() + (e.pointer().empty() ? "" : " at " + e.pointer()));
}

const OptionFlags kLintOptionFlags = {{"spec_revision", "--spec-revision"}, {"pinned", "--vocab"}};

int option_error(const std::string& command, const OptionError& e, const OptionFlags& flags) {
  for (const auto& [option, flag] : flags)
    if (option == e.option()) return usage_error(command, flag + ": " + e.what());
  return usage_error(command, e.what());
}

std::optional<ReportSettings> read_report_settings(const po::variables_map& vm, const std::string& command) {
  ReportSettings s;
  s.format = vm["format"].as<std::string>();
  if (s.format != "text" && s.format != "json" && s.format != "sarif" && s.format != "junit" && s.format != "github") {
    usage_error(command, "unknown --format '" + s.format + "' (text, json, sarif, junit, github)");
    return std::nullopt;
  }
  const auto fail_on = read_fail_on(vm, command);
  if (!fail_on) return std::nullopt;
  s.report.fail_on = *fail_on;
  const std::string color = vm["color"].as<std::string>();
  if (color != "auto" && color != "always" && color != "never") {
    std::cerr << "mcp-hints " << command << ": unknown --color '" << color << "' (auto, always, never)\n";
    return std::nullopt;
  }
  if (color == "always" && s.format != "text") {
    usage_error(command, "--color always has no effect on --format " + s.format + " (colour is for text)");
    return std::nullopt;
  }
  if (vm.count("output")) s.output = vm["output"].as<std::string>();
  s.report.color = color == "always" || (color == "auto" && s.format == "text" && !s.output && isatty(STDOUT_FILENO) &&
                                         std::getenv("NO_COLOR") == nullptr);
  s.spec_revision = vm["spec-revision"].as<std::string>();
  if (vm.count("vocab")) s.pinned = vm["vocab"].as<std::vector<std::string>>();
  if (vm.count("baseline")) s.baseline_path = vm["baseline"].as<std::string>();
  if (vm.count("write-baseline")) s.write_baseline = vm["write-baseline"].as<std::string>();
  if (vm.count("suppressions")) s.config_path = vm["suppressions"].as<std::string>();
  s.report.show_suppressed = vm.count("show-suppressed") > 0;
  if (s.baseline_path && s.write_baseline) {
    usage_error(command, "give --baseline or --write-baseline, not both (the baseline written holds every finding)");
    return std::nullopt;
  }
  if (s.report.show_suppressed && s.format != "text") {
    usage_error(command, "--show-suppressed has no effect on --format " + s.format +
                             " (machine outputs always hold suppressed findings, marked)");
    return std::nullopt;
  }
  return s;
}

bool read_suppression_files(ReportSettings& settings, const std::string& command) {
  std::error_code ec;
  std::optional<std::string> config = settings.config_path;
  if (!config && std::filesystem::exists(kDefaultConfig, ec)) config = kDefaultConfig;
  const auto read = [&](const std::string& path, auto reader, const char* flag) {
    try {
      reader(path);
      return true;
    } catch (const InputError& e) {
      usage_error(command,
                  flag + std::string(" ") + path + ": " + e.what() + (e.pointer().empty() ? "" : " at " + e.pointer()));
      return false;
    }
  };
  if (settings.baseline_path &&
      !read(
          *settings.baseline_path, [&](const std::string& p) { settings.baseline = read_baseline(p); }, "--baseline"))
    return false;
  return !config || read(
                        *config, [&](const std::string& p) { settings.suppressions = read_suppressions(p); },
                        settings.config_path ? settings.config_flag.c_str() : "the configuration");
}

void print_checks(const std::string& format, bool with_server_checks) {
  std::vector<CheckInfo> checks;
  for (const auto& c : all_checks())
    if (with_server_checks || c.scope != Scope::server) checks.push_back(c);
  if (format == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& c : checks)
      list.push_back({{"id", c.id},
                      {"level", level_name(c.level)},
                      {"proposal", c.proposal},
                      {"summary", c.summary},
                      {"sentence", enforced_sentence_json(c.id)},
                      {"scope", scope_name(c.scope)}});
    std::cout << list.dump(2) << "\n";
    return;
  }
  for (const auto& c : checks)
    std::cout << std::left << std::setw(38) << c.id << std::setw(8) << level_name(c.level) << c.summary << "\n"
              << std::string(46, ' ') << "[" << c.proposal << "]\n"
              << std::string(46, ' ') << "-> " << enforced_sentence_text(c.id) << "\n";
}

Progress::Progress() : enabled_(isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()), last_(start_) {}

Progress::~Progress() {
  if (shown_) std::cerr << "\r\033[K" << std::flush;
}

void Progress::show(const std::string& text) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < std::chrono::seconds(1) || (shown_ && now - last_ < std::chrono::seconds(1))) return;
  last_ = now;
  shown_ = true;
  std::cerr << "\r\033[K" << text.substr(0, 120) << std::flush;
}

void Progress::line(const std::string& text) {
  std::cerr << (shown_ ? "\r\033[K" : "") << text << "\n" << std::flush;
  shown_ = false;
}

std::istream& CatalogInput::get() const {
  if (stream) return *stream;
  return recorded ? recorded->stream : std::cin;
}

std::optional<CatalogInput> open_single_catalog(const po::variables_map& vm, const std::string& command) {
  auto fail = [&](const std::string& why) -> std::optional<CatalogInput> {
    std::cerr << "mcp-hints " << command << ": " << why << "\n";
    return std::nullopt;
  };
  if (!vm.count("file") || vm["file"].as<std::vector<std::string>>().size() != 1)
    return fail("give one catalog FILE (or - for stdin)");
  CatalogInput input{vm["file"].as<std::vector<std::string>>().front(), nullptr, nullptr};
  if (input.file == "-") {
    seekable(std::cin, input.recorded);  // a pipe is then read by the fast reader too
    return input;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(input.file, ec)) return fail(input.file + ": is a directory, not a file");
  input.stream = std::make_unique<std::ifstream>(input.file, std::ios::binary);
  if (!*input.stream) return fail(input.file + ": cannot open");
  return input;
}

nlohmann::json tool_name(const nlohmann::json& tool) {
  const auto* name = tool.is_object() && tool.contains("name") ? &tool["name"] : nullptr;
  return name && name->is_string() ? *name : nlohmann::json();
}

namespace {

// What every report written shares: the baseline written (of every part's findings) and applied,
// the suppressions applied, the document rendered where the settings say, the official checks of
// each part, and the one-line errors on stderr. `parts` are the reports, `names` what each is
// called on stderr and in the checks folder ("" for a run of one); the exit code is that of the
// worst part.
int write_parts(std::vector<LintReport*> parts, const std::vector<std::string>& names, const ReportSettings& settings,
                const std::string& command, const std::function<void(std::ostream&)>& render) {
  const SuppressionsFile* suppressions = settings.suppressions ? &*settings.suppressions : nullptr;
  std::optional<Baseline> written;
  const bool incomplete_run = std::ranges::any_of(parts, [](const LintReport* r) { return r->incomplete.has_value(); });
  const bool input_error = std::ranges::any_of(parts, [](const LintReport* r) { return r->has_input_error(); });
  if (settings.write_baseline && (incomplete_run || input_error)) {
    std::cerr << "mcp-hints " << command << ": --write-baseline " << visible(*settings.write_baseline)
              << ": not written: the run " << (incomplete_run ? "was incomplete" : "had an input it could not read")
              << "\n";
  } else if (settings.write_baseline) {
    // The findings the suppressions file accounts for stay out of the baseline: they have a reason.
    LintReport judged = *parts.front();
    for (std::size_t i = 1; i < parts.size(); ++i) {
      judged.files.insert(judged.files.end(), parts[i]->files.begin(), parts[i]->files.end());
      for (const auto& finding : parts[i]->findings) judged.findings.push_back(finding);
    }
    apply_suppressions(judged, nullptr, suppressions);
    write_file_atomically(
        *settings.write_baseline,  // OutputError: main says it, exit 3
        baseline_json(judged, command).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    written = read_baseline(*settings.write_baseline);  // the run is judged against what was written
  }
  const Baseline* baseline = settings.baseline ? &*settings.baseline : written ? &*written : nullptr;
  if (baseline || suppressions)
    for (LintReport* part : parts) apply_suppressions(*part, baseline, suppressions);
  // Written as it is made, to standard output or to a file that appears whole or not at all.
  if (settings.output) {
    write_file_atomically(*settings.output, render);  // OutputError: main says it, exit 3
  } else {
    ChunkedOutput out(std::cout);  // a report is many small pieces: handed over a chunk at a time
    render(out);
    out.flush();
    std::cout.flush();
    if (!out || !std::cout) return incomplete;  // main says it (to a reader still there), in one line
  }
  for (std::size_t i = 0; i < parts.size(); ++i)
    if (settings.checks_dir)  // OutputError: main says it, exit 3
      write_official_checks(*settings.checks_dir, names[i].empty() ? command : command + "/" + names[i],
                            official_checks(*parts[i], official_timestamp()));
  // Input errors and an incomplete run are also said on stderr, one line each, whatever the
  // format (the text report on stdout says them already).
  const bool said = settings.format == "text" && !settings.output;
  for (std::size_t i = 0; i < parts.size() && !said; ++i) {
    const std::string who = "mcp-hints " + command + ": " + (names[i].empty() ? "" : visible(names[i]) + ": ");
    for (const auto& f : parts[i]->files)
      if (f.error) std::cerr << who << visible(f.file) << ": " << visible(*f.error) << "\n";
    if (parts[i]->incomplete) std::cerr << who << "incomplete: " << visible(*parts[i]->incomplete) << "\n";
  }
  if (incomplete_run) return incomplete;
  if (input_error) return bad_input;
  return std::ranges::any_of(parts, [&](const LintReport* r) { return r->fails(settings.report.fail_on); }) ? findings
                                                                                                            : pass;
}

}  // namespace

int write_report(LintReport report, const ReportSettings& settings, const std::string& command) {
  return write_parts({&report}, {""}, settings, command, [&](std::ostream& out) {
    if (settings.format == "json")
      write_report_json(out, report, settings.report);
    else if (settings.format == "sarif")
      render_sarif(out, report, settings.report);
    else if (settings.format == "junit")
      render_junit(out, report, settings.report);
    else if (settings.format == "github")
      render_github(out, report, settings.report);
    else
      render_text(out, report, settings.report);
  });
}

int write_server_set_report(ServerSetReport set, const ReportSettings& settings, const std::string& command) {
  std::vector<LintReport*> parts;
  std::vector<std::string> names;
  for (auto& part : set.parts) {
    parts.push_back(&part.report);
    // A folder's name for the checks folder: what the report calls the server (its name, and its
    // config where two share a name), its other characters as '_'.
    std::string name = part.report.files.empty() ? part.name : part.report.files.front().file;
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_') c = '_';
    names.push_back(name.empty() || name == "." || name == ".." ? "_" : name);
  }
  if (parts.empty()) return usage_error(command, "the configs name no server to check");
  return write_parts(parts, names, settings, command,
                     [&](std::ostream& out) { render_server_set(out, set, settings.format, settings.report); });
}

}  // namespace mcp_hints::cli
