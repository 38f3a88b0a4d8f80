// The traceability data held to the certification scenarios: every scenario, hand-written or
// generated, is named by a sentence of a document it cites, each sentence a scenario quotes is one
// of the data's, and a broken copy of the data or a scenario is caught.
#include "mcp_hints/conformance/traceability.hpp"

#include <gtest/gtest.h>

#include "mcp_hints/conformance/client_harness.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints;
using namespace mcp_hints::conformance;

json data() { return test_support::read_json(test_support::source_dir() / "schemas" / "traceability.json"); }

TEST(ScenarioTrace, EveryScenarioIsNamedByASentenceOfADocumentItCites) {
  const auto scenarios = certification_scenarios();
  ASSERT_GT(scenarios.size(), 40u);
  for (const auto& problem : scenario_trace_problems(Traceability::builtin(), scenarios)) ADD_FAILURE() << problem;
}

TEST(ScenarioTrace, AnUnnamedScenarioAnUnknownIdAndAForeignQuoteAreCaught) {
  auto scenarios = certification_scenarios();
  json doc = data();
  // propagation.sep-1913-rules is named by two sentences of SEP-1913; drop both namings.
  for (auto& d : doc["documents"])
    for (auto& s : d["sentences"]) {
      if (!s.contains("scenarios")) continue;
      auto& ids = s["scenarios"];
      ids.erase(std::remove(ids.begin(), ids.end(), "propagation.sep-1913-rules"), ids.end());
      if (ids.empty()) {
        s.erase("scenarios");
        if (!s.contains("checks")) s["gap"] = "removed";
      }
    }
  doc["documents"][0]["sentences"][1]["scenarios"].push_back("robustness.no-hint");
  for (auto& s : scenarios)
    if (s.id == "rugpull.ttl-expiry") s.document["quotes"][1]["text"] = "Clients SHOULD: prompt for something else";
  const auto problems = scenario_trace_problems(Traceability(doc), scenarios);
  const std::vector<std::string> expected = {
      "scenario propagation.sep-1913-rules names no sentence: no sentence of the data lists it",
      "scenario rugpull.ttl-expiry quotes a sentence the data does not hold: Clients SHOULD: prompt for something else",
      "policy-hints@seed/no-assume-present names scenario robustness.no-hint, which no certification scenario has"};
  EXPECT_EQ(problems, expected);
  // A scenario listed by a document it does not cite.
  json foreign = data();
  foreign["documents"][1]["sentences"][0]["scenarios"].push_back("propagation.cross-server");
  const auto cited = scenario_trace_problems(Traceability(foreign), certification_scenarios());
  ASSERT_EQ(cited.size(), 1u);
  EXPECT_EQ(cited[0],
            "scenario propagation.cross-server is listed by risk-metadata@sep-2793/extends-annotations, a document its "
            "proposals do not cite");
}

// A failed check of a scenario ends with the sentence of the document its citation names first.
TEST(ScenarioTrace, AFailedCheckQuotesTheSentenceOfTheDocumentItCitesFirst) {
  EXPECT_EQ(scenario_sentence_text("propagation.sep-1913-rules", "SEP-1913 (trust annotations, January 2026)"),
            "“only `openWorldHint` persists for the session (MUST)” — SEP-1913, Propagation");
  // confirm.spec-destructive is named by two sentences of the specification; the citation decides
  // nothing between them, so the first in the data's order is quoted.
  const auto spec = scenario_sentence_text("confirm.spec-destructive", "specification 2025-11-25");
  EXPECT_EQ(spec.rfind("“If true, the tool may perform destructive updates", 0), 0u) << spec;
  // Named in another case ("action security metadata"), the document is still found first.
  const auto action = scenario_sentence_text("confirm.action-irreversible", "action security metadata");
  EXPECT_NE(action.find("— Action Security, "), std::string::npos) << action;
  EXPECT_EQ(scenario_sentence_text("nonesuch.scenario", "proposal 1"), "");
}

}  // namespace
