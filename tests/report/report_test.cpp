#include "mcp_hints/report/report.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <tuple>
#include <utility>

#include "mcp_hints/checks/suppressions.hpp"
#include "mcp_hints/json/schema_registry.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/json/version.hpp"
#include "mcp_hints/report/trace.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"
#include "test_support.hpp"

using json = nlohmann::json;

namespace {

// A finding as the checks make one, by name (the struct grows: positional braces would not say
// which member a value is, and leave the new ones to a warning).
mcp_hints::Finding finding(const std::string& check, mcp_hints::Level level, const std::string& file,
                           const std::string& tool, const std::string& pointer, std::size_t line, std::size_t column,
                           const std::string& message, const std::string& proposal, std::size_t tool_line = 0) {
  mcp_hints::Finding f{};
  f.check = check;
  f.level = level;
  f.file = file;
  f.tool = tool;
  f.pointer = pointer;
  f.line = line;
  f.column = column;
  f.message = message;
  f.proposal = proposal;
  f.tool_line = tool_line;
  return f;
}

mcp_hints::LintReport sample_report() {
  mcp_hints::Linter linter({});
  return linter.lint_files({test_support::fixture("lint/negative/risk.understated.json").string(),
                            test_support::fixture("lint/negative/confirmation.missing-for-destructive.json").string(),
                            test_support::fixture("lint/clean.json").string(), "/nonexistent/file.json"});
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

// The streamed JSON is the DOM's dump, byte for byte: with findings, suppressions, input errors,
// a check-server run's calls and protocol, and none at all.
TEST(Report, StreamedJsonIsTheDocumentsDump) {
  auto expect_same = [](const mcp_hints::LintReport& report, const mcp_hints::ReportOptions& options) {
    std::ostringstream streamed;
    mcp_hints::write_report_json(streamed, report, options);
    EXPECT_EQ(streamed.str(),
              mcp_hints::report_json(report, options).dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  };
  auto report = sample_report();
  ASSERT_FALSE(report.findings.empty());
  expect_same(report, {});
  expect_same(report, {std::nullopt});
  bool first = true;
  report.findings.update([&](mcp_hints::Finding& f) {
    if (!std::exchange(first, false)) return;
    f.message += std::string("\xff\n", 2);  // replaced as dump replaces it
    f.suppressions.push_back({mcp_hints::Suppression::Source::config, "known"});
  });
  report.suppressions_applied = true;
  report.server_checks_ran = true;
  report.calls.push_back({"rm", json{{"path", "/tmp/x"}}, mcp_hints::ToolCallRecord::Outcome::tool_error, "denied"});
  report.protocol_version = "2026-07-28";
  report.protocol_era = "stateless";
  report.diagnostics = "server said\nthis";
  // Tools' names and revisions as a catalog may give them: names to escape or to replace, a set of
  // revisions again after others, none, and every one.
  auto& file = report.files.front();
  file.tool_names.insert(file.tool_names.end(),
                         {"quote\"and\\slash", std::string("bad\xff", 4), "tab\there", "", "caf\u00e9 \u2713"});
  file.tool_revisions.insert(file.tool_revisions.end(), {0b101u, 0u, 0b10u, 0b101u, ~0u});
  expect_same(report, {});
  expect_same(mcp_hints::LintReport{}, {});
}

TEST(Report, JsonMatchesItsPublishedSchema) {
  const auto report = sample_report();
  const json j = mcp_hints::report_json(report, {});
  auto v = mcp_hints::published_schemas().validate("lint-report.schema.json", j);
  for (const auto& x : v) ADD_FAILURE() << x.pointer << " " << x.message;
  EXPECT_EQ(j["toolCount"], report.tool_count());
  EXPECT_EQ(j["findings"].size(), report.findings.size());
  EXPECT_EQ(j["summary"]["error"], 0);  // no lint check rests on a MUST
  EXPECT_EQ(j["summary"]["warning"], 5);
  EXPECT_EQ(j["summary"]["inputErrors"], 1);
  EXPECT_EQ(j["summary"]["passed"], false);
  EXPECT_TRUE(j["files"][3]["error"].is_string());
  EXPECT_TRUE(j["files"][0]["error"].is_null());
}

TEST(Report, SarifNamesEveryRuleAndPlacesEveryResult) {
  const auto report = sample_report();
  std::ostringstream out;
  mcp_hints::render_sarif(out, report, {});
  const json sarif = json::parse(out.str());
  EXPECT_EQ(sarif["version"], "2.1.0");
  const auto& run = sarif["runs"][0];
  const auto& rules = run["tool"]["driver"]["rules"];
  EXPECT_EQ(rules.size(), mcp_hints::lint_checks().size() + mcp_hints::kRunChecks.size());
  ASSERT_EQ(run["results"].size(), report.findings.size());
  for (const auto& r : run["results"]) {
    EXPECT_EQ(rules[r["ruleIndex"].get<std::size_t>()]["id"], r["ruleId"]);
    EXPECT_TRUE(r["level"] == "error" || r["level"] == "warning" || r["level"] == "note");
    EXPECT_GE(r["locations"][0]["physicalLocation"]["region"]["startLine"].get<int>(), 1);
    EXPECT_TRUE(
        r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"].get<std::string>().starts_with("/tools/"));
  }
  EXPECT_EQ(run["invocations"][0]["executionSuccessful"], false);
  EXPECT_EQ(run["invocations"][0]["toolExecutionNotifications"].size(), 1u);
  // The driver and each rule say where they are documented; every result is placed at its value.
  const auto& driver = run["tool"]["driver"];
  EXPECT_EQ(driver["version"], std::string(mcp_hints::kVersion));
  EXPECT_TRUE(driver["informationUri"].get<std::string>().starts_with("https://")) << driver["informationUri"];
  for (const auto& rule : rules)
    EXPECT_EQ(rule["helpUri"], driver["informationUri"].get<std::string>() + "/blob/main/docs/checks.md#" +
                                   (rule["id"].get<std::string>().starts_with("baseline.") ||
                                            rule["id"].get<std::string>().starts_with("suppression.")
                                        ? "baselines-and-suppressions"
                                        : "lint-checks"));
  for (const auto& r : run["results"]) {
    const auto& region = r["locations"][0]["physicalLocation"]["region"];
    EXPECT_GE(region["startColumn"].get<int>(), 1) << r;
    EXPECT_EQ(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].get<std::string>().find(' '),
              std::string::npos);
  }
}

// Each finding is placed at its pointer's own value: the same line and column in text (as
// file:line:col), JSON and SARIF, read from the file.
TEST(Report, EveryFormatPlacesAFindingAtItsValue) {
  mcp_hints::Linter linter({});
  const std::string file = test_support::fixture("lint/negative/risk.understated.json").string();
  const auto report = linter.lint_files({file});
  ASSERT_FALSE(report.findings.empty());
  const auto& f = report.findings.front();
  // The value the pointer names, found in the file's text independently.
  const std::string text = test_support::read_file(file);
  const std::string member = "\"" + f.pointer.substr(f.pointer.rfind('/') + 1) + "\":";
  std::size_t at = 0, line = 1, column = 1;
  for (std::size_t seen = 0, target = std::stoul(f.pointer.substr(std::string("/tools/").size())); seen <= target;
       ++seen)
    at = text.find(member, at + 1);
  ASSERT_NE(at, std::string::npos) << member;
  at = text.find_first_not_of(" ", at + member.size());
  for (std::size_t i = 0; i < at; ++i) {
    column = text[i] == '\n' ? 1 : column + 1;
    line += text[i] == '\n';
  }
  EXPECT_EQ(f.line, line) << f.pointer;
  EXPECT_EQ(f.column, column) << f.pointer;
  EXPECT_LT(f.tool_line, f.line);
  std::ostringstream plain, sarif;
  mcp_hints::render_text(plain, report, {});
  EXPECT_NE(plain.str().find(file + ":" + std::to_string(line) + ":" + std::to_string(column) + "  " + f.pointer),
            std::string::npos)
      << plain.str();
  const json j = mcp_hints::report_json(report, {});
  EXPECT_EQ(j["findings"][0]["line"], line);
  EXPECT_EQ(j["findings"][0]["column"], column);
  EXPECT_EQ(j["findings"][0]["toolLine"], f.tool_line);
  mcp_hints::render_sarif(sarif, report, {});
  const json sarif_json = json::parse(sarif.str());
  const auto& region = sarif_json["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(region["startLine"], line);
  EXPECT_EQ(region["startColumn"], column);
}

// GitHub workflow commands: one per finding at its file, line and column, with the toolkit's
// escaping (data: %, CR, LF; properties: also ':' and ','), so no message can end its command
// early or forge another.
TEST(Report, GithubFormatEscapesWhatWouldEndItsCommand) {
  mcp_hints::LintReport report;
  report.files.push_back({"dir:a,b.json", 2, std::nullopt, {"t", "u"}, {0, 0}, {}});
  report.findings.push_back(finding("risk.understated", mcp_hints::Level::error, "dir:a,b.json", "t", "/tools/0/x", 7,
                                    12, "100% sure\n::error::forged", "p", 3));
  report.findings.push_back(
      finding("risk.understated", mcp_hints::Level::warning, "dir:a,b.json", "u", "/tools/1", 9, 3, "w", "p", 9));
  report.findings.push_back(
      finding("risk.understated", mcp_hints::Level::info, "dir:a,b.json", "", "/tools/1", 0, 0, "i", "p", 0));
  std::ostringstream out;
  mcp_hints::render_github(out, report, {});
  const std::string text = out.str();
  EXPECT_EQ(test_support::count_lines(text), 3u) << text;
  EXPECT_EQ(text.rfind("::error file=dir%3Aa%2Cb.json,line=7,col=12,title=risk.understated (t)::100%25 sure", 0), 0u)
      << text;
  EXPECT_EQ(text.find("\n::error::forged"), std::string::npos) << text;
  // Each annotation ends with the sentence its check enforces, on a line of its own.
  const std::string sentence = "%0A-> " + mcp_hints::enforced_sentence_text("risk.understated") + "\n";
  EXPECT_NE(sentence.find("SHOULD NOT say opposite things"), std::string::npos) << sentence;
  EXPECT_NE(text.find("\n::warning file=dir%3Aa%2Cb.json,line=9,col=3,title=risk.understated (u)::w [p] at /tools/1" +
                      sentence),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n::notice file=dir%3Aa%2Cb.json,title=risk.understated::i [p] at /tools/1" + sentence),
            std::string::npos)
      << text;
  // A live server is no file in the checkout: its findings carry no file property.
  report.server_checks_ran = true;
  report.incomplete = "session 1: initialize: connection refused";
  std::ostringstream live;
  mcp_hints::render_github(live, report, {});
  EXPECT_EQ(live.str().find("file="), std::string::npos) << live.str();
  EXPECT_NE(live.str().find("::error title=mcp-hints: incomplete::session 1: initialize: connection refused\n"),
            std::string::npos)
      << live.str();
}

// A live server's SARIF artifact is a valid URI: its URL, or for a command its program (the
// command line in the description), never a command line with spaces.
TEST(Report, SarifArtifactsOfLiveServersAreUris) {
  for (const auto& [file, uri] :
       std::vector<std::pair<std::string, std::string>>{{"node server.js --port 3", "node"},
                                                        {"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/mcp"},
                                                        {"/opt/my server/bin", "/opt/my"}}) {
    mcp_hints::LintReport report;
    report.server_checks_ran = true;
    report.files.push_back({file, 1, std::nullopt, {"t"}, {0}, {}});
    report.findings.push_back(
        finding("risk.understated", mcp_hints::Level::error, file, "t", "/tools/0", 0, 0, "m", "p", 0));
    std::ostringstream out;
    mcp_hints::render_sarif(out, report, {});
    const json sarif = json::parse(out.str());
    const auto& location = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    EXPECT_EQ(location["artifactLocation"]["uri"], uri) << file;
    EXPECT_FALSE(location.contains("region"));
    if (!file.starts_with("http")) {
      EXPECT_EQ(location["artifactLocation"]["description"]["text"], "the server command: " + file);
    }
  }
  // A file name with a space is percent-encoded; an absolute path is a file: URI.
  mcp_hints::LintReport files;
  files.files.push_back({"/tmp/my catalog.json", 1, std::nullopt, {"t"}, {0}, {}});
  files.findings.push_back(
      finding("risk.understated", mcp_hints::Level::error, "/tmp/my catalog.json", "t", "/tools/0", 2, 3, "m", "p", 1));
  std::ostringstream out;
  mcp_hints::render_sarif(out, files, {});
  EXPECT_EQ(
      json::parse(out.str())["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
      "file:///tmp/my%20catalog.json");
}

TEST(Report, JunitHasOneCasePerToolAndCheckAndFailsByLevel) {
  const auto report = sample_report();
  std::size_t tools = report.tool_count();
  const std::size_t checks = mcp_hints::lint_checks().size();
  std::ostringstream strict, lenient;
  mcp_hints::render_junit(strict, report, {mcp_hints::Level::warning, false});
  mcp_hints::render_junit(lenient, report, {mcp_hints::Level::error, false});
  const std::string s = strict.str(), l = lenient.str();
  EXPECT_TRUE(s.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites"));
  // Every tool has a distinct name in these fixtures; plus one case for the missing file.
  EXPECT_EQ(count_of(s, "<testcase "), tools * checks + 1);
  EXPECT_EQ(count_of(s, "<failure "), 5u);  // 2 risk.understated tools + 3 unconfirmed destructive tools
  EXPECT_EQ(count_of(l, "<failure "), 0u);  // below the fail-on level: only written to system-out
  EXPECT_EQ(count_of(l, "<system-out>"), 5u);
  EXPECT_EQ(count_of(s, "<error "), 1u);
  EXPECT_NE(s.find("tests=\"" + std::to_string(tools * checks + 1) + "\""), std::string::npos);
}

// Findings come only from registered checks; one that does not is a bug in mcp-hints, which the
// machine formats report as an internal error naming the id, beside the finding itself.
TEST(Report, AFindingOfAnUnknownCheckIsAnInternalErrorNotACrash) {
  mcp_hints::LintReport report;
  report.files.push_back({"f.json", 1, std::nullopt, {"t"}, {0}, {}});
  report.findings.push_back(
      finding("no.such-check", mcp_hints::Level::error, "f.json", "t", "/tools/0", 1, 1, "m", "p"));
  report.findings.push_back(
      finding("risk.understated", mcp_hints::Level::error, "f.json", "t", "/tools/0", 1, 1, "m", "p"));
  ASSERT_FALSE(mcp_hints::find_check("no.such-check"));
  const std::string error = "internal error: a finding of check 'no.such-check', which no registry lists";

  std::ostringstream sarif_text;
  mcp_hints::render_sarif(sarif_text, report, {});
  const json run = json::parse(sarif_text.str())["runs"][0];
  ASSERT_EQ(run["results"].size(), 2u);
  EXPECT_EQ(run["results"][0]["ruleId"], "no.such-check");
  EXPECT_FALSE(run["results"][0].contains("ruleIndex"));  // no rule of another check
  const auto rule = run["results"][1]["ruleIndex"].get<std::size_t>();
  EXPECT_EQ(run["tool"]["driver"]["rules"][rule]["id"], "risk.understated");
  EXPECT_EQ(run["invocations"][0]["executionSuccessful"], false);
  ASSERT_EQ(run["invocations"][0]["toolExecutionNotifications"].size(), 1u);
  EXPECT_EQ(run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"], error);

  std::ostringstream junit;
  mcp_hints::render_junit(junit, report, {});
  EXPECT_EQ(count_of(junit.str(), "<error message=\"" + mcp_hints::html_escape(error) + "\"/>"), 1u) << junit.str();
  EXPECT_EQ(count_of(junit.str(), "<failure "), 1u);  // risk.understated, as usual
}

TEST(Report, XmlEscapingCoversMarkupAndControlCharacters) {
  EXPECT_EQ(mcp_hints::html_escape("<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  EXPECT_EQ(mcp_hints::html_escape(std::string("a\x01"
                                               "b\tc\n",
                                               6)),
            "a\\x01b\tc\n");
}

TEST(Report, TextGroupsByToolAndUsesColourOnlyWhenAsked) {
  const auto report = sample_report();
  std::ostringstream plain, coloured;
  mcp_hints::render_text(plain, report, {mcp_hints::Level::error, false});
  mcp_hints::render_text(coloured, report, {mcp_hints::Level::error, true});
  const std::string p = plain.str();
  EXPECT_EQ(p.find("\033["), std::string::npos);
  EXPECT_NE(coloured.str().find("\033[31m"), std::string::npos);
  EXPECT_NE(p.find("  destroy_env  line "), std::string::npos) << p;
  EXPECT_NE(p.find("risk.understated"), std::string::npos);
  EXPECT_NE(p.find("/nonexistent/file.json: error: cannot open"), std::string::npos);
  // A file that could not be read outranks the findings: the run's verdict is its exit code's word.
  EXPECT_NE(p.find("4 files, 16 tools: 0 errors, 5 warnings, 0 info — BAD INPUT (fail on error)"), std::string::npos)
      << p;
}

// Each verdict, worst first, as the text summary, the JSON summary and JUnit say it: an
// incomplete run never reads as a failure with "0 errors", nor its unrun checks as passed.
TEST(Report, EveryFormatSaysTheVerdictOfItsExitCode) {
  mcp_hints::Linter linter({});
  const std::string clean = test_support::fixture("lint/clean.json").string();
  const std::string failing = test_support::fixture("lint/negative/risk.understated.json").string();
  auto incomplete = linter.lint_files({clean});
  incomplete.server_checks_ran = true;
  incomplete.incomplete = "session 1: initialize: connection refused";
  const std::vector<std::tuple<mcp_hints::LintReport, std::string, std::string>> cases = {
      {linter.lint_files({clean}), "pass", "pass"},
      {linter.lint_files({failing}), "fail", "FAIL"},
      {linter.lint_files({clean, "/nonexistent/file.json"}), "bad input", "BAD INPUT"},
      {incomplete, "incomplete", "INCOMPLETE"},
  };
  for (const auto& [report, name, text] : cases) {
    std::ostringstream out;
    mcp_hints::render_text(out, report, {});
    EXPECT_NE(out.str().find(" — " + text + " (fail on warning)"), std::string::npos) << name << ": " << out.str();
    const json j = mcp_hints::report_json(report, {});
    EXPECT_EQ(j["summary"]["verdict"], name);
    EXPECT_TRUE(mcp_hints::published_schemas().validate("lint-report.schema.json", j).empty()) << name;
    std::ostringstream junit;
    mcp_hints::render_junit(junit, report, {});
    const bool skips = junit.str().find("<skipped message=\"not known to have run") != std::string::npos;
    EXPECT_EQ(skips, name == "incomplete") << junit.str();
    if (name == "incomplete") {
      EXPECT_NE(junit.str().find("name=\"run\"><error message=\"incomplete: session 1"), std::string::npos)
          << junit.str();
      EXPECT_EQ(junit.str().find(" skipped=\"0\">"), std::string::npos) << junit.str();
    }
  }
}

// A check-server run's tool calls: each one, whatever came of it, in every format, with the shape
// of its arguments and never their values.
TEST(Report, EveryFormatShowsEveryCallWithTheShapeOfItsArguments) {
  using Outcome = mcp_hints::ToolCallRecord::Outcome;
  mcp_hints::LintReport report;
  report.server_checks_ran = true;
  report.files.push_back({"server", 1, std::nullopt, {"t"}, {0}, {}});
  report.calls = {{"list_pods", {{"namespace", "secret-ns"}, {"limit", 3}}, Outcome::succeeded, ""},
                  {"read_inbox", json::object(), Outcome::tool_error, "read_inbox failed: permission denied"},
                  {"a<b", {{"q", json::array()}}, Outcome::failed, "tools/call failed with JSON-RPC error -32602: no"}};
  report.incomplete = "tools/call read_inbox answered isError true: read_inbox failed: permission denied";
  const std::vector<std::string> lines = {"list_pods {limit: number, namespace: string}: succeeded",
                                          "read_inbox {}: tool-error: read_inbox failed: permission denied",
                                          "a<b {q: array}: failed: tools/call failed with JSON-RPC error -32602: no"};

  const json j = mcp_hints::report_json(report, {});
  for (const auto& x : mcp_hints::published_schemas().validate("lint-report.schema.json", j))
    ADD_FAILURE() << x.pointer << " " << x.message;
  ASSERT_EQ(j["calls"].size(), 3u);
  EXPECT_EQ(j["calls"][0]["arguments"], json({{"namespace", "string"}, {"limit", "number"}}));
  EXPECT_EQ(j["calls"][0]["outcome"], "succeeded");
  EXPECT_EQ(j["calls"][1]["outcome"], "tool-error");
  EXPECT_EQ(j["calls"][1]["detail"], "read_inbox failed: permission denied");
  EXPECT_EQ(j["calls"][2]["outcome"], "failed");
  // A lint report has no calls member: nothing was called.
  EXPECT_FALSE(mcp_hints::report_json(sample_report(), {}).contains("calls"));

  std::ostringstream text;
  mcp_hints::render_text(text, report, {});
  EXPECT_NE(text.str().find("tools/call (3 calls)\n"), std::string::npos) << text.str();
  for (const auto& line : lines) EXPECT_NE(text.str().find("  " + line + "\n"), std::string::npos) << text.str();

  std::ostringstream sarif;
  mcp_hints::render_sarif(sarif, report, {});
  const json notes = json::parse(sarif.str())["runs"][0]["invocations"][0]["toolExecutionNotifications"];
  std::vector<std::string> said;
  for (const auto& n : notes) said.push_back(n["message"]["text"].get<std::string>() + " " + n["level"].dump());
  for (std::size_t i = 0; i < lines.size(); ++i)
    EXPECT_NE(std::find(said.begin(), said.end(), "tools/call " + lines[i] + (i ? " \"error\"" : " \"note\"")),
              said.end())
        << notes.dump(1);

  std::ostringstream junit;
  mcp_hints::render_junit(junit, report, {});
  const std::string x = junit.str();
  EXPECT_NE(x.find("name=\"tools/call 1 list_pods {limit: number, namespace: string}\"/>"), std::string::npos) << x;
  EXPECT_NE(x.find("name=\"tools/call 2 read_inbox {}\"><error message=\"" + mcp_hints::html_escape(lines[1])),
            std::string::npos)
      << x;
  EXPECT_NE(x.find("name=\"tools/call 3 a&lt;b {q: array}\"><error "), std::string::npos) << x;

  // No format shows an argument's value.
  for (const std::string& out : {j.dump(), text.str(), sarif.str(), x})
    EXPECT_EQ(out.find("secret-ns"), std::string::npos) << out;
}

// Findings past the memory budget are on disk: every format writes them to the byte as it writes
// findings in memory. The runs cover suppressions and a baseline (a stale entry among them),
// tools of one name and tools of none, run findings, and a tool's finding that comes after other
// tools' (JUnit's walk, which takes findings tool after tool, must gather that one first).
TEST(Report, FindingsOnDiskAreWrittenAsFindingsInMemory) {
  test_support::TempDir dir;
  json tools = json::array();
  for (const char* name : {"dup", "solo", "dup", "", "other", ""})
    tools.push_back({{"name", name},
                     {"description", "Deletes every record"},
                     {"inputSchema", {{"type", "object"}}},
                     {"annotations", {{"readOnlyHint", true}, {"destructiveHint", true}, {"riskLevel", "loud"}}}});
  if (tools[3]["name"] == "") tools[3].erase("name");
  const auto catalog = dir.write("names.json", json{{"tools", tools}}.dump(1));
  auto memory = mcp_hints::Linter({}).lint_files(
      {catalog.string(), test_support::fixture("lint/negative/risk.understated.json").string(),
       (test_support::source_dir() / "examples" / "catalogs" / "bad-catalog.json").string(), "/nonexistent/file.json"});
  ASSERT_GT(memory.findings.size(), 20u);
  ASSERT_FALSE(memory.findings.spilled());
  const auto on_disk = [](const mcp_hints::LintReport& report) {
    mcp_hints::LintReport copy = report;
    copy.findings = mcp_hints::FindingList(0);
    for (const auto& f : report.findings) copy.findings.push_back(f);
    EXPECT_TRUE(copy.findings.spilled());
    return copy;
  };
  const auto expect_same = [](const mcp_hints::LintReport& a, const mcp_hints::LintReport& b, const std::string& what) {
    using Render = void (*)(std::ostream&, const mcp_hints::LintReport&, const mcp_hints::ReportOptions&);
    for (const auto& [name, render] :
         std::vector<std::pair<std::string, Render>>{{"json", mcp_hints::write_report_json},
                                                     {"text", mcp_hints::render_text},
                                                     {"sarif", mcp_hints::render_sarif},
                                                     {"junit", mcp_hints::render_junit},
                                                     {"github", mcp_hints::render_github}})
      for (const mcp_hints::ReportOptions& options :
           {mcp_hints::ReportOptions{}, mcp_hints::ReportOptions{mcp_hints::Level::info, true, true},
            mcp_hints::ReportOptions{std::nullopt, false, false}}) {
        std::ostringstream x, y;
        render(x, a, options);
        render(y, b, options);
        EXPECT_EQ(x.str(), y.str()) << what << ", " << name;
      }
    EXPECT_EQ(mcp_hints::baseline_json(a, "lint").dump(), mcp_hints::baseline_json(b, "lint").dump()) << what;
  };
  // A tool's finding after the other tools': as the live check's run can add one.
  memory.findings.push_back(
      finding("risk.understated", mcp_hints::Level::error, catalog.string(), "solo", "/tools/1", 3, 5, "late", "p"));
  expect_same(memory, on_disk(memory), "as linted");
  std::ostringstream junit;
  mcp_hints::render_junit(junit, on_disk(memory), {});
  const std::string solo =
      "classname=\"" + mcp_hints::html_escape(catalog.string()) + ".solo\" name=\"risk.understated\"";
  ASSERT_NE(junit.str().find(solo), std::string::npos);
  EXPECT_NE(junit.str().find("late", junit.str().find(solo)), std::string::npos) << "the late finding is in its case";

  // Judged against a baseline of every other finding (and an entry no finding matches) and
  // suppression rules, on disk and in memory alike.
  const auto prints = mcp_hints::fingerprints(memory.findings);
  mcp_hints::Baseline baseline{"b.json", {}};
  for (std::size_t i = 0; i < prints.size(); i += 2)
    baseline.entries.push_back({memory.findings[i].check, memory.findings[i].tool, prints[i], "m"});
  baseline.entries.push_back({"risk.understated", "gone", std::string(64, '0'), "fixed since"});
  const mcp_hints::SuppressionsFile rules{
      "s.json", {{"schema.*", "d*", "known"}, {"risk.understated", "nothing-matches", "unused"}}};
  auto disk = on_disk(memory);
  mcp_hints::apply_suppressions(memory, &baseline, &rules);
  mcp_hints::apply_suppressions(disk, &baseline, &rules);
  EXPECT_TRUE(disk.findings.spilled());
  EXPECT_GT(memory.suppressed_count(), 10u);
  EXPECT_EQ(disk.suppressed_count(), memory.suppressed_count());
  EXPECT_EQ(disk.baselined_count(), memory.baselined_count());
  for (mcp_hints::Level level : {mcp_hints::Level::info, mcp_hints::Level::warning, mcp_hints::Level::error})
    EXPECT_EQ(disk.count(level), memory.count(level));
  expect_same(memory, disk, "judged");
}
