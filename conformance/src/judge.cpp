#include "mcp_hints/conformance/judge.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>
#include <tuple>

#include "check_kinds/check_kind.hpp"
#include "mcp_hints/conformance/profiles.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/hint_model.hpp"
#include "mcp_hints/vocab/traceability.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"
#include "semantics.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass: return "pass";
    case Verdict::info: return "info";
    case Verdict::warning: return "warning";
    case Verdict::not_applicable: return "not applicable";
    case Verdict::not_testable: return "not testable";
    case Verdict::fail: return "fail";
  }
  return "fail";
}

bool is_failure(Verdict verdict) { return verdict == Verdict::fail || verdict == Verdict::not_testable; }

bool blocks(Verdict verdict, bool strict) { return is_failure(verdict) || (strict && verdict == Verdict::warning); }

const std::map<std::string, std::vector<Outcome>>& outcomes_by_kind() {
  static const auto outcomes = [] {
    std::map<std::string, std::vector<Outcome>> by_kind;
    for (const CheckKind& kind : check_kinds()) by_kind.emplace(kind.name, kind.outcomes);
    return by_kind;
  }();
  return outcomes;
}

bool is_implicit_kind(std::string_view kind) {
  const CheckKind* found = find_check_kind(kind);
  return found && found->implicit;
}

const Outcome* find_outcome(std::string_view kind, std::string_view name) {
  const CheckKind* found = find_check_kind(kind);
  if (!found) return nullptr;
  for (const auto& o : found->outcomes)
    if (o.name == name) return &o;
  return nullptr;
}

CheckReader::CheckReader(const mock::Scenario& scenario, const json& check, std::size_t index)
    : scenario_(scenario), check_(check), index_(index) {}

void CheckReader::fail(std::string_view path, const std::string& why) const {
  throw mock::ScenarioError(scenario_.source + ": /expect/" + std::to_string(index_) + "/" + std::string(path) + ": " +
                            why);
}

const json* CheckReader::find(std::string_view path) {
  read_.insert(std::string(path.substr(0, path.find('/'))));
  const json* at = &check_;
  for (std::size_t from = 0; from <= path.size();) {
    const std::size_t to = std::min(path.find('/', from), path.size());
    if (!at->is_object()) return nullptr;
    auto it = at->find(std::string(path.substr(from, to - from)));
    if (it == at->end()) return nullptr;
    at = &*it;
    from = to + 1;
  }
  return at;
}

std::string CheckReader::text(std::string_view path) {
  const json* value = find(path);
  if (!value) fail(path, "missing");
  if (!value->is_string()) fail(path, "not a string");
  return value->get<std::string>();
}

std::string CheckReader::text_or(std::string_view path, const std::string& fallback) {
  return find(path) ? text(path) : fallback;
}

int CheckReader::integer_or(std::string_view path, int fallback) {
  const json* value = find(path);
  if (!value) return fallback;
  if (!value->is_number_integer()) fail(path, "not an integer");
  // Read without narrowing: 4294967297 is not 1.
  constexpr long long least = std::numeric_limits<int>::min(), most = std::numeric_limits<int>::max();
  if (value->is_number_unsigned() ? value->get<std::uint64_t>() > static_cast<std::uint64_t>(most)
                                  : value->get<long long>() < least || value->get<long long>() > most)
    fail(path, value->dump() + " is out of range (" + std::to_string(least) + " to " + std::to_string(most) + ")");
  return value->get<int>();
}

std::string CheckReader::server(std::string_view path) {
  std::string name = text_or(path, "");
  if (name.empty()) {
    if (scenario_.servers.size() != 1) fail(path, "the scenario has several servers: name one");
    return scenario_.servers.begin()->first;
  }
  if (!scenario_.servers.count(name)) fail(path, "no server '" + name + "' in this scenario");
  return name;
}

std::string CheckReader::tool(std::string_view path, const std::string& server) {
  std::string name = text(path);
  const auto& spec = scenario_.servers.at(server);
  auto lists = [&](const std::vector<json>& tools) {
    return std::any_of(tools.begin(), tools.end(), [&](const json& t) { return t["name"] == name; });
  };
  bool listed = lists(spec.tools);
  for (const auto& [tool, steps] : spec.scripts)
    for (const auto& step : steps) listed = listed || (step.list_changed && lists(*step.list_changed));
  if (!listed) fail(path, "server '" + server + "' never lists a tool '" + name + "'");
  if (first_tool_.second.empty()) first_tool_ = {server, name};
  return name;
}

std::vector<std::string> CheckReader::servers(std::string_view path) {
  std::vector<std::string> names;
  const json* value = find(path);
  if (!value) return names;
  if (!value->is_array()) fail(path, "not an array");
  for (const auto& s : *value) {
    if (!s.is_string() || !scenario_.servers.count(s.get<std::string>()))
      fail(path, "no server " + s.dump() + " in this scenario");
    names.push_back(s);
  }
  return names;
}

std::string CheckReader::authorization(std::string_view path) {
  if (!find(path)) return {};
  const std::string name = text(path);
  const json& declared = scenario_.document.value("authorizations", json::object());
  if (!declared.contains(name)) fail(path, "no authorization context '" + name + "' in this scenario");
  return name;
}

void hold_caution_harmless(CheckReader& in, const std::string& outcome) {
  const json* verdict = in.find("traces/" + outcome);
  if (!verdict || (*verdict != "pass" && *verdict != "info"))
    in.fail("traces/" + outcome,
            "a " + in.text("kind") + " check grades '" + outcome + "' " +
                (verdict ? verdict->dump() : std::string("as a failure (unlisted)")) +
                ", but caution is never a failure: \"Clients MAY apply stricter local policies regardless of "
                "hints\" (list it as \"pass\" or \"info\")");
}

namespace {

Verdict verdict_from_name(const std::string& name) {
  if (name == "pass") return Verdict::pass;
  if (name == "warning") return Verdict::warning;
  if (name == "info") return Verdict::info;
  return Verdict::fail;
}

// One rule for levels: a gate is no stronger than the strongest client obligation among the
// vocabularies whose values decide the call (proposal 1's effect external is advisory, so a gate
// that needs it to know the data leaves is a SHOULD, whatever the scenario's source says).
void hold_to_level_rule(CheckSpec& check, const mock::Scenario& scenario, const json& c) {
  const json* tool = semantics::checked_tool(scenario, c);
  if (!tool) return;  // read_checks refuses it with the pointer
  std::string why, basis;
  const std::string cap =
      semantics::level_cap(*tool, Vocabulary::builtin(), semantics::scenario_trust_level(scenario), &why, &basis);
  if (cap.empty() || semantics::weaker_level(check.level, cap) == check.level) return;
  check.level_reason =
      "no stronger than " + cap + " (the scenario says " + check.level + "): the call is decided by " + why;
  check.level = cap;
  if (!basis.empty()) check.basis = basis;
}

// The level a basis grounds in a certification: its force, but the suite's own rules only inform.
std::string grounded_level(const TraceRef& basis) {
  return basis.document->kind == "own" ? "MAY" : std::string(basis_force(basis));
}

// The check's basis (its own, else the scenario's), which must be a sentence of the data, and its
// level, which must not be above what that sentence grounds; without a level, the basis sets it.
void hold_to_basis(CheckReader& in, CheckSpec& check, const mock::Scenario& scenario) {
  const std::string scenario_basis = scenario.document.value("basis", "");
  check.basis = in.text_or("basis", scenario_basis);
  if (check.basis.empty())
    in.fail("basis",
            "a check needs a basis: the sentence its level rests on (DOCUMENT/ID, as `mcp-hints vocab trace` lists "
            "them), given on the check or the scenario");
  const auto ref = Traceability::builtin().sentence(check.basis);
  if (!ref)
    in.fail("basis", "no sentence '" + check.basis + "' in the traceability data (`mcp-hints vocab trace` lists them)");
  const std::string grounded = grounded_level(*ref);
  const std::string stated = in.text_or("level", scenario.document.value("level", grounded));
  if (semantics::weaker_level(stated, grounded) != stated)
    in.fail("level", "level " + stated + " is above its basis, which grounds at most " + grounded + " (" +
                         (ref->document->kind == "own" ? "the suite's own rule: " : ref->sentence->level + ": ") +
                         quoted(*ref) + ")");
  check.level = stated;
}

std::string known_kinds() {
  std::string names;
  for (const CheckKind& kind : check_kinds())
    if (!kind.implicit) names += (names.empty() ? "" : ", ") + kind.name;
  return names;
}

}  // namespace

namespace {

// Whether a catalog `server` serves with `tool` in it carries a hint that no vocabulary can read
// (the hint model leaves it unread: a wrong type, a value outside its enum), on any of its tools.
bool listing_malformed(const mock::Scenario& scenario, const std::string& server, const std::string& tool) {
  const auto& spec = scenario.servers.at(server);
  std::vector<const std::vector<json>*> catalogs = {&spec.tools};
  for (const auto& [name, steps] : spec.scripts)
    for (const auto& step : steps)
      if (step.list_changed) catalogs.push_back(&*step.list_changed);
  for (const auto& [context, tools] : spec.tools_by_authorization) catalogs.push_back(&tools);
  for (const auto* catalog : catalogs) {
    if (std::none_of(catalog->begin(), catalog->end(), [&](const json& t) { return t.value("name", json()) == tool; }))
      continue;
    for (const auto& t : *catalog)
      if (!read_tool_hints(t, Vocabulary::builtin(), kDefaultSpecRevision).unread.empty()) return true;
  }
  return false;
}

}  // namespace

std::vector<CheckSpec> read_checks(const mock::Scenario& scenario) {
  std::vector<CheckSpec> checks;
  const json& document = scenario.document;
  if (!document.contains("expect")) return checks;
  const json& proposals = document["proposals"];
  std::set<std::string> ids;
  for (std::size_t i = 0; i < document["expect"].size(); ++i) {
    const json& c = document["expect"][i];
    CheckReader in(scenario, c, i);
    CheckSpec check;
    check.id = in.text("id");
    if (!ids.insert(check.id).second) in.fail("id", "the id '" + check.id + "' is used twice");
    check.title = in.text("title");
    check.kind = in.text("kind");
    const CheckKind* kind = find_check_kind(check.kind);
    if (!kind || kind->implicit) in.fail("kind", "no check kind '" + check.kind + "' (known: " + known_kinds() + ")");
    hold_to_basis(in, check, scenario);
    if (check.kind == "gate") hold_to_level_rule(check, scenario, c);
    check.proposal = in.text_or("proposal", proposals[0]["proposal"].get<std::string>());
    check.section = in.text_or("section", proposals[0]["section"].get<std::string>());
    if (const json* transports = in.find("transports")) check.transports = transports->get<std::vector<std::string>>();
    check.parameters = kind->read(in);
    std::tie(check.subject_server, check.subject_tool) = in.first_tool();
    if (!check.subject_tool.empty())
      check.subject_listing_malformed = listing_malformed(scenario, check.subject_server, check.subject_tool);
    place_check(check, scenario, c);
    if (const json* traces = in.find("traces")) {
      for (const auto& [outcome, verdict] : traces->items()) {
        if (!find_outcome(check.kind, outcome))
          in.fail("traces/" + escape_pointer_token(outcome),
                  "a " + check.kind + " check cannot observe '" + outcome + "'");
        check.traces[outcome] = verdict_from_name(verdict.get<std::string>());
      }
    }
    if (find_outcome(check.kind, "blocked")) hold_caution_harmless(in, "blocked");
    // Leaving an input request unfulfilled is a refusal too (the 2026-07-28 text allows it).
    if (find_outcome(check.kind, "not-fulfilled")) hold_caution_harmless(in, "not-fulfilled");
    // The schema allows every kind's members on any check: refuse those this kind does not read.
    for (const auto& [name, value] : c.items())
      if (!in.read_members().count(name))
        in.fail(escape_pointer_token(name), "a " + check.kind + " check does not use '" + name + "'");
    checks.push_back(std::move(check));
  }
  return checks;
}

namespace {

Verdict scale(Verdict verdict, const std::string& level) {
  if (level == "SHOULD" && verdict == Verdict::fail) return Verdict::warning;
  if (level == "MAY" && (verdict == Verdict::fail || verdict == Verdict::warning)) return Verdict::info;
  return verdict;
}

}  // namespace

CheckResult not_applicable(const CheckSpec& check, const std::string& why) {
  CheckResult result;
  result.spec = check;
  result.outcome = "not-applicable";
  result.verdict = Verdict::not_applicable;
  result.detail = why;
  return result;
}

CheckResult judge_check(const CheckSpec& check, const RunRecord& record, std::string_view transport) {
  const CheckKind* kind = find_check_kind(check.kind);
  if (!kind || !check.parameters.has_value())
    throw std::invalid_argument("judge_check: the check '" + check.id + "' (kind '" + check.kind +
                                "') was not made by read_checks");
  CheckResult result;
  result.spec = check;
  if (!check.transports.empty() &&
      std::find(check.transports.begin(), check.transports.end(), transport) == check.transports.end())
    return not_applicable(check, "applies over " + join(check.transports, ", ") + " only");
  if (!record.events_unusable.empty()) {
    result.outcome = kEventsUnusable;
    result.verdict = Verdict::not_testable;
    result.detail = record.events_unusable;
    return result;
  }
  const Observation seen = kind->judge(check.parameters, record);
  result.outcome = seen.outcome;
  result.detail = seen.detail;
  if (seen.line && !record.wire.empty() && seen.line >= record.wire.data() &&
      seen.line < record.wire.data() + record.wire.size())
    result.decided_by = CheckResult::Decider{false, static_cast<std::size_t>(seen.line - record.wire.data())};
  else if (seen.event && !record.events.empty() && seen.event >= record.events.data() &&
           seen.event < record.events.data() + record.events.size())
    result.decided_by = CheckResult::Decider{true, static_cast<std::size_t>(seen.event - record.events.data())};
  const Outcome* outcome = find_outcome(check.kind, seen.outcome);
  // A real host that never offered the tool to its model rejected its listing: caution where the
  // listing's hints are malformed, and no reason to leave the decision unreached where they are not.
  if (outcome && outcome->untestable && !check.subject_tool.empty() &&
      record.never_offered(check.subject_server, check.subject_tool)) {
    const std::string never = "the host never offered " + check.subject_tool + " of " + check.subject_server +
                              " to its model, which passed the call over";
    if (check.subject_listing_malformed) {
      result.outcome = kListingRejected;
      result.verdict = result.own_verdict = Verdict::info;
      result.detail = never + ": it rejected a listing that carries hints no vocabulary can read (" + seen.detail + ")";
      return result;
    }
    result.detail += "; " + never + ", although every hint of its listing is well-formed";
  }
  if (outcome && outcome->moot) {
    result.verdict = Verdict::not_applicable;
    return result;
  }
  const auto it = check.traces.find(seen.outcome);
  if (outcome && outcome->untestable)
    result.verdict = Verdict::not_testable;
  else
    result.verdict = scale(it == check.traces.end() ? Verdict::fail : it->second, check.level);
  result.holds = result.verdict == Verdict::pass;
  result.own_verdict = result.verdict;
  // A draft's expectation keeps no conformance tier: its profile reports it.
  if (!check.conformance && !result.holds) result.verdict = Verdict::info;
  return result;
}

}  // namespace mcp_hints::conformance
