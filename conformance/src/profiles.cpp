#include "mcp_hints/conformance/profiles.hpp"

#include <algorithm>
#include <set>

#include "mcp_hints/conformance/client_harness.hpp"
#include "mcp_hints/json/error.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/traceability.hpp"
#include "semantics.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

const std::vector<Profile>& profiles() {
  static const std::vector<Profile> all = {
      {"policy-hints", "proposal 1 (policy hints)"},
      {"risk-metadata", "SEP-2793 (risk metadata)"},
      {"trust-annotations", "issue #711 and SEP-1913 (trust annotations)"},
      {"action-security", "action security metadata"},
      {"extensions", "2026-06 extensions (trust-annotations, action-metadata)"},
      {"agency-hint", "SEP-1938 (agencyHint)"},
  };
  return all;
}

const Profile* find_profile(std::string_view id) {
  for (const auto& p : profiles())
    if (p.id == id) return &p;
  return nullptr;
}

namespace {

std::vector<std::string> profile_ids() {
  std::vector<std::string> ids;
  for (const auto& p : profiles()) ids.push_back(p.id);
  return ids;
}

}  // namespace

std::string profile_names() { return join(profile_ids(), ", "); }

std::vector<std::string> required_profiles(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& name : names) {
    if (name == "all") {
      for (const auto& p : profiles()) out.push_back(p.id);
      continue;
    }
    if (!find_profile(name)) {
      throw OptionError("require-profile", "no profile '" + name + "'" + did_you_mean(name, profile_ids()) +
                                               " (there are: all, " + profile_names() + ")");
    }
    out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

// A vocabulary revision's profile ("trust-annotations@ext-2026-06" -> "extensions"); empty for the
// specification and for what is no proposal.
std::string profile_of_ref(std::string_view id, std::string_view revision) {
  if (revision.rfind("ext-", 0) == 0) return "extensions";
  return find_profile(id) ? std::string(id) : std::string();
}

std::string profile_of_field(const Field& field) {
  return field.latest ? profile_of_ref(field.vocabulary, field.latest->revision) : std::string();
}

// The basis document's profile when it is a proposal ("agency-hint@sep-1938" -> "agency-hint").
std::string profile_of_basis(const std::string& basis) {
  const auto ref = Traceability::builtin().sentence(basis);
  if (!ref || !ref->document->is_proposal()) return {};
  const std::string& doc = ref->document->id;
  const auto at = doc.find('@');
  return at == std::string::npos ? profile_of_ref(doc, "") : profile_of_ref(doc.substr(0, at), doc.substr(at + 1));
}

bool is_proposal_basis(const std::string& basis) {
  const auto ref = Traceability::builtin().sentence(basis);
  return ref && ref->document->is_proposal();
}

// What the specification alone asks of a call: readOnlyHint "Default: false", destructiveHint
// "Default: true" (meaningful when readOnlyHint is false); a value of the wrong type claims nothing.
bool spec_asks(const json& tool) {
  const json* read_only = find_member(tool, {"annotations", "readOnlyHint"});
  const json* destructive = find_member(tool, {"annotations", "destructiveHint"});
  const bool is_read_only = read_only && *read_only == true;
  const bool is_destructive = !(destructive && *destructive == false);
  return !is_read_only && is_destructive;
}

// The profiles of a tool's values that bear on a call: what asks, what marks safety, where data goes.
void add_tool_profiles(const json& tool, const std::vector<std::string>& facets, std::set<std::string>& into) {
  for (const auto& fv : semantics::asserted_values(tool, Vocabulary::builtin()))
    if (semantics::field_touches(*fv.field, facets))
      if (auto p = profile_of_field(*fv.field); !p.empty()) into.insert(p);
}

// The profiles of the annotations a tool's scripted results carry (the result, its content blocks).
void add_result_profiles(const mock::Scenario& scenario, const std::string& server, const std::string& tool,
                         std::set<std::string>& into) {
  const mock::ServerSpec* spec = semantics::scenario_server(scenario, server);
  if (!spec) return;
  const auto steps = spec->scripts.find(tool);
  if (steps == spec->scripts.end()) return;
  for (const auto& step : steps->second) {
    std::vector<const json*> carriers = {&step.payload};
    if (step.payload.is_object() && step.payload.contains("content") && step.payload["content"].is_array())
      for (const auto& block : step.payload["content"]) carriers.push_back(&block);
    for (const auto& field : Vocabulary::builtin().fields())
      if (field.is_message_field)
        for (const json* carrier : carriers)
          if (carrier->is_object() && find_member(*carrier, field.tokens))
            if (auto p = profile_of_field(field); !p.empty()) into.insert(p);
  }
}

}  // namespace

void place_check(CheckSpec& spec, const mock::Scenario& scenario, const json& check) {
  std::set<std::string> placed;
  if (auto p = profile_of_basis(spec.basis); !p.empty()) placed.insert(p);
  spec.conformance = !is_proposal_basis(spec.basis);
  spec.semantic = spec.kind;
  if (spec.kind == "gate") {
    const json traces = check.value("traces", json::object());
    const std::string unprompted = traces.value("called-unprompted", std::string("fail"));
    const bool demands = unprompted != "pass" && unprompted != "info";
    spec.refrains = !demands;
    const json* tool = semantics::checked_tool(scenario, check);
    std::vector<std::string> facets = semantics::confirmation_facets();
    facets.insert(facets.end(), {"destination", "open-world", "agency"});
    if (tool) add_tool_profiles(*tool, facets, placed);
    if (check.contains("requires") && check["requires"].is_object()) {
      // Sensitive data in the context: what the source's declaration and its results said.
      spec.semantic = "sensitive data leaving";
      const std::string server = check["requires"].value("server", "");
      const std::string source = check["requires"].value("tool", "");
      if (const json* from = semantics::scenario_tool(scenario, server, source))
        add_tool_profiles(*from, semantics::sensitivity_facets(), placed);
      add_result_profiles(scenario, server, source, placed);
      // The specification knows no sensitive context: it grounds only what the sink asks itself.
      if (tool && demands && !spec_asks(*tool)) spec.conformance = false;
    } else {
      spec.semantic = demands ? "asks where it marks danger" : "no prompt where it marks safety";
      // The specification grounds the gate only when its own hints (and their defaults) ask the
      // same: otherwise a draft's value decides, and a client that never heard of it is not less
      // conformant for it.
      if (tool && demands != spec_asks(*tool)) spec.conformance = false;
    }
  }
  spec.profiles.assign(placed.begin(), placed.end());
}

void require_profiles(ScenarioRun& run, const std::vector<std::string>& required) {
  for (auto& check : run.checks) {
    if (check.spec.conformance || check.verdict == Verdict::not_applicable) continue;
    const auto& p = check.spec.profiles;
    if (std::any_of(p.begin(), p.end(), [&](const std::string& id) {
          return std::find(required.begin(), required.end(), id) != required.end();
        }))
      check.verdict = check.own_verdict;
  }
}

std::vector<std::string> semantic_cells(const ProfileVerdict& verdict) {
  std::vector<std::string> cells;
  for (const auto& [semantic, cell] : verdict.by_semantic)
    cells.push_back(semantic + " " + std::to_string(cell.first) + "/" + std::to_string(cell.second));
  return cells;
}

std::vector<ProfileVerdict> profile_verdicts(const std::vector<const ScenarioRun*>& runs) {
  std::vector<ProfileVerdict> out;
  for (const auto& profile : profiles()) {
    ProfileVerdict verdict;
    verdict.profile = &profile;
    std::size_t acts = 0, acts_held = 0, refrains = 0, refrains_held = 0;
    for (const ScenarioRun* run : runs) {
      if (run->could_not_run) continue;
      for (const auto& check : run->checks) {
        const auto& p = check.spec.profiles;
        if (check.verdict == Verdict::not_applicable || std::find(p.begin(), p.end(), profile.id) == p.end()) continue;
        ++verdict.total;
        auto& cell = verdict.by_semantic[check.spec.semantic];
        ++cell.second;
        (check.spec.refrains ? refrains : acts) += 1;
        if (check.holds) {
          ++verdict.held;
          ++cell.first;
          (check.spec.refrains ? refrains_held : acts_held) += 1;
        } else {
          if (!check.expected_failure) ++verdict.unlisted;
          verdict.unmet.push_back(run->run_id() + ":" + check.spec.id + " (" + check.spec.semantic +
                                  "): " + check.outcome);
        }
      }
    }
    if (verdict.total == 0)
      verdict.status = "not exercised";
    else if (verdict.held == verdict.total)
      verdict.status = "implemented";
    else if ((acts > 0 && acts_held == 0) || (refrains > 0 && refrains_held == 0))
      verdict.status = "not implemented";
    else
      verdict.status = "partial";
    out.push_back(std::move(verdict));
  }
  return out;
}

}  // namespace mcp_hints::conformance
