// The traceability matrix's renderings, and the sentence every finding ends with: in the text
// report and the safety table's HTML, and carried by the JSON report and each SARIF rule
// (fullDescription, help), as h2spec quotes the MUST a failure broke.
#include "mcp_hints/report/trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "mcp_hints/checks/traceability.hpp"
#include "mcp_hints/report/report.hpp"
#include "mcp_hints/report/safety_table.hpp"
#include "test_support.hpp"

using json = nlohmann::json;
using namespace mcp_hints;

namespace {

LintReport risk_report() {
  Linter linter({});
  return linter.lint_files({test_support::fixture("lint/negative/risk.understated.json").string()});
}

}  // namespace

TEST(TraceReport, EveryFindingOfTheTextReportEndsWithTheSentenceItEnforces) {
  const auto report = risk_report();
  ASSERT_FALSE(report.findings.empty());
  std::ostringstream out;
  render_text(out, report, {});
  const std::string text = out.str();
  for (const auto& f : report.findings) {
    const auto sentence = enforced_sentence(f.check);
    ASSERT_TRUE(sentence) << f.check;
    // The message, its citation, then the sentence: the last line of the finding.
    const auto message = text.find(f.message);
    ASSERT_NE(message, std::string::npos);
    const auto quote = text.find("-> “" + sentence->sentence->text + "” — ", message);
    ASSERT_NE(quote, std::string::npos) << text;
    EXPECT_EQ(text.substr(message, quote - message), f.message + "\n            [" + f.proposal + "]\n            ");
    const auto end = text.find('\n', quote);
    EXPECT_TRUE(text.compare(end, 5, "\n    ") != 0 || text[end + 5] != ' ') << "the sentence ends the finding";
  }
  // The basis, not the first sentence naming the check: risk.understated is the suite's own rule.
  EXPECT_EQ(enforced_sentence_text("risk.understated"),
            "“Where two vocabularies, or a vocabulary and the specification's hints, describe the same property of "
            "one tool, they SHOULD NOT say opposite things.” — mcp-hints, Declarations that agree");
  EXPECT_EQ(enforced_sentence_text("agency.undeclared").rfind("“Tool authors _should_ set", 0), 0u)
      << enforced_sentence_text("agency.undeclared");
  EXPECT_EQ(enforced_sentence_text("nonesuch.check"), "");
  EXPECT_TRUE(enforced_sentence_json("nonesuch.check").is_null());
}

TEST(TraceReport, JsonFindingsAndSarifRulesCarryTheSentence) {
  const auto report = risk_report();
  const json j = report_json(report, {});
  for (const auto& f : j["findings"]) {
    const auto sentence = enforced_sentence(f["check"].get<std::string>());
    ASSERT_TRUE(sentence);
    EXPECT_EQ(f["sentence"]["text"], sentence->sentence->text);
    EXPECT_EQ(f["sentence"]["document"], sentence->document->id);
    EXPECT_EQ(f["sentence"]["id"], sentence->document->id + "/" + sentence->sentence->id);
  }
  std::ostringstream out;
  render_sarif(out, report, {});
  const json sarif = json::parse(out.str());
  for (const auto& rule : sarif["runs"][0]["tool"]["driver"]["rules"]) {
    const auto text = enforced_sentence_text(rule["id"].get<std::string>());
    ASSERT_FALSE(text.empty()) << rule["id"];
    EXPECT_EQ(rule["fullDescription"]["text"], text);
    const std::string help = rule["help"]["text"];
    EXPECT_TRUE(help.ends_with("Enforces: " + text)) << help;
    EXPECT_TRUE(help.starts_with(rule["shortDescription"]["text"].get<std::string>())) << help;
  }
}

TEST(TraceReport, TheSafetyTableQuotesEachFindingsSentence) {
  const auto file = test_support::fixture("lint/negative/risk.understated.json").string();
  std::ifstream in(file);
  const auto html = safety_table_html(build_safety_table(in, file, {}));
  EXPECT_NE(html.find("<small class=\"enforces\">→ “Where two vocabularies"), std::string::npos) << html;
}

TEST(TraceReport, TheMatrixShowsEveryProposalsCoverageAndEverySentence) {
  const auto& trace = Traceability::builtin();
  std::ostringstream text, markdown;
  render_trace_text(text, trace);
  render_trace_markdown(markdown, trace);
  const auto html = render_trace_html(trace);
  const auto table = trace_coverage_markdown(trace);
  EXPECT_NE(markdown.str().find(table), std::string::npos);
  std::size_t proposals = 0;
  for (const auto& d : trace.documents()) {
    if (d.is_proposal()) {
      ++proposals;
      const auto c = Traceability::coverage(d);
      EXPECT_NE(table.find("| " + d.id + " | " + std::to_string(c.normative) + " | "), std::string::npos) << d.id;
    }
    for (const auto& s : d.sentences) {
      EXPECT_NE(markdown.str().find("| " + s.id + " |"), std::string::npos) << s.id;
      EXPECT_NE(html.find(">" + s.id + "<"), std::string::npos) << s.id;
      EXPECT_NE(text.str().find(d.id + "/" + s.id + " ["), std::string::npos) << s.id;
    }
  }
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), static_cast<long>(proposals + 2));
  // A gap says so, and is not counted as covered (the data has none today: one is made here).
  auto data = test_support::read_json(test_support::source_dir() / "schemas" / "traceability.json");
  json* gapped = nullptr;
  for (auto& d : data["documents"])
    if (d["id"] == "agency-hint@sep-1938")
      for (auto& s : d["sentences"])
        if (s["id"] == "authors-should-set") gapped = &s;
  ASSERT_NE(gapped, nullptr);
  gapped->erase("checks");
  (*gapped)["gap"] = "a lint heuristic on names and descriptions";
  const Traceability with_gap(data);
  std::ostringstream gap_text;
  render_trace_text(gap_text, with_gap);
  EXPECT_NE(gap_text.str().find("-> GAP (planned): a lint heuristic"), std::string::npos);
  for (const auto& d : with_gap.documents())
    if (d.id == "agency-hint@sep-1938") {
      const auto c = Traceability::coverage(d);
      EXPECT_EQ(c.gaps, 1u);
      EXPECT_EQ(c.covered + 1, c.observable);
    }
  // The text fits 100 columns.
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) {
    std::size_t columns = 0;
    for (unsigned char c : line) columns += (c & 0xC0) != 0x80;
    EXPECT_LE(columns, 100u) << line;
  }
}
