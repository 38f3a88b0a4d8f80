// The baseline and the suppressions file (suppressions.hpp): globs at their boundaries,
// fingerprints that survive reformatting and reordering, stale entries and unused suppressions,
// and the files refused with one line.
#include "mcp_hints/checks/suppressions.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "mcp_hints/vocab/published_schemas.hpp"
#include "schema_check.hpp"
#include "test_support.hpp"

using json = nlohmann::json;
using mcp_hints::Finding;
using mcp_hints::LintReport;

namespace {

json bad_catalog() {
  return test_support::read_json(test_support::source_dir() / "examples" / "catalogs" / "bad-catalog.json");
}

// Lints a catalog given as text, as lint reads a file.
LintReport lint_text(const std::string& text, const std::string& file = "catalog.json") {
  LintReport report;
  report.spec_revision = std::string(mcp_hints::kDefaultSpecRevision);
  std::istringstream in(text);
  report.files.push_back(mcp_hints::Linter({}).lint_stream(in, file, report.findings));
  EXPECT_FALSE(report.files.back().error) << report.files.back().error.value_or("");
  return report;
}

// Each finding's fingerprint with what it is about: check, tool, and the message as said.
std::multiset<std::string> keyed_prints(const LintReport& report) {
  const auto prints = mcp_hints::fingerprints(report.findings);
  std::multiset<std::string> out;
  for (std::size_t i = 0; i < prints.size(); ++i)
    out.insert(report.findings[i].check + " " + report.findings[i].tool + " " + prints[i]);
  return out;
}

std::size_t counting(const LintReport& report) {
  return static_cast<std::size_t>(
      std::count_if(report.findings.begin(), report.findings.end(), [](const Finding& f) { return !f.suppressed(); }));
}

std::vector<const Finding*> of_check(const LintReport& report, const std::string& id) {
  std::vector<const Finding*> out;
  for (const auto& f : report.findings)
    if (f.check == id) out.push_back(&f);
  return out;
}

// The baseline of a report, written to a file and read back as --baseline reads it.
mcp_hints::Baseline round_trip(const LintReport& report, const test_support::TempDir& dir,
                               const std::string& name = "baseline.json") {
  const auto path = dir.write(name, mcp_hints::baseline_json(report, "lint").dump(2));
  return mcp_hints::read_baseline(path.string());
}

std::string refusal(const std::function<void()>& read) {
  try {
    read();
  } catch (const mcp_hints::InputError& e) {
    return std::string(e.what()) + (e.pointer().empty() ? "" : " at " + e.pointer());
  }
  ADD_FAILURE() << "not refused";
  return {};
}

}  // namespace

TEST(Suppressions, GlobsMatchWholeNamesAtTheirBoundaries) {
  using mcp_hints::glob_matches;
  struct Case {
    const char* glob;
    const char* text;
    bool matches;
  };
  for (const auto& [glob, text, matches] : std::vector<Case>{
           {"*", "", true},
           {"*", "read_file", true},
           {"read_*", "read_", true},  // '*' takes nothing too
           {"read_*", "read_file", true},
           {"read_*", "read", false},
           {"read_*", "xread_file", false},  // anchored at the start
           {"*_file", "_file", true},
           {"*_file", "read_files", false},  // ... and at the end
           {"?", "a", true},
           {"?", "\xc3\xa9", true},  // one character, two bytes
           {"?", "", false},
           {"?", "ab", false},
           {"a*b*c", "abc", true},
           {"a*b*c", "aXbYc", true},
           {"a*b*c", "acb", false},
           {"*ab", "aab", true},  // the star gives back what the rest needs
           {"*a", "aaa", true},
           {"naming.*", "naming.verb-effect", true},
           {"naming.*", "namingx", false},  // '.' is itself, not any character
           {"Read", "read", false},         // case counts
           {"", "", true},
           {"", "a", false},
       })
    EXPECT_EQ(glob_matches(glob, text), matches) << "'" << glob << "' on '" << text << "'";
}

TEST(Suppressions, AFingerprintIsSha256OfCheckToolPointerAndOccurrence) {
  const auto report = lint_text(bad_catalog().dump(2));
  const auto prints = mcp_hints::fingerprints(report.findings);
  ASSERT_EQ(prints.size(), report.findings.size());
  ASSERT_GE(prints.size(), 10u);
  for (const auto& p : prints) EXPECT_TRUE(std::regex_match(p, std::regex("sha256:[0-9a-f]{64}"))) << p;
  // Every finding its own, though risk.understated says two things of one value of purge_cache.
  EXPECT_EQ(std::set<std::string>(prints.begin(), prints.end()).size(), prints.size());
  std::size_t same_place = 0;
  for (std::size_t i = 0; i < report.findings.size(); ++i)
    for (std::size_t j = i + 1; j < report.findings.size(); ++j)
      same_place += report.findings[i].check == report.findings[j].check &&
                    report.findings[i].tool == report.findings[j].tool &&
                    report.findings[i].pointer == report.findings[j].pointer;
  EXPECT_GE(same_place, 1u) << "the catalog should hold two findings alike (the occurrence tells them apart)";
  // A finding of another tool, or at another place, has another fingerprint (the key is not empty).
  json renamed = bad_catalog();
  renamed["result"]["tools"][0]["name"] = "purge_everything";
  const auto other = mcp_hints::fingerprints(lint_text(renamed.dump()).findings);
  std::size_t shared = 0, purge_cache = 0;
  for (const auto& p : other) shared += std::count(prints.begin(), prints.end(), p);
  for (const auto& f : report.findings) purge_cache += f.tool == "purge_cache";
  EXPECT_GT(purge_cache, 0u);
  EXPECT_EQ(shared, prints.size() - purge_cache) << "only purge_cache's findings change with its name";
}

TEST(Suppressions, FingerprintsSurviveReformattingReorderingAndShiftedLines) {
  const json catalog = bad_catalog();
  const auto original = lint_text(catalog.dump(2));
  const auto expected = keyed_prints(original);
  // Compact: every line number changes.
  const auto compact = lint_text(catalog.dump());
  EXPECT_NE(compact.findings.front().line, original.findings.front().line);
  EXPECT_EQ(keyed_prints(compact), expected);
  // Lines shifted by blank lines and indentation in front.
  EXPECT_EQ(keyed_prints(lint_text("\n\n\n      " + catalog.dump(8))), expected);
  // The tools in reverse order: every tool's pointer changes.
  json reversed = catalog;
  auto& tools = reversed["result"]["tools"];
  std::reverse(tools.begin(), tools.end());
  const auto reordered = lint_text(reversed.dump(1));
  auto pointers = [](const mcp_hints::LintReport& r) {
    std::multiset<std::string> out;
    for (const auto& f : r.findings) out.insert(f.pointer);
    return out;
  };
  EXPECT_NE(pointers(reordered), pointers(original));
  EXPECT_EQ(keyed_prints(reordered), expected);
  // A bare array of tools instead of a JSON-RPC response: another pointer to each tool, another file.
  EXPECT_EQ(keyed_prints(lint_text(tools.dump(), "elsewhere/tools.json")), keyed_prints(reordered));
  // The negative control: a tool's finding moved to another member is another finding.
  json moved = catalog;
  auto& autopilot = moved["result"]["tools"][3];
  ASSERT_EQ(autopilot["name"], "autopilot");
  autopilot["_meta"]["com.example/agencyHint"] = autopilot["annotations"]["agencyHint"];
  autopilot["annotations"].erase("agencyHint");
  EXPECT_NE(keyed_prints(lint_text(moved.dump(2))), expected);
}

TEST(Suppressions, TheBaselineOfARunAcceptsEveryFindingOfIt) {
  test_support::TempDir dir;
  auto report = lint_text(bad_catalog().dump(2));
  const json written = mcp_hints::baseline_json(report, "lint");
  // The published schema holds it; broken in one member, it does not.
  const json checked = test_support::expect_matches_schema("lint-baseline.schema.json", written.dump());
  ASSERT_EQ(checked["entries"].size(), report.findings.size());
  for (const auto& [pointer, broken] : std::vector<std::pair<std::string, json>>{{"/entries/0/fingerprint", "abc"},
                                                                                 {"/entries/0/line", 3},
                                                                                 {"/command", "certify"},
                                                                                 {"/formatVersion", 2},
                                                                                 {"/entries/0/checkId", "Bad"}})
    test_support::expect_schema_refuses("lint-baseline.schema.json", checked, pointer, broken);
  // Sorted, so the file diffs well whatever order the catalog has.
  EXPECT_TRUE(std::is_sorted(checked["entries"].begin(), checked["entries"].end(), [](const json& a, const json& b) {
    return std::tie(a["checkId"].get_ref<const std::string&>(), a["tool"].get_ref<const std::string&>()) <
           std::tie(b["checkId"].get_ref<const std::string&>(), b["tool"].get_ref<const std::string&>());
  }));
  const auto baseline = round_trip(report, dir);
  mcp_hints::apply_suppressions(report, &baseline, nullptr);
  EXPECT_EQ(counting(report), 0u);
  EXPECT_FALSE(report.fails(mcp_hints::Level::info));
  EXPECT_EQ(report.count(mcp_hints::Level::error), 0u);
  EXPECT_EQ(report.suppressed_count(), checked["entries"].size());
  EXPECT_EQ(report.baselined_count(), checked["entries"].size());
  for (const auto& f : report.findings) {
    ASSERT_EQ(f.suppressions.size(), 1u) << f.check;
    EXPECT_EQ(f.suppressions[0].source, mcp_hints::Suppression::Source::baseline);
    EXPECT_EQ(f.suppressions[0].justification, "in the baseline " + baseline.file);
  }
}

TEST(Suppressions, OnlyANewFindingCountsAndAFixedOneLeavesAStaleEntry) {
  test_support::TempDir dir;
  const json catalog = bad_catalog();
  const auto baseline = round_trip(lint_text(catalog.dump(2)), dir);
  // A new problem: a tool of the negative control of hints.readonly-and-destructive, which makes
  // that one check fire.
  json worse = catalog;
  json added = test_support::read_json(test_support::fixture("lint/negative/hints.readonly-and-destructive.json"));
  worse["result"]["tools"].push_back(added["tools"][0]);
  auto more = lint_text(worse.dump(2));
  mcp_hints::apply_suppressions(more, &baseline, nullptr);
  ASSERT_EQ(counting(more), 1u);
  for (const auto& f : more.findings) EXPECT_EQ(f.suppressed(), f.tool != "confused") << f.check << " " << f.tool;
  EXPECT_FALSE(more.fails(mcp_hints::Level::warning));  // it is info: the specification's definition
  EXPECT_TRUE(more.fails(mcp_hints::Level::info));
  EXPECT_TRUE(of_check(more, "baseline.stale").empty());
  // autopilot fixed: its two findings are gone, and their entries are stale.
  json better = catalog;
  better["result"]["tools"].erase(3);
  auto fewer = lint_text(better.dump(2));
  mcp_hints::apply_suppressions(fewer, &baseline, nullptr);
  const auto stale = of_check(fewer, "baseline.stale");
  ASSERT_EQ(stale.size(), 2u);
  for (const auto* f : stale) {
    EXPECT_EQ(f->level, mcp_hints::Level::warning);
    EXPECT_EQ(f->tool, "autopilot");
    EXPECT_EQ(f->file, baseline.file);
    EXPECT_TRUE(f->pointer.starts_with("/entries/")) << f->pointer;
    EXPECT_FALSE(f->suppressed());
    EXPECT_NE(f->message.find("matches no finding of this run"), std::string::npos) << f->message;
  }
  EXPECT_EQ(counting(fewer), 2u);  // the stale entries, and nothing else
  EXPECT_FALSE(fewer.fails(mcp_hints::Level::error));
  EXPECT_TRUE(fewer.fails(mcp_hints::Level::warning));
}

TEST(Suppressions, EntriesOfChecksThatDidNotRunAreNotStaleNorIsAnyOfARunThatSawNotEverything) {
  test_support::TempDir dir;
  const std::string fp = "sha256:" + std::string(64, '0');
  const json doc = {{"tool", "mcp-hints"},
                    {"version", "0"},
                    {"formatVersion", 1},
                    {"command", "check-server"},
                    {"entries",
                     {{{"checkId", "stability.relist"}, {"tool", "t"}, {"fingerprint", fp}, {"message", "m"}},
                      {{"checkId", "gone.check"},
                       {"tool", ""},
                       {"fingerprint", "sha256:" + std::string(64, '1')},
                       {"message", "m"}}}}};
  const auto baseline = mcp_hints::read_baseline(dir.write("b.json", doc.dump()).string());
  // lint runs no server check: only the entry of a check no one has any more is stale.
  auto lint = lint_text(R"({"tools": []})");
  mcp_hints::apply_suppressions(lint, &baseline, nullptr);
  const auto stale = of_check(lint, "baseline.stale");
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_NE(stale[0]->message.find("no check has the id 'gone.check'"), std::string::npos) << stale[0]->message;
  // check-server runs it: both are.
  auto live = lint_text(R"({"tools": []})");
  live.server_checks_ran = true;
  mcp_hints::apply_suppressions(live, &baseline, nullptr);
  EXPECT_EQ(of_check(live, "baseline.stale").size(), 2u);
  // An incomplete run may have missed findings: nothing is stale.
  live = lint_text(R"({"tools": []})");
  live.server_checks_ran = true;
  live.incomplete = "the server died";
  mcp_hints::apply_suppressions(live, &baseline, nullptr);
  EXPECT_TRUE(of_check(live, "baseline.stale").empty());
}

TEST(Suppressions, ABaselineIsReadWithinItsSchemaOrRefusedOnOneLine) {
  test_support::TempDir dir;
  json good = mcp_hints::baseline_json(lint_text(bad_catalog().dump()), "lint");
  EXPECT_NO_THROW(mcp_hints::read_baseline(dir.write("good.json", good.dump()).string()));
  json twice = good;
  twice["entries"].push_back(twice["entries"][0]);
  json no_print = good;
  no_print["entries"][0].erase("fingerprint");
  for (const auto& [name, text, says] :
       std::vector<std::tuple<std::string, std::string, std::string>>{{"twice", twice.dump(), "is given twice"},
                                                                      {"no-print", no_print.dump(), "not a baseline: "},
                                                                      {"not-json", "{\"entries\": [", "not valid JSON"},
                                                                      {"array", "[]", "not a baseline: "}}) {
    const auto path = dir.write(name + ".json", text);
    const std::string why = refusal([&] { mcp_hints::read_baseline(path.string()); });
    EXPECT_NE(why.find(says), std::string::npos) << name << ": " << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  }
  EXPECT_NE(refusal([&] { mcp_hints::read_baseline((dir.path() / "absent.json").string()); }).find("not a file"),
            std::string::npos);
}

TEST(Suppressions, ASuppressionNeedsAReasonAndACheckThatExists) {
  test_support::TempDir dir;
  auto config = [&](const json& suppressions) {
    return dir.write("config.json", json{{"suppressions", suppressions}}.dump()).string();
  };
  const auto read = mcp_hints::read_suppressions(
      config({{{"checkId", "infer.*"}, {"tool", "legacy_*"}, {"reason", "renamed in 2.0"}},
              {{"checkId", "placement.annotation-only"}, {"reason", "our client reads annotations only"}}}));
  ASSERT_EQ(read.rules.size(), 2u);
  EXPECT_EQ(read.rules[1].tool, "*");  // no tool: every tool
  EXPECT_EQ(read.rules[0].reason, "renamed in 2.0");
  struct Refused {
    json suppression;
    std::string says;
  };
  for (const auto& [suppression, says] : std::vector<Refused>{
           {{{"checkId", "placement.annotation-only"}}, "reason"},
           {{{"checkId", "placement.annotation-only"}, {"reason", ""}}, "/suppressions/0/reason"},
           {{{"checkId", "placement.annotation-only"}, {"reason", " \t "}}, "/suppressions/0/reason"},
           {{{"checkId", "placement.annotation-only"}, {"reason", "r"}, {"reasons", "r"}}, "reasons"},
           {{{"checkId", "placement.annotation-onyl"}, {"reason", "r"}},
            "no check has the id 'placement.annotation-onyl' (did you mean 'placement.annotation-only'?) at "
            "/suppressions/0/checkId"},
           {{{"checkId", "nothing.*"}, {"reason", "r"}}, "no check matches 'nothing.*'"},
           {{{"checkId", "Placement.annotation-only"}, {"reason", "r"}}, "/suppressions/0/checkId"},
       }) {
    const std::string why = refusal([&] { mcp_hints::read_suppressions(config(json::array({suppression}))); });
    EXPECT_NE(why.find(says), std::string::npos) << suppression.dump() << ": " << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  }
  // Its bound: one byte over a megabyte is refused before it is parsed.
  const auto big = dir.write("big.json", "{\"suppressions\": []}" + std::string(mcp_hints::kMaxSuppressionsBytes, ' '));
  EXPECT_NE(refusal([&] { mcp_hints::read_suppressions(big.string()); }).find("limit"), std::string::npos);
}

TEST(Suppressions, ASuppressionMarksWhatItMatchesAndOneThatMatchesNothingIsReported) {
  test_support::TempDir dir;
  auto report = lint_text(bad_catalog().dump(2));
  const std::size_t annotation_only = of_check(report, "placement.annotation-only").size();
  ASSERT_EQ(annotation_only, 4u);
  const auto path =
      dir.write("c.json", json{{"suppressions",
                                {{{"checkId", "placement.*"}, {"tool", "*_c*"}, {"reason", "first"}},
                                 {{"checkId", "placement.annotation-only"}, {"reason", "the rest"}},
                                 {{"checkId", "placement.*"}, {"tool", "get_*"}, {"reason", "shadowed"}},
                                 {{"checkId", "stability.relist"}, {"reason", "live only"}},
                                 {{"checkId", "schema.agency-hint"}, {"tool", "nobody"}, {"reason", "x"}}}}}
                              .dump());
  const auto file = mcp_hints::read_suppressions(path.string());
  mcp_hints::apply_suppressions(report, nullptr, &file);
  std::map<std::string, std::string> reason_by_tool;
  for (const auto* f : of_check(report, "placement.annotation-only")) {
    ASSERT_EQ(f->suppressions.size(), 1u);
    EXPECT_EQ(f->suppressions[0].source, mcp_hints::Suppression::Source::config);
    reason_by_tool[f->tool] = f->suppressions[0].justification;
  }
  // '*_c*' matches purge_cache and get_customer (the first rule that matches gives the reason).
  EXPECT_EQ(reason_by_tool, (std::map<std::string, std::string>{{"purge_cache", "first"},
                                                                {"get_customer", "first"},
                                                                {"transfer_funds", "the rest"},
                                                                {"autopilot", "the rest"}}));
  EXPECT_EQ(report.suppressed_count(), annotation_only);
  EXPECT_EQ(report.baselined_count(), 0u);
  // Unused: the shadowed rule and the one for a tool that is not there; not the server check's
  // (lint runs none).
  std::set<std::string> unused;
  for (const auto* f : of_check(report, "suppression.unused")) {
    EXPECT_EQ(f->file, path.string());
    EXPECT_EQ(f->level, mcp_hints::Level::warning);
    unused.insert(f->pointer);
  }
  EXPECT_EQ(unused, (std::set<std::string>{"/suppressions/2", "/suppressions/4"}));
}

TEST(Suppressions, RunChecksAreInTheOneRegistry) {
  for (const auto& check : mcp_hints::kRunChecks) {
    const auto found = mcp_hints::find_check(check.id);
    ASSERT_TRUE(found) << check.id;
    EXPECT_EQ(found->scope, mcp_hints::Scope::run);
    EXPECT_EQ(found->level, mcp_hints::Level::warning);
  }
  EXPECT_EQ(mcp_hints::scope_name(mcp_hints::Scope::run), "run");
}
