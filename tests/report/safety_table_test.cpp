// The safety table: values, their sources, defaults and findings per tool; the report command's
// outputs against golden files (MCP_HINTS_UPDATE_GOLDEN=1 rewrites them) and its bad input.
#include "mcp_hints/report/safety_table.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints;

SafetyTable table_of(const json& tools) {
  std::istringstream in(json{{"tools", tools}}.dump());
  return build_safety_table(in, "t.json", LintOptions{});
}

std::size_t column(const std::string& title) {
  const auto& columns = safety_columns();
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i].title == title) return i;
  throw std::out_of_range(title);
}

TEST(SafetyTable, EachValueWithTheKeysThatSayItAndTheFindings) {
  const json tools = json::parse(R"([
    {"name": "drop", "inputSchema": {"type": "object"},
     "annotations": {"readOnlyHint": false, "destructiveHint": false, "riskLevel": "critical"},
     "_meta": {"mcp.dev/effect": "delete", "mcp.dev/requiresConfirmation": true}},
    {"name": "bare", "inputSchema": {"type": "object"}},
    {"name": "export", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true, "openWorldHint": false,
     "inputMetadata": {"destination": ["internal", "public"]}}}
  ])");
  const auto table = table_of(tools);
  ASSERT_EQ(table.rows.size(), 3u);
  const auto& drop = table.rows[0];
  EXPECT_EQ(drop.cells[column("effect")].value, "delete");  // the most cautious wins over destructiveHint false
  EXPECT_EQ(drop.cells[column("effect")].source, "_meta[\"mcp.dev/effect\"] (policy-hints@seed)");
  EXPECT_EQ(drop.cells[column("confirmation")].value, "single");
  EXPECT_EQ(drop.cells[column("risk")].value, "critical");
  EXPECT_FALSE(drop.findings.empty());  // destructiveHint false beside a delete effect
  const auto& bare = table.rows[1];
  EXPECT_EQ(bare.cells[column("effect")].value, "delete");
  EXPECT_EQ(bare.cells[column("effect")].source, "specification default");
  EXPECT_EQ(bare.cells[column("confirmation")].value, "");
  const auto& exported = table.rows[2];
  EXPECT_EQ(exported.cells[column("destination")].value, "public; open-world false");
  EXPECT_EQ(exported.cells[column("destination")].source,
            "annotations.inputMetadata.destination (trust-annotations@sep-1913); annotations.openWorldHint "
            "(spec@2025-11-25)");
}

// The HTML page: its summary counts the findings by level, and the tools with findings come
// first, worst first, in catalog order within a level; each cell is labelled for the phone view.
TEST(SafetyTable, TheHtmlPageLeadsWithItsSummaryAndTheWorstTools) {
  SafetyTable table;
  table.file = "t.json";
  auto row = [](const std::string& name, std::vector<Level> levels) {
    SafetyRow r;
    r.name = name;
    r.cells.resize(safety_columns().size());
    for (Level level : levels) {
      mcp_hints::Finding f{};
      f.check = "x.y";
      f.level = level;
      f.file = "t.json";
      f.tool = name;
      f.message = "m";
      f.proposal = "p";
      r.findings.push_back(f);
    }
    return r;
  };
  table.rows = {row("clean", {}), row("warned", {Level::warning}), row("info", {Level::info}),
                row("broken", {Level::info, Level::error}), row("warned2", {Level::warning})};
  const std::string html = safety_table_html(table);
  EXPECT_NE(html.find("<p id=\"verdict\"><b>5 tool(s); findings: 1 error(s), 2 warning(s), 2 info.</b>"),
            std::string::npos)
      << html;
  std::vector<std::size_t> at;
  for (const char* name : {"broken", "warned", "warned2", "info", "clean"})
    at.push_back(html.find("<td data-label=\"tool\"><code>" + std::string(name) + "</code>"));
  for (std::size_t i = 0; i < at.size(); ++i) ASSERT_NE(at[i], std::string::npos) << i;
  EXPECT_TRUE(std::is_sorted(at.begin(), at.end())) << html;
  EXPECT_NE(html.find("<meta name=\"viewport\""), std::string::npos);
  EXPECT_NE(html.find("<th scope=\"col\">findings</th>"), std::string::npos);
  EXPECT_NE(html.find("<main id=\"top\">"), std::string::npos);
  EXPECT_NE(html.find("<caption>"), std::string::npos);
}

TEST(SafetyTable, InferFillsOnlyWhatNoHintSays) {
  const json tools = json::parse(R"([
    {"name": "delete_pod", "inputSchema": {"type": "object", "properties": {"namespace": {"type": "string"}}}},
    {"name": "delete_node", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": false, "destructiveHint": true, "riskLevel": "medium"}}
  ])");
  std::istringstream in(json{{"tools", tools}}.dump());
  const auto table = build_safety_table(in, "t.json", LintOptions{}, true);
  const auto& bare = table.rows[0];
  EXPECT_EQ(bare.cells[column("effect")].value, "delete");
  EXPECT_EQ(bare.cells[column("effect")].source, "inferred: the name starts with 'delete' (delete verbs)");
  EXPECT_EQ(bare.cells[column("risk")].value, "high; blast-radius namespace");
  EXPECT_EQ(bare.cells[column("confirmation")].value, "single");
  const auto& declared = table.rows[1];
  EXPECT_EQ(declared.cells[column("risk")].value, "medium");  // declared: never replaced by a guess
  EXPECT_EQ(declared.cells[column("effect")].source, "annotations.destructiveHint (spec@2025-11-25)");
  EXPECT_EQ(declared.cells[column("confirmation")].value, "single");  // nothing declared: inferred
  EXPECT_NE(declared.cells[column("confirmation")].source.find("inferred"), std::string::npos);
}

// Rows made on several threads are the rows made on one, in the same order; so is the page.
TEST(SafetyTable, FourThreadsMakeTheTableOneMakes) {
  const std::string text = test_support::varied_catalog(1500);
  auto rows = [&](std::size_t jobs) {
    std::istringstream in(text);
    LintOptions options;
    options.jobs = jobs;
    std::vector<std::string> out;
    for_each_safety_row(in, "c.json", options, true, [&](SafetyRow&& row) {
      std::string line = row.name;
      for (const auto& cell : row.cells) line += "|" + cell.value + "|" + cell.source;
      for (const auto& f : row.findings) line += "|" + f.check + " " + f.pointer + " " + f.message;
      out.push_back(std::move(line));
    });
    return out;
  };
  const auto one = rows(1);
  ASSERT_EQ(one.size(), 1500u);
  EXPECT_EQ(rows(4), one);
  test_support::TempDir dir;
  const auto file = dir.write("c.json", text).string();
  for (const char* format : {"text", "markdown", "html"}) {
    auto run = [&](const char* jobs) {
      return test_support::run_cli({"report", file, "--infer", "--format", format, "--jobs", jobs});
    };
    const auto single = run("1"), four = run("4");
    EXPECT_EQ(single.exit_code, 1) << single.err;
    EXPECT_EQ(four.exit_code, 1) << four.err;
    EXPECT_TRUE(single.out == four.out) << format << ": the tables differ";
  }
}

TEST(ReportCommand, OutputsMatchTheirGoldenFiles) {
  test_support::expect_golden({"report", "examples/catalogs/good-catalog.json", "--format", "markdown"},
                              "report-good-catalog.md");
  test_support::expect_golden({"report", "examples/catalogs/good-catalog.json"}, "report-good-catalog.txt");
  test_support::expect_golden({"report", "examples/catalogs/bad-catalog.json", "--format", "markdown"},
                              "report-bad-catalog.md", 1);
  test_support::expect_golden({"report", "examples/catalogs/bad-catalog.json"}, "report-bad-catalog.txt", 1);
  test_support::expect_golden({"report", "examples/catalogs/bad-catalog.json", "--format", "html"},
                              "report-bad-catalog.html", 1);
  test_support::expect_golden({"report", "tests/fixtures/infer/catalog.json", "--infer", "--format", "markdown"},
                              "report-inferred.md");
}

// report follows the exit-code contract as lint does: the table is written, and a finding at the
// fail-on level makes the run exit 1.
TEST(ReportCommand, FindingsAtTheFailOnLevelExitOne) {
  const std::string bad = (test_support::source_dir() / "examples/catalogs/bad-catalog.json").string();
  const std::string warnings_only = test_support::fixture("lint/negative/placement.annotation-only.json").string();
  const std::string info_only = test_support::fixture("lint/negative/hints.readonly-and-destructive.json").string();
  const std::vector<std::pair<std::vector<std::string>, int>> cases = {
      {{"report", bad}, 1},
      {{"report", bad, "--fail-on", "never"}, 0},
      {{"report", warnings_only}, 1},
      {{"report", warnings_only, "--fail-on", "error"}, 0},
      {{"report", info_only}, 0},
      {{"report", info_only, "--strict"}, 0},
      {{"report", info_only, "--fail-on", "info"}, 1},
      {{"report", info_only, "--fail-on", "info", "--format", "html"}, 1},
  };
  for (const auto& [args, code] : cases) {
    const auto r = test_support::run_cli(args);
    EXPECT_EQ(r.exit_code, code) << args.back() << ": " << r.err;
    EXPECT_NE(r.out.find("hint"), std::string::npos);  // the table is written whatever the verdict
  }
  test_support::expect_usage_error({"report", bad, "--strict", "--fail-on", "never"},
                                   "--strict means --fail-on warning, not --fail-on never");
  test_support::expect_usage_error({"report", bad, "--fail-on", "sometimes"}, "unknown --fail-on 'sometimes'");
}

TEST(ReportCommand, BadInputIsAOneLineUsageError) {
  test_support::TempDir dir;
  const auto not_json = dir.write("x.json", "{\"tools\": [1,");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"report"}, "give one catalog FILE"},
      {{"report", "a", "b"}, "give one catalog FILE"},
      {{"report", not_json.string(), "--format", "pdf"}, "unknown --format 'pdf'"},
      {{"report", not_json.string(), "--jobs", "0"}, "'0' for option '--jobs': out of range (1 to 256)"},
      {{"report", (dir.path() / "none.json").string()}, "cannot open"},
      {{"report", dir.path().string()}, "is a directory"},
      {{"report", not_json.string()}, "x.json: "},
      {{"report", not_json.string(), "--spec-revision", "1999-01-01"}, "unknown specification revision"},
      {{"report", not_json.string(), "--vocab", "nope@1"}, "--vocab: 'nope@1' names no vocabulary revision"},
      {{"report", not_json.string(), "--vocab", "risk-metadata", "--vocab", "risk-metadata@sep-2793"},
       "--vocab: risk-metadata is pinned twice"},
  };
  for (const auto& [args, message] : cases) {
    test_support::expect_usage_error(args, message);
  }
}

}  // namespace
