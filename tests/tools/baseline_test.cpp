// lint with a baseline and a suppressions file, as a user runs it: the round trip, the files
// refused, and how every format marks a suppressed finding (check-server's are in
// tests/live/check_server_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "schema_check.hpp"
#include "test_support.hpp"

using json = nlohmann::json;
using test_support::run_cli;
namespace fs = std::filesystem;

namespace {

json bad_catalog() {
  return test_support::read_json(test_support::source_dir() / "examples" / "catalogs" / "bad-catalog.json");
}

std::vector<json> counting(const json& report) {
  std::vector<json> out;
  for (const auto& f : report["findings"])
    if (f["suppressions"].empty()) out.push_back(f);
  return out;
}

std::size_t of_check(const json& report, const std::string& id) {
  return static_cast<std::size_t>(std::count_if(report["findings"].begin(), report["findings"].end(),
                                                [&](const json& f) { return f["check"] == id; }));
}

// A scratch folder with the bad catalog and its baseline, written by lint.
struct Adopted {
  test_support::TempDir dir;
  std::string tools = dir.write("tools.json", bad_catalog().dump(2)).string();
  std::string baseline = (dir.path() / "baseline.json").string();
  std::size_t findings = 0;
  Adopted() {
    const auto plain = run_cli({"lint", "--format", "json", tools});
    EXPECT_EQ(plain.exit_code, 1) << plain.err;
    findings = json::parse(plain.out)["findings"].size();
    const auto written = run_cli({"lint", "--write-baseline", baseline, tools});
    EXPECT_EQ(written.exit_code, 0) << written.out << written.err;
  }
};

}  // namespace

TEST(Baseline, WrittenThenReadOnlyANewFindingCountsAndAFixedOneIsStale) {
  Adopted a;
  ASSERT_GE(a.findings, 10u);
  const json written =
      test_support::expect_matches_schema("lint-baseline.schema.json", test_support::read_file(a.baseline));
  EXPECT_EQ(written["entries"].size(), a.findings);
  EXPECT_EQ(written["command"], "lint");

  // The same catalog: nothing counts, every finding is kept and marked.
  const auto again = run_cli({"lint", "--baseline", a.baseline, "--format", "json", a.tools});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  const json report = test_support::expect_matches_schema("lint-report.schema.json", again.out);
  ASSERT_EQ(report["findings"].size(), a.findings);
  EXPECT_TRUE(counting(report).empty());
  for (const auto& f : report["findings"])
    EXPECT_EQ(f["suppressions"],
              json::parse(R"([{"kind": "external", "source": "baseline", "justification": "in the baseline )" +
                          a.baseline + "\"}]"));
  EXPECT_EQ(report["summary"]["suppressed"], a.findings);
  EXPECT_EQ(report["summary"]["baselined"], a.findings);
  EXPECT_EQ(report["summary"]["error"], 0);
  EXPECT_EQ(report["summary"]["verdict"], "pass");
  for (const auto& [pointer, broken] :
       std::vector<std::pair<std::string, json>>{{"/findings/0/suppressions/0/kind", "inSource"},
                                                 {"/findings/0/suppressions/0/source", "cli"},
                                                 {"/findings/0/suppressions/0/justification", ""},
                                                 {"/findings/0/suppressions/0/status", "accepted"},
                                                 {"/summary/suppressed", -1},
                                                 {"/summary/baselined", "2"}})
    test_support::expect_schema_refuses("lint-report.schema.json", report, pointer, broken);

  // Text: counted, not listed, unless asked.
  const auto text = run_cli({"lint", "--baseline", a.baseline, a.tools});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find(std::to_string(a.findings) + " findings suppressed, " + std::to_string(a.findings) +
                          " in the baseline (not listed)"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("purge_cache"), std::string::npos) << text.out;
  const auto shown = run_cli({"lint", "--baseline", a.baseline, "--show-suppressed", a.tools});
  EXPECT_EQ(shown.exit_code, 0);
  EXPECT_NE(shown.out.find("purge_cache"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("suppressed: in the baseline " + a.baseline), std::string::npos) << shown.out;

  // Reformatted, its tools reversed and the file moved: the same findings, still accepted.
  json reordered = bad_catalog();
  std::reverse(reordered["result"]["tools"].begin(), reordered["result"]["tools"].end());
  const auto moved = a.dir.write("moved.json", reordered["result"]["tools"].dump());
  const auto same = run_cli({"lint", "--baseline", a.baseline, "--format", "json", "--strict", moved.string()});
  EXPECT_EQ(same.exit_code, 0) << same.out;
  EXPECT_TRUE(counting(json::parse(same.out)).empty()) << same.out;

  // One new problem (a warning): exit 1 under --strict, and it alone counts.
  json worse = bad_catalog();
  json added = test_support::read_json(test_support::fixture("lint/negative/placement.annotation-only.json"));
  worse["result"]["tools"].push_back(added["tools"][0]);
  const auto more = run_cli({"lint", "--baseline", a.baseline, "--format", "json", "--strict",
                             a.dir.write("worse.json", worse.dump(2)).string()});
  EXPECT_EQ(more.exit_code, 1);
  const auto fresh = counting(json::parse(more.out));
  ASSERT_EQ(fresh.size(), 1u) << more.out;
  EXPECT_EQ(fresh[0]["check"], "placement.annotation-only");
  EXPECT_EQ(fresh[0]["tool"], added["tools"][0]["name"]);

  // A problem fixed (autopilot removed): its entries are stale, warnings that fail the run by
  // default (and under --strict), so the baseline is written again; --fail-on error lets it pass.
  json better = bad_catalog();
  better["result"]["tools"].erase(3);
  const auto fixed = a.dir.write("better.json", better.dump(2)).string();
  const auto fewer = run_cli({"lint", "--baseline", a.baseline, "--format", "json", fixed});
  EXPECT_EQ(fewer.exit_code, 1) << fewer.out;
  EXPECT_EQ(run_cli({"lint", "--baseline", a.baseline, "--fail-on", "error", fixed}).exit_code, 0);
  const json stale = test_support::expect_matches_schema("lint-report.schema.json", fewer.out);
  EXPECT_EQ(of_check(stale, "baseline.stale"), 2u);
  for (const auto& f : counting(stale)) {
    EXPECT_EQ(f["check"], "baseline.stale");
    EXPECT_EQ(f["file"], a.baseline);
    EXPECT_EQ(f["tool"], "autopilot");
    EXPECT_EQ(f["level"], "warning");
  }
  EXPECT_EQ(run_cli({"lint", "--baseline", a.baseline, "--strict", fixed}).exit_code, 1);
  const auto stale_text = run_cli({"lint", "--baseline", a.baseline, fixed});
  EXPECT_NE(stale_text.out.find(a.baseline + ": 0 errors, 2 warnings, 0 info"), std::string::npos) << stale_text.out;
  EXPECT_NE(stale_text.out.find("baseline.stale"), std::string::npos) << stale_text.out;
}

TEST(Baseline, ABaselineIsNotWrittenFromARunThatCouldNotReadItsInput) {
  test_support::TempDir dir;
  const auto base = dir.path() / "baseline.json";
  const auto r = run_cli({"lint", "--write-baseline", base.string(), dir.write("bad.json", "{").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(fs::exists(base));
  EXPECT_NE(r.err.find("--write-baseline " + base.string() + ": not written"), std::string::npos) << r.err;
}

TEST(Baseline, BadFilesAndFlagsAreRefusedOnOneLine) {
  test_support::TempDir dir;
  const std::string tools = dir.write("tools.json", bad_catalog().dump()).string();
  auto config = [&](const json& suppression) {
    return dir.write("config.json", json{{"suppressions", {suppression}}}.dump()).string();
  };
  test_support::expect_usage_error({"lint", "--config", config({{"checkId", "placement.annotation-only"}}), tools},
                                   "--config " + (dir.path() / "config.json").string() + ": not a configuration: ");
  const auto no_reason = run_cli({"lint", "--config", config({{"checkId", "placement.annotation-only"}}), tools});
  EXPECT_NE(no_reason.err.find("reason"), std::string::npos) << no_reason.err;
  test_support::expect_usage_error(
      {"lint", "--config", config({{"checkId", "placement.annotation-only"}, {"reason", "  "}}), tools},
      "at /suppressions/0/reason");
  test_support::expect_usage_error(
      {"lint", "--config", config({{"checkId", "placement.anotation-only"}, {"reason", "r"}}), tools},
      "no check has the id 'placement.anotation-only' (did you mean 'placement.annotation-only'?)");
  test_support::expect_usage_error({"lint", "--baseline", (dir.path() / "none.json").string(), tools}, "not a file");
  test_support::expect_usage_error({"lint", "--baseline", tools, tools}, "not a baseline: ");
  test_support::expect_usage_error({"lint", "--baseline", "a.json", "--write-baseline", "b.json", tools},
                                   "give --baseline or --write-baseline, not both");
  test_support::expect_usage_error({"lint", "--show-suppressed", "--format", "sarif", tools},
                                   "--show-suppressed has no effect on --format sarif");
  // The file in the working directory is read as --config would be, and refused the same way.
  dir.write(".mcp-hints.json", R"({"suppressions": [{"checkId": "risk.understated"}]})");
  const auto picked =
      run_cli({"lint", tools}, "/dev/null", "cd " + test_support::shell_quote(dir.path().string()) + " &&");
  EXPECT_EQ(picked.exit_code, 2);
  EXPECT_EQ(test_support::count_lines(picked.err), 1u) << picked.err;
  EXPECT_NE(picked.err.find("the configuration .mcp-hints.json: not a configuration: "), std::string::npos)
      << picked.err;
}

TEST(Baseline, TheSuppressionsFileOfTheWorkingDirectoryGivesItsReasons) {
  test_support::TempDir dir;
  const std::string tools = dir.write("tools.json", bad_catalog().dump(2)).string();
  dir.write(".mcp-hints.json", json{{"suppressions",
                                     {{{"checkId", "placement.annotation-only"}, {"reason", "our client reads them"}},
                                      {{"checkId", "infer.*"}, {"tool", "legacy_*"}, {"reason", "old names"}}}}}
                                   .dump());
  const std::string in_dir = "cd " + test_support::shell_quote(dir.path().string()) + " &&";
  const auto r = run_cli({"lint", "--format", "json", tools}, "/dev/null", in_dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the other errors still count
  const json report = test_support::expect_matches_schema("lint-report.schema.json", r.out);
  std::size_t reasoned = 0;
  for (const auto& f : report["findings"]) {
    if (f["check"] != "placement.annotation-only") continue;
    ++reasoned;
    EXPECT_EQ(f["suppressions"],
              json::parse(R"([{"kind": "external", "source": "config", "justification": "our client reads them"}])"));
  }
  EXPECT_EQ(reasoned, 4u);
  EXPECT_EQ(report["summary"]["suppressed"], 4);
  EXPECT_EQ(report["summary"]["baselined"], 0);
  // The second suppression matches nothing: reported, at its place in the file.
  ASSERT_EQ(of_check(report, "suppression.unused"), 1u);
  for (const auto& f : report["findings"])
    if (f["check"] == "suppression.unused") {
      EXPECT_EQ(f["file"], ".mcp-hints.json");
      EXPECT_EQ(f["pointer"], "/suppressions/1");
    }
  // --config takes the place of the file in the working directory.
  const auto everything =
      dir.write("all.json", R"({"suppressions": [{"checkId": "*", "reason": "a legacy catalog"}]})");
  const auto all = run_cli({"lint", "--config", everything.string(), "--strict", tools}, "/dev/null", in_dir);
  EXPECT_EQ(all.exit_code, 0) << all.out;
  EXPECT_NE(all.out.find("21 findings suppressed (not listed)"), std::string::npos) << all.out;
  // A baseline written beside a suppressions file leaves out what the file accounts for.
  const auto base = (dir.path() / "b.json").string();
  EXPECT_EQ(run_cli({"lint", "--write-baseline", base, tools, "--fail-on", "error"}, "/dev/null", in_dir).exit_code, 0);
  const json written = test_support::read_json(base);
  EXPECT_EQ(written["entries"].size(), 21u - 4u);
  for (const auto& e : written["entries"]) EXPECT_NE(e["checkId"], "placement.annotation-only");
}

// SARIF 2.1.0 §3.27.23 and §3.34: a result's suppressions, each with a kind (inSource or external)
// and, here, the status accepted; once they were judged, a result that counts has an empty array.
TEST(Baseline, SarifMarksSuppressedResultsAsSarifDoes) {
  Adopted a;
  json better = bad_catalog();
  better["result"]["tools"].erase(3);
  const auto fixed = a.dir.write("better.json", better.dump(2)).string();
  const auto r = run_cli({"lint", "--baseline", a.baseline, "--format", "sarif", fixed});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the stale entries are warnings
  const json run = json::parse(r.out)["runs"][0];
  const std::set<std::string> members = {"guid", "kind", "status", "justification", "location", "properties"};
  std::size_t suppressed = 0, stale = 0;
  for (const auto& result : run["results"]) {
    ASSERT_TRUE(result.contains("suppressions")) << result.dump();
    for (const auto& s : result["suppressions"]) {
      ++suppressed;
      for (const auto& [name, value] : s.items()) EXPECT_TRUE(members.count(name)) << name;
      EXPECT_TRUE(s["kind"] == "inSource" || s["kind"] == "external") << s.dump();
      EXPECT_EQ(s["kind"], "external");
      EXPECT_EQ(s["status"], "accepted");
      EXPECT_EQ(s["justification"], "in the baseline " + a.baseline);
    }
    if (result["ruleId"] == "baseline.stale") {
      ++stale;
      EXPECT_TRUE(result["suppressions"].empty());
      EXPECT_EQ(result["level"], "warning");
      EXPECT_EQ(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "file://" + a.baseline);
      // Its rule is in the driver's list, where ruleIndex points.
      EXPECT_EQ(run["tool"]["driver"]["rules"][result["ruleIndex"].get<std::size_t>()]["id"], "baseline.stale");
    }
  }
  EXPECT_EQ(suppressed, a.findings - 2);
  EXPECT_EQ(stale, 2u);
  // Against the baseline (§3.27.24): each result in it "unchanged", a stale entry "absent".
  for (const auto& result : run["results"])
    EXPECT_EQ(result["baselineState"], result["ruleId"] == "baseline.stale" ? "absent" : "unchanged") << result.dump();
  // A new finding is "new"; with only a suppressions file, no result has a baseline state.
  json worse = bad_catalog();
  worse["result"]["tools"].push_back(
      test_support::read_json(test_support::fixture("lint/negative/hints.readonly-and-destructive.json"))["tools"][0]);
  const auto added = json::parse(
      run_cli({"lint", "--baseline", a.baseline, "--format", "sarif", a.dir.write("worse.json", worse.dump()).string()})
          .out);
  std::multiset<std::string> states;
  for (const auto& result : added["runs"][0]["results"]) states.insert(result["baselineState"].get<std::string>());
  EXPECT_EQ(states.count("new"), 1u);
  EXPECT_EQ(states.count("unchanged"), a.findings);
  const auto config = a.dir.write("c.json", R"({"suppressions": [{"checkId": "risk.*", "reason": "r"}]})");
  const auto suppressed_only =
      json::parse(run_cli({"lint", "--config", config.string(), "--format", "sarif", fixed}).out);
  for (const auto& result : suppressed_only["runs"][0]["results"]) {
    EXPECT_FALSE(result.contains("baselineState"));
    EXPECT_EQ(result["suppressions"].empty(), !result["ruleId"].get<std::string>().starts_with("risk."))
        << result.dump();
  }
  // Without a baseline or a suppressions file, nothing was judged: no result says either way.
  const auto plain = json::parse(run_cli({"lint", "--format", "sarif", fixed}).out);
  for (const auto& result : plain["runs"][0]["results"]) EXPECT_FALSE(result.contains("suppressions"));
}

TEST(Baseline, JunitAndGithubNeverFailOnASuppressedFinding) {
  Adopted a;
  const auto junit = run_cli({"lint", "--baseline", a.baseline, "--format", "junit", a.tools});
  EXPECT_EQ(junit.exit_code, 0);
  EXPECT_NE(junit.out.find("<testsuites name=\"mcp-hints\""), std::string::npos);
  EXPECT_NE(junit.out.find(" failures=\"0\""), std::string::npos) << junit.out;
  EXPECT_EQ(junit.out.find("<failure"), std::string::npos) << junit.out;
  EXPECT_NE(junit.out.find("suppressed: in the baseline " + a.baseline), std::string::npos);
  // The control: without the baseline the same findings are failures.
  EXPECT_NE(run_cli({"lint", "--format", "junit", a.tools}).out.find("<failure"), std::string::npos);
  // Stale entries: a suite of the baseline's own, failing under --strict.
  json better = bad_catalog();
  better["result"]["tools"].erase(3);
  const auto fixed = a.dir.write("better.json", better.dump(2)).string();
  const auto strict = run_cli({"lint", "--baseline", a.baseline, "--format", "junit", "--strict", fixed});
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_NE(strict.out.find("<testsuite name=\"" + a.baseline + "\" tests=\"1\" failures=\"1\""), std::string::npos)
      << strict.out;
  EXPECT_NE(strict.out.find("name=\"baseline.stale\"><failure type=\"warning\""), std::string::npos) << strict.out;

  const auto github = run_cli({"lint", "--baseline", a.baseline, "--format", "github", a.tools});
  EXPECT_EQ(github.exit_code, 0);
  EXPECT_EQ(github.out, "::notice title=mcp-hints: suppressed::" + std::to_string(a.findings) +
                            " findings suppressed, " + std::to_string(a.findings) + " in the baseline\n");
  EXPECT_NE(run_cli({"lint", "--format", "github", a.tools}).out.find("::warning "), std::string::npos);
}
