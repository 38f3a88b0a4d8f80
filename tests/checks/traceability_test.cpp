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

// Every sentence listing the check, removed from a copy of the data.
json without_check(json doc, const std::string& id) {
  for (auto& d : doc["documents"])
    for (auto& s : d["sentences"]) {
      if (!s.contains("checks")) continue;
      auto& checks = s["checks"];
      checks.erase(std::remove(checks.begin(), checks.end(), id), checks.end());
      if (checks.empty()) {
        s.erase("checks");
        if (!s.contains("scenarios")) s["reason"] = "removed";
      }
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
                "check agency.destructive-unconfirmed names no sentence: no sentence of the data lists it"});
  json typo = data();
  typo["documents"][0]["sentences"][0]["checks"].push_back("schema.policy-hint");
  EXPECT_EQ(check_trace_problems(Traceability(typo)),
            std::vector<std::string>{
                "policy-hints@seed/tools-may-include names check schema.policy-hint, which no check has"});
  // The check's only sentence moved to a document its citation ("SEP-1938: ...") does not name.
  json moved = without_check(data(), "agency.destructive-unconfirmed");
  moved["documents"][0]["sentences"][0]["checks"].push_back("agency.destructive-unconfirmed");
  const auto problems = check_trace_problems(Traceability(moved));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("agency.destructive-unconfirmed quotes policy-hints@seed/tools-may-include, but its "
                             "citation (SEP-1938: Guidance for clients) names none"),
            std::string::npos)
      << problems[0];
}

}  // namespace
