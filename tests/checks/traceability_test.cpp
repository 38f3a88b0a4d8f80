// The traceability data held to the registry: every check names a sentence of a document its own
// citation names, every check id the data names exists, and a broken copy of the data is caught.
#include "mcp_hints/checks/traceability.hpp"

#include <gtest/gtest.h>

#include "mcp_hints/checks/checks.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints;

json data() { return test_support::read_json(test_support::source_dir() / "schemas" / "traceability.json"); }

// Every sentence listing the check, in checks or basisOf, without it in a copy of the data.
json without_check(json doc, const std::string& id) {
  for (auto& d : doc["documents"])
    for (auto& s : d["sentences"]) {
      for (const char* list : {"checks", "basisOf"}) {
        if (!s.contains(list)) continue;
        auto& ids = s[list];
        ids.erase(std::remove(ids.begin(), ids.end(), id), ids.end());
        if (ids.empty()) s.erase(list);
      }
      if (!s.contains("checks") && !s.contains("scenarios") && !s.contains("reason")) s["reason"] = "removed";
    }
  return doc;
}

// The copy of the data in which the check's basis is the sentence `sentence` of document `document`.
json based_on(const std::string& id, const std::string& document, const std::string& sentence) {
  json doc = without_check(data(), id);
  for (auto& d : doc["documents"])
    if (d["id"] == document)
      for (auto& s : d["sentences"])
        if (s["id"] == sentence) {
          s["checks"].push_back(id);
          s["basisOf"].push_back(id);
          s.erase("reason");
        }
  return doc;
}

TEST(CheckTrace, EveryCheckQuotesASentenceOfADocumentItCites) {
  for (const auto& problem : check_trace_problems(Traceability::builtin())) ADD_FAILURE() << problem;
  for (const auto& info : all_checks()) {
    const auto ref = enforced_sentence(info.id);
    ASSERT_TRUE(ref) << info.id;
    EXPECT_FALSE(ref->sentence->text.empty());
  }
  EXPECT_FALSE(enforced_sentence("nonesuch.check"));
}

TEST(CheckTrace, ACheckNoSentenceNamesAndAnIdNoCheckHasAreCaught) {
  const Traceability unnamed(without_check(data(), "agency.destructive-unconfirmed"));
  EXPECT_EQ(check_trace_problems(unnamed),
            std::vector<std::string>{
                "check agency.destructive-unconfirmed has no basis: no sentence of the data lists it in basisOf"});
  json typo = data();
  typo["documents"][0]["sentences"][0]["checks"].push_back("schema.policy-hint");
  EXPECT_EQ(check_trace_problems(Traceability(typo)),
            std::vector<std::string>{
                "policy-hints@seed/tools-may-include names check schema.policy-hint, which no check has"});
  // The check's basis moved to a document its citation ("SEP-1938: ...") does not name.
  const auto problems = check_trace_problems(
      Traceability(based_on("agency.destructive-unconfirmed", "policy-hints@seed", "tools-may-include")));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("agency.destructive-unconfirmed quotes policy-hints@seed/tools-may-include, but its "
                             "citation (SEP-1938: Guidance for clients) names none"),
            std::string::npos)
      << problems[0];
}

// The level is the basis's: a check graded above its sentence's keyword is caught, as is one resting
// on the suite's own rule without saying so, a check with two bases, and a basis not citing it.
TEST(CheckTrace, ACheckGradedAboveItsBasisIsCaught) {
  // agency.undeclared is a warning; "Tool authors _may_ leave agencyHint unset" grounds info.
  EXPECT_EQ(
      check_trace_problems(Traceability(based_on("agency.undeclared", "agency-hint@sep-1938", "authors-may-leave"))),
      std::vector<std::string>{"check agency.undeclared is graded warning, above its basis "
                               "agency-hint@sep-1938/authors-may-leave (MAY: at most info)"});
  // An own rule grounds a warning at most, whatever its keyword says.
  json own_must = data();
  for (auto& d : own_must["documents"])
    if (d["id"] == "mcp-hints")
      for (auto& s : d["sentences"])
        if (s["id"] == "well-formed-hints") s["level"] = "MUST";
  auto schema_error = check_trace_problems(Traceability(own_must));
  EXPECT_TRUE(schema_error.empty()) << schema_error.front();
  // vocab.mixed-revisions cites SEP-1913: resting on an own rule, its citation must say so.
  const auto unsaid = check_trace_problems(Traceability(based_on("vocab.mixed-revisions", "mcp-hints", "one-era")));
  ASSERT_EQ(unsaid.size(), 1u);
  EXPECT_NE(unsaid[0].find("vocab.mixed-revisions rests on the suite's own rule mcp-hints/one-era, but its citation"),
            std::string::npos)
      << unsaid[0];
  json twice = data();
  twice["documents"][0]["sentences"][0]["basisOf"].push_back("agency.undeclared");
  const auto second = check_trace_problems(Traceability(twice));
  EXPECT_NE(
      std::find(second.begin(), second.end(),
                "agency-hint@sep-1938/authors-should-set is a second basis of check agency.undeclared: a check has "
                "one"),
      second.end());
  EXPECT_NE(std::find(second.begin(), second.end(),
                      "check agency.undeclared's basis policy-hints@seed/tools-may-include does not list it in checks"),
            second.end())
      << "the first basis found is the one reported";
}

}  // namespace
