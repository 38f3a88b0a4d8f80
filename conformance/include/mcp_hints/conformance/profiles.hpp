#pragma once
// Conformance to the specification, and a profile per proposal. The proposals are drafts a client
// may or may not adopt; the specification is not. A check counts toward the conformance tiers
// only when the specification's own sentences and hints ground it (a client that never heard of a
// draft is not less conformant for it); a check whose expectation a draft's value or sentence
// decides is an expectation of that draft's profile. A profile says whether the client *uses* the
// proposal: caution that costs nothing in conformance (asking anyway, refusing anyway) costs the
// profile of the hint it ignored.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/conformance/judge.hpp"
#include "mcp_hints/mock/scenario.hpp"

namespace mcp_hints::conformance {

struct ScenarioRun;

struct Profile {
  std::string id;     // "risk-metadata"
  std::string title;  // "SEP-2793 (risk metadata)"
};
// Every proposal profile, in the order reports list them.
const std::vector<Profile>& profiles();
const Profile* find_profile(std::string_view id);
// "policy-hints, risk-metadata, ..." for messages.
std::string profile_names();

// Where a check of this scenario belongs: whether it counts toward the conformance tiers, the
// profiles whose expectation it is, and for a gate whether the value marks safety (the client
// must not ask) rather than danger. Fills CheckSpec::conformance, profiles, refrains, semantic.
// `check` is the check's member of the scenario's expect array.
void place_check(CheckSpec& spec, const mock::Scenario& scenario, const nlohmann::json& check);

// What a client did with one proposal over the runs of the eras it speaks.
struct ProfileVerdict {
  const Profile* profile = nullptr;
  // "implemented": every expectation held; "not implemented": the client acts on none of it (no
  // expectation that needs it to act held, or it ignored every value that marks safety);
  // "partial": the rest; "not exercised": no run had an expectation of it.
  std::string status = "not exercised";
  std::size_t held = 0, total = 0;
  std::vector<std::string> unmet;  // "run:check (semantic): outcome"
  std::size_t unlisted = 0;        // of those, the misses no expected-failures entry lists
  // By semantic ("asks where it marks danger" ...): expectations held, and in all.
  std::map<std::string, std::pair<std::size_t, std::size_t>> by_semantic;
};
// "asks where it marks danger 3/4" per semantic, as every report writes the matrix's cells.
std::vector<std::string> semantic_cells(const ProfileVerdict& verdict);
// Every profile's verdict over these runs (those of the eras the client speaks).
std::vector<ProfileVerdict> profile_verdicts(const std::vector<const ScenarioRun*>& runs);

// The profiles `--require-profile` names ("all": every one), checked; an unknown name throws a
// usage error naming those there are.
std::vector<std::string> required_profiles(const std::vector<std::string>& names);

// A run that requires these profiles (checked ids): each of their expectations outside
// conformance takes back the verdict its level gives (CheckResult::own_verdict), so a miss fails
// or warns as the check says, in the run's line, the recap and every report. The tiers still
// count the specification's checks only.
void require_profiles(ScenarioRun& run, const std::vector<std::string>& required);

}  // namespace mcp_hints::conformance
