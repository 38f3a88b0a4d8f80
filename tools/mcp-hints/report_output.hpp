#pragma once
// What lint and check-server share on the command line: the report options, --list-checks,
// and writing the report.
#include <chrono>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>

#include "mcp_hints/checks/suppressions.hpp"
#include "mcp_hints/json/error.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/recorded_input.hpp"
#include "mcp_hints/report/report.hpp"

namespace mcp_hints::cli {

// Adds --format, --output, --fail-on, --strict, --color, --spec-revision, --list-checks, and
// --baseline, --write-baseline, --suppressions and --show-suppressed.
void add_report_options(boost::program_options::options_description& options);

// The help text of those options (for a command's --help).
extern const char* kReportOptionsHelp;

struct ReportSettings {
  std::string format;  // text, json, sarif, junit
  std::optional<std::string> output;
  ReportOptions report;
  std::string spec_revision;
  std::vector<std::string> pinned;  // --vocab
  std::optional<std::string> baseline_path, write_baseline, config_path;
  std::optional<Baseline> baseline;              // read by read_suppression_files
  std::optional<SuppressionsFile> suppressions;  // --suppressions, or ./.mcp-hints.json when there is one
  std::string config_flag = "--suppressions";    // the flag config_path came with (lint: --config, its old name)
  // check-server --checks-dir DIR: DIR/COMMAND/checks.json, the official conformance suite's shape
  std::optional<std::string> checks_dir;
};

// The file a run picks up from its working directory when no --config is given.
inline constexpr const char* kDefaultConfig = ".mcp-hints.json";

// Reads the baseline and the suppressions file the settings name; false after a one-line error
// naming the file (exit 2).
bool read_suppression_files(ReportSettings& settings, const std::string& command);

// Parses a command's arguments (args[0] is the command's name); nullopt after printing a
// one-line usage error.
std::optional<boost::program_options::variables_map> parse_arguments(
    const std::vector<std::string>& args, const boost::program_options::options_description& options,
    const boost::program_options::positional_options_description* positional = nullptr);

// Parses a command's arguments, FILE arguments (if positional is given) collected under that
// name; prints the help and returns pass for --help, returns bad_input after a one-line usage
// error; nullopt when the command should go on.
std::optional<int> parse_command(const std::vector<std::string>& args,
                                 const boost::program_options::options_description& options, const char* help,
                                 boost::program_options::variables_map& vm, const char* positional = nullptr);

// Whether standard output's reader has gone (a closed pipe: `mcp-hints ... | head`). Output that
// fails for that reason ends the run quietly, with exit code 3: nobody is left to read a message.
bool output_reader_gone();

// Prints "mcp-hints COMMAND: WHY" and returns bad_input.
int usage_error(const std::string& command, const std::string& why);

// Prints "mcp-hints COMMAND: FILE: WHY[ at POINTER]" for input the library refused and returns bad_input.
int input_error(const std::string& command, const std::string& file, const InputError& e);

// The flags that give the library's options (OptionError::option() -> "--flag").
using OptionFlags = std::vector<std::pair<std::string, std::string>>;
// The LintOptions members lint, check-server and report take as flags.
extern const OptionFlags kLintOptionFlags;
// Prints "mcp-hints COMMAND: --FLAG: WHY" for an option the library refused and returns bad_input.
int option_error(const std::string& command, const OptionError& e, const OptionFlags& flags);

// Adds --fail-on and --strict (add_report_options has them already).
void add_fail_on_options(boost::program_options::options_description& options);
// The level findings fail the run at (nullopt: never), from --fail-on and --strict; nullopt after
// printing a one-line usage error (an unknown level, or --strict beside another --fail-on).
std::optional<std::optional<Level>> read_fail_on(const boost::program_options::variables_map& vm,
                                                 const std::string& command);
// A tool's name in a machine output: null when it has none or it is not a string.
nlohmann::json tool_name(const nlohmann::json& tool);

// Reads the options; nullopt after printing a one-line usage error for a bad value.
std::optional<ReportSettings> read_report_settings(const boost::program_options::variables_map& vm,
                                                   const std::string& command);

// Prints the registry (with server checks when asked) in the chosen format.
void print_checks(const std::string& format, bool with_server_checks);

// A progress line on stderr for runs longer than a second: only on a terminal, at most once a
// second, erased when done; and lines that stay, on any stderr.
class Progress {
 public:
  Progress();
  ~Progress();
  void show(const std::string& text);
  // A line that stays, written whether or not stderr is a terminal (on one, the progress line
  // is cleared first): the log of a long run.
  void line(const std::string& text);

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// The single catalog FILE a command takes (positional "file"; '-' is standard input), opened.
struct CatalogInput {
  std::string file;
  std::unique_ptr<std::ifstream> stream;     // null for standard input
  std::unique_ptr<RecordedStream> recorded;  // standard input kept as it is read, where it is a pipe
  std::istream& get() const;
};
// nullopt after a one-line usage error (none given, several, a folder, unreadable).
std::optional<CatalogInput> open_single_catalog(const boost::program_options::variables_map& vm,
                                                const std::string& command);

// Writes the report where the settings say, after applying the baseline and the suppressions
// file (and writing the baseline when asked); returns the exit code of the run.
int write_report(LintReport report, const ReportSettings& settings, const std::string& command);
// The same for the servers of check-server --config: a part per server, and the exit code of the
// worst part (usage error when there is none); each part's official checks go to
// DIR/COMMAND/SERVER/checks.json.
int write_server_set_report(ServerSetReport set, const ReportSettings& settings, const std::string& command);

}  // namespace mcp_hints::cli
