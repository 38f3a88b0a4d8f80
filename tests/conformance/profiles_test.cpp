// Conformance to the specification, and a profile per proposal: where each check counts, and what
// a profile says of a client from the expectations it held.
#include <gtest/gtest.h>

#include "mcp_hints/conformance/certification_report.hpp"
#include "mcp_hints/conformance/client_harness.hpp"
#include "mcp_hints/conformance/profiles.hpp"
#include "mcp_hints/json/error.hpp"

namespace {

using namespace mcp_hints::conformance;

CheckSpec check_of(const std::vector<CheckSpec>& checks, const std::string& id) {
  for (const auto& c : checks)
    if (c.id == id) return c;
  throw std::runtime_error("no check " + id);
}

std::vector<CheckSpec> checks_of(const std::string& scenario) {
  return read_checks(load_certification_scenario(scenario));
}

TEST(Profiles, TheSpecificationAloneGroundsTheTiers) {
  // Its own hint asks: conformance, and no draft's expectation.
  const auto& destructive = check_of(checks_of("confirm.spec-destructive"), "approved-called");
  EXPECT_TRUE(destructive.conformance);
  EXPECT_TRUE(destructive.profiles.empty());
  EXPECT_FALSE(destructive.refrains);
  // A draft's value asks where the specification's hints do not: SEP-2793's profile only.
  const auto& critical = check_of(checks_of("confirm.risk-critical"), "approved-called");
  EXPECT_FALSE(critical.conformance);
  EXPECT_EQ(critical.profiles, std::vector<std::string>{"risk-metadata"});
  EXPECT_EQ(critical.semantic, "asks where it marks danger");
  // A draft's value marks safety where the specification's defaults would ask.
  const auto over_prompting = checks_of("confirm.no-over-prompting");
  const auto& policy_read = check_of(over_prompting, "policy-read");
  EXPECT_FALSE(policy_read.conformance);
  EXPECT_TRUE(policy_read.refrains);
  EXPECT_EQ(policy_read.profiles, std::vector<std::string>{"policy-hints"});
  const auto& spec_read = check_of(over_prompting, "spec-read-only");
  EXPECT_TRUE(spec_read.conformance);
  EXPECT_TRUE(spec_read.profiles.empty());
  // #711's MUST: its profile's, never a tier's.
  const auto& carried = check_of(checks_of("propagation.sensitive-carried"), "carried");
  EXPECT_FALSE(carried.conformance);
  EXPECT_EQ(carried.profiles, std::vector<std::string>{"trust-annotations"});
  // Sensitive data leaving: the specification knows no sensitive context; the result's #711
  // annotation and the sink's proposal-1 effect decide.
  const auto& leaving = check_of(checks_of("exfiltration.after-sensitive-low"), "external-effect");
  EXPECT_FALSE(leaving.conformance);
  EXPECT_EQ(leaving.profiles, (std::vector<std::string>{"policy-hints", "trust-annotations"}));
  EXPECT_EQ(leaving.semantic, "sensitive data leaving");
  // After tools/list_changed the announced hints decide, not those the tool had before: the
  // specification's own hint (or its default, once a hint is withdrawn) asks, so the gate counts.
  for (const auto& [scenario, id] :
       std::vector<std::pair<std::string, std::string>>{{"rugpull.read-only-turns-destructive", "new-hints-applied"},
                                                        {"rugpull.ttl-expiry", "new-hints-applied"},
                                                        {"rugpull.ttl-counted-from-receipt", "new-hints-applied"},
                                                        {"rugpull.later-page-relisted", "later-page-hints-applied"},
                                                        {"rugpull.hint-withdrawn", "withdrawn-hint-defaulted"}}) {
    const auto& relisted = check_of(checks_of(scenario), id);
    EXPECT_TRUE(relisted.conformance) << scenario;
    EXPECT_FALSE(relisted.refrains) << scenario;
  }
}

TEST(Profiles, EveryGeneratedDraftGateIsAProfilesAndEverySpecGateConformance) {
  std::size_t drafts = 0, spec = 0;
  for (const auto& scenario : certification_scenarios()) {
    if (scenario.id.rfind("confirm.triggers.", 0) != 0) continue;
    for (const auto& check : read_checks(scenario)) {
      if (scenario.id == "confirm.triggers.spec" || scenario.id == "confirm.triggers.absent") {
        ++spec;
        EXPECT_TRUE(check.profiles.empty()) << scenario.id << ":" << check.id;
        EXPECT_TRUE(check.conformance) << scenario.id << ":" << check.id;
      } else {
        ++drafts;
        EXPECT_FALSE(check.profiles.empty()) << scenario.id << ":" << check.id;
        // On the neutral base the specification asks nothing: a draft that asks is the profile's alone.
        if (!check.refrains) {
          EXPECT_FALSE(check.conformance) << scenario.id << ":" << check.id;
        }
      }
    }
  }
  EXPECT_GT(drafts, 20u);
  EXPECT_GT(spec, 2u);
}

CheckResult result(const std::string& id, const std::vector<std::string>& profiles, bool refrains, bool holds,
                   Verdict verdict = Verdict::pass) {
  CheckResult r;
  r.spec.id = id;
  r.spec.kind = "gate";
  r.spec.profiles = profiles;
  r.spec.refrains = refrains;
  r.spec.semantic = refrains ? "no prompt where it marks safety" : "asks where it marks danger";
  r.holds = holds;
  r.verdict = holds ? Verdict::pass : verdict;
  r.outcome = holds ? "ok" : "missed";
  return r;
}

const ProfileVerdict& verdict_of(const std::vector<ProfileVerdict>& all, const std::string& id) {
  for (const auto& v : all)
    if (v.profile->id == id) return v;
  throw std::runtime_error("no profile " + id);
}

TEST(Profiles, AProfileSaysWhetherTheClientUsesTheProposal) {
  ScenarioRun run;
  run.scenario.id = "s";
  run.scenario.document = {{"proposals", nlohmann::json::array()}};
  run.checks = {
      // risk-metadata: every expectation held
      result("r1", {"risk-metadata"}, false, true),
      result("r2", {"risk-metadata"}, true, true),
      // policy-hints: asks where it should, asks where it should not too (caution ignores the hint)
      result("p1", {"policy-hints"}, false, true),
      result("p2", {"policy-hints"}, true, false, Verdict::info),
      // trust-annotations: never carries (no expectation that needs acting held)
      result("t1", {"trust-annotations"}, false, false, Verdict::info),
      result("t2", {"trust-annotations"}, true, true),
      // action-security: one of two danger cases, every safe one
      result("a1", {"action-security"}, false, true),
      result("a2", {"action-security"}, false, false, Verdict::info),
      result("a3", {"action-security"}, true, true),
      // agency-hint: only where the check does not apply
      result("g1", {"agency-hint"}, false, false, Verdict::not_applicable),
  };
  const auto verdicts = profile_verdicts({&run});
  EXPECT_EQ(verdict_of(verdicts, "risk-metadata").status, "implemented");
  EXPECT_EQ(verdict_of(verdicts, "risk-metadata").held, 2u);
  EXPECT_EQ(verdict_of(verdicts, "policy-hints").status, "not implemented");
  EXPECT_EQ(verdict_of(verdicts, "trust-annotations").status, "not implemented");
  const auto& partial = verdict_of(verdicts, "action-security");
  EXPECT_EQ(partial.status, "partial");
  EXPECT_EQ(partial.held, 2u);
  EXPECT_EQ(partial.total, 3u);
  ASSERT_EQ(partial.unmet.size(), 1u);
  EXPECT_EQ(partial.unmet[0], "s:a2 (asks where it marks danger): missed");
  EXPECT_EQ(partial.by_semantic.at("asks where it marks danger"), (std::pair<std::size_t, std::size_t>{1, 2}));
  EXPECT_EQ(verdict_of(verdicts, "agency-hint").status, "not exercised");
  EXPECT_EQ(verdict_of(verdicts, "extensions").status, "not exercised");

  // A required profile not implemented fails the run; the tier is the specification's alone.
  Certification certification;
  certification.runs = {run};
  EXPECT_EQ(certification.tier(), Tier::strict);
  EXPECT_EQ(certification.overall(), Overall::certified);
  certification.required_profiles = {"risk-metadata"};
  EXPECT_EQ(certification.overall(), Overall::certified);
  certification.required_profiles = required_profiles({"risk-metadata", "action-security"});
  EXPECT_EQ(certification.unmet_profiles(), std::vector<std::string>{"action-security (partial)"});
  EXPECT_EQ(certification.overall(), Overall::not_certified);
  certification.required_profiles = {"agency-hint"};  // not exercised is not implemented
  EXPECT_EQ(certification.overall(), Overall::not_certified);
  const auto json = certification_json(certification);
  EXPECT_EQ(json["profiles"].size(), profiles().size());
  EXPECT_EQ(json["requiredProfiles"], nlohmann::json::array({"agency-hint"}));
  EXPECT_NE(certification_text(certification, false).find("required profile agency-hint (not exercised)"),
            std::string::npos);
}

TEST(Profiles, RequiredProfilesAreCheckedNames) {
  EXPECT_EQ(required_profiles({"all"}).size(), profiles().size());
  EXPECT_EQ(required_profiles({"risk-metadata", "risk-metadata"}), std::vector<std::string>{"risk-metadata"});
  try {
    required_profiles({"risk-metadta"});
    FAIL() << "an unknown profile was accepted";
  } catch (const mcp_hints::Error& e) {
    EXPECT_EQ(e.category(), mcp_hints::Error::Category::bad_input);
    EXPECT_NE(std::string(e.what()).find("did you mean 'risk-metadata'"), std::string::npos) << e.what();
  }
}

}  // namespace
