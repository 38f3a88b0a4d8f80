#pragma once
// Judging a certification run: each check of a scenario looks at the run record (the wire, as the
// mock servers saw it, and the client's own events), names the trace it observed (an outcome),
// and the scenario says what that trace is worth. The judge knows no process and no transport.
// Each kind of check (gate, propagation ...) is one file of conformance/src/check_kinds, listed
// in the table of its registry.cpp.
#include <any>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/conformance/run_record.hpp"
#include "mcp_hints/mock/scenario.hpp"

namespace mcp_hints::conformance {

enum class Verdict { pass, info, warning, not_applicable, not_testable, fail };
std::string_view verdict_name(Verdict verdict);  // "pass", "not testable" ...
// Failures and not-testable results count against a client; the rest do not.
bool is_failure(Verdict verdict);
// What a run must be free of: failures, and under the strict tier warnings (a SHOULD not met) too.
bool blocks(Verdict verdict, bool strict);

struct Outcome {
  std::string name;         // "confirmed-called"
  std::string description;  // the trace, in words
  bool untestable = false;  // the client never reached the decision point: not testable
  // The client took a course, which it may, on which the check has nothing to judge (it gave up a
  // server that hung up): not applicable, whatever the traces say.
  bool moot = false;
};

// The outcome of every check of a run whose events file cannot be ordered against the wire.
inline constexpr const char* kEventsUnusable = "events-unusable";
// The outcome of a check whose tool a real host never offered its model, having rejected a listing
// whose hints no vocabulary can read: a defensible reading of malformed hints (the call was never
// made), info. Where every hint of the listing was well-formed, the check stays not testable.
inline constexpr const char* kListingRejected = "listing-rejected";

// Every outcome each kind of check can observe, by kind: the table of kinds' names and outcomes.
const std::map<std::string, std::vector<Outcome>>& outcomes_by_kind();
const Outcome* find_outcome(std::string_view kind, std::string_view name);

struct CheckSpec {
  std::string id, title, level, proposal, section, kind;
  // The sentence the level rests on and the report quotes (DOCUMENT/ID of the traceability data):
  // the check's "basis", else its scenario's; when a gate is held weaker by the one rule for
  // levels, the sentence of the vocabulary that decides the call.
  std::string basis;
  // Why the level is weaker than the scenario says: the one rule for levels (a gate is no stronger
  // than the vocabularies whose values decide the call); empty when it is not.
  std::string level_reason;
  // Where it counts (profiles.hpp, place_check): toward the conformance tiers, or only as an
  // expectation of the proposals whose values or sentences decide it; for a gate, whether the value
  // marks safety (the client must not ask) rather than danger; what it checks, in a few words.
  bool conformance = true;
  std::vector<std::string> profiles;
  bool refrains = false;
  std::string semantic;
  std::vector<std::string> transports;  // where it applies; empty: every transport
  // The tool the check is about (the first its kind reads), and whether a listing of its server
  // that holds it carries a hint no vocabulary can read (a wrong type, a value outside the enum).
  std::string subject_server, subject_tool;
  bool subject_listing_malformed = false;
  std::map<std::string, Verdict> traces;  // outcome -> verdict
  std::any parameters;                    // the kind's own, as its file reads them
};

// The checks of a scenario (its "expect"), with defaults filled in and levels held to the rule and
// to their basis (MUST fails, SHOULD warns, MAY or a definition informs; the suite's own rules only
// inform, so they never decide a tier). Throws mock::ScenarioError naming the pointer for a basis
// the data does not hold, a level above its basis, a kind there is no table entry for, a server or
// tool the scenario does not have, a member its kind does not use, or an outcome its kind cannot
// observe.
std::vector<CheckSpec> read_checks(const mock::Scenario& scenario);

struct CheckResult {
  CheckSpec spec;
  std::string outcome;  // the observed trace
  Verdict verdict = Verdict::fail;
  std::string detail;             // what was seen, in words: counts, times, the offending request
  bool expected_failure = false;  // listed in the expected-failures file
  // The scenario graded the observed trace "pass": what a profile counts as the expectation held.
  // A check outside conformance that does not hold is info (it keeps no tier; its profiles say so).
  bool holds = false;
  // The verdict its level gives the observed trace, before a draft's miss was made info: what the
  // check says once a run requires one of its profiles (require_profiles).
  Verdict own_verdict = Verdict::fail;
  // The wire line or client event that decided the outcome, when one did: its index in the run
  // record's wire or events (a report links "observed" to it and highlights it in the trace).
  struct Decider {
    bool event = false;
    std::size_t index = 0;
  };
  std::optional<Decider> decided_by;
};

// The check certify adds to every run (kind client-messages, id "client-messages"): every message
// the client sent holds to the schema.json of the revision it was sent under, the one each request
// names in its _meta, else the one initialize agreed on its connection, else the first the served
// scenario (as pinned) gives its server.
CheckSpec client_messages_check(const mock::Scenario& served);
// The check certify adds to every run over HTTP that may speak the stateless era (kind and id
// client-headers): no request was refused for a request metadata header missing or saying
// otherwise than the body (the mock server's -32020).
CheckSpec client_headers_check();
// Whether a kind is one certify adds to every run, which no scenario declares.
bool is_implicit_kind(std::string_view kind);
// A check that does not apply to a run (its transport, its protocol era), saying why.
CheckResult not_applicable(const CheckSpec& check, const std::string& why);

// Judges one check on a run over `transport` ("stdio" or "http").
CheckResult judge_check(const CheckSpec& check, const RunRecord& record, std::string_view transport);

}  // namespace mcp_hints::conformance
