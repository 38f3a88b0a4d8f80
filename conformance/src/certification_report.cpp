#include "mcp_hints/conformance/certification_report.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "mcp_hints/conformance/traceability.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/json/version.hpp"
#include "mcp_hints/report/html.hpp"
#include "mcp_hints/report/report.hpp"
#include "mcp_hints/report/trace.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

// The verdict as results.json says it: "certified", "not certified", "incomplete".
std::string overall_json_name(Overall overall) { return ascii_lower(overall_name(overall)); }

// A run's or a check's verdict where its era is one the client does not speak.
constexpr const char* kNotSpoken = "not spoken";

// The verdict's colour: pass, warning (no new failure, no certificate) or fail.
Verdict overall_verdict(Overall overall) {
  return overall == Overall::certified        ? Verdict::pass
         : overall == Overall::no_new_failure ? Verdict::warning
                                              : Verdict::fail;
}

// The runs that count: those of the eras the client speaks.
std::vector<const ScenarioRun*> counted_runs(const std::vector<ScenarioRun>& runs) {
  const auto unspoken = unspoken_protocols(runs);
  std::vector<const ScenarioRun*> counted;
  for (const auto& run : runs)
    if (!unspoken.count(run.protocol)) counted.push_back(&run);
  return counted;
}

bool is_required(const Certification& c, const Profile& profile) {
  return std::find(c.required_profiles.begin(), c.required_profiles.end(), profile.id) != c.required_profiles.end();
}

std::string era_name(const EraVerdict& era) {
  return era.protocol.empty() ? std::string("the scenarios' own revisions") : era.protocol;
}

std::string effective(const CheckResult& check) {
  return check.expected_failure ? "expected failure" : std::string(verdict_name(check.verdict));
}

// The scenario's verdict in words: "expected failure" when its only failures are listed ones.
std::string scenario_verdict(const ScenarioRun& run) {
  const bool expected =
      std::any_of(run.checks.begin(), run.checks.end(), [](const CheckResult& r) { return r.expected_failure; });
  return expected && !is_failure(run.verdict()) ? "expected failure" : std::string(verdict_name(run.verdict()));
}

std::string seconds_text(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f s", seconds);
  return buffer;
}

std::string title_case(std::string_view verdict) {
  std::string out(verdict);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

json acceptable_traces(const CheckSpec& spec) {
  json traces = json::array();
  for (const auto& outcome : outcomes_by_kind().at(spec.kind)) {
    auto it = spec.traces.find(outcome.name);
    // As the judge grades them: a moot outcome is not applicable whatever the traces say.
    std::string verdict = outcome.untestable        ? "not testable"
                          : outcome.moot            ? std::string(verdict_name(Verdict::not_applicable))
                          : it == spec.traces.end() ? "fail"
                                                    : std::string(verdict_name(it->second));
    traces.push_back({{"outcome", outcome.name}, {"description", outcome.description}, {"verdict", verdict}});
  }
  return traces;
}

// The observed trace: the client's events and what crossed the wire, in time order. Each item
// keeps its place in the record ("wire" or "event": its index), so a check's decider can be found.
double trace_start(const RunRecord& record) {
  double start = 0;
  if (!record.wire.empty()) start = record.wire.front().time;
  if (!record.events.empty() && (start == 0 || record.events.front().time < start)) start = record.events.front().time;
  return start;
}

json event_item(const RunRecord& record, std::size_t index, double start) {
  const auto& ev = record.events[index];
  return {{"ms", (ev.time - start) * 1000}, {"from", "client"}, {"event", ev.data}, {"eventIndex", index}};
}

json wire_item(const RunRecord& record, std::size_t index, double start) {
  const auto& line = record.wire[index];
  json item = {{"ms", (line.time - start) * 1000},
               {"server", line.server},
               {"connection", line.connection},
               {"wireIndex", index}};
  if (!line.authorization.empty()) item["authorization"] = line.authorization;
  if (!line.event.empty())
    item["event"] = line.event;
  else if (!line.raw.empty())
    item["raw"] = line.raw.substr(0, 2000);
  else
    item[line.direction == "in" ? "received" : "sent"] = line.message;
  return item;
}

json observed_trace(const ScenarioRun& run, std::size_t limit) {
  json trace = json::array();
  const RunRecord& record = run.record;
  const double start = trace_start(record);
  std::size_t w = 0, e = 0;
  while ((w < record.wire.size() || e < record.events.size()) && trace.size() < limit) {
    const bool take_event =
        e < record.events.size() && (w >= record.wire.size() || record.events[e].time <= record.wire[w].time);
    trace.push_back(take_event ? event_item(record, e++, start) : wire_item(record, w++, start));
  }
  return trace;
}

// The trace item a check's verdict was decided by (null when none was): in results.json, and the
// anchor the HTML report links "observed" to.
json decider_item(const ScenarioRun& run, const CheckResult& check) {
  if (!check.decided_by) return nullptr;
  const auto [event, index] = *check.decided_by;
  if (event ? index >= run.record.events.size() : index >= run.record.wire.size()) return nullptr;
  const double start = trace_start(run.record);
  return event ? event_item(run.record, index, start) : wire_item(run.record, index, start);
}

std::string decider_anchor(const ScenarioRun& run, const json& item) {
  return run.run_id() + (item.contains("eventIndex") ? "-e" + std::to_string(item["eventIndex"].get<std::size_t>())
                                                     : "-w" + std::to_string(item["wireIndex"].get<std::size_t>()));
}

}  // namespace

std::map<std::string, std::size_t> Certification::counts() const {
  std::map<std::string, std::size_t> counts;
  const auto unspoken = unspoken_protocols(runs);
  for (const auto& run : runs) {
    const bool spoken = !unspoken.count(run.protocol);
    for (const auto& check : run.checks) ++counts[spoken ? effective(check) : kNotSpoken];
  }
  return counts;
}

namespace {

// The tier of some runs: not certified when none, or one could not run or has a failure.
Tier tier_of(const std::vector<const ScenarioRun*>& runs) {
  Tier reached = runs.empty() ? Tier::not_certified : Tier::strict;
  for (const ScenarioRun* run : runs) {
    if (run->could_not_run) return Tier::not_certified;
    for (const auto& check : run->checks) {
      if (!check.spec.conformance) continue;  // a draft's expectation: its profile's, never a tier's
      if (is_failure(check.verdict)) return Tier::not_certified;
      if (check.verdict == Verdict::warning) reached = Tier::certified;
    }
  }
  return reached;
}

}  // namespace

std::vector<EraVerdict> Certification::eras() const {
  const auto unspoken = unspoken_protocols(runs);
  std::vector<EraVerdict> eras;
  std::vector<std::vector<const ScenarioRun*>> by_era;
  for (const auto& run : runs) {
    auto it = std::find_if(eras.begin(), eras.end(), [&](const EraVerdict& e) { return e.protocol == run.protocol; });
    if (it == eras.end()) {
      eras.push_back({run.protocol, unspoken.count(run.protocol) ? run.era_not_spoken : "", Tier::not_certified});
      by_era.emplace_back();
      it = eras.end() - 1;
    }
    // Why the era is not spoken: its first run that says (one that sent nothing says nothing).
    if (it->not_spoken.empty() && unspoken.count(run.protocol)) it->not_spoken = run.era_not_spoken;
    by_era[static_cast<std::size_t>(it - eras.begin())].push_back(&run);
  }
  for (std::size_t i = 0; i < eras.size(); ++i)
    if (eras[i].not_spoken.empty()) eras[i].tier = tier_of(by_era[i]);
  return eras;
}

std::vector<ProfileVerdict> Certification::profiles() const { return profile_verdicts(counted_runs(runs)); }

std::vector<std::string> Certification::unmet_profiles() const {
  std::vector<std::string> unmet;
  if (required_profiles.empty()) return unmet;
  for (const auto& p : profiles())
    if (is_required(*this, *p.profile) && p.status != "implemented")
      unmet.push_back(p.profile->id + " (" + p.status + ")");
  return unmet;
}

bool Certification::failed() const {
  if (!list_problems.empty() || !failing_checks().empty()) return true;
  // A required profile not implemented fails the run, unless listed expected failures are all its
  // misses (then the run proves no new failure, and no profile).
  const auto all = profiles();
  return std::any_of(all.begin(), all.end(), [&](const ProfileVerdict& p) {
    return is_required(*this, *p.profile) && p.status != "implemented" && (p.total == 0 || p.unlisted > 0);
  });
}

std::string_view tier_name(Tier tier) {
  switch (tier) {
    case Tier::not_certified: return "not certified";
    case Tier::certified: return "certified";
    case Tier::strict: return "certified, strict";
  }
  return "not certified";
}

Tier Certification::tier() const { return tier_of(counted_runs(runs)); }

std::vector<std::string> Certification::blocking_next_tier() const {
  const Tier reached = tier();
  std::vector<std::string> blocking;
  if (reached == Tier::strict) return blocking;
  if (runs.empty()) return {"no scenario was run"};
  const auto counted = counted_runs(runs);
  if (counted.empty()) {
    for (const auto& era : eras()) blocking.push_back(era_name(era) + " not spoken: " + era.not_spoken);
    return blocking;
  }
  const bool strict_next = reached == Tier::certified;
  for (const ScenarioRun* counted_run : counted) {
    const ScenarioRun& run = *counted_run;
    if (run.could_not_run) blocking.push_back(run.run_id() + ": could not run");
    for (const auto& check : run.checks)
      if (check.spec.conformance && (strict_next ? check.verdict == Verdict::warning : is_failure(check.verdict)))
        blocking.push_back(run.run_id() + ":" + check.spec.id + " [" + check.spec.level + "] " + effective(check) +
                           ": " + check.outcome);
  }
  return blocking;
}

bool Certification::incomplete() const {
  if (runs.empty()) return false;
  for (const auto& run : runs)
    if (!run.could_not_run) return false;
  return true;
}

std::string_view overall_name(Overall overall) {
  switch (overall) {
    case Overall::certified: return "CERTIFIED";
    case Overall::no_new_failure: return "NO NEW FAILURE";
    case Overall::not_certified: return "NOT CERTIFIED";
    case Overall::incomplete: return "INCOMPLETE";
  }
  return "INCOMPLETE";
}

Overall Certification::overall() const {
  if (runs.empty() || !run_problems.empty() ||
      std::any_of(runs.begin(), runs.end(), [](const ScenarioRun& r) { return r.could_not_run; }))
    return Overall::incomplete;
  if (failed() || counted_runs(runs).empty()) return Overall::not_certified;
  // Listed failures (or, under strict, listed warnings) alone keep the client from the tier asked
  // for: nothing regressed, nothing certified.
  const Tier asked = strict ? Tier::strict : Tier::certified;
  return static_cast<int>(tier()) < static_cast<int>(asked) || !unmet_profiles().empty() ? Overall::no_new_failure
                                                                                         : Overall::certified;
}

std::vector<std::pair<const ScenarioRun*, const CheckResult*>> Certification::failing_checks() const {
  std::vector<std::pair<const ScenarioRun*, const CheckResult*>> out;
  for (const ScenarioRun* run : counted_runs(runs)) {
    if (run->could_not_run) out.emplace_back(run, nullptr);
    for (const auto& check : run->checks)
      if (blocks(check.verdict, strict) && !check.expected_failure) out.emplace_back(run, &check);
  }
  return out;
}

std::string run_line(const ScenarioRun& run, std::size_t number, std::size_t total, bool strict) {
  const std::string width = std::to_string(std::to_string(total).size());
  char counter[48];
  std::snprintf(counter, sizeof counter, ("[%" + width + "zu/%zu] ").c_str(), number, total);
  const std::string verdict =
      scenario_verdict(run) == "expected failure" ? "XFAIL" : title_case(verdict_name(run.verdict()));
  std::string line = counter + padded(verdict, 13) + padded(visible(run.run_id()), 44) + seconds_text(run.seconds);
  std::vector<std::string> failed;
  for (const auto& check : run.checks)
    if (blocks(check.verdict, strict) && !check.expected_failure) failed.push_back(visible(check.spec.id));
  if (run.could_not_run) line += "  could not run";
  if (!run.era_not_spoken.empty()) line += "  era not spoken";
  if (!failed.empty()) line += "  failed: " + join(failed);
  return line;
}

namespace {

json profiles_json(const Certification& c) {
  json out = json::array();
  for (const auto& p : c.profiles()) {
    json by_semantic = json::object();
    for (const auto& [semantic, cell] : p.by_semantic)
      by_semantic[semantic] = {{"held", cell.first}, {"total", cell.second}};
    out.push_back({{"id", p.profile->id},
                   {"title", p.profile->title},
                   {"status", p.status},
                   {"held", p.held},
                   {"total", p.total},
                   {"required", is_required(c, *p.profile)},
                   {"bySemantic", by_semantic},
                   {"unmet", p.unmet}});
  }
  return out;
}

json eras_json(const Certification& c) {
  json eras = json::array();
  for (const auto& era : c.eras())
    eras.push_back({{"protocol", era.protocol.empty() ? json() : json(era.protocol)},
                    {"tier", era.not_spoken.empty() ? std::string(tier_name(era.tier)) : std::string(kNotSpoken)},
                    {"notSpoken", era.not_spoken.empty() ? json() : json(era.not_spoken)}});
  return eras;
}

}  // namespace

json certification_json(const Certification& c) {
  json scenarios = json::array();
  const auto unspoken = unspoken_protocols(c.runs);
  for (const auto& run : c.runs) {
    json checks = json::array();
    for (const auto& check : run.checks) {
      const Outcome* outcome = find_outcome(check.spec.kind, check.outcome);
      checks.push_back(
          {{"id", check.spec.id},
           {"name", run.run_id() + ":" + check.spec.id},
           {"title", check.spec.title},
           {"kind", check.spec.kind},
           {"level", check.spec.level},
           {"levelReason", check.spec.level_reason},
           {"basis", check.spec.basis},
           {"conformance", check.spec.conformance},
           {"profiles", check.spec.profiles},
           {"holds", check.holds},
           {"semantic", check.spec.semantic},
           {"proposal", check.spec.proposal},
           {"section", check.spec.section},
           {"outcome", check.outcome},
           {"outcomeDescription", outcome ? outcome->description
                                  : check.outcome == kEventsUnusable
                                      ? std::string("the events file cannot be ordered against the wire")
                                  : check.outcome == kListingRejected
                                      ? std::string("the host rejected a listing whose hints are malformed: the tool "
                                                    "was never offered to its model, the call never made")
                                      : std::string("not applicable to this run (its transport or protocol era)")},
           {"verdict", verdict_name(check.verdict)},
           {"expectedFailure", check.expected_failure},
           {"detail", check.detail},
           {"decidedBy", decider_item(run, check)},
           {"acceptableTraces", acceptable_traces(check.spec)}});
    }
    json events = json::array();
    for (const auto& e : run.record.events) events.push_back(e.data);
    scenarios.push_back({{"id", run.scenario.id},
                         {"run", run.run_id()},
                         {"protocol", run.protocol.empty() ? json() : json(run.protocol)},
                         {"title", run.scenario.title},
                         {"checks", run.scenario.checks},
                         {"level", run.scenario.level},
                         {"proposals", run.scenario.document["proposals"]},
                         {"verdict", unspoken.count(run.protocol) ? std::string(kNotSpoken) : scenario_verdict(run)},
                         {"couldNotRun", run.could_not_run},
                         {"eraNotSpoken", run.era_not_spoken.empty() ? json() : json(run.era_not_spoken)},
                         {"seconds", run.seconds},
                         {"client",
                          {{"exit", run.client.how},
                           {"exitCode", run.client.exit_code},
                           {"timedOut", run.client.timed_out},
                           {"stderr", run.client.stderr_tail}}},
                         {"notes", run.notes},
                         {"folder", run.folder.string()},
                         {"results", checks},
                         {"events", events}});
  }
  json counts = json::object();
  for (const auto& [name, n] : c.counts()) counts[name] = n;
  json out = {{"tool", "mcp-hints"},
              {"version", kVersion},
              {"client", c.client_command},
              {"transport", c.transport},
              {"seconds", c.seconds},
              {"counts", counts},
              {"listProblems", c.list_problems},
              {"notRun", c.not_run},
              {"passed", !c.failed()},
              {"verdict", overall_json_name(c.overall())},
              {"runProblems", c.run_problems},
              {"strict", c.strict},
              {"tier", std::string(tier_name(c.tier()))},
              {"eras", eras_json(c)},
              {"blockingNextTier", c.blocking_next_tier()},
              {"profiles", profiles_json(c)},
              {"requiredProfiles", c.required_profiles},
              {"scenarios", scenarios}};
  if (c.host)
    out["host"] = {
        {"name", c.host->name}, {"title", c.host->title}, {"version", c.host->version}, {"limits", c.host->limits}};
  return out;
}

std::string certification_junit(const Certification& c) {
  std::string body;
  std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  const auto unspoken = unspoken_protocols(c.runs);
  for (const auto& run : c.runs) {
    std::size_t suite_failures = 0, suite_skipped = 0;
    std::string cases;
    auto add_case = [&](const std::string& name, const std::string& inner) {
      cases += "    <testcase classname=\"" + html_escape(run.run_id()) + "\" name=\"" + html_escape(name) +
               "\" time=\"" + std::to_string(run.seconds) + "\">" + inner + "</testcase>\n";
    };
    std::size_t suite_errors = 0, never_ran = 0;
    if (run.could_not_run) {
      // The run's own problem is an error, not the client's failure; its checks never ran.
      ++suite_errors;
      std::string why;
      for (const auto& n : run.notes) why += n + "\n";
      add_case("run", "<error message=\"the run could not start\">" + html_escape(why) + "</error>");
      for (const auto& spec : read_checks(run.scenario)) {
        ++never_ran;
        add_case(spec.id, "<skipped message=\"never ran: the run could not start\"/>");
      }
      suite_skipped += never_ran;
    }
    const bool counted = !unspoken.count(run.protocol);
    for (const auto& check : run.checks) {
      const std::string message =
          "[" + check.spec.level + "] " + std::string(verdict_name(check.verdict)) + ": " + check.outcome;
      std::string inner;
      if (!counted) {  // an era the client does not speak: its checks say nothing of the client
        ++suite_skipped;
        inner = "<skipped message=\"" + html_escape("era not spoken: " + run.era_not_spoken) + "\"/>";
      } else if (is_failure(check.verdict) && !check.expected_failure) {
        ++suite_failures;
        inner = "<failure message=\"" + html_escape(message) + "\">" + html_escape(check.detail) + "</failure>";
      } else if (check.verdict == Verdict::not_applicable || check.expected_failure) {
        ++suite_skipped;
        inner = "<skipped message=\"" + html_escape(check.expected_failure ? "expected failure: " + message : message) +
                "\"/>";
      } else {
        inner = "<system-out>" + html_escape(message + " — " + check.detail) + "</system-out>";
      }
      add_case(check.spec.id, inner);
    }
    const std::size_t n = run.checks.size() + suite_errors + never_ran;
    tests += n;
    failures += suite_failures;
    errors += suite_errors;
    skipped += suite_skipped;
    body += "  <testsuite name=\"" + html_escape(run.run_id()) + "\" tests=\"" + std::to_string(n) + "\" failures=\"" +
            std::to_string(suite_failures) + "\" errors=\"" + std::to_string(suite_errors) + "\" skipped=\"" +
            std::to_string(suite_skipped) + "\" time=\"" + std::to_string(run.seconds) + "\">\n" + cases +
            "  </testsuite>\n";
  }
  if (!c.list_problems.empty()) {
    std::string cases;
    for (const auto& p : c.list_problems)
      cases += "    <testcase classname=\"expected-failures\" name=\"" + html_escape(p.substr(0, p.find(':'))) +
               "\"><failure message=\"" + html_escape(p) + "\"/></testcase>\n";
    tests += c.list_problems.size();
    failures += c.list_problems.size();
    body += "  <testsuite name=\"expected-failures\" tests=\"" + std::to_string(c.list_problems.size()) +
            "\" failures=\"" + std::to_string(c.list_problems.size()) + "\" errors=\"0\" skipped=\"0\">\n" + cases +
            "  </testsuite>\n";
  }
  if (!c.run_problems.empty()) {
    std::string cases;
    for (const auto& p : c.run_problems)
      cases +=
          "    <testcase classname=\"run\" name=\"output\"><error message=\"" + html_escape(p) + "\"/></testcase>\n";
    tests += c.run_problems.size();
    errors += c.run_problems.size();
    body += "  <testsuite name=\"run\" tests=\"" + std::to_string(c.run_problems.size()) +
            "\" failures=\"0\" errors=\"" + std::to_string(c.run_problems.size()) + "\" skipped=\"0\">\n" + cases +
            "  </testsuite>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"mcp-hints certify\" tests=\"" +
         std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
         "\" skipped=\"" + std::to_string(skipped) + "\" time=\"" + std::to_string(c.seconds) + "\">\n" + body +
         "</testsuites>\n";
}

namespace {

// "Codex CLI (codex-cli 0.171.0), through its built-in adapter; what the adapter cannot see: ..."
std::string host_line(const HostUnderTest& host) {
  return host.title + " (" + host.version + "), through its built-in adapter" +
         (host.limits.empty() ? std::string() : "; what the adapter cannot see: " + host.limits);
}

std::string summary_line(const Certification& c) {
  std::string counts;
  for (const auto& [name, n] : c.counts()) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + name;
  // A scenario runs once per revision: the runs are counted, and the scenarios they are of.
  std::set<std::string> scenarios;
  for (const auto& run : c.runs) scenarios.insert(run.scenario.id);
  const std::string runs = c.runs.size() == scenarios.size()
                               ? plural(scenarios.size(), "scenario")
                               : plural(c.runs.size(), "run") + " of " + plural(scenarios.size(), "scenario");
  return runs + " in " + seconds_text(c.seconds) + "; checks: " + (counts.empty() ? "none" : counts);
}

// "eras: 2026-07-28 not spoken: the client sent initialize ...; 2025-11-25 certified, strict";
// empty when one era was run and spoken.
std::string eras_line(const Certification& c) {
  const auto eras = c.eras();
  if (eras.empty() || (eras.size() == 1 && eras[0].not_spoken.empty())) return {};
  std::vector<std::string> parts;
  for (const auto& era : eras)
    parts.push_back(era_name(era) + " " +
                    (era.not_spoken.empty() ? std::string(tier_name(era.tier)) : "not spoken: " + era.not_spoken));
  return "eras: " + join(parts, "; ");
}

// "OVERALL: CERTIFIED", and where the client does not speak an era run, which eras the verdict is
// for: "OVERALL: CERTIFIED in 2025-11-25 (2026-07-28 not spoken)".
std::string overall_words(const Certification& c) {
  const Overall overall = c.overall();
  std::string words = "OVERALL: " + std::string(overall_name(overall));
  if (overall != Overall::certified && overall != Overall::no_new_failure) return words;
  std::vector<std::string> spoken, unspoken;
  for (const auto& era : c.eras()) (era.not_spoken.empty() ? spoken : unspoken).push_back(era_name(era));
  if (!unspoken.empty()) words += " in " + join(spoken, ", ") + " (" + join(unspoken, ", ") + " not spoken)";
  return words;
}

// "tier: certified; certified, strict needs: ..." in one line per blocker.
std::vector<std::string> tier_lines(const Certification& c) {
  const Tier reached = c.tier();
  std::vector<std::string> lines = {"tier: " + std::string(tier_name(reached))};
  if (reached == Tier::strict) return lines;
  const auto blocking = c.blocking_next_tier();
  lines.front() += "; " + std::string(tier_name(reached == Tier::certified ? Tier::strict : Tier::certified)) +
                   " is blocked by " + std::to_string(blocking.size()) + ":";
  lines.insert(lines.end(), blocking.begin(), blocking.end());
  return lines;
}

// One line a profile: "risk-metadata  partial  10/12  SEP-2793 (risk metadata), required", then
// by semantic, then the first unmet expectations.
std::vector<std::string> profile_lines(const ProfileVerdict& p, const Certification& c, std::size_t unmet_shown) {
  const bool required = is_required(c, *p.profile);
  std::vector<std::string> lines = {padded(p.profile->id, 19) + padded(p.status, 17) +
                                    padded(std::to_string(p.held) + "/" + std::to_string(p.total), 8) +
                                    p.profile->title + (required ? ", required" : "")};
  if (p.status == "implemented" || p.status == "not exercised") return lines;
  lines.push_back("    " + join(semantic_cells(p), ", "));
  for (std::size_t i = 0; i < p.unmet.size() && i < unmet_shown; ++i) lines.push_back("    unmet: " + p.unmet[i]);
  if (p.unmet.size() > unmet_shown)
    lines.push_back("    and " + std::to_string(p.unmet.size() - unmet_shown) + " more (results.json lists them)");
  return lines;
}

constexpr const char* kProfilesHeading = "profiles (what the client does with each proposal; they decide no tier):";

}  // namespace

std::string certification_text(const Certification& c, bool colour) {
  auto paint = [&](const std::string& text, Verdict v) {
    if (!colour) return text;
    const char* code = v == Verdict::pass ? "32" : v == Verdict::warning ? "33" : is_failure(v) ? "31" : "36";
    return "\033[" + std::string(code) + "m" + text + "\033[0m";
  };
  auto pad = [](const std::string& s, std::size_t n) {
    return s.size() < n ? s + std::string(n - s.size(), ' ') : s + " ";
  };
  std::string out = "mcp-hints certify: " + visible(c.client_command) + " over " + c.transport + "\n";
  if (c.host) out += "host: " + visible(host_line(*c.host)) + "\n";
  const auto unspoken = unspoken_protocols(c.runs);
  for (const auto& run : c.runs) {
    const Verdict v = run.verdict();
    const bool counted = !unspoken.count(run.protocol);
    const std::string label = !counted                                      ? "NOT SPOKEN"
                              : scenario_verdict(run) == "expected failure" ? "XFAIL"
                                                                            : title_case(verdict_name(v));
    out += paint(pad(label, 13), counted ? v : Verdict::not_applicable) + pad(visible(run.run_id()), 44) +
           seconds_text(run.seconds) + "\n";
    for (const auto& note : run.notes) out += "    note: " + visible(note) + "\n";
    if (!run.era_not_spoken.empty()) out += "    era: " + visible(run.era_not_spoken) + "\n";
    if (!counted) continue;  // its checks say nothing of the client
    for (const auto& check : run.checks) {
      if (check.verdict == Verdict::pass || check.verdict == Verdict::not_applicable) continue;
      out +=
          "    " + visible(check.spec.id) + " [" + visible(check.spec.level) + "] " +
          paint(check.expected_failure ? "expected failure" : std::string(verdict_name(check.verdict)), check.verdict) +
          ": " + visible(check.outcome) + " — " + visible(check.detail) + "\n";
    }
  }
  for (const auto& p : c.list_problems) out += paint("LIST", Verdict::fail) + "          " + visible(p) + "\n";
  for (const auto& n : c.not_run) out += paint("NOT RUN", Verdict::not_applicable) + "       " + visible(n) + "\n";
  out += summary_line(c) + "\n";
  const auto tier = tier_lines(c);
  const Verdict tier_colour = c.tier() == Tier::strict      ? Verdict::pass
                              : c.tier() == Tier::certified ? Verdict::warning
                                                            : Verdict::fail;
  out += paint(visible(tier.front()), tier_colour) + "\n";
  for (std::size_t i = 1; i < tier.size(); ++i) out += "    " + visible(tier[i]) + "\n";
  if (const std::string eras = eras_line(c); !eras.empty()) out += visible(eras) + "\n";
  if (!counted_runs(c.runs).empty()) {
    out += std::string(kProfilesHeading) + "\n";
    for (const auto& p : c.profiles())
      for (const auto& line : profile_lines(p, c, 3)) out += "  " + visible(line) + "\n";
  }
  // The recap: each check that keeps the client from certification, what was acceptable, what
  // was seen, and the proposal's words it enforces.
  const auto failing = c.failing_checks();
  const auto unmet = c.unmet_profiles();
  if (!failing.empty() || !c.list_problems.empty() || !c.run_problems.empty() || !unmet.empty())
    out += "\nFailed checks (" +
           std::to_string(failing.size() + c.list_problems.size() + c.run_problems.size() + unmet.size()) + "):\n";
  for (const auto& p : unmet) out += "  " + paint("required profile", Verdict::fail) + " " + visible(p) + "\n";
  for (const auto& [run, check] : failing) {
    if (!check) {
      out += "  " + paint(visible(run->run_id()), Verdict::fail) + ": could not run\n";
      for (const auto& note : run->notes) out += "      " + visible(note) + "\n";
      continue;
    }
    std::vector<std::string> acceptable;
    for (const auto& t : acceptable_traces(check->spec))
      if (t["verdict"] == "pass") acceptable.push_back(t["outcome"].get<std::string>());
    out += "  " + paint(visible(run->run_id() + ":" + check->spec.id), check->verdict) + " [" +
           visible(check->spec.level) + "] " + std::string(verdict_name(check->verdict)) + "\n";
    out +=
        "      expected: " + visible(acceptable.empty() ? std::string("(no trace passes)") : join(acceptable, " or ")) +
        "\n";
    out += "      observed: " + visible(check->outcome) +
           (check->detail.empty() ? "" : " — " + visible(check->detail)) + "\n";
    out += "      enforces: " + visible(check->spec.proposal + ", " + check->spec.section) + ": " +
           visible(check->spec.title) + "\n";
    // Last, the sentence itself, as h2spec quotes the MUST a failure broke.
    if (const auto sentence = basis_sentence_text(check->spec.basis); !sentence.empty())
      out += "      -> " + visible(sentence) + "\n";
  }
  for (const auto& p : c.list_problems)
    out += "  " + paint("expected-failures list", Verdict::fail) + ": " + visible(p) + "\n";
  for (const auto& p : c.run_problems) out += "  " + paint("run", Verdict::fail) + ": " + visible(p) + "\n";
  const Overall overall = c.overall();
  out += "\n" + paint(visible(overall_words(c)), overall_verdict(overall)) + " (" + summary_line(c) + ")\n";
  return out;
}

namespace {

// The profiles as a table: proposal, status, held, by semantic (Markdown).
std::string markdown_profiles(const Certification& c) {
  std::string out =
      "Profiles (what the client does with each proposal; they decide no tier):\n\n"
      "| profile | status | held | by semantic |\n|---|---|---|---|\n";
  for (const auto& p : c.profiles()) {
    const bool required = is_required(c, *p.profile);
    out += "| " + markdown_cell(p.profile->title) + (required ? " (required)" : "") + " | " + p.status + " | " +
           std::to_string(p.held) + "/" + std::to_string(p.total) + " | " +
           markdown_cell(join(semantic_cells(p), ", ")) + " |\n";
  }
  return out + "\n";
}

}  // namespace

std::string certification_markdown(const Certification& c) {
  std::string out = "# mcp-hints certification\n\nClient: `" + markdown_cell(c.client_command) + "` over " +
                    c.transport + ". " + summary_line(c) + ".\n\n";
  if (c.host) out += "Host: " + markdown_cell(host_line(*c.host)) + "\n\n";
  out += "**" + markdown_cell(overall_words(c)) + "**\n\n";
  for (const auto& p : c.run_problems) out += "- **run:** " + markdown_cell(p) + "\n";
  const auto tier = tier_lines(c);
  out += "**" + markdown_cell(tier.front()) + "**\n\n";
  for (std::size_t i = 1; i < tier.size(); ++i) out += "- " + markdown_cell(tier[i]) + "\n";
  out += tier.size() > 1 ? "\n" : "";
  if (const std::string eras = eras_line(c); !eras.empty()) out += markdown_cell(eras) + "\n\n";
  out += markdown_profiles(c);
  out += std::string("| scenario | check | level | outcome | verdict |\n|---|---|---|---|---|\n");
  const auto unspoken = unspoken_protocols(c.runs);
  for (const auto& run : c.runs) {
    if (run.could_not_run) out += "| " + run.run_id() + " | (run) | | could not run | not testable |\n";
    const bool counted = !unspoken.count(run.protocol);
    for (const auto& check : run.checks)
      out += "| " + run.run_id() + " | " + check.spec.id + " | " + check.spec.level + " | " +
             markdown_cell(check.outcome) + " | " + (counted ? effective(check) : std::string(kNotSpoken)) + " |\n";
  }
  for (const auto& p : c.list_problems) out += "\n- **expected-failures list:** " + markdown_cell(p) + "\n";
  for (const auto& n : c.not_run) out += "\n- **not run:** " + markdown_cell(n) + "\n";
  return out;
}

namespace {

std::string html_profiles(const Certification& c) {
  std::string out =
      "<h2>Profiles</h2>\n<p>What the client does with each proposal; profiles decide no tier.</p>\n"
      "<table id=\"profiles\"><tr><th>profile</th><th>status</th><th>held</th><th>by semantic</th>"
      "<th>unmet</th></tr>\n";
  for (const auto& p : c.profiles()) {
    std::string cells, unmet;
    for (const auto& cell : semantic_cells(p)) cells += "<li>" + html_escape(cell) + "</li>";
    for (const auto& u : p.unmet) unmet += "<li>" + html_escape(u) + "</li>";
    const bool required = is_required(c, *p.profile);
    const std::string status_class = p.status == "implemented" ? "pass" : p.status == "partial" ? "warning" : "fail";
    out += "<tr><td>" + html_escape(p.profile->title) + (required ? " <strong>(required)</strong>" : "") +
           "</td><td class=\"" + (p.status == "not exercised" ? std::string("info") : status_class) + "\">" +
           html_escape(p.status) + "</td><td>" + std::to_string(p.held) + "/" + std::to_string(p.total) +
           "</td><td><ul>" + cells + "</ul></td><td><ul>" + unmet + "</ul></td></tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace

std::string certification_html(const Certification& c) {
  auto cls = [](const std::string& verdict) {
    std::string out = verdict;
    for (auto& ch : out)
      if (ch == ' ') ch = '-';
    return out;
  };
  const Overall overall = c.overall();
  std::string out = "<h1>mcp-hints certification</h1>\n<p id=\"verdict\" class=\"" +
                    std::string(verdict_name(overall_verdict(overall))) + "\"><strong>" +
                    html_escape(overall_words(c)) + "</strong></p>\n";
  for (const auto& p : c.run_problems) out += "<p class=\"fail\">Run: " + html_escape(p) + "</p>\n";
  out += "<p>Client <code>" + html_escape(c.client_command) + "</code> over " + html_escape(c.transport) + ": " +
         html_escape(summary_line(c)) + ".</p>\n";
  if (c.host) out += "<p>Host: " + html_escape(host_line(*c.host)) + "</p>\n";
  const auto tier = tier_lines(c);
  out += "<p class=\"" +
         cls(c.tier() == Tier::strict      ? "pass"
             : c.tier() == Tier::certified ? "warning"
                                           : "fail") +
         "\"><strong>" + html_escape(tier.front()) + "</strong></p>\n";
  if (tier.size() > 1) {
    out += "<ul>";
    for (std::size_t i = 1; i < tier.size(); ++i) out += "<li>" + html_escape(tier[i]) + "</li>";
    out += "</ul>\n";
  }
  if (const std::string eras = eras_line(c); !eras.empty()) out += "<p>" + html_escape(eras) + "</p>\n";
  for (const auto& p : c.list_problems) out += "<p class=\"fail\">Expected-failures list: " + html_escape(p) + "</p>\n";
  for (const auto& n : c.not_run) out += "<p>Not run: " + html_escape(n) + "</p>\n";
  out += html_profiles(c);
  // Failures first: what a reader came for.
  const auto unspoken = unspoken_protocols(c.runs);
  auto fails = [&](const ScenarioRun& run) { return !unspoken.count(run.protocol) && is_failure(run.verdict()); };
  std::vector<const ScenarioRun*> ordered;
  for (const auto& run : c.runs) ordered.push_back(&run);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [&](const ScenarioRun* a, const ScenarioRun* b) { return fails(*a) && !fails(*b); });
  std::vector<std::vector<std::string>> summary_rows;
  for (const auto* run : ordered) {
    const std::string v = unspoken.count(run->protocol) ? std::string(kNotSpoken) : scenario_verdict(*run);
    summary_rows.push_back({"<a href=\"#" + html_escape(run->run_id()) + "\">" + html_escape(run->run_id()) + "</a>",
                            "<span class=\"" + cls(v) + "\">" + v + "</span>", seconds_text(run->seconds)});
  }
  out += html_table("Scenarios, failures first", {"scenario", "verdict", "time"}, summary_rows);
  for (const auto* run_pointer : ordered) {
    const ScenarioRun& run = *run_pointer;
    const bool failing = fails(run);
    out += "<h2 id=\"" + html_escape(run.run_id()) + "\">" + html_escape(run.run_id()) + " — " +
           html_escape(run.scenario.title) + "</h2>\n<p>" + html_escape(run.scenario.checks) + " <em>" +
           html_escape(run.scenario.level) + "</em>; client " + html_escape(run.client.how) + ".</p>\n";
    for (const auto& note : run.notes) out += "<p class=\"warning\">" + html_escape(note) + "</p>\n";
    // The trace first: a check's "observed" links to the line that decided it only when the trace
    // (bounded) shows that line.
    std::map<std::string, const CheckResult*> deciders;  // anchor -> the first check it decided
    std::vector<std::string> anchors;                    // each check's decider, "" for none
    for (const auto& check : run.checks) {
      const json item = decider_item(run, check);
      anchors.push_back(item.is_null() ? std::string() : decider_anchor(run, item));
      if (!anchors.back().empty()) deciders.emplace(anchors.back(), &check);
    }
    std::set<std::string> shown;
    std::string trace_html;
    for (const auto& item : observed_trace(run, 2000)) {
      char ms[32];
      std::snprintf(ms, sizeof ms, "%9.1f ms  ", item["ms"].get<double>());
      std::string line = ms;
      if (item.contains("from"))
        line += "client  " + item["event"].dump();
      else if (item.contains("received"))
        line += "→ " + item["server"].get<std::string>() + "  " + item["received"].dump();
      else if (item.contains("sent"))
        line += "← " + item["server"].get<std::string>() + "  " + item["sent"].dump();
      else if (item.contains("raw"))
        line += "→ " + item["server"].get<std::string>() + "  (not JSON) " + item["raw"].get<std::string>();
      else
        line += "  " + item["server"].get<std::string>() + "  [" + item["event"].get<std::string>() + "]";
      const std::string anchor = decider_anchor(run, item);
      if (auto it = deciders.find(anchor); it != deciders.end()) {
        shown.insert(anchor);
        trace_html += "<mark id=\"" + html_escape(anchor) + "\" title=\"decided " + html_escape(it->second->spec.id) +
                      "\">" + html_escape(line.substr(0, 4000)) + "</mark>\n";
      } else {
        trace_html += html_escape(line.substr(0, 4000)) + "\n";
      }
    }
    std::vector<std::vector<std::string>> check_rows;
    for (std::size_t i = 0; i < run.checks.size(); ++i) {
      const CheckResult& check = run.checks[i];
      std::string traces;
      for (const auto& t : acceptable_traces(check.spec))
        traces += "<li><b>" + html_escape(t["outcome"].get<std::string>()) + "</b> → " +
                  html_escape(t["verdict"].get<std::string>()) + ": " +
                  html_escape(t["description"].get<std::string>()) + "</li>";
      const std::string v = effective(check);
      std::string decided;
      if (shown.count(anchors[i]))
        decided = "<br><a class=\"decider\" href=\"#" + html_escape(anchors[i]) + "\">the message that decided it</a>";
      check_rows.push_back(
          {html_escape(check.spec.id) + "<br><small>" + html_escape(check.spec.title) + "</small>",
           html_escape(check.spec.level),
           html_escape(check.spec.proposal + ", " + check.spec.section) +
               sentence_html(basis_sentence_text(check.spec.basis)),
           "<b>" + html_escape(check.outcome) + "</b><br><small>" + html_escape(check.detail) + "</small>" + decided,
           "<span class=\"" + cls(v) + "\">" + v + "</span>",
           "<details><summary>" + std::to_string(check.spec.traces.size()) + " listed</summary><ul>" + traces +
               "</ul></details>"});
    }
    out += html_table("Checks of " + run.run_id(),
                      {"check", "level", "proposal", "observed", "verdict", "acceptable traces"}, check_rows);
    // A failing run's trace is open: it is what the reader needs to see.
    out += std::string(failing ? "<details open>" : "<details>") +
           "<summary>Observed trace (client events and wire, in time order)</summary><pre>" + trace_html +
           "</pre></details>\n";
    // The raw logs, folded once: the observed trace above already shows them in order.
    if (!run.wire_files.empty()) {
      out += "<details><summary>Raw wire logs</summary>\n";
      for (const auto& [server, path] : run.wire_files) {
        std::ifstream in(path);
        std::string log;
        std::size_t lines = 0;
        for (std::string line; std::getline(in, line) && lines < 2000; ++lines) log += line.substr(0, 4000) + "\n";
        out += "<h3>Wire log of " + html_escape(server) + " (" + html_escape(path) + ")</h3><pre>" + html_escape(log) +
               "</pre>\n";
      }
      out += "</details>\n";
    }
    if (!run.client.stderr_tail.empty())
      out +=
          "<details><summary>Client stderr</summary><pre>" + html_escape(run.client.stderr_tail) + "</pre></details>\n";
  }
  return html_page(
      "mcp-hints certification", out,
      ".pass{background:#dfd}.fail,.not-testable{background:#fdd}.warning{background:#ffd}"
      ".info,.not-applicable,.not-spoken,.expected-failure{background:#def}"
      "pre{overflow:auto;max-height:30em;font-size:85%}details{margin:.5em 0}#verdict{font-size:120%;padding:.25em}"
      "mark{background:#fd8;outline:2px solid #c60}mark:target{outline-width:4px}");
}

std::vector<std::pair<std::string, std::vector<OfficialCheck>>> certification_official_checks(
    const Certification& certification, const std::string& timestamp) {
  std::vector<std::pair<std::string, std::vector<OfficialCheck>>> out;
  const auto unspoken = unspoken_protocols(certification.runs);
  for (const auto& run : certification.runs) {
    std::vector<OfficialCheck> checks;
    const bool counted = !unspoken.count(run.protocol);
    for (const auto& check : run.checks) {
      const char* status = "FAILURE";
      switch (counted ? check.verdict : Verdict::not_applicable) {
        case Verdict::pass: status = "SUCCESS"; break;
        case Verdict::info: status = "INFO"; break;
        case Verdict::warning: status = "WARNING"; break;
        case Verdict::not_applicable: status = "SKIPPED"; break;
        case Verdict::not_testable:
        case Verdict::fail: status = "FAILURE"; break;
      }
      OfficialCheck entry{
          check.spec.id, official_name(check.spec.id), check.spec.title, status, timestamp, {}, nullptr, {}};
      const std::string reference = check.spec.proposal + (check.spec.section.empty() ? "" : " " + check.spec.section);
      if (!check.spec.proposal.empty()) entry.spec_references.push_back(reference);
      entry.details = {{"level", check.spec.level},
                       {"outcome", check.outcome},
                       {"verdict", counted ? std::string(verdict_name(check.verdict)) : std::string(kNotSpoken)},
                       {"expectedFailure", check.expected_failure}};
      if (!check.detail.empty()) entry.details["detail"] = check.detail;
      if (!counted)
        entry.error_message = "era not spoken: " + run.era_not_spoken;
      else if (check.verdict != Verdict::pass)
        entry.error_message = std::string(verdict_name(check.verdict)) + ": " + check.outcome +
                              (check.detail.empty() ? "" : " (" + check.detail + ")");
      checks.push_back(std::move(entry));
    }
    if (run.could_not_run)
      checks.push_back({"run.could-not-run",
                        official_name("run.could-not-run"),
                        "the client and the mock servers started",
                        "FAILURE",
                        timestamp,
                        {},
                        nullptr,
                        join(run.notes, "; ")});
    out.emplace_back(run.run_id(), std::move(checks));
  }
  return out;
}

}  // namespace mcp_hints::conformance
