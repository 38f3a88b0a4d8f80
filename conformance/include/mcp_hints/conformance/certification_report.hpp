#pragma once
// A client's certification, written out: results.json, JUnit XML, text for people, Markdown, and
// an HTML report with, per scenario, the verdicts, the acceptable traces, the observed trace and
// the wire log.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/conformance/client_harness.hpp"
#include "mcp_hints/conformance/profiles.hpp"
#include "mcp_hints/report/official_checks.hpp"

namespace mcp_hints::conformance {

// The certification tiers, as h2spec's strict mode: "certified" means no MUST failed and every
// check was testable; "certified, strict" means no SHOULD failed either (no warning).
enum class Tier { not_certified, certified, strict };
std::string_view tier_name(Tier tier);  // "not certified", "certified", "certified, strict"

// The one verdict every output leads with, worst first: INCOMPLETE (a scenario could not run, or
// an output could not be written: nothing can be said of what did not happen), NOT CERTIFIED (a
// check failed or was not testable, the expected-failures list is wrong, under --strict a check
// warned, a required profile is not implemented, or the client speaks none of the protocol eras
// run), NO NEW FAILURE (only listed expected failures keep the client from the tier or a required
// profile: the run proves nothing regressed, not a certificate), CERTIFIED. Exit codes 3, 1, 0, 0.
enum class Overall { certified, no_new_failure, not_certified, incomplete };
// "CERTIFIED", "NO NEW FAILURE", "NOT CERTIFIED", "INCOMPLETE"
std::string_view overall_name(Overall overall);

// One protocol era's part of a certification: the revision its runs' mock servers spoke, and the
// tier the client reached there, or why it does not speak that era (every run of it shows so on
// the wire: ScenarioRun::era_not_spoken).
struct EraVerdict {
  std::string protocol;  // empty: the scenarios' own revisions
  std::string not_spoken;
  Tier tier = Tier::not_certified;
};

// The real host a certification ran (certify --host), as the report names it.
struct HostUnderTest {
  std::string name, title, version, limits;
};

struct Certification {
  std::string client_command, transport;
  std::optional<HostUnderTest> host;  // set with --host
  std::vector<ScenarioRun> runs;
  std::vector<std::string> list_problems;  // stale or unknown expected failures
  std::vector<std::string> run_problems;   // what kept the run from finishing (an output not written)
  // Scenarios that do not apply to this client and were not run ("id: why"): a real host acts for
  // one user, so the scenarios of several authorization contexts (gateways) are not its own.
  std::vector<std::string> not_run;
  double seconds = 0;
  bool strict = false;  // the run passes only at the strict tier
  // The proposal profiles the run must find implemented (--require-profile), checked ids.
  std::vector<std::string> required_profiles;

  // Checks by verdict name ("pass", "not testable" ...), plus "expected failure" and "not spoken"
  // (the checks of an era the client does not speak).
  std::map<std::string, std::size_t> counts() const;
  // Per protocol revision run, in the order of the runs: its tier, or why the client does not
  // speak its era. Runs of an era the client does not speak (unspoken_protocols) count toward
  // nothing: not the tier, the verdict, the failing checks nor the blockers.
  std::vector<EraVerdict> eras() const;
  // What the client did with each proposal, over the eras it speaks (profiles.hpp).
  std::vector<ProfileVerdict> profiles() const;
  // The required profiles that are not implemented: "risk-metadata (partial)".
  std::vector<std::string> unmet_profiles() const;
  // Any failure or not-testable check (under strict, any warning) not listed as expected, a
  // problem with the list, or a required profile not implemented.
  bool failed() const;
  // The tier the client reached in the eras it speaks, expected failures counted as what they
  // are: failures; not certified when it speaks none.
  Tier tier() const;
  // What keeps the client from the next tier ("scenario:check [level] verdict: outcome"); empty at
  // the strict tier.
  std::vector<std::string> blocking_next_tier() const;
  // Not one scenario could run (the client cannot be started at all).
  bool incomplete() const;
  // The verdict, from the runs, the list and the run's problems.
  Overall overall() const;
  // Every check that keeps the client from certification (under strict, warnings too), and every
  // run that could not start: what the recap lists.
  std::vector<std::pair<const ScenarioRun*, const CheckResult*>> failing_checks() const;
};

// One scenario run in one line, as certify prints it when the run ends: verdict, run id, time,
// and the checks that did not pass ("[ 3/27] FAIL  retry.idempotent-bounded@2025-11-25  1.20 s
// failed: bounded").
std::string run_line(const ScenarioRun& run, std::size_t number, std::size_t total, bool strict);

nlohmann::json certification_json(const Certification& certification);
std::string certification_junit(const Certification& certification);
std::string certification_text(const Certification& certification, bool colour);
std::string certification_markdown(const Certification& certification);
std::string certification_html(const Certification& certification);

// Each run's checks as the official conformance suite's checks.json (official_checks.hpp), keyed by
// run id: pass SUCCESS, fail and not testable FAILURE (an expected failure too: the suite's
// baseline does not change a check's status either), warning WARNING, info INFO, not applicable
// SKIPPED. A run that could not start adds a FAILURE check "run.could-not-run" with its notes.
std::vector<std::pair<std::string, std::vector<OfficialCheck>>> certification_official_checks(
    const Certification& certification, const std::string& timestamp);

}  // namespace mcp_hints::conformance
