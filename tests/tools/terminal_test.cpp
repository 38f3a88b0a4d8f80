// Strings from a catalog or a server never reach the terminal as control characters: text output
// shows them escaped, so a hostile tool name cannot clear or recolour the user's screen.
#include <gtest/gtest.h>

#include <string>

#include "test_support.hpp"

namespace {

using test_support::fixture;
using test_support::run_cli;

const std::string kHostile = fixture("terminal/hostile-strings.json").string();

// The first control byte of `text` that is not a newline (C0, DEL, or a UTF-8 encoded C1 unless
// the format's own encoder keeps C1 as text, as JSON does), as its offset, or npos.
std::size_t first_control(const std::string& text, bool c1_too = true) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7f) return i;
    if (c1_too && c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xa0) return i;
  }
  return std::string::npos;
}

// `text` without our own colour codes (the frame), which only --color always adds.
std::string without_our_colours(std::string text) {
  for (const std::string code : {"\033[0m", "\033[1m", "\033[31m", "\033[32m", "\033[33m", "\033[36m"})
    for (auto at = text.find(code); at != std::string::npos; at = text.find(code)) text.erase(at, code.size());
  return text;
}

TEST(Terminal, LintShowsControlCharactersInAToolNameEscaped) {
  const auto r = run_cli({"lint", kHostile, "--color", "never"});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // a warning: the exit code is not what this tests
  EXPECT_EQ(first_control(r.out), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\x1b[2J\\x1b[31mwipe\\u009b"), std::string::npos) << r.out;
}

TEST(Terminal, OurColoursStayAndTheDataIsStillEscaped) {
  const auto r = run_cli({"lint", kHostile, "--color", "always"});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // a warning: the exit code is not what this tests
  EXPECT_NE(without_our_colours(r.out), r.out) << "our colours are gone";
  EXPECT_EQ(first_control(without_our_colours(r.out)), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\x1b[2J\\x1b[31mwipe\\u009b"), std::string::npos) << r.out;
}

TEST(Terminal, EveryReportFormatKeepsControlCharactersOut) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"lint", kHostile, "--format", "junit"},
                                                                {"lint", kHostile, "--format", "github"},
                                                                {"lint", kHostile, "--format", "json"},
                                                                {"lint", kHostile, "--format", "sarif"},
                                                                {"report", kHostile, "--format", "text"},
                                                                {"report", kHostile, "--format", "markdown"},
                                                                {"report", kHostile, "--format", "html"}}) {
    const auto r = run_cli(args);
    EXPECT_LE(r.exit_code, 1) << args[2] << args[3] << "\n" << r.err;
    EXPECT_FALSE(r.out.empty()) << args[3];
    const bool json_encoded = args[3] == "json" || args[3] == "sarif";
    EXPECT_EQ(first_control(r.out, !json_encoded), std::string::npos) << args[3] << "\n" << r.out;
  }
}

// The live paths: what a server lists and what a client writes reach the terminal escaped too.
TEST(Terminal, CheckServerShowsAHostileServersStringsEscaped) {
  const auto r = run_cli({"check-server", "--timeout", "20s", "--observe", "0", "--color", "never", "--",
                          MCP_HINTS_SAMPLE_SERVER, "--catalog", kHostile});
  EXPECT_LE(r.exit_code, 1) << r.err;
  EXPECT_EQ(first_control(r.out), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\x1b[2J\\x1b[31mwipe\\u009b"), std::string::npos) << r.out;
  EXPECT_EQ(first_control(r.err), std::string::npos) << r.err;
}

TEST(Terminal, CertifyShowsAHostileClientsWordsEscaped) {
  test_support::TempDir dir;
  // Its command line (echoed in every report) and its stderr (kept in the records) carry control bytes.
  const std::string client = "printf '\\033[2J\\033[31mclient says\\007\\n' >&2; exit 1 # \x1b[2J\x1b]0;title\x07";
  const auto r =
      run_cli({"certify", "--client", client, "--scenario", "confirm.spec-destructive", "--protocol", "2025-11-25",
               "--timeout", "5s", "--color", "never", "--output", (dir.path() / "o").string()});
  EXPECT_GE(r.exit_code, 1) << r.err;
  EXPECT_EQ(first_control(r.out), std::string::npos) << r.out;
  EXPECT_EQ(first_control(r.err), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("# \\x1b[2J\\x1b]0;title\\x07"), std::string::npos) << r.out;
  const auto markdown =
      run_cli({"certify", "--client", client, "--scenario", "confirm.spec-destructive", "--protocol", "2025-11-25",
               "--timeout", "5s", "--format", "markdown", "--output", (dir.path() / "m").string()});
  EXPECT_EQ(first_control(markdown.out), std::string::npos) << markdown.out;
}

// On a terminal, the text report lists every run: certify shows each once, not once as it ends
// (stderr) and again in the report. Both outputs go to one terminal here, as a user's do.
TEST(Terminal, CertifyShowsEachRunOnceOnATerminal) {
  test_support::TempDir dir;
  const std::string command = test_support::shell_quote(MCP_HINTS_BIN) + " certify --client " +
                              test_support::shell_quote(MCP_HINTS_REFERENCE_CLIENT) +
                              " --scenario confirm.spec-destructive --output " +
                              test_support::shell_quote((dir.path() / "o").string());
  const auto r = test_support::run_command({"script", "-qec", command, "/dev/null"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const std::string run : {"confirm.spec-destructive@2026-07-28", "confirm.spec-destructive@2025-11-25"}) {
    std::size_t shown = 0;
    for (auto at = r.out.find(run); at != std::string::npos; at = r.out.find(run, at + 1)) ++shown;
    EXPECT_EQ(shown, 1u) << run << " in\n" << r.out;
  }
  EXPECT_NE(r.out.find("2 runs of 1 scenario in"), std::string::npos) << r.out;
  // Not on a terminal (a CI log), each run's line is also said on stderr as it ends.
  const auto logged = run_cli({"certify", "--client", MCP_HINTS_REFERENCE_CLIENT, "--scenario",
                               "confirm.spec-destructive", "--output", (dir.path() / "p").string()});
  EXPECT_NE(logged.err.find("confirm.spec-destructive@2026-07-28"), std::string::npos) << logged.err;
}

}  // namespace
