// The output contract (docs/output-contract.md), one table per rule, over every command:
// output that cannot be written gives 3 with one line; a reader that goes away (a closed pipe)
// gives 3 quietly; conflicting flags, negative limits and options without effect give 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "test_support.hpp"

using json = nlohmann::json;
using test_support::run_cli;

namespace {

const std::string kSourceDir = test_support::source_dir().string();
const std::string kGood = kSourceDir + "/examples/catalogs/good-catalog.json";
const std::string kServer = MCP_HINTS_SAMPLE_SERVER;

// A catalog whose every output (report, table, translation) is far larger than a pipe's buffer.
std::string big_catalog(const test_support::TempDir& dir) {
  json tools = json::array();
  for (int i = 0; i < 5000; ++i)
    tools.push_back({{"name", "tool_" + std::to_string(i)},
                     {"description", "deletes a record"},
                     {"inputSchema", {{"type", "object"}}},
                     {"annotations", {{"readOnlyHint", "yes"}}}});
  return dir.write("big.json", json{{"tools", tools}}.dump()).string();
}

// Runs mcp-hints with its standard output read by `reader` (a shell pipeline stage).
test_support::RunResult run_into(const std::vector<std::string>& args, const std::string& reader) {
  test_support::TempDir dir;
  std::string cmd = "cd " + test_support::shell_quote(kSourceDir) + " && timeout 60 " + MCP_HINTS_BIN;
  for (const auto& a : args) cmd += " " + test_support::shell_quote(a);
  cmd += " </dev/null 2>" + test_support::shell_quote((dir.path() / "err").string()) + " | " + reader +
         "; exit ${PIPESTATUS[0]}";
  const int status = std::system(("bash -c " + test_support::shell_quote(cmd)).c_str());
  test_support::RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.err = test_support::read_file(dir.path() / "err");
  return r;
}

}  // namespace

// An --output (or --apply, --record) that cannot be written: exit 3 and one line naming it.
TEST(OutputContract, AnOutputThatCannotBeWrittenIsAnIncompleteRun) {
  const std::string nowhere = "/nonexistent/dir/out";
  const std::vector<std::vector<std::string>> cases = {
      {"lint", kGood, "--output", nowhere},
      {"lint", kGood, "--format", "sarif", "--output", nowhere},
      {"lint", kGood, "--write-baseline", nowhere},
      {"check-server", "--timeout", "20s", "--output", nowhere, "--", kServer, "--catalog", kGood},
      {"report", kGood, "--output", nowhere},
      {"translate", kGood, "--to", "risk-metadata@sep-2793", "--output", nowhere},
      {"infer", kGood, "--apply", nowhere},
      {"mock", "--scenario", "mock.basic", "--record", nowhere},
      {"model", "--scenario", "mock.basic", "--record", nowhere},
  };
  for (const auto& args : cases) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 3) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find(nowhere), std::string::npos) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find("mcp-hints " + args[0] + ": cannot "), std::string::npos) << r.err;
  }
}

// Standard output that fails (a full disk) says so and exits 3; a reader that has gone
// (`| head`) is not told, and the exit code is still 3: the output is not complete.
TEST(OutputContract, StandardOutputThatFailsEndsTheRunWithThree) {
  test_support::TempDir dir;
  const std::string big = big_catalog(dir);
  const std::vector<std::vector<std::string>> large = {
      {"lint", big},
      {"lint", big, "--format", "json"},
      {"lint", big, "--format", "sarif"},
      {"lint", big, "--format", "junit"},
      {"lint", big, "--format", "github"},
      {"report", big},
      {"report", big, "--format", "html"},
      {"translate", big, "--to", "risk-metadata@sep-2793"},
      {"infer", big, "--all"},
  };
  for (const auto& args : large) {
    const auto closed = run_into(args, "head -c 1 >/dev/null");
    EXPECT_EQ(closed.exit_code, 3) << args[0] << " " << args.back() << ": " << closed.err;
    EXPECT_EQ(closed.err.find("write"), std::string::npos) << args[0] << ": a closed pipe is not reported";
    EXPECT_EQ(closed.err.find("internal error"), std::string::npos) << closed.err;
  }
  std::vector<std::vector<std::string>> every = large;
  every.insert(every.end(), {{"vocab", "list"},
                             {"vocab", "table"},
                             {"vocab", "table", "--format", "html"},
                             {"vocab", "diff", "trust-annotations@issue-711", "trust-annotations@sep-1913"},
                             {"vocab", "trace"},
                             {"vocab", "trace", "--format", "html"},
                             {"certify", "--list"},
                             {"certify", "--coverage"},
                             {"mock", "--list"},
                             {"lint", "--list-checks"},
                             {"--help"}});
  for (const auto& args : every) {
    test_support::TempDir out;
    std::string cmd = "cd " + test_support::shell_quote(kSourceDir) + " && " + MCP_HINTS_BIN;
    for (const auto& a : args) cmd.append(" ").append(test_support::shell_quote(a));
    cmd.append(" </dev/null >/dev/full 2>").append(test_support::shell_quote((out.path() / "err").string()));
    const int status = std::system(("bash -c " + test_support::shell_quote(cmd)).c_str());
    const std::string err = test_support::read_file(out.path() / "err");
    EXPECT_EQ(WEXITSTATUS(status), 3) << args[0] << " " << args.back() << ": " << err;
    EXPECT_NE(err.find("mcp-hints"), std::string::npos) << args[0] << " " << args.back();
    EXPECT_NE(err.find("writ"), std::string::npos) << args[0] << " " << args.back() << ": " << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << args[0] << " " << args.back() << ": one line, not\n"
                                                           << err;
  }
}

// A value the command cannot take, flags that contradict each other, and an option that has no
// effect in the mode chosen: exit 2 with one line that says which.
TEST(OutputContract, ConflictingFlagsNegativeLimitsAndIdleOptionsAreUsageErrors) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"lint", kGood, "--strict", "--fail-on", "never"}, "--strict means --fail-on warning, not --fail-on never"},
      {{"check-server", "--strict", "--fail-on", "info", "--", "true"}, "--strict means --fail-on warning"},
      {{"report", kGood, "--strict", "--fail-on", "error"}, "--strict means --fail-on warning"},
      {{"lint", kGood, "--max-depth", "-1"}, "'-1' for option '--max-depth': must not be negative"},
      {{"lint", kGood, "--max-bytes", "-5"}, "'-5' for option '--max-bytes': must not be negative"},
      {{"lint", kGood, "--max-string", "1k"}, "'1k' for option '--max-string': not a whole number"},
      {{"mock", "--scenario", "mock.basic", "--max-message", "-1"}, "must not be negative"},
      {{"check-server", "--timeout", "-3", "--", "true"}, "'-3' for option '--timeout': not a duration"},
      {{"check-server", "--observe", "1h", "--", "true"}, "'1h' for option '--observe': unknown unit 'h'"},
      {{"check-server", "--request-timeout", "0s", "--", "true"}, "must be longer than 0"},
      {{"certify", "--client", "x", "--timeout", "10ms"}, "--timeout must be 100ms to 1h, not 10ms"},
      // One way to say a duration: a bare number (but 0) is refused everywhere, never read in a guessed unit.
      {{"check-server", "--timeout", "30", "--", "true"}, "'30' for option '--timeout': a duration needs its unit"},
      {{"check-server", "--observe", "500", "--", "true"}, "'500' for option '--observe': a duration needs its unit"},
      {{"mock", "--scenario", "mock.basic", "--transport", "http", "--idle-timeout", "5"}, "a duration needs its unit"},
      {{"lint", kGood, "--color", "always", "--format", "json"}, "--color always has no effect on --format json"},
      {{"mock", "--scenario", "mock.basic", "--port", "8080"}, "--port has no effect over stdio"},
      {{"model", "--port", "0"}, "--scenario FILE|ID is required"},
      {{"certify", "--client", "x", "--host", "claude-code"}, "give --client or --host, not both"},
      {{"certify", "--host", "cursor"}, "unknown --host 'cursor' (claude-code, codex, openai-agents)"},
      {{"certify", "--client", "x", "--host-bin", "/bin/true"}, "--host-bin has no effect without --host"},
      {{"certify", "--host", "claude-code", "--scripted-model"}, "--scripted-model has no effect with --host"},
      {{"certify", "--host", "claude-code", "--host-bin", "/nonexistent/claude"},
       "--host-bin /nonexistent/claude is not an executable file"},
      {{"model", "--scenario", "mock.basic", "--max-body", "0"}, "out of range"},
      {{"lint", kGood, "--baseline", "a.json", "--write-baseline", "b.json"},
       "give --baseline or --write-baseline, not both"},
      {{"check-server", "--show-suppressed", "--format", "json", "--", "true"},
       "--show-suppressed has no effect on --format json"},
  };
  for (const auto& [args, message] : cases) test_support::expect_usage_error(args, message);
}

// Integer options are read without narrowing: every boundary of each (0, 1, INT_MAX, 2^32+1,
// 2^64-1, 2^64, negative, not an integer); a value out of range says the range.
TEST(OutputContract, IntegerOptionsAreReadWithoutNarrowingAndSayTheirRange) {
  const std::string counts = "(1 to 18446744073709551615)";
  for (const std::string flag : {"--max-bytes", "--max-depth", "--max-string"}) {
    for (const std::string fine : {"1", "2147483647", "4294967297", "18446744073709551615"}) {
      const auto r = test_support::run_cli({"lint", kGood, flag, fine});
      EXPECT_EQ(r.err.find("for option"), std::string::npos) << flag << " " << fine << ": " << r.err;
    }
    for (const auto& [bad, why] :
         std::vector<std::pair<std::string, std::string>>{{"0", "out of range"},
                                                          {"18446744073709551616", "out of range"},
                                                          {"-1", "must not be negative"},
                                                          {"1.5", "not a whole number"},
                                                          {"+3", "not a whole number"}})
      test_support::expect_usage_error({"lint", kGood, flag, bad},
                                       "'" + bad + "' for option '" + flag + "': " + why + " " + counts);
  }
  test_support::expect_usage_error({"mock", "--scenario", "mock.basic", "--max-message", "0"},
                                   "out of range " + counts);
  test_support::expect_usage_error({"mock", "--scenario", "mock.basic", "--transport", "http", "--port", "65536"},
                                   "'65536' for option '--port': out of range (0 to 65535)");
  test_support::expect_usage_error({"mock", "--scenario", "mock.basic", "--transport", "http", "--port", "4294967297"},
                                   "out of range (0 to 65535)");
  test_support::expect_usage_error({"mock", "--scenario", "mock.basic", "--transport", "http", "--port", "-1"},
                                   "must not be negative (0 to 65535)");
  test_support::expect_usage_error({"model", "--scenario", "mock.basic", "--port", "65536"},
                                   "'65536' for option '--port': out of range (0 to 65535)");
}

// Every time option takes a duration with its unit, and a bare number in the unit its help names.
TEST(OutputContract, TimeOptionsTakeDurationsWithUnits) {
  for (const char* observe : {"0", "0ms", "250ms", "0.25s"}) {
    const auto r = run_cli({"check-server", "--timeout", "20s", "--request-timeout", "5000ms", "--observe", observe,
                            "--", kServer, "--catalog", kGood});
    EXPECT_EQ(r.exit_code, 0) << observe << ": " << r.err;
  }
  const auto minutes = run_cli({"check-server", "--timeout", "0.5m", "--", kServer, "--catalog", kGood});
  EXPECT_EQ(minutes.exit_code, 0) << minutes.err;
}
