// The mcp-hints command as a user runs it: options, formats, exit codes, and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "mcp_hints/checks/checks.hpp"
#include "mcp_hints/checks/suppressions.hpp"
#include "mcp_hints/json/version.hpp"
#include "schema_check.hpp"
#include "test_support.hpp"
#include "time_bounds.hpp"

using json = nlohmann::json;
using test_support::run_cli;

namespace {

std::string lint_fixture(const std::string& name) { return test_support::fixture("lint/" + name).string(); }

// Bad input must give exactly one line on stderr that names the file, and exit 2.
void expect_bad_input(const test_support::RunResult& r, const std::string& file, const std::string& says) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(test_support::count_lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
}

}  // namespace

TEST(Cli, HelpDescribesEveryOption) {
  auto top = run_cli({"--help"});
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.out.find("lint"), std::string::npos);
  auto r = run_cli({"lint", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* option : {"--format", "--output", "--fail-on", "--strict", "--spec-revision", "--color",
                             "--max-bytes", "--max-depth", "--max-string", "--list-checks", "--baseline",
                             "--write-baseline", "--config", "--show-suppressed", "exit codes"})
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
  EXPECT_EQ(run_cli({}).exit_code, 2);
  EXPECT_EQ(run_cli({"frobnicate"}).exit_code, 2);
  EXPECT_EQ(run_cli({"--version"}).out, "mcp-hints " + std::string(mcp_hints::kVersion) + "\n");
  EXPECT_TRUE(std::regex_match(std::string(mcp_hints::kVersion), std::regex(R"([0-9]+\.[0-9]+\.[0-9]+)")));
}

// Help and lists are read in an 100-column terminal: no line is wider, and a list's second
// column starts at one offset on every row.
TEST(Cli, HelpAndListsFitIn100ColumnsAndAlignTheirColumns) {
  std::vector<std::vector<std::string>> outputs = {{"--help"}, {"certify", "--list"}, {"mock", "--list"}};
  for (const char* command :
       {"lint", "check-server", "report", "infer", "translate", "mock", "model", "certify", "vocab"})
    outputs.push_back({command, "--help"});
  for (const auto& args : outputs) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << args[0];
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
      EXPECT_LE(line.size(), 100u) << args[0] << " " << args.back() << ": " << line;
  }
  // The top level: each command and its summary in two columns, in the README's order.
  const auto top = run_cli({"--help"}).out;
  std::vector<std::size_t> summary_at;
  std::istringstream lines(top);
  for (std::string line; std::getline(lines, line);) {
    static const std::regex command_row(R"(  ([a-z-]+)( +)\S.*)");
    std::smatch m;
    if (!std::regex_match(line, m, command_row)) continue;
    summary_at.push_back(2 + m[1].length() + m[2].length());
  }
  ASSERT_EQ(summary_at.size(), 10u) << top;
  EXPECT_TRUE(std::all_of(summary_at.begin(), summary_at.end(), [&](std::size_t at) { return at == summary_at[0]; }))
      << top;
  const std::string readme = test_support::read_file(test_support::source_dir() / "README.md");
  const std::string glance = readme.substr(readme.find("## Commands at a glance"), 2000);
  std::size_t last = 0, last_in_readme = 0;
  for (const char* command :
       {"lint", "check-server", "report", "infer", "translate", "mock", "model", "certify", "matrix", "vocab"}) {
    const std::size_t in_help = top.find("\n  " + std::string(command) + " ");
    const std::size_t in_readme = glance.find("| `" + std::string(command));
    ASSERT_NE(in_help, std::string::npos) << command;
    ASSERT_NE(in_readme, std::string::npos) << command;
    EXPECT_GT(in_help, last) << command << " is out of the README's order";
    EXPECT_GE(in_readme, last_in_readme) << command << ": the README's table has another order";
    last = in_help;
    last_in_readme = in_readme;
  }
  // certify --list: every level starts in one column, even after the longest check id.
  const auto list = run_cli({"certify", "--list"}).out;
  std::set<std::size_t> level_at;
  std::istringstream list_lines(list);
  for (std::string line; std::getline(list_lines, line);) {
    static const std::regex row(R"((\s*\S+\s+)(MUST|SHOULD|MAY)  .*)");
    std::smatch m;
    if (std::regex_match(line, m, row)) level_at.insert(m[1].length());
  }
  EXPECT_EQ(level_at.size(), 1u) << list;
  EXPECT_EQ(list.find("SHOULDNever"), std::string::npos);
}

// SARIF's helpUri links land on headings of docs/checks.md: their anchors as GitHub makes them
// (lower case; punctuation dropped; each space a hyphen).
TEST(Cli, SarifHelpLinksLandOnDocsHeadings) {
  std::set<std::string> anchors;
  std::istringstream readme(test_support::read_file(test_support::source_dir() / "docs" / "checks.md"));
  for (std::string line; std::getline(readme, line);) {
    if (!line.starts_with("#")) continue;
    std::string anchor;
    for (const char c : line.substr(line.find_first_not_of('#'))) {
      const auto u = static_cast<unsigned char>(c);
      if (std::isalnum(u) || c == '-' || c == '_')
        anchor += static_cast<char>(std::tolower(u));
      else if (c == ' ')
        anchor += '-';
    }
    anchors.insert(anchor.substr(anchor.find_first_not_of('-')));
  }
  std::set<std::string> linked;
  for (const auto& run : {run_cli({"lint", "--format", "sarif", lint_fixture("clean.json")}),
                          run_cli({"check-server", "--format", "sarif", "--observe", "0", "--", MCP_HINTS_SAMPLE_SERVER,
                                   "--catalog", lint_fixture("clean.json")})})
    for (const json sarif = json::parse(run.out); const auto& rule : sarif["runs"][0]["tool"]["driver"]["rules"]) {
      const std::string uri = rule["helpUri"];
      EXPECT_NE(uri.find("/blob/main/docs/checks.md#"), std::string::npos) << uri;
      linked.insert(uri.substr(uri.find('#') + 1));
    }
  EXPECT_EQ(linked.size(), 3u);  // the lint checks' table, check-server's, and the baseline's
  for (const auto& anchor : linked) EXPECT_TRUE(anchors.count(anchor)) << anchor;
}

TEST(Cli, MistypedNamesGetADidYouMean) {
  const auto command = run_cli({"lnt"});
  EXPECT_EQ(command.exit_code, 2);
  EXPECT_NE(command.err.find("did you mean 'lint'?"), std::string::npos) << command.err;
  const auto scenario = run_cli({"mock", "--scenario", "confirm.min-trus"});
  EXPECT_EQ(scenario.exit_code, 2);
  EXPECT_NE(scenario.err.find("did you mean 'confirm.min-trust'?"), std::string::npos) << scenario.err;
  const auto far = run_cli({"mock", "--scenario", "nothing-like-it"});
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

TEST(Cli, ListChecksNamesEveryRegisteredCheck) {
  auto text = run_cli({"lint", "--list-checks"});
  auto j = run_cli({"lint", "--list-checks", "--format", "json"});
  ASSERT_EQ(text.exit_code, 0);
  const json list = test_support::expect_matches_schema("lint-checks.schema.json", j.out);
  // The tool checks and the run checks (of the baseline and the suppressions file); no server check.
  ASSERT_EQ(list.size(), mcp_hints::lint_checks().size() + mcp_hints::kRunChecks.size());
  for (const auto& c : mcp_hints::kRunChecks) {
    EXPECT_NE(text.out.find(std::string(c.id)), std::string::npos) << c.id;
    EXPECT_TRUE(std::any_of(list.begin(), list.end(), [&](const json& item) {
      return item["id"] == std::string(c.id) && item["scope"] == "run";
    })) << c.id;
  }
  EXPECT_TRUE(std::none_of(list.begin(), list.end(), [](const json& item) { return item["scope"] == "server"; }));
  for (const auto& [pointer, broken] : std::vector<std::pair<std::string, json>>{{"/0/scope", "global"},
                                                                                 {"/0/level", "fatal"},
                                                                                 {"/0/id", "no-area"},
                                                                                 {"/0/proposal_section", "x"},
                                                                                 {"/0/sentence", nullptr}})
    test_support::expect_schema_refuses("lint-checks.schema.json", list, pointer, broken);
  for (const auto& c : mcp_hints::lint_checks()) {
    EXPECT_NE(text.out.find(std::string(c.info.id)), std::string::npos) << c.info.id;
  }
  for (const auto& item : list) EXPECT_TRUE(item.contains("proposal") && item.contains("level"));
  // Each check with the sentence it enforces, as its findings quote it.
  EXPECT_NE(text.out.find("-> “The names within an object SHOULD be unique.” — RFC 8259, 4. Objects"),
            std::string::npos)
      << text.out;
  EXPECT_EQ(list[0]["sentence"]["id"], "rfc-8259/unique-names");
}

TEST(Cli, ExitCodesFollowTheFailOnLevel) {
  EXPECT_EQ(run_cli({"lint", lint_fixture("clean.json")}).exit_code, 0);
  EXPECT_EQ(run_cli({"lint", lint_fixture("negative/risk.understated.json")}).exit_code, 1);
  EXPECT_EQ(run_cli({"lint", "--fail-on", "never", lint_fixture("negative/risk.understated.json")}).exit_code, 0);
  // Only warnings (a SHOULD, or the suite's own rule): fail by default, as with --strict or
  // --fail-on warning; pass when only a MUST would fail the run.
  const auto warn = lint_fixture("negative/placement.annotation-only.json");
  EXPECT_EQ(run_cli({"lint", warn}).exit_code, 1);
  EXPECT_EQ(run_cli({"lint", "--strict", warn}).exit_code, 1);
  EXPECT_EQ(run_cli({"lint", "--fail-on", "warning", warn}).exit_code, 1);
  EXPECT_EQ(run_cli({"lint", "--fail-on", "error", warn}).exit_code, 0);
  // Only info: fails only with --fail-on info.
  const auto info = lint_fixture("negative/agency.destructive-unconfirmed.json");
  EXPECT_EQ(run_cli({"lint", info}).exit_code, 0);
  EXPECT_EQ(run_cli({"lint", "--strict", info}).exit_code, 0);
  EXPECT_EQ(run_cli({"lint", "--fail-on", "info", info}).exit_code, 1);
}

TEST(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(run_cli({"lint"}).exit_code, 2);
  EXPECT_EQ(run_cli({"lint", "--format", "yaml", lint_fixture("clean.json")}).exit_code, 2);
  EXPECT_EQ(run_cli({"lint", "--fail-on", "fatal", lint_fixture("clean.json")}).exit_code, 2);
  EXPECT_EQ(run_cli({"lint", "--spec-revision", "2024-11-05", lint_fixture("clean.json")}).exit_code, 2);
  EXPECT_EQ(run_cli({"lint", "--no-such-option", lint_fixture("clean.json")}).exit_code, 2);
  EXPECT_EQ(run_cli({"lint", "--max-bytes", "lots", lint_fixture("clean.json")}).exit_code, 2);
  EXPECT_EQ(run_cli({"lint", "--color", "sometimes", lint_fixture("clean.json")}).exit_code, 2);
}

TEST(Cli, EveryFormatIsWellFormed) {
  const auto bad = lint_fixture("negative/risk.understated.json");
  auto j = run_cli({"lint", "--format", "json", bad});
  EXPECT_EQ(j.exit_code, 1);
  EXPECT_EQ(json::parse(j.out)["summary"]["warning"], 2);
  auto s = run_cli({"lint", "--format", "sarif", bad});
  EXPECT_EQ(json::parse(s.out)["runs"][0]["results"].size(), 2u);
  auto x = run_cli({"lint", "--format", "junit", bad});
  EXPECT_TRUE(x.out.starts_with("<?xml"));
  auto g = run_cli({"lint", "--format", "github", bad});
  EXPECT_EQ(g.exit_code, 1);
  EXPECT_EQ(test_support::count_lines(g.out), 2u) << g.out;
  EXPECT_TRUE(g.out.starts_with("::warning file=" + bad + ",line=")) << g.out;
  auto t = run_cli({"lint", bad});
  EXPECT_NE(t.out.find("risk.understated"), std::string::npos);
  EXPECT_EQ(t.out.find("\033["), std::string::npos);  // not a terminal: no colour
  auto c = run_cli({"lint", "--color", "always", bad});
  EXPECT_NE(c.out.find("\033["), std::string::npos);
}

TEST(Cli, ReadsStandardInputAndWritesToAFile) {
  test_support::TempDir dir;
  const auto out = dir.path() / "report.json";
  auto r = run_cli({"lint", "--format", "json", "--output", out.string(), "-"},
                   lint_fixture("negative/risk.understated.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  const json report = test_support::read_json(out);
  EXPECT_EQ(report["files"][0]["file"], "-");
  EXPECT_EQ(report["toolCount"], 2);
}

TEST(Cli, AReportThatCannotBeWrittenIsAnIncompleteRun) {
  auto r = run_cli({"lint", "--output", "/nonexistent-dir/report.txt", lint_fixture("clean.json")});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("cannot write /nonexistent-dir/report.txt"), std::string::npos);
}

TEST(Cli, BadInputGetsOneLineAndExitTwo) {
  test_support::TempDir dir;
  expect_bad_input(run_cli({"lint", "--format", "json", (dir.path() / "missing.json").string()}), "missing.json",
                   "cannot open");
  expect_bad_input(run_cli({"lint", "--format", "json", dir.write("a.json", "{\"tools\": [1,,]}").string()}), "a.json",
                   "not valid JSON: parse error at line 1, column 14");
  expect_bad_input(run_cli({"lint", "--format", "json", dir.write("b.json", "{\"items\": []}").string()}), "b.json",
                   "not a tools/list result");
  expect_bad_input(run_cli({"lint", "--format", "json", dir.write("c.json", "{\"tools\": 5}").string()}), "c.json",
                   "the tools member is not an array at /tools");
  const std::string deep =
      "{\"tools\":[{\"annotations\":" + std::string(100000, '[') + std::string(100000, ']') + "}]}";
  expect_bad_input(run_cli({"lint", "--format", "json", dir.write("d.json", deep).string()}), "d.json",
                   "nesting deeper than 256 levels at /tools/0/annotations");
  // The text format says it in the report itself, on one line.
  auto text = run_cli({"lint", dir.write("e.json", "\xff\xfe").string()});
  EXPECT_EQ(text.exit_code, 2);
  EXPECT_NE(text.out.find("e.json: error: not valid JSON"), std::string::npos) << text.out;
}

TEST(Cli, AHundredMegabytesOfGarbageEndsQuicklyWithOneLine) {
  test_support::TempDir dir;
  const auto path = dir.path() / "huge.json";
  {
    std::ofstream out(path, std::ios::binary);
    const std::string chunk(1 << 20, 'x');
    out << "{\"tools\": [\"";  // an unterminated 100 MB string
    for (int i = 0; i < 100; ++i) out << chunk;
  }
  expect_bad_input(run_cli({"lint", "--format", "json", path.string()}), "huge.json",
                   "a string longer than the limit of 16777216 bytes at /tools/0 (--max-string raises it)");
  expect_bad_input(run_cli({"lint", "--format", "json", "--max-string", "200000000", path.string()}), "huge.json",
                   "not valid JSON: parse error at line 1");
  expect_bad_input(run_cli({"lint", "--format", "json", "--max-bytes", "1000000", path.string()}), "huge.json",
                   "larger than the limit of 1000000 bytes (--max-bytes raises it)");
}

TEST(Cli, AMegabyteStringUnderAPatternCheckIsAFindingNotACrash) {
  test_support::TempDir dir;
  const std::string key(1 << 20, 'k');
  const json doc = {
      {"tools",
       json::array(
           {{{"name", "t"}, {"inputSchema", {{"type", "object"}}}, {"_meta", {{key, 1}}}},
            {{"name", "u"}, {"inputSchema", {{"type", "object"}}}, {"description", std::string(1 << 20, 'd')}}})}};
  auto r = run_cli({"lint", "--format", "json", dir.write("long.json", doc.dump()).string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const json report = json::parse(r.out);
  ASSERT_EQ(report["findings"].size(), 1u);  // the long description is fine: no pattern applies to it
  EXPECT_EQ(report["findings"][0]["check"], "schema.spec-tool");
  EXPECT_NE(report["findings"][0]["message"].get<std::string>().find("too long to check"), std::string::npos);
}

TEST(Cli, LintsSeveralFilesInOneRun) {
  auto r = run_cli({"lint", "--format", "json", lint_fixture("clean.json"), lint_fixture("spec-hints-only.json"),
                    lint_fixture("negative/hints.readonly-and-destructive.json")});
  EXPECT_EQ(r.exit_code, 0);  // a note only (info: the specification's definition)
  const json report = json::parse(r.out);
  EXPECT_EQ(report["files"].size(), 3u);
  EXPECT_EQ(report["toolCount"], 22);
  EXPECT_EQ(report["summary"]["info"], 1);
}

TEST(Cli, TheBundledExamplesGiveTheDemoVerdicts) {
  const auto examples = test_support::source_dir() / "examples" / "catalogs";
  auto good = run_cli({"lint", "--format", "json", "--fail-on", "info", (examples / "good-catalog.json").string()});
  EXPECT_EQ(good.exit_code, 0) << good.out;
  auto bad = run_cli({"lint", "--format", "json", (examples / "bad-catalog.json").string()});
  EXPECT_EQ(bad.exit_code, 1);
  const json report = json::parse(bad.out);
  std::set<std::string> fired;
  for (const auto& f : report["findings"]) fired.insert(f["check"].get<std::string>());
  // The bad catalog shows most rules at once; it is what `make demo` prints.
  EXPECT_GE(fired.size(), 14u);
  for (const char* id : {"schema.spec-tool", "hints.readonly-contradiction", "confirmation.contradiction",
                         "sensitivity.result-understated", "placement.annotation-only", "meta.reserved-prefix"})
    EXPECT_TRUE(fired.count(id)) << id;
}

// The docs: README.md and every page of docs/.
TEST(Cli, TheDocsDocumentEveryCheckAndOption) {
  std::string readme = test_support::read_file(test_support::source_dir() / "README.md");
  for (const auto& page : std::filesystem::directory_iterator(test_support::source_dir() / "docs"))
    if (page.path().extension() == ".md") readme += test_support::read_file(page.path());
  for (const auto& c : mcp_hints::all_checks())
    EXPECT_NE(readme.find(std::string(1, '`').append(c.id).append("`")), std::string::npos) << c.id;
  for (const char* option : {"--format",
                             "--output",
                             "--fail-on",
                             "--strict",
                             "--spec-revision",
                             "--color",
                             "--max-bytes",
                             "--max-depth",
                             "--max-string",
                             "--list-checks",
                             "--baseline",
                             "--write-baseline",
                             "--config",
                             "--show-suppressed",
                             ".mcp-hints.json",
                             "--url",
                             "--timeout",
                             "--request-timeout",
                             "--observe",
                             "--env",
                             "--call",
                             "--allow-side-effects",
                             "--scenario",
                             "--server",
                             "--transport",
                             "--port",
                             "--record",
                             "--max-message",
                             "--client",
                             "--all",
                             "--expected-failures",
                             "--list",
                             "--vocab",
                             "--infer",
                             "--apply",
                             "--placement",
                             "--meta-prefix",
                             "--to",
                             "MCP_HINTS_CLIENT",
                             "MCP_HINTS_TRANSPORT",
                             "MCP_HINTS_EXPECTED_FAILURES",
                             "MCP_HINTS_CLIENT_OUTPUT"})
    EXPECT_NE(readme.find(option), std::string::npos) << option;
}

// An exception no command foresaw still ends the run with one line and an exit code of the
// contract, never an abort. Here nlohmann::json refuses, while the output is rendered, to write a
// file name that is not UTF-8 into JSON: a type_error, which is no mcp_hints::Error.
TEST(Cli, AnExceptionNoCommandExpectsEndsTheRunWithOneLine) {
  test_support::TempDir dir;
  const auto draft = dir.write("draft-\xff.json", R"({"properties": {"x": {}}})");
  const auto r = run_cli({"vocab", "check", draft.string(), "--format", "json"});
  EXPECT_EQ(r.exit_code, 3) << r.err;  // incomplete: nothing says the input is at fault
  EXPECT_EQ(test_support::count_lines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("mcp-hints vocab: internal error: [json.exception.type_error.316]", 0), 0u) << r.err;
  EXPECT_EQ(r.out, "");
  // The same draft as text is checked as usual: it was the JSON output that failed.
  EXPECT_EQ(run_cli({"vocab", "check", draft.string()}).exit_code, 0);
}

// An mcp_hints::Error that the command leaves to main ends the run with its category's exit code.
TEST(Cli, AnErrorTheCommandLeavesToMainEndsByItsCategory) {
  const auto r = run_cli({"mock", "--scenario", "mock.basic", "--record", "/nonexistent/dir/record.jsonl"});
  EXPECT_EQ(r.exit_code, 3) << r.err;  // an output that cannot be written: incomplete
  EXPECT_EQ(r.err, "mcp-hints mock: cannot record to /nonexistent/dir/record.jsonl: No such file or directory\n");
  const auto bad = run_cli({"mock", "--scenario", "/nonexistent/scenario.json"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;  // input that cannot be used: bad input
  EXPECT_EQ(test_support::count_lines(bad.err), 1u) << bad.err;
}

// Memory running out is no crash either: the limits allow a 64 MB name, the machine (here a
// 150 MB address space) does not.
TEST(Cli, MemoryRunningOutEndsTheRunWithOneLine) {
  // AddressSanitizer reserves terabytes of shadow memory at start: under a 150 MB ulimit the
  // sanitizer build cannot start at all, so this runs in the plain build only.
  if (test_support::kUnderSanitizers) GTEST_SKIP() << "a sanitizer build cannot run under ulimit -v";
  test_support::TempDir dir;
  const auto path = dir.path() / "long-name.json";
  {
    std::ofstream out(path, std::ios::binary);
    const std::string chunk(1 << 20, 'a');
    out << "{\"tools\": [{\"name\": \"";
    for (int i = 0; i < 64; ++i) out << chunk;
    out << "\"}]}";
  }
  const auto r = run_cli({"lint", "--max-string", "1000000000", path.string()}, "/dev/null", "ulimit -v 150000 &&");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.err, "mcp-hints lint: out of memory\n");
}
