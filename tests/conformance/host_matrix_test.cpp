// The host matrix (mcp-hints matrix): certify --host reports side by side. The reports here are
// real certify runs of the reference client and a broken variant, each given a host member as
// certify --host writes it, so every cell can be checked against the report it came from.
#include "mcp_hints/conformance/host_matrix.hpp"

#include <gtest/gtest.h>

#include "mcp_hints/json/error.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using mcp_hints::conformance::host_matrix;
using mcp_hints::conformance::host_matrix_html;
using mcp_hints::conformance::host_matrix_markdown;

using test_support::kReference;

// A certify report of `client` on two scenarios, both eras, as if certify --host NAME wrote it.
json host_report(const std::string& client, const std::string& name, const std::string& title) {
  test_support::TempDir dir;
  const auto r =
      test_support::run_cli({"certify", "--client", client, "--scenario", "confirm.spec-destructive", "--scenario",
                             "gateway.cache-scope-per-context", "--format", "json", "--output", dir.path().string()});
  EXPECT_LE(r.exit_code, 1) << r.err;
  json report = json::parse(r.out);
  report["host"] = {{"name", name}, {"title", title}, {"version", "1.0"}, {"limits", "none"}};
  // As certify --host reports a host that acts for one user: the gateway scenario not run.
  json runs = json::array();
  for (const auto& run : report["scenarios"])
    if (run["id"] != "gateway.cache-scope-per-context") runs.push_back(run);
  report["scenarios"] = runs;
  report["notRun"] = {"gateway.cache-scope-per-context: " + title + " acts for the one user who runs it"};
  return report;
}

// The cells of the markdown table row that starts with `first`.
std::vector<std::string> row_of(const std::string& markdown, const std::string& first) {
  const auto at = markdown.find("| " + first + " |");
  if (at == std::string::npos) return {};
  const std::string line = markdown.substr(at, markdown.find('\n', at) - at);
  std::vector<std::string> cells;
  for (std::size_t start = 1; start < line.size();) {
    const auto end = line.find('|', start);
    if (end == std::string::npos) break;
    std::string cell = line.substr(start, end - start);
    cell.erase(0, cell.find_first_not_of(' '));
    cell.erase(cell.find_last_not_of(' ') + 1);
    cells.push_back(cell);
    start = end + 1;
  }
  return cells;
}

}  // namespace

class HostMatrixPages : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    careful = new json(host_report(kReference, "careful", "Careful Host"));
    careless = new json(host_report(kReference + " --ignore-denial", "careless", "Careless Host"));
  }
  static void TearDownTestSuite() {
    delete careful;
    delete careless;
  }
  static json* careful;
  static json* careless;
};
json* HostMatrixPages::careful = nullptr;
json* HostMatrixPages::careless = nullptr;

// Each cell is the verdict of that host's run in that era; each tier and profile the report's own.
TEST_F(HostMatrixPages, EveryCellIsTheVerdictOfItsHostsRun) {
  const auto page = host_matrix_markdown(host_matrix({*careful, *careless}, {"a.json", "b.json"}, "2026-12-04"));
  EXPECT_NE(page.find("Made on 2026-12-04"), std::string::npos);
  EXPECT_NE(page.find("Careful Host 1.0, Careless Host 1.0"), std::string::npos);
  const auto row = row_of(page, "confirm.spec-destructive");
  std::vector<std::string> expected = {"confirm.spec-destructive"};
  for (const json* report : {careful, careless})
    for (const auto& era : (*report)["eras"])
      for (const auto& run : (*report)["scenarios"])
        if (run["id"] == "confirm.spec-destructive" && run["protocol"] == era["protocol"])
          expected.push_back(run["verdict"]);
  ASSERT_EQ(expected.size(), 5u);  // two hosts, two eras
  EXPECT_EQ(row, expected);
  EXPECT_NE((*careful)["scenarios"][0]["verdict"], (*careless)["scenarios"][0]["verdict"]);  // they differ
  for (const auto& era : (*careful)["eras"]) {
    const auto tiers = row_of(page, era["protocol"].get<std::string>());
    ASSERT_EQ(tiers.size(), 3u);
    EXPECT_EQ(tiers[1], era["tier"].get<std::string>());
  }
  const auto& profile = (*careless)["profiles"][0];
  const auto profiles = row_of(page, profile["title"].get<std::string>());
  ASSERT_EQ(profiles.size(), 3u);
  EXPECT_EQ(profiles[2], profile["status"].get<std::string>() + " " + std::to_string(profile["held"].get<int>()) + "/" +
                             std::to_string(profile["total"].get<int>()));
}

// A scenario a host was not given says so in each of its columns; the page does not depend on the order of the reports'
// runs.
TEST_F(HostMatrixPages, AScenarioNotRunSaysSoAndRunOrderChangesNothing) {
  const auto page = host_matrix_markdown(host_matrix({*careful, *careless}, {}, "2026-12-04"));
  const auto row = row_of(page, "gateway.cache-scope-per-context");
  ASSERT_EQ(row.size(), 5u);
  for (std::size_t i = 1; i < row.size(); ++i) EXPECT_EQ(row[i], "not run");
  json reversed = *careful;
  std::reverse(reversed["scenarios"].begin(), reversed["scenarios"].end());
  EXPECT_EQ(host_matrix_markdown(host_matrix({reversed, *careless}, {}, "2026-12-04")), page);
}

// Only reports of certify --host, each host once, each valid against certify-report.schema.json.
TEST_F(HostMatrixPages, RefusesWhatIsNotAHostReport) {
  json client_report = *careful;
  client_report.erase("host");
  json broken = *careful;
  broken["tier"] = 3;
  for (const auto& [reports, message] : std::vector<std::pair<std::vector<json>, std::string>>{
           {{client_report}, "x.json: the certification of a client, not of a real host"},
           {{broken}, "x.json: not a certify report (certify-report.schema.json: /tier"},
           {{*careful, *careful}, "y.json: a second report of host careful"},
           {{json::array()}, "x.json: not a certify report"},
           {{}, "the host matrix needs at least one report"}}) {
    try {
      host_matrix(reports, {"x.json", "y.json"}, "2026-12-04");
      ADD_FAILURE() << "accepted: " << message;
    } catch (const mcp_hints::Error& e) {
      EXPECT_EQ(e.category(), mcp_hints::Error::Category::bad_input);
      EXPECT_EQ(std::string(e.what()).rfind(message, 0), 0u) << e.what();
    }
  }
}

// The HTML page: self-contained, each verdict marked for its colour, every report's host named.
TEST_F(HostMatrixPages, TheHtmlPageNamesEveryHostAndMarksEachVerdict) {
  const auto page = host_matrix_html(host_matrix({*careful, *careless}, {}, "2026-12-04"));
  EXPECT_NE(page.find("Careful Host"), std::string::npos);
  EXPECT_NE(page.find("Careless Host"), std::string::npos);
  EXPECT_NE(page.find("class=\"v-" + std::string((*careful)["scenarios"][0]["verdict"]) + "\""), std::string::npos);
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
}

// The command: a page to a file, today's date unless --date; bad input is exit 2 in one line.
TEST_F(HostMatrixPages, TheCommandWritesThePageAndRefusesBadInput) {
  test_support::TempDir dir;
  const auto a = dir.path() / "a.json";
  const auto b = dir.path() / "b.json";
  std::ofstream(a) << careful->dump();
  std::ofstream(b) << careless->dump();
  const auto out = dir.path() / "matrix.md";
  auto r = test_support::run_cli({"matrix", a.string(), b.string(), "--date", "2026-01-02", "--output", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test_support::read_file(out), host_matrix_markdown(host_matrix({*careful, *careless}, {}, "2026-01-02")));
  r = test_support::run_cli({"matrix", a.string(), "--date", "2026-1-2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--date takes YYYY-MM-DD"), std::string::npos) << r.err;
  std::ofstream(dir.path() / "bad.json") << "{\"tool\":";
  r = test_support::run_cli({"matrix", (dir.path() / "bad.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(test_support::count_lines(r.err), 1u) << r.err;
  r = test_support::run_cli({"matrix", (dir.path() / "missing.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  r = test_support::run_cli({"matrix", a.string(), "--format", "html"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("<html"), std::string::npos);
}
