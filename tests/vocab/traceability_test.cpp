// Traceability (schemas/traceability.json): the data holds to its schema and to the proposals'
// own text (every quote word for word, every normative keyword accounted for), the coverage figure
// counts what it says, and a broken copy of the data is refused.
#include "mcp_hints/vocab/traceability.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <sstream>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints;

json data() { return test_support::read_json(test_support::source_dir() / "schemas" / "traceability.json"); }

// The data of one proposal, x@1 in `file`, with these sentences.
json one_proposal(const std::string& file, const json& sentences) {
  return {{"description", "d"},
          {"documents",
           {{{"id", "x@1"},
             {"title", "X"},
             {"kind", "proposal"},
             {"citedAs", {"X"}},
             {"file", file},
             {"notNormative", json::array()},
             {"sentences", sentences}}}}};
}

json sentence(const std::string& id, const std::string& level, const std::string& text, const json& more) {
  json s = {
      {"id", id}, {"section", "s"}, {"level", level}, {"keyword", level == "definition" ? "" : level}, {"text", text}};
  s.update(more);
  return s;
}

// A specification page as read: its Markdown emphasis (**MUST**) and list markers ("- ", "2. ") left
// out, so that a quote holds the words a reader sees.
std::string page_text(const std::string& markdown) {
  std::string out;
  std::istringstream lines(markdown);
  for (std::string line; std::getline(lines, line);) {
    std::size_t at = line.find_first_not_of(' ');
    if (at == std::string::npos) at = line.size();
    if (line.compare(at, 2, "- ") == 0) {
      at += 2;
    } else {
      std::size_t digits = at;
      while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
      if (digits > at && line.compare(digits, 2, ". ") == 0) at = digits + 2;
    }
    for (std::size_t i = at; i < line.size(); ++i)
      if (line.compare(i, 2, "**") == 0)
        ++i;
      else
        out += line[i];
    out += '\n';
  }
  return out;
}

// The text a quote is held to: a schema.json's descriptions, one after another; a specification
// page as read; any other file as it is.
std::string source_text(const std::string& file) {
  const auto text = test_support::read_file(test_support::shared_dir() / file);
  if (file.ends_with(".mdx")) return page_text(text);
  if (!file.ends_with("schema.json")) return text;
  std::string out;
  std::function<void(const json&)> walk = [&](const json& node) {
    if (node.is_object())
      for (const auto& [key, value] : node.items()) {
        if (key == "description" && value.is_string())
          out += value.get<std::string>() + "\n";
        else
          walk(value);
      }
    else if (node.is_array())
      for (const auto& value : node) walk(value);
  };
  walk(json::parse(text));
  return out;
}

TEST(Traceability, EveryProposalIsAVocabularyRevisionAndHasACoverageFigure) {
  const auto& trace = Traceability::builtin();
  std::size_t proposals = 0;
  for (const auto& d : trace.documents()) {
    if (!d.is_proposal()) continue;
    ++proposals;
    EXPECT_NE(Vocabulary::builtin().find(d.id), nullptr) << d.id << " is no vocabulary revision (vocab list)";
    const auto c = Traceability::coverage(d);
    EXPECT_EQ(c.normative, c.observable + c.not_observable) << d.id;
    EXPECT_LE(c.covered + c.gaps, c.observable) << d.id;
    EXPECT_EQ(c.normative + c.definitions, d.sentences.size()) << d.id;
  }
  // The five seeds, SEP-1913 and the two extensions of June 2026.
  EXPECT_EQ(proposals, 8u);
}

// Every normative sentence names what enforces it, or why nothing can, or is a gap; one that does
// none of these, or two at once, is refused with where it is.
TEST(Traceability, ASentenceWithNeitherACheckNorAReasonIsRefused) {
  for (const auto& d : Traceability::builtin().documents())
    for (const auto& s : d.sentences)
      EXPECT_EQ((!s.checks.empty() || !s.scenarios.empty()) + !s.reason.empty() + !s.gap.empty(), 1)
          << d.id << "/" << s.id;
  json broken = data();
  json& sentence = broken["documents"][0]["sentences"][1];
  sentence.erase("scenarios");
  sentence.erase("checks");
  EXPECT_THROW(Traceability{broken}, InputError);
  sentence["reason"] = "not observable";
  EXPECT_NO_THROW(Traceability{broken});
  sentence["gap"] = "planned";  // a reason and a gap at once
  EXPECT_THROW(Traceability{broken}, InputError);
  json twice = data();
  twice["documents"][0]["sentences"].push_back(twice["documents"][0]["sentences"][0]);
  try {
    Traceability{twice};
    ADD_FAILURE() << "a sentence id given twice was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("given twice"), std::string::npos) << e.what();
  }
}

TEST(Traceability, TheCoverageFigureCountsAGapAsObservableAndNotCovered) {
  const json doc = one_proposal(
      "-", {sentence("a", "MUST", "A", {{"checks", {"c.a"}}}), sentence("b", "SHOULD", "B", {{"gap", "g"}}),
            sentence("c", "MAY", "C", {{"reason", "r"}}), sentence("d", "definition", "D", {{"checks", {"c.d"}}})});
  const Traceability trace(doc);
  const auto c = Traceability::coverage(trace.documents()[0]);
  EXPECT_EQ(c.normative, 3u);
  EXPECT_EQ(c.observable, 2u);
  EXPECT_EQ(c.covered, 1u);
  EXPECT_EQ(c.gaps, 1u);
  EXPECT_EQ(c.not_observable, 1u);
  EXPECT_EQ(c.definitions, 1u);
  EXPECT_EQ(c.figure(), "1/2");
  EXPECT_EQ(c.percent(), 50);
  EXPECT_EQ(TraceCoverage{}.percent_text(), "no observable sentence");
}

// A check's findings quote the sentence of the document its own citation names first.
TEST(Traceability, AFindingQuotesTheSentenceOfTheDocumentItsCheckCitesFirst) {
  const auto& trace = Traceability::builtin();
  const auto spec =
      trace.sentence_for("hints.readonly-contradiction", "MCP specification: ToolAnnotations.readOnlyHint");
  ASSERT_TRUE(spec);
  EXPECT_EQ(spec->document->id, "spec");
  EXPECT_EQ(spec->sentence->text, "If true, the tool does not modify its environment.");
  const auto restart = trace.sentence_for("stability.restart",
                                          "proposal 1: Semantics (hints SHOULD NOT change between server restarts)");
  ASSERT_TRUE(restart);
  EXPECT_EQ(restart->document->id, "policy-hints@seed");
  EXPECT_EQ(restart->sentence->level, "SHOULD NOT");
  // Named second in the citation, the specification's sentence loses to proposal 1's.
  const auto both = trace.sentence_for("idempotency.retry-unsafe", "proposal 1: idempotent; MCP specification: x");
  ASSERT_TRUE(both);
  EXPECT_EQ(both->document->id, "policy-hints@seed");
  EXPECT_FALSE(trace.sentence_for("nonesuch.check", "proposal 1"));
}

// Every quote is word for word in the shared reference text (whitespace aside), and every
// normative keyword of each proposal's text is inside a quoted sentence or a notNormative entry
// that says why it is not normative. The product never reads ../shared; this test does, when it
// is there.
TEST(Traceability, EveryQuoteIsInTheProposalTextAndEveryKeywordIsAccountedFor) {
  if (!std::filesystem::exists(test_support::shared_dir() / "proposals"))
    GTEST_SKIP() << "no ../shared/proposals beside the project";
  const auto& trace = Traceability::builtin();
  std::set<std::string> files;
  for (const auto& d : trace.documents()) {
    if (d.file != "-") files.insert(d.file);
    for (const auto& s : d.sentences)
      if (s.file != "-") files.insert(s.file);
  }
  for (const auto& file : files)
    for (const auto& missing : quotes_not_in(trace, file, source_text(file)))
      ADD_FAILURE() << file << ": not word for word: " << missing;
  std::size_t scanned = 0;
  for (const auto& d : trace.documents()) {
    if (!d.is_proposal()) continue;
    ++scanned;
    for (const auto& keyword : unaccounted_keywords(trace, d, source_text(d.file)))
      ADD_FAILURE() << d.id << " (" << d.file << "): a keyword no quote accounts for: " << keyword;
  }
  EXPECT_EQ(scanned, 8u);
  // Negative controls: a sentence of proposal 1 dropped from the data leaves its MUST NOT
  // unaccounted; a quote changed by a word is not found.
  json broken = data();
  auto& sentences = broken["documents"][0]["sentences"];
  ASSERT_EQ(sentences[1]["text"], "Clients MUST NOT assume hints are present.");
  sentences[1]["text"] = "Clients MUST NOT assume that hints are present.";
  const Traceability changed(broken);
  const auto p1 = source_text(changed.documents()[0].file);
  const auto unaccounted = unaccounted_keywords(changed, changed.documents()[0], p1);
  ASSERT_EQ(unaccounted.size(), 1u);
  EXPECT_EQ(unaccounted[0].rfind("must in: …", 0), 0u) << unaccounted[0];
  const auto missing = quotes_not_in(changed, changed.documents()[0].file, p1);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_NE(missing[0].find("policy-hints@seed/no-assume-present"), std::string::npos) << missing[0];
}

TEST(Traceability, KeywordsAreWholeWordsInAnyCaseAndMarkdownEmphasis) {
  const json doc =
      one_proposal("x.md", json::array({sentence("a", "MUST", "Servers MUST answer.", {{"checks", {"c.a"}}})}));
  const Traceability trace(doc);
  const auto found = unaccounted_keywords(
      trace, trace.documents()[0], "Servers MUST\n  answer. Mayday and mustard. Clients _may_ ask; NEVER twice.");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].rfind("may in:", 0), 0u);
  EXPECT_EQ(found[1].rfind("never in:", 0), 0u);
  EXPECT_EQ(collapse_space("  a \n\t b  "), "a b");
}

// The matrix as JSON matches its published schema.
TEST(Traceability, TheJsonMatrixMatchesItsSchema) {
  const auto out = trace_json(Traceability::builtin());
  EXPECT_TRUE(published_schemas().validate("vocab-trace.schema.json", out).empty());
  EXPECT_EQ(out["documents"].size(), Traceability::builtin().documents().size());
}

}  // namespace
