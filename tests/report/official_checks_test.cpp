// checks.json in the official MCP conformance suite's format (--checks-dir of check-server and
// certify), held to that suite's own package: its status union, the member names its checks
// carry and its own results reader (tests/report/official_checks.mjs takes them out of
// node/node_modules/@modelcontextprotocol/conformance*, installed by `make deps`). A broken copy
// of a file is refused: the format is really applied.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>

#include "test_support.hpp"

using json = nlohmann::json;
using test_support::run_cli;
namespace fs = std::filesystem;

namespace {

const fs::path kNode = test_support::source_dir() / "node" / "node_modules" / ".bin" / "node";
const fs::path kSuite = test_support::source_dir() / "node" / "node_modules" / "@modelcontextprotocol" / "conformance";

struct Verdict {
  int exit_code = -1;
  json out;  // statuses, members, required, reader: {package: its verdict}, problems
};

// The suite's verdict on a results folder.
Verdict official(const fs::path& dir) {
  const auto r = test_support::run_command(
      {kNode.string(), (test_support::source_dir() / "tests" / "report" / "official_checks.mjs").string(),
       dir.string()});
  Verdict v;
  v.exit_code = r.exit_code;
  try {
    v.out = json::parse(r.out);
  } catch (const json::exception&) {
    ADD_FAILURE() << r.out << r.err;
  }
  return v;
}

// The suite's reader's line for one scenario folder.
json reader_line(const Verdict& v, const std::string& package, const std::string& scenario) {
  for (const auto& line : v.out["reader"][package]["details"])
    if (line["scenario"] == scenario) return line;
  return nullptr;
}

std::map<std::string, std::string> statuses(const json& checks) {
  std::map<std::string, std::string> out;
  for (const auto& c : checks) out[c["id"].get<std::string>()] = c["status"].get<std::string>();
  return out;
}

#define SKIP_WITHOUT_SUITE() \
  if (!fs::exists(kNode) || !fs::exists(kSuite)) GTEST_SKIP() << "no " << kSuite << " (make deps installs it with npm)"

// One check-server run: its JSON report and its checks.json.
std::pair<json, json> check_server(const fs::path& dir, const std::string& catalog) {
  const auto r = run_cli({"check-server", "--format", "json", "--observe", "0", "--checks-dir", dir.string(), "--",
                          MCP_HINTS_SAMPLE_SERVER, "--catalog", catalog});
  EXPECT_LE(r.exit_code, 1) << r.err;
  return {json::parse(r.out), test_support::read_json(dir / "check-server" / "checks.json")};
}

}  // namespace

TEST(OfficialChecks, CheckServerStatusesFollowTheFindings) {
  SKIP_WITHOUT_SUITE();
  test_support::TempDir dir;
  const fs::path catalogs = test_support::source_dir() / "examples" / "catalogs";
  const auto [report, checks] = check_server(dir.path() / "bad", (catalogs / "bad-catalog.json").string());
  const auto v = official(dir.path() / "bad");
  EXPECT_EQ(v.exit_code, 0) << v.out.dump(2);
  EXPECT_EQ(v.out["problems"], json::array());
  // Each check's status is its worst finding's level; a check with none passed, except the run
  // checks (no baseline, no suppressions file: they did not run).
  std::map<std::string, std::string> expected;
  const std::map<std::string, int> rank = {{"info", 0}, {"warning", 1}, {"error", 2}};
  std::map<std::string, std::string> worst;
  for (const auto& f : report["findings"]) {
    const std::string id = f["check"], level = f["level"];
    if (!worst.count(id) || rank.at(level) > rank.at(worst[id])) worst[id] = level;
  }
  ASSERT_FALSE(worst.empty()) << report.dump(2);
  const auto got = statuses(checks);
  for (const auto& [id, level] : worst)
    EXPECT_EQ(got.count(id) ? got.at(id) : "(none)", level == "error"     ? "FAILURE"
                                                     : level == "warning" ? "WARNING"
                                                                          : "INFO")
        << id;
  std::size_t successes = 0, failures = 0;
  for (const auto& [id, status] : got) {
    if (!worst.count(id)) {
      EXPECT_EQ(status, id.rfind("baseline.", 0) == 0 || id.rfind("suppression.", 0) == 0 ? "SKIPPED" : "SUCCESS")
          << id;
    }
    successes += status == "SUCCESS";
    failures += status == "FAILURE";
  }
  for (const auto& c : checks)
    if (c["status"] == "FAILURE") {
      EXPECT_FALSE(c.value("errorMessage", "").empty()) << c.dump();
    }
  // The suite's own reader scores it as it scores its own: failed, with these counts.
  for (const char* package : {"conformance", "conformance-next"}) {
    const auto line = reader_line(v, package, "check-server");
    ASSERT_TRUE(line.is_object()) << v.out.dump(2);
    EXPECT_EQ(line["passed"], false);
    EXPECT_EQ(line["checks_passed"], successes);
    EXPECT_EQ(line["checks_failed"], failures);
  }

  // A clean catalog: no FAILURE, and the suite's reader passes it.
  const json clean = check_server(dir.path() / "good", test_support::fixture("lint/clean.json").string()).second;
  const auto g = official(dir.path() / "good");
  EXPECT_EQ(g.exit_code, 0) << g.out.dump(2);
  for (const auto& c : clean) EXPECT_NE(c["status"], "FAILURE") << c.dump();
  for (const char* package : {"conformance", "conformance-next"})
    EXPECT_EQ(reader_line(g, package, "check-server")["passed"], true) << g.out.dump(2);
}

TEST(OfficialChecks, CertifyWritesOneFilePerRunWithTheVerdictsOfResultsJson) {
  SKIP_WITHOUT_SUITE();
  test_support::TempDir dir;
  const std::map<std::string, std::string> status_of = {
      {"pass", "SUCCESS"},    {"fail", "FAILURE"}, {"not testable", "FAILURE"},
      {"warning", "WARNING"}, {"info", "INFO"},    {"not applicable", "SKIPPED"}};
  std::map<std::string, std::size_t> seen;  // statuses over both clients
  int runs = 0;
  // The reference client, and a broken variant that fails one scenario (the run requires the
  // profile it breaks) and warns in the other.
  for (const std::string flags : {"", " --never-prompt --drop-propagation"}) {
    const fs::path out = dir.path() / ("run" + std::to_string(runs++));
    const auto r = run_cli({"certify", "--client", std::string(MCP_HINTS_REFERENCE_CLIENT) + flags, "--scenario",
                            "confirm.spec-destructive", "--scenario", "propagation.sensitive-carried", "--protocol",
                            "2025-11-25", "--output", (out / "out").string(), "--checks-dir", (out / "checks").string(),
                            "--require-profile", "trust-annotations"});
    ASSERT_LE(r.exit_code, 1) << r.err;
    const json results = test_support::read_json(out / "out" / "results.json");
    const auto v = official(out / "checks");
    EXPECT_EQ(v.exit_code, 0) << v.out.dump(2);
    EXPECT_EQ(v.out["problems"], json::array());
    ASSERT_EQ(results["scenarios"].size(), 2u) << results.dump(2);
    for (const auto& scenario : results["scenarios"]) {
      const std::string run = scenario["run"];
      const fs::path file = out / "checks" / run / "checks.json";
      ASSERT_TRUE(fs::exists(file)) << file;
      const auto got = statuses(test_support::read_json(file));
      std::size_t passed = 0, failed = 0;
      ASSERT_EQ(got.size(), scenario["results"].size()) << run;
      for (const auto& check : scenario["results"]) {
        const std::string id = check["id"], status = status_of.at(check["verdict"].get<std::string>());
        EXPECT_EQ(got.count(id) ? got.at(id) : "(none)", status) << run << " " << id;
        passed += status == "SUCCESS";
        failed += status == "FAILURE";
        ++seen[status];
      }
      // The suite's own reader counts what results.json says, and fails the run that failed.
      for (const char* package : {"conformance", "conformance-next"}) {
        const auto line = reader_line(v, package, run);
        ASSERT_TRUE(line.is_object()) << run << v.out.dump(2);
        EXPECT_EQ(line["checks_passed"], passed);
        EXPECT_EQ(line["checks_failed"], failed);
        EXPECT_EQ(line["passed"], failed == 0 && passed > 0);
      }
    }
  }
  EXPECT_GT(seen["SUCCESS"], 0u);
  EXPECT_GT(seen["WARNING"], 0u);
  EXPECT_GT(seen["FAILURE"], 0u);
}

TEST(OfficialChecks, ABrokenCopyIsRefused) {
  SKIP_WITHOUT_SUITE();
  test_support::TempDir dir;
  const json checks = check_server(dir.path() / "ok", test_support::fixture("lint/clean.json").string()).second;
  ASSERT_EQ(official(dir.path() / "ok").exit_code, 0);
  // One broken member each: an unknown status, a renamed member, a missing timestamp, a bare string.
  json broken = checks;
  broken[0]["status"] = "PASSED";
  broken[1]["message"] = "renamed";
  broken[2].erase("timestamp");
  broken[3]["specReferences"] = json::array({"SEP-1913"});
  fs::create_directories(dir.path() / "broken" / "check-server");
  dir.write("broken/check-server/checks.json", broken.dump(2));
  const auto v = official(dir.path() / "broken");
  EXPECT_EQ(v.exit_code, 1);
  const std::string problems = v.out["problems"].dump();
  for (const char* expected : {"status \\\"PASSED\\\" is not one of", "message is no member of a check", "no timestamp",
                               "a specReference has no id"})
    EXPECT_NE(problems.find(expected), std::string::npos) << expected << " in " << problems;
  // A file that is not an array of checks: the suite's own reader counts it as a failed scenario.
  fs::create_directories(dir.path() / "object" / "check-server");
  dir.write("object/check-server/checks.json", R"({"checks": []})");
  const auto o = official(dir.path() / "object");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(reader_line(o, "conformance", "check-server")["checks_failed"], 1) << o.out.dump(2);
}

TEST(OfficialChecks, AnIncompleteCheckServerRunFailsAndSkipsWhatItCouldNotSee) {
  SKIP_WITHOUT_SUITE();
  test_support::TempDir dir;
  const auto r = run_cli({"check-server", "--observe", "0", "--checks-dir", dir.path().string(), "--", "false"});
  ASSERT_EQ(r.exit_code, 3) << r.err;
  const json checks = test_support::read_json(dir.path() / "check-server" / "checks.json");
  const auto got = statuses(checks);
  ASSERT_EQ(got.count("run.incomplete"), 1u) << checks.dump(2);
  EXPECT_EQ(got.at("run.incomplete"), "FAILURE");
  for (const auto& [id, status] : got) EXPECT_NE(status, "SUCCESS") << id;
  const auto v = official(dir.path());
  EXPECT_EQ(v.exit_code, 0) << v.out.dump(2);
  EXPECT_EQ(reader_line(v, "conformance", "check-server")["passed"], false);
}
