// The traceability data held to the certification scenarios: every scenario, hand-written or
// generated, is named by a sentence of a document it cites, each sentence a scenario quotes is one
// of the data's, and a broken copy of the data or a scenario is caught.
#include "mcp_hints/conformance/traceability.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "mcp_hints/conformance/client_harness.hpp"
#include "mcp_hints/conformance/judge.hpp"
#include "mcp_hints/mock/scenario.hpp"
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
      "scenario propagation.sep-1913-rules rests on trust-annotations@sep-1913/attribution-unions, which does not "
      "list it in scenarios",
      "scenario propagation.sep-1913-rules rests on trust-annotations@sep-1913/open-world-persists, which does not "
      "list it in scenarios",
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

// A check quotes its basis: the scenario's, a check's own, or, for a gate the one rule for levels
// holds weaker, the sentence of the vocabulary that decides the call.
TEST(ScenarioTrace, ACheckQuotesItsBasis) {
  std::map<std::string, const mock::Scenario*> by_id;
  const auto scenarios = certification_scenarios();
  for (const auto& s : scenarios) by_id[s.id] = &s;
  auto checks_of = [&](const std::string& id) {
    std::map<std::string, CheckSpec> out;
    for (auto& c : read_checks(*by_id.at(id))) out[c.id] = c;
    return out;
  };
  auto sep1913 = checks_of("propagation.sep-1913-rules");
  EXPECT_EQ(sep1913.at("open-world-persists").basis, "trust-annotations@sep-1913/open-world-persists");
  EXPECT_EQ(basis_sentence_text(sep1913.at("open-world-persists").basis),
            "“only `openWorldHint` persists for the session (MUST)” — SEP-1913, Propagation");
  EXPECT_EQ(sep1913.at("attribution-union").basis, "trust-annotations@sep-1913/attribution-unions");
  EXPECT_EQ(sep1913.at("attribution-union").level, "SHOULD");
  // #711's MUST is carrying; what a client does about a marked call is its own MAY list.
  auto escalation = checks_of("escalation.malicious-activity");
  EXPECT_EQ(escalation.at("escalated").level, "MAY");
  EXPECT_EQ(escalation.at("malicious-carried").level, "MUST");
  const auto prompt = basis_sentence_text(checks_of("confirm.spec-destructive").at("approved-called").basis);
  EXPECT_EQ(prompt.rfind("“Clients SHOULD: Prompt for user confirmation on sensitive operations”", 0), 0u) << prompt;
  // The retry conventions are the suite's own: they only inform.
  EXPECT_EQ(checks_of("retry.retry-after-honoured").at("waited").level, "MAY");
  EXPECT_EQ(basis_sentence_text("nonesuch/sentence"), "");
}

// No check of any scenario, in the files or generated, is graded above its basis: MUST fails,
// SHOULD warns, MAY or a definition informs, the suite's own rules inform.
TEST(ScenarioTrace, NoCheckIsGradedAboveItsBasis) {
  auto rank = [](const std::string& level) { return level == "MUST" ? 2 : level == "SHOULD" ? 1 : 0; };
  std::size_t checked = 0;
  for (const auto& scenario : certification_scenarios())
    for (const auto& check : read_checks(scenario)) {
      const auto ref = Traceability::builtin().sentence(check.basis);
      ASSERT_TRUE(ref) << scenario.id << ":" << check.id << " rests on " << check.basis;
      const std::string grounded = ref->document->kind == "own" ? "MAY" : std::string(basis_force(*ref));
      EXPECT_LE(rank(check.level), rank(grounded)) << scenario.id << ":" << check.id << " " << check.level;
      ++checked;
    }
  EXPECT_GT(checked, 100u);
}

// A level above its basis is refused when the scenario is read, with the sentence; so is a basis
// the data does not hold, and a scenario with checks and no basis.
TEST(ScenarioTrace, ALevelAboveItsBasisIsRefused) {
  const mock::Scenario* found = nullptr;
  const auto scenarios = certification_scenarios();
  for (const auto& s : scenarios)
    if (s.id == "confirm.spec-destructive") found = &s;
  ASSERT_TRUE(found);
  auto error = [&](const std::function<void(nlohmann::json&)>& change) {
    mock::Scenario s = *found;
    change(s.document);
    try {
      read_checks(s);
    } catch (const mock::ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error([](nlohmann::json&) {}), "");
  const auto must = error([](nlohmann::json& d) { d["level"] = "MUST"; });
  EXPECT_NE(must.find("/expect/0/level: level MUST is above its basis, which grounds at most SHOULD (SHOULD: “Clients "
                      "SHOULD: Prompt for user confirmation on sensitive operations”"),
            std::string::npos)
      << must;
  const auto own = error([](nlohmann::json& d) {
    d["basis"] = "mcp-hints/retry-conventions";
    d["level"] = "SHOULD";
  });
  EXPECT_NE(own.find("level SHOULD is above its basis, which grounds at most MAY (the suite's own rule: "),
            std::string::npos)
      << own;
  const auto check_level = error([](nlohmann::json& d) { d["expect"][1]["level"] = "MUST"; });
  EXPECT_NE(check_level.find("/expect/1/level: level MUST is above its basis"), std::string::npos) << check_level;
  EXPECT_NE(error([](nlohmann::json& d) {
              d["basis"] = "spec/nonesuch";
            }).find("/expect/0/basis: no sentence 'spec/nonesuch' in the traceability data"),
            std::string::npos);
  EXPECT_NE(error([](nlohmann::json& d) { d.erase("basis"); }).find("/expect/0/basis: a check needs a basis"),
            std::string::npos);
  // A level below the basis is the scenario's choice.
  EXPECT_EQ(error([](nlohmann::json& d) { d["level"] = "MAY"; }), "");
}

}  // namespace
