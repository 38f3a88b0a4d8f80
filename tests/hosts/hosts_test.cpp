// Real hosts certified offline through their built-in adapters (certify --host), when `make hosts`
// has installed them: each test says it was skipped otherwise. The host's own permission logic
// decides every call; what its approval channel showed comes from the adapter's events.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "mcp_hints/conformance/hosts.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

const fs::path kClaude = fs::path(MCP_HINTS_SOURCE_DIR) / "hosts" / "node_modules" / ".bin" / "claude";
const fs::path kCodex = fs::path(MCP_HINTS_SOURCE_DIR) / "hosts" / "node_modules" / ".bin" / "codex";
const fs::path kAgents = fs::path(MCP_HINTS_SOURCE_DIR) / "hosts" / "node_modules" / "@openai" / "agents";

#define SKIP_WITHOUT(path)                                                                       \
  if (!fs::exists(path)) GTEST_SKIP() << (path) << " is not installed (make hosts installs it)"; \
  if (!mcp_hints::conformance::find_executable("node")) GTEST_SKIP() << "node is not on PATH"

// The events of one run, one JSON object a line.
std::vector<json> events_of(const fs::path& file) {
  std::vector<json> events;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) events.push_back(json::parse(line));
  return events;
}

// certify --host codex on one scenario, as JSON, into `dir`; "" protocol: every era.
test_support::RunResult certify_codex(const test_support::TempDir& dir, const std::string& scenario,
                                      const std::string& protocol) {
  std::vector<std::string> args = {"certify", "--host",   "codex", "--host-bin", kCodex.string(),    "--scenario",
                                   scenario,  "--format", "json",  "--output",   dir.path().string()};
  if (!protocol.empty()) args.insert(args.end(), {"--protocol", protocol});
  return test_support::run_cli(args);
}

}  // namespace

// Claude Code asks before every MCP tool in its default mode, through the permission prompt tool
// the adapter serves: one prompt event for each call, the scripted user's answer after it, and a
// denied call never reaches the server. Both protocol eras: it probes server/discover first.
TEST(Hosts, ClaudeCodeAsksBeforeEachCallAndTheScriptedUserDecides) {
  SKIP_WITHOUT(kClaude);
  test_support::TempDir dir;
  const auto r =
      test_support::run_cli({"certify", "--host", "claude-code", "--host-bin", kClaude.string(), "--scenario",
                             "confirm.spec-destructive", "--format", "json", "--output", dir.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const json report = json::parse(r.out);
  EXPECT_EQ(report["tier"], "certified, strict");
  ASSERT_EQ(report["scenarios"].size(), 2u);
  for (const auto& run : report["scenarios"]) {
    const fs::path folder = dir.path() / "scenarios" / run["run"].get<std::string>();
    const auto events = events_of(folder / "events.jsonl");
    // delete_branch approved (the default), drop_table denied: a prompt and a decision for each.
    ASSERT_EQ(events.size(), 4u) << run["run"];
    EXPECT_EQ(events[0]["type"], "confirmation_requested");
    EXPECT_EQ(events[0]["tool"], "delete_branch");
    EXPECT_EQ(events[0]["hints"], json::array());  // Claude Code shows its permission tool no hint
    EXPECT_EQ(events[1]["decision"], "approve");
    EXPECT_EQ(events[2]["tool"], "drop_table");
    EXPECT_EQ(events[3]["decision"], "deny");
    // The model was asked for both calls, and ended the task when they were answered.
    const auto model = events_of(folder / "model.jsonl");
    std::vector<std::string> answers;
    for (const auto& m : model)
      if (m["answer"] != "side") answers.push_back(m["answer"]);
    EXPECT_EQ(answers, (std::vector<std::string>{"call", "call", "done"})) << run["run"];
  }
}

// An input_required answer (2026-07-28) becomes an elicitation in Claude Code; its Elicitation hook
// brings it to the scripted user, who is asked before the retry carries the answer.
TEST(Hosts, ClaudeCodeShowsAnInputRequestToTheScriptedUserThroughItsHook) {
  SKIP_WITHOUT(kClaude);
  test_support::TempDir dir;
  const auto r =
      test_support::run_cli({"certify", "--host", "claude-code", "--host-bin", kClaude.string(), "--scenario",
                             "confirm.input-required", "--format", "json", "--output", dir.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto events = events_of(dir.path() / "scenarios" / "confirm.input-required@2026-07-28" / "events.jsonl");
  std::size_t shown = 0;
  for (const auto& e : events)
    if (e["type"] == "confirmation_requested" && e.contains("message")) {
      ++shown;
      EXPECT_EQ(e["tool"], "archive_project");
    }
  EXPECT_GE(shown, 1u);
}

// A listing whose hints have the wrong types is dropped by Claude Code as a whole: the model is
// never offered the tool, the endpoint's record says so, and the checks of those tools are a
// rejected listing (info), not a decision left unreached.
TEST(Hosts, ClaudeCodeNeverOffersAToolWhoseListingHasHintsOfTheWrongType) {
  SKIP_WITHOUT(kClaude);
  test_support::TempDir dir;
  const auto r = test_support::run_cli({"certify", "--host", "claude-code", "--host-bin", kClaude.string(),
                                        "--scenario", "robustness.malformed-hints", "--protocol", "2025-11-25",
                                        "--format", "json", "--output", dir.path().string()});
  ASSERT_NE(r.exit_code, 3) << r.err;
  const auto model = events_of(dir.path() / "scenarios" / "robustness.malformed-hints@2025-11-25" / "model.jsonl");
  bool not_offered = false;
  for (const auto& m : model) not_offered = not_offered || m.contains("notOffered");
  EXPECT_TRUE(not_offered);
  const json report = json::parse(r.out);
  std::size_t rejected = 0;
  for (const auto& check : report["scenarios"][0]["results"]) {
    EXPECT_NE(check["verdict"], "not testable") << check.dump();
    if (check["outcome"] == "listing-rejected") {
      ++rejected;
      EXPECT_EQ(check["verdict"], "info");
    }
  }
  EXPECT_EQ(rejected, 2u) << r.out;  // wrong-types and numbers-and-nulls
}

// The report names the host and the version its --version printed, and what its adapter cannot see.
TEST(Hosts, TheReportNamesTheHostAndItsVersion) {
  SKIP_WITHOUT(kCodex);
  test_support::TempDir dir;
  const auto r = certify_codex(dir, "confirm.spec-destructive", "2025-11-25");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const json host = json::parse(r.out)["host"];
  EXPECT_EQ(host["name"], "codex");
  EXPECT_EQ(host["title"], "Codex CLI");
  EXPECT_EQ(host["version"], "codex-cli 0.171.0");  // the pinned version (hosts/package-lock.json)
  EXPECT_NE(host["limits"].get<std::string>(), "");
}

// Codex asks its caller before an MCP call whose specification hints do not say it is safe, and its
// approval request carries the tool's annotations: the prompt events name the hint keys shown, and
// a declined call never reaches the server.
TEST(Hosts, CodexAsksThroughItsAppServerAndShowsTheSpecificationsHints) {
  SKIP_WITHOUT(kCodex);
  test_support::TempDir dir;
  const auto r = certify_codex(dir, "confirm.spec-destructive", "2025-11-25");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(json::parse(r.out)["tier"], "certified, strict");
  const fs::path folder = dir.path() / "scenarios" / "confirm.spec-destructive@2025-11-25";
  const auto events = events_of(folder / "events.jsonl");
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0]["type"], "confirmation_requested");
  EXPECT_EQ(events[0]["tool"], "delete_branch");
  EXPECT_EQ(events[0]["hints"], json({"readOnlyHint", "destructiveHint", "openWorldHint"}));
  EXPECT_EQ(events[1]["decision"], "approve");
  EXPECT_EQ(events[2]["tool"], "drop_table");
  EXPECT_EQ(events[3]["decision"], "deny");
  std::size_t drop_calls = 0;
  for (const auto& line : events_of(folder / "wire-main.jsonl")) {
    const json& message = line.value("message", json::object());
    if (message.value("method", "") == "tools/call" && message["params"].value("name", "") == "drop_table")
      ++drop_calls;
  }
  EXPECT_EQ(drop_calls, 0u);
}

// Codex decides from the specification's hints alone: a tool whose annotations say it is neither
// destructive nor open-world is called without asking, whatever a proposal's hint says, and the
// adapter reports no prompt it did not see.
TEST(Hosts, CodexCallsWithoutAskingWhereTheSpecificationsHintsSaySafe) {
  SKIP_WITHOUT(kCodex);
  test_support::TempDir dir;
  const auto r = certify_codex(dir, "confirm.action-irreversible", "2025-11-25");
  ASSERT_NE(r.exit_code, 3) << r.err;
  const json report = json::parse(r.out);
  std::size_t unprompted = 0;
  for (const auto& check : report["scenarios"][0]["results"])
    if (check["id"] == "approved-called" || check["id"] == "denied-not-called") {
      EXPECT_EQ(check["outcome"], "called-unprompted") << check.dump();
      ++unprompted;
    }
  EXPECT_EQ(unprompted, 2u);
  EXPECT_TRUE(events_of(dir.path() / "scenarios" / "confirm.action-irreversible@2025-11-25" / "events.jsonl").empty());
}

// Codex initializes with 2025-06-18 and never probes server/discover: the stateless era's runs are
// measured as not spoken, and count toward nothing.
TEST(Hosts, CodexSpeaksTheSessionEraOnly) {
  SKIP_WITHOUT(kCodex);
  test_support::TempDir dir;
  const auto r = certify_codex(dir, "confirm.spec-destructive", "");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  std::map<std::string, std::string> tiers;
  const json report = json::parse(r.out);
  for (const auto& era : report["eras"]) tiers[era["protocol"].get<std::string>()] = era["tier"].get<std::string>();
  EXPECT_EQ(tiers["2026-07-28"], "not spoken");
  EXPECT_EQ(tiers["2025-11-25"], "certified, strict");
}

// The Agents SDK reads no hint: the app's policy (every MCP tool call needs approval) stops the run
// at each call with an interruption, which the scripted user answers; a rejected call never
// reaches the server. Both eras: its MCP client probes server/discover, then falls back.
TEST(Hosts, AnAgentsSdkAppAsksThroughItsInterruptionsInBothEras) {
  SKIP_WITHOUT(kAgents);
  test_support::TempDir dir;
  const auto r =
      test_support::run_cli({"certify", "--host", "openai-agents", "--host-bin", kAgents.string(), "--scenario",
                             "confirm.spec-destructive", "--format", "json", "--output", dir.path().string()});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const json report = json::parse(r.out);
  EXPECT_EQ(report["tier"], "certified, strict");
  EXPECT_EQ(report["host"]["version"], "@openai/agents 0.20.0");
  ASSERT_EQ(report["scenarios"].size(), 2u);
  for (const auto& run : report["scenarios"]) {
    const auto events = events_of(dir.path() / "scenarios" / run["run"].get<std::string>() / "events.jsonl");
    ASSERT_EQ(events.size(), 4u) << run["run"];
    EXPECT_EQ(events[0]["tool"], "delete_branch");
    EXPECT_EQ(events[0]["hints"], json::array());
    EXPECT_EQ(events[2]["tool"], "drop_table");
    EXPECT_EQ(events[3]["decision"], "deny");
  }
}

// Its MCP client throws on a listing whose hints have the wrong types, before the model's first
// turn: the model is never asked, and those checks are a rejected listing (info).
TEST(Hosts, AnAgentsSdkAppThatStopsAtAMalformedListingRejectedIt) {
  SKIP_WITHOUT(kAgents);
  test_support::TempDir dir;
  const auto r = test_support::run_cli({"certify", "--host", "openai-agents", "--host-bin", kAgents.string(),
                                        "--scenario", "robustness.malformed-hints", "--protocol", "2025-11-25",
                                        "--format", "json", "--output", dir.path().string()});
  ASSERT_NE(r.exit_code, 3) << r.err;
  const json report = json::parse(r.out);
  std::size_t rejected = 0;
  for (const auto& check : report["scenarios"][0]["results"]) rejected += check["outcome"] == "listing-rejected";
  EXPECT_EQ(rejected, 2u) << r.out;
}
