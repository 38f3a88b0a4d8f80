// mcp-hints: the command line over the mcp-hints library.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include <unistd.h>

#include "commands.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/json/version.hpp"
#include "mcp_hints/report/report.hpp"
#include "report_output.hpp"

namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>&);
};

// In the README's order ("Commands at a glance"): server authors, client vendors, spec editors.
const Command kCommands[] = {
    {"lint", "check saved tools/list results against every proposal's schema and the cross-proposal rules",
     &mcp_hints::cli::lint_command},
    {"check-server",
     "certify a live server (stdio or Streamable HTTP): lint its catalog, then protocol, stability, "
     "list_changed and result checks",
     &mcp_hints::cli::check_server_command},
    {"report",
     "the safety table of a catalog (Markdown or HTML): per tool, each hint a client acts on, its key, and findings",
     &mcp_hints::cli::report_command},
    {"infer", "infer hints for tools that declare none, from their names and input schemas, with the evidence",
     &mcp_hints::cli::infer_command},
    {"translate", "rewrite a catalog's hints into another vocabulary revision or placement, reporting what is lost",
     &mcp_hints::cli::translate_command},
    {"mock", "serve a scenario's scripted mock server over stdio or Streamable HTTP, recording every message",
     &mcp_hints::cli::mock_command},
    {"model",
     "serve a scenario's task as a scripted language model (Anthropic Messages, OpenAI Responses and Chat "
     "Completions), for a real host run offline",
     &mcp_hints::cli::model_command},
    {"certify",
     "certify a client: run the scenarios (confirmation, propagation, exfiltration, escalation, retry, "
     "rug pull, survival) against it and judge what it did on the wire",
     &mcp_hints::cli::certify_command},
    {"matrix", "the certify --host reports of several real hosts as one page: which hosts honour which hints, per era",
     &mcp_hints::cli::matrix_command},
    {"vocab", "for spec editors: list the vocabulary revisions, print the crosswalk, diff two revisions, check a draft",
     &mcp_hints::cli::vocab_command},
};

void usage(std::ostream& out) {
  out << "usage: mcp-hints COMMAND [OPTIONS] [ARGS...]\n"
         "\n"
         "Conformance checks for MCP tool-safety hints (policy hints, SEP-2793 risk metadata, #711 trust\n"
         "annotations, action security metadata, SEP-1938 agencyHint, and the specification's own hints).\n"
         "\n"
         "commands:\n";
  std::vector<mcp_hints::Row> rows;
  for (const auto& c : kCommands) rows.push_back({c.name, c.summary});
  out << mcp_hints::columns(rows, 2);
  out << "\n"
         "Run 'mcp-hints COMMAND --help' for a command's options.\n"
         "Exit codes: 0 pass, 1 findings, 2 usage or bad input, 3 incomplete run.\n";
}

const Command* find_command(const char* name) {
  for (const auto& c : kCommands)
    if (std::strcmp(name, c.name) == 0) return &c;
  return nullptr;
}

// What runs without a command: help, the version, or an unknown command.
int without_command(const std::vector<std::string>& args) {
  if (args.empty()) {
    usage(std::cerr);
    return mcp_hints::cli::bad_input;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    usage(std::cout);
    return mcp_hints::cli::pass;
  }
  if (args[0] == "--version") {
    std::cout << "mcp-hints " << mcp_hints::kVersion << "\n";
    return mcp_hints::cli::pass;
  }
  std::vector<std::string> names;
  for (const auto& c : kCommands) names.emplace_back(c.name);
  std::cerr << "mcp-hints: unknown command '" << mcp_hints::visible(args[0]) << "'"
            << mcp_hints::did_you_mean(args[0], names) << " (try 'mcp-hints --help')\n";
  return mcp_hints::cli::bad_input;
}

// Says on one line why the run stopped ("mcp-hints COMMAND: WHY") and returns its exit code.
// WHY may quote a catalog or a server, so its line breaks become spaces and its other control
// characters are shown escaped; when memory has run out even for that, every byte but printable
// ASCII is shown as '?'.
int stopped(const Command* command, const char* kind, const char* what, mcp_hints::ExitCode code) {
  std::fprintf(stderr, "mcp-hints%s%s: %s", command ? " " : "", command ? command->name : "", kind);
  try {
    std::string line = what;  // one line: line breaks become spaces
    std::replace_if(
        line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    std::fputs(mcp_hints::visible(line).c_str(), stderr);
  } catch (const std::bad_alloc&) {
    for (const char* c = what; *c; ++c) std::fputc(*c >= 0x20 && *c < 0x7f ? *c : '?', stderr);
  }
  std::fputc('\n', stderr);
  std::fflush(stderr);
  return static_cast<int>(code);
}

// The last line of defence beyond main's catch: an exception that escapes another thread (or a
// noexcept function) ends the run with one line and the incomplete run's code, never an abort.
[[noreturn]] void terminated() {
  static const char line[] = "mcp-hints: internal error: an exception escaped (terminate); the run is incomplete\n";
  (void)!::write(STDERR_FILENO, line, sizeof line - 1);
  ::_exit(static_cast<int>(mcp_hints::ExitCode::incomplete));
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is an output error, not a silent death
  std::set_terminate(terminated);
  const Command* command = argc > 1 ? find_command(argv[1]) : nullptr;
  // Nothing escapes. An mcp_hints::Error ends the run with its category's exit code; anything
  // else is a bug or the machine giving out (memory), which says nothing against the input, so
  // the run counts as incomplete.
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    const int code = command ? command->run(args) : without_command(args);
    // Output that did not reach its reader makes the run incomplete; a reader that has gone (a
    // closed pipe) is not told, anyone else is.
    if (std::cout.flush()) return code;
    if (!mcp_hints::cli::output_reader_gone())
      return stopped(command, "", "cannot write standard output", mcp_hints::ExitCode::incomplete);
    return static_cast<int>(mcp_hints::ExitCode::incomplete);
  } catch (const mcp_hints::Error& e) {
    return stopped(command, "", e.what(), mcp_hints::exit_code(e.category()));
  } catch (const std::bad_alloc&) {
    return stopped(command, "", "out of memory", mcp_hints::ExitCode::incomplete);
  } catch (const std::exception& e) {
    return stopped(command, "internal error: ", e.what(), mcp_hints::ExitCode::incomplete);
  } catch (...) {
    return stopped(command, "internal error: ", "an exception of unknown type", mcp_hints::ExitCode::incomplete);
  }
}
