#include "mcp_hints/checks/lint.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "test_support.hpp"

using json = nlohmann::json;

TEST(Lint, RejectsAnUnknownSpecificationRevision) {
  mcp_hints::LintOptions options;
  options.spec_revision = "2024-01-01";
  try {
    mcp_hints::Linter linter(options);
    FAIL() << "no error";
  } catch (const mcp_hints::OptionError& e) {
    EXPECT_EQ(e.option(), "spec_revision");
    EXPECT_NE(std::string(e.what()).find("known: 2025-06-18, 2025-11-25, 2026-07-28"), std::string::npos) << e.what();
  }
}

TEST(Lint, LintsSeveralFilesAndKeepsGoingPastBadOnes) {
  test_support::TempDir dir;
  auto good = dir.write("good.json", R"({"tools":[{"name":"a","inputSchema":{"type":"object"}}]})");
  auto bad = dir.write("bad.json", R"({"tools":[{"name":"b","annotations":{"readOnlyHint":"no"}}]})");
  auto junk = dir.write("junk.json", "not json");
  mcp_hints::Linter linter({});
  auto report = linter.lint_files(
      {good.string(), junk.string(), (dir.path() / "missing.json").string(), dir.path().string(), bad.string()});
  ASSERT_EQ(report.files.size(), 5u);
  EXPECT_FALSE(report.files[0].error);
  EXPECT_NE(report.files[1].error->find("not valid JSON"), std::string::npos);
  EXPECT_NE(report.files[2].error->find("cannot open: No such file or directory"), std::string::npos);
  EXPECT_NE(report.files[3].error->find("is a directory"), std::string::npos);
  EXPECT_FALSE(report.files[4].error);
  EXPECT_EQ(report.tool_count(), 2u);
  EXPECT_TRUE(report.has_input_error());
  // bad.json: no inputSchema and a non-boolean readOnlyHint, both schema.spec-tool warnings (an own
  // rule: the texts define the types but say no MUST about sending others).
  ASSERT_EQ(report.count(mcp_hints::Level::warning), 2u);
  for (const auto& f : report.findings) {
    EXPECT_EQ(f.file, bad.string());
    EXPECT_EQ(f.tool, "b");
    EXPECT_EQ(f.check, "schema.spec-tool");
  }
}

TEST(Lint, FailsOnlyAtOrAboveTheChosenLevel) {
  mcp_hints::LintReport report;
  mcp_hints::Finding finding;
  finding.check = "x.y";
  finding.level = mcp_hints::Level::warning;
  report.findings.push_back(finding);
  EXPECT_FALSE(report.fails(mcp_hints::Level::error));
  EXPECT_TRUE(report.fails(mcp_hints::Level::warning));
  EXPECT_TRUE(report.fails(mcp_hints::Level::info));
  EXPECT_FALSE(report.fails(std::nullopt));
}

TEST(Lint, ReportsProgressPerTool) {
  mcp_hints::LintOptions options;
  std::vector<std::size_t> seen;
  options.progress = [&](const std::string&, std::size_t n) { seen.push_back(n); };
  std::istringstream in(R"([{"name":"a"},{"name":"b"},{"name":"c"}])");
  mcp_hints::FindingList findings;
  mcp_hints::Linter(options).lint_stream(in, "-", findings);
  EXPECT_EQ(seen, (std::vector<std::size_t>{1, 2, 3}));
}

TEST(Lint, PointersAndLinesPlaceEachFindingInTheDocument) {
  std::istringstream in(
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[\n{\"name\":\"a\",\"inputSchema\":{\"type\":\"object\"}},\n"
      "{\"name\":\"b\",\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"riskLevel\":\"x\"},"
      "\"_meta\":{\"com.example/riskLevel\":\"x\"}}]}}");
  mcp_hints::FindingList findings;
  auto result = mcp_hints::Linter({}).lint_stream(in, "f.json", findings);
  ASSERT_FALSE(result.error);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "schema.risk-metadata");
  EXPECT_EQ(findings[0].pointer, "/result/tools/1/annotations/riskLevel");
  EXPECT_EQ(findings[0].line, 3u);
  EXPECT_EQ(result.tool_names, (std::vector<std::string>{"a", "b"}));
}

// A hint given twice (RFC 8259: names SHOULD be unique): one finding with both values, the
// pointer, and line:col of the value lint judged (the last); the same name in sibling objects,
// or in the tool and its _meta, is no repetition.
// A member given twice inside an object that is itself given again: the value said to come after
// the first is the one given there, not what the tool kept (which has no such member).
TEST(Lint, AMemberGivenTwiceInsideAReplacedObjectSaysTheValueThatReplacedIt) {
  const std::string text =
      R"([{"name": "t", "inputSchema": {"type": "object", "properties": {"a": {}, "a": {"type": "string"}}},)"
      R"( "inputSchema": {"type": "object"}}])";
  std::istringstream in(text);
  mcp_hints::FindingList findings;
  mcp_hints::Linter({}).lint_stream(in, "dup.json", findings);
  std::vector<std::string> said;
  for (const auto& f : findings)
    if (f.check == "json.duplicate-member") said.push_back(f.pointer + " " + f.message.substr(0, f.message.find(';')));
  EXPECT_EQ(said, (std::vector<std::string>{
                      "/0/inputSchema/properties/a member \"a\" given twice in the object at /inputSchema/properties: "
                      "first {} (line 1, column 70), then {\"type\":\"string\"} (line 1, column 79)",
                      "/0/inputSchema member \"inputSchema\" given twice in the top-level object: first "
                      "{\"properties\":{\"a\":{\"type\":\"string\"}},\"type\":\"object\"} (line 1, column 31), then "
                      "{\"type\":\"object\"} (line 1, column 116)"}));
}

TEST(Lint, AMemberGivenTwiceIsAFindingWithBothValuesAndWhere) {
  const std::string text =
      "{\"tools\": [\n"
      "  {\"name\": \"del\", \"inputSchema\": {\"type\": \"object\"}, \"annotations\": {\"readOnlyHint\": true,\n"
      "   \"readOnlyHint\": false, \"destructiveHint\": true}},\n"
      "  {\"name\": \"sib\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}, "
      "\"b\": {\"type\": \"string\"}}}, \"annotations\": {\"readOnlyHint\": true}, \"_meta\": {\"title\": \"x\"}}\n"
      "]}";
  std::istringstream in(text);
  mcp_hints::FindingList findings;
  const auto result = mcp_hints::Linter({}).lint_stream(in, "dup.json", findings);
  EXPECT_FALSE(result.error);
  std::vector<mcp_hints::Finding> duplicates;
  for (const auto& f : findings)
    if (f.check == "json.duplicate-member") duplicates.push_back(f);
  ASSERT_EQ(duplicates.size(), 1u);
  const auto& f = duplicates[0];
  EXPECT_EQ(f.level, mcp_hints::Level::warning);  // RFC 8259: "SHOULD be unique"
  EXPECT_EQ(f.tool, "del");
  EXPECT_EQ(f.pointer, "/tools/0/annotations/readOnlyHint");
  EXPECT_EQ(f.line, 3u);
  EXPECT_EQ(f.column, 20u);
  EXPECT_NE(f.message.find("member \"readOnlyHint\" given twice in the object at /annotations: first true (line 2, "
                           "column 86), then false (line 3, column 20)"),
            std::string::npos)
      << f.message;
}
