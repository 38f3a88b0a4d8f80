// Client certification end to end: the reference client passes every scenario over both
// transports; each broken variant is caught; every check is shown to fail against some variant
// (every MUST check with a failure); clients that do nothing, crash, hang or flood are bounded
// and pass nothing; the expected-failures list; and the certify command's outputs and exit codes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include <fstream>
#include <set>

#include "mcp_hints/conformance/certification_report.hpp"
#include "mcp_hints/conformance/expected_failures.hpp"
#include "mcp_hints/conformance/hosts.hpp"
#include "mcp_hints/conformance/parallel_runs.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/mock/recorder.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"
#include "test_support.hpp"
#include "time_bounds.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints::conformance;
namespace mock = mcp_hints::mock;
namespace fs = std::filesystem;

using test_support::kReference;

// The harness's options for a client against the mock, as certify sets them (protocol empty:
// each scenario's own revisions).
HarnessOptions options_for(const std::string& client, const std::string& transport, const fs::path& dir,
                           const std::string& protocol = {}) {
  HarnessOptions options;
  options.client_command = client;
  options.transport = transport;
  options.mock_command = {MCP_HINTS_BIN, "mock"};
  options.work_dir = dir;
  options.protocol = protocol;
  return options;
}

// Every certification scenario, or those `only` names: an id, or an area ("confirm.").
std::vector<ScenarioRun> certify(const std::string& client, const std::string& transport, const fs::path& dir,
                                 std::chrono::milliseconds timeout = std::chrono::seconds(30),
                                 const std::vector<std::string>& only = {}) {
  HarnessOptions options = options_for(client, transport, dir);
  options.timeout = timeout;
  auto names = [](const std::string& o, const std::string& id) {
    return o == id || (o.ends_with('.') && id.starts_with(o));
  };
  // Two at a time, as certify --jobs 2 runs them: the sweeps over every variant are the suite's
  // longest tests, and their runs mostly wait on processes (four are no quicker).
  std::vector<RunRequest> requests;
  std::set<std::string> used;
  for (const auto& s : certification_scenarios()) {
    bool named = only.empty();
    for (const auto& o : only)
      if (names(o, s.id)) {
        used.insert(o);
        named = true;
      }
    if (named) requests.push_back({s, options});
  }
  for (const auto& o : only) EXPECT_TRUE(used.count(o)) << o << " names no certification scenario";
  return run_scenarios(requests, 2);
}

// Every check that did not pass, and every note; a check that applies over other transports only
// (its `transports`) is left out of `transport`'s runs, where it is not applicable by design.
std::string failures_of(const std::vector<ScenarioRun>& runs, const std::string& transport = {}) {
  std::string out;
  for (const auto& run : runs) {
    for (const auto& n : run.notes) out += run.scenario.id + ": note: " + n + "\n";
    for (const auto& c : run.checks)
      if (c.verdict != Verdict::pass &&
          (transport.empty() || c.spec.transports.empty() ||
           std::find(c.spec.transports.begin(), c.spec.transports.end(), transport) != c.spec.transports.end()))
        out += run.scenario.id + ":" + c.spec.id + " " + c.outcome + " — " + c.detail + "\n";
  }
  return out;
}

TEST(Certify, TheScenariosCoverEveryAreaAndKind) {
  const auto scenarios = certification_scenarios();
  EXPECT_GE(scenarios.size(), 20u);
  std::set<std::string> areas, kinds;
  for (const auto& s : scenarios) {
    areas.insert(s.id.substr(0, s.id.find('.')));
    for (const auto& c : read_checks(s)) kinds.insert(c.kind);
  }
  EXPECT_EQ(areas, (std::set<std::string>{"confirm", "propagation", "exfiltration", "escalation", "retry", "rugpull",
                                          "survival", "robustness", "progress", "gateway", "headers"}));
  std::size_t declarable = 0;
  for (const auto& [kind, outcomes] : outcomes_by_kind()) declarable += is_implicit_kind(kind) ? 0 : 1;
  EXPECT_EQ(kinds.size(), declarable);
}

TEST(Certify, TheReferenceClientPassesEveryScenarioOverBothTransports) {
  for (const char* transport : {"stdio", "http"}) {
    test_support::TempDir dir;
    const auto runs = certify(kReference, transport, dir.path());
    std::size_t checks = 0;
    for (const auto& run : runs) {
      EXPECT_FALSE(run.could_not_run) << run.scenario.id;
      EXPECT_EQ(run.client.exit_code, 0) << run.scenario.id << ": " << run.client.stderr_tail;
      checks += run.checks.size();
    }
    EXPECT_GE(checks, 40u);
    EXPECT_EQ(failures_of(runs, transport), "") << transport;
  }
}

// The hint model does not depend on the wire: against servers that negotiate an older revision
// (2025-03-26 brought tool annotations; 2024-11-05 had none, but a server may send them anyway)
// the reference client reads the same hints and passes the same checks.
// The stateless era (2026-07-28): no initialize and, over HTTP, no session; propagation rides in
// every request's _meta (server/discover included), a catalog change is announced only on the
// subscriptions/listen stream the client holds (else the listing's ttlMs sends a client back), and
// the client's new_session events divide its agent sessions. The reference client passes every scenario over both
// transports...
TEST(Certify, TheReferenceClientPassesEveryScenarioInTheStatelessEra) {
  for (const char* transport : {"stdio", "http"}) {
    test_support::TempDir dir;
    const HarnessOptions options = options_for(kReference, transport, dir.path(), "2026-07-28");
    std::vector<RunRequest> requests;
    for (const auto& s : certification_scenarios()) requests.push_back({s, options});
    const auto runs = run_scenarios(requests, 2);  // side by side, as certify --jobs 2 runs them
    ASSERT_EQ(runs.size(), requests.size());
    for (const auto& run : runs) {
      EXPECT_EQ(run.run_id(), run.scenario.id + "@2026-07-28");
      // The mock servers spoke the stateless era, and the client spoke it with them.
      bool stateless_request = false;
      for (const auto& line : run.record.wire)
        stateless_request =
            stateless_request || (run.record.is_request_in(line) &&
                                  line.message["params"]["_meta"].contains("io.modelcontextprotocol/protocolVersion"));
      EXPECT_TRUE(stateless_request) << transport << " " << run.scenario.id;
    }
    EXPECT_EQ(failures_of(runs, transport), "") << transport;
  }
}

// ... and the variants that break what the era changes are caught by the checks named after it:
// propagation in each request's _meta (at the highest level seen, to every server, cleared when
// the client's own session ends), input requests shown to the user, and listings kept no longer
// than their ttlMs.
TEST(Certify, TheStatelessEraCatchesTheVariantsOfWhatItChanges) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"--drop-propagation", "propagation.cross-server:sensitive-to-b"},
      {"--per-server-propagation", "propagation.cross-server:sensitive-to-b"},
      {"--drop-propagation", "propagation.sensitive-carried:carried"},
      {"--latest-level", "propagation.sensitive-carried:carried"},
      {"--ignore-list-changed", "rugpull.read-only-turns-destructive:relisted"},
      {"--leak-across-sessions", "propagation.new-session-clean:clean-start"},
      {"--reuse-listing", "propagation.new-session-clean:relisted-in-new-session"},
      {"--auto-answer-input", "confirm.input-required:shown-to-user"},
      {"--ignore-list-changed", "rugpull.ttl-expiry:relisted-after-expiry"},
      {"--ttl-in-seconds", "rugpull.ttl-expiry:relisted-after-expiry"},
      {"--keep-first-hints", "rugpull.ttl-expiry:new-hints-applied"},
      {"--share-private-cache", "gateway.cache-scope-per-context:cache-per-context"},
      {"--share-private-cache", "gateway.cache-scope-per-context:bob-confirmed"},
      {"--relist-first-page", "rugpull.later-page-relisted:later-page-hints-applied"},
      {"--tools-by-name", "confirm.same-name-two-servers:destructive-sync-confirmed"},
      {"--merge-relisted-hints", "rugpull.hint-withdrawn:withdrawn-hint-defaulted"},
      {"--skip-error-results", "propagation.error-result:carried-after-error"},
      {"--clear-sensitivity-only", "propagation.new-session-clears-every-key:clean-start-attribution"},
      {"--bare-relist", "propagation.across-list-changed:carried-on-relist"},
      {"--reuse-input-answer", "confirm.input-required-several:each-answered-apart"},
      {"--bare-input-retry", "propagation.input-required-retry:carried-on-retry"},
      {"--ttl-from-use", "rugpull.ttl-counted-from-receipt:new-hints-applied"},
      {"--ttl-from-use", "rugpull.ttl-counted-from-receipt:relisted-after-expiry"},
      {"--per-server-taint", "exfiltration.across-servers:other-server-sink"},
      {"--per-server-taint", "escalation.across-servers:other-server-write-confirmed"},
      {"--reconnect-clears", "propagation.across-reconnect:sensitive-after-reconnect"},
      {"--resend-on-timeout", "retry.timed-out-not-repeated:one-approval-per-call"},
      {"--block-overrides-result", "exfiltration.after-extension-sensitive:block-cannot-weaken"}};
  for (const auto& [variant, check] : expected)
    for (const char* transport : {"http", "stdio"}) {
      test_support::TempDir dir;
      const HarnessOptions options = options_for(kReference + " " + variant, transport, dir.path(), "2026-07-28");
      const auto scenario = load_certification_scenario(check.substr(0, check.find(':')));
      const auto run = run_scenario(scenario, options);
      const auto it = std::find_if(run.checks.begin(), run.checks.end(), [&](const CheckResult& c) {
        return c.spec.id == check.substr(check.find(':') + 1);
      });
      ASSERT_NE(it, run.checks.end()) << check;
      EXPECT_NE(it->verdict, Verdict::pass) << variant << " " << transport << " " << check << ": " << it->detail;
      EXPECT_NE(it->verdict, Verdict::not_testable)
          << variant << " " << transport << " " << check << ": " << it->detail;
    }
}

// Over HTTP in the stateless era certify holds every run to the request metadata headers
// (client-headers, SEP-2243): the reference client mirrors them and passes; a client that leaves
// out a tool's Mcp-Param headers, or any call's Mcp-Name, is refused by the mock (-32020) and
// fails it, saying which header. Over stdio, or pinned to the session era, the check is not run.
TEST(Certify, TheClientHeadersCheckHoldsStatelessHttpRequestsToTheirHeaders) {
  struct Case {
    std::string variant, scenario, transport, protocol, outcome, says;
  };
  const std::vector<Case> cases = {
      {"", "headers.param-mirrored", "http", "2026-07-28", "mirrored", "each with the headers that mirror it"},
      {"--no-param-headers", "headers.param-mirrored", "http", "2026-07-28", "header-mismatch",
       "Mcp-Param-Days header missing (the body says \"3\")"},
      {"--no-mcp-name", "confirm.spec-destructive", "http", "2026-07-28", "header-mismatch",
       "Mcp-Name header missing (the body says \"delete_branch\")"},
      {"--no-param-headers", "confirm.spec-destructive", "http", "2026-07-28", "mirrored", ""},
      {"--no-mcp-name", "confirm.spec-destructive", "stdio", "2026-07-28", "", ""},
      {"--no-mcp-name", "confirm.spec-destructive", "http", "2025-11-25", "", ""},
  };
  for (const auto& c : cases) {
    test_support::TempDir dir;
    const std::string client = c.variant.empty() ? kReference : kReference + " " + c.variant;
    const auto run =
        run_scenario(load_certification_scenario(c.scenario), options_for(client, c.transport, dir.path(), c.protocol));
    const std::string what = c.variant + " " + c.scenario + " " + c.transport + " " + c.protocol;
    const auto it = std::find_if(run.checks.begin(), run.checks.end(),
                                 [](const CheckResult& r) { return r.spec.id == "client-headers"; });
    if (c.outcome.empty()) {
      EXPECT_EQ(it, run.checks.end()) << what;
      continue;
    }
    ASSERT_NE(it, run.checks.end()) << what;
    EXPECT_EQ(it->outcome, c.outcome) << what << ": " << it->detail;
    EXPECT_EQ(it->verdict, c.outcome == "mirrored" ? Verdict::pass : Verdict::fail) << what;
    EXPECT_NE(it->detail.find(c.says), std::string::npos) << what << ": " << it->detail;
  }
}

// Over stateless HTTP only the client can say where its agent sessions end: a client that never
// says so cannot pass a check that needs a second session.
TEST(Certify, WithoutNewSessionEventsTheStatelessEraHasOneSession) {
  RunRecord record;
  for (int i = 0; i < 2; ++i) {
    WireLine line;
    line.server = "main";
    line.connection = std::string(mcp_hints::mock::kStatelessHttpConnection);
    line.direction = "in";
    line.time = 100 + i;
    line.message = {{"jsonrpc", "2.0"}, {"id", i}, {"method", "tools/list"}, {"params", json::object()}};
    record.wire.push_back(line);
  }
  number_sessions(record);
  EXPECT_EQ(record.wire[1].session, 1u);
  record.events.push_back({"new_session", 100.5, json::object(), 1});
  number_sessions(record);
  EXPECT_EQ(record.wire[0].session, 1u);
  EXPECT_EQ(record.wire[1].session, 2u);
}

// Whether the client spoke the run's era, from its requests alone: initialize only, to servers of
// the stateless era, is a client of the session era; server/discover or the version in _meta only,
// to servers of the session era, one of the stateless era. A client that probes and falls back
// speaks it; one that sent nothing is not testable, not of another era.
TEST(Certify, TheEraNotSpokenIsSeenOnTheWire) {
  auto record_of = [](const std::vector<json>& requests) {
    RunRecord record;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      WireLine line;
      line.server = "main";
      line.connection = "stdio:1";
      line.direction = "in";
      line.time = 100.0 + static_cast<double>(i);
      line.message = requests[i];
      line.message["jsonrpc"] = "2.0";
      line.message["id"] = i;
      record.wire.push_back(line);
    }
    record.index();
    return record;
  };
  const json initialize = {{"method", "initialize"}, {"params", json::object()}};
  const json discover = {{"method", "server/discover"}, {"params", json::object()}};
  const json stateless_list = {{"method", "tools/list"},
                               {"params", {{"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}}}}}};
  const json plain_list = {{"method", "tools/list"}, {"params", json::object()}};
  EXPECT_NE(era_not_spoken(record_of({initialize, plain_list}), "2026-07-28")
                .find("the client sent initialize to servers of the stateless era (2026-07-28)"),
            std::string::npos);
  EXPECT_EQ(era_not_spoken(record_of({discover, initialize, plain_list}), "2026-07-28"), "");  // probed, fell back
  EXPECT_EQ(era_not_spoken(record_of({stateless_list}), "2026-07-28"), "");
  EXPECT_EQ(era_not_spoken(record_of({}), "2026-07-28"), "");  // nothing sent: not testable
  EXPECT_NE(era_not_spoken(record_of({stateless_list}), "2025-11-25")
                .find("to servers of the session era (2025-11-25) and never initialize"),
            std::string::npos);
  EXPECT_NE(era_not_spoken(record_of({discover}), "2025-06-18").find("it speaks the stateless era only"),
            std::string::npos);
  EXPECT_EQ(era_not_spoken(record_of({discover, initialize, plain_list}), "2025-11-25"), "");
  EXPECT_EQ(era_not_spoken(record_of({}), "2025-11-25"), "");
  EXPECT_EQ(era_not_spoken(record_of({stateless_list}), ""), "");  // no revision pinned: the scenario's own
  // An initialize that asks for a revision of the stateless era is an attempt at that era, badly.
  const json initialize_2026 = {{"method", "initialize"}, {"params", {{"protocolVersion", "2026-07-28"}}}};
  EXPECT_EQ(era_not_spoken(record_of({initialize_2026, plain_list}), "2026-07-28"), "");
  // A request refused at the HTTP level before its body was read could be of either era: judged.
  RunRecord refused = record_of({initialize, plain_list});
  WireLine unread;
  unread.server = "main";
  unread.connection = "http:-";
  unread.time = 99;
  unread.event = "refused: HTTP 406 Not Acceptable";
  refused.wire.insert(refused.wire.begin(), unread);
  refused.index();
  EXPECT_EQ(era_not_spoken(refused, "2026-07-28"), "");
}

// A run's verdict rolls up what it judged. One none of whose own checks applied (a client that
// declared no elicitation, on a scenario that asks for it) is not applicable, not a pass for the
// implicit checks' passes; what those checks find against the client still shows. A scenario
// with no checks of its own is judged by the implicit ones alone.
TEST(Certify, ARunNoneOfWhoseOwnChecksAppliedIsNotApplicable) {
  auto check = [](const std::string& kind, Verdict verdict) {
    CheckResult c;
    c.spec.id = kind;
    c.spec.kind = kind;
    c.spec.level = "MUST";
    c.verdict = verdict;
    return c;
  };
  ASSERT_TRUE(is_implicit_kind("client-messages"));
  ASSERT_FALSE(is_implicit_kind("input-request"));
  auto verdict_of = [](std::vector<CheckResult> checks) {
    ScenarioRun run;
    run.checks = std::move(checks);
    return run.verdict();
  };
  const Verdict na = Verdict::not_applicable;
  EXPECT_EQ(verdict_of({check("input-request", na), check("client-messages", Verdict::pass)}), na);
  EXPECT_EQ(verdict_of({check("input-request", na), check("client-messages", Verdict::info)}), na);
  EXPECT_EQ(verdict_of({check("input-request", na), check("client-messages", Verdict::warning)}), Verdict::warning);
  EXPECT_EQ(verdict_of({check("input-request", na), check("client-messages", Verdict::fail)}), Verdict::fail);
  EXPECT_EQ(verdict_of({check("input-request", Verdict::pass), check("client-messages", Verdict::pass)}),
            Verdict::pass);
  EXPECT_EQ(verdict_of({check("input-request", na), check("gate", Verdict::info), check("client-messages", na)}),
            Verdict::info);
  EXPECT_EQ(verdict_of({check("client-messages", Verdict::pass)}), Verdict::pass);
  EXPECT_EQ(verdict_of({check("client-messages", Verdict::fail)}), Verdict::fail);
  ScenarioRun unstarted;
  unstarted.could_not_run = true;
  unstarted.checks = {check("input-request", na)};
  EXPECT_EQ(unstarted.verdict(), Verdict::not_testable);
}

// An era is "not spoken" only when every run of it says so: a client that speaks it in one run
// and not in another is judged there, failures and all. A run list of one era the client does not
// speak certifies nothing; listed failures alone give "no new failure", never "certified".
TEST(Certify, AnEraIsNotSpokenOnlyWhenEveryRunOfItSaysSo) {
  auto run_of = [](const std::string& protocol, Verdict verdict, const std::string& not_spoken) {
    ScenarioRun run;
    run.scenario.id = "s.x";
    run.protocol = protocol;
    run.era_not_spoken = not_spoken;
    CheckResult check;
    check.spec.id = "c";
    check.spec.level = "MUST";
    check.outcome = "o";
    check.verdict = verdict;
    run.checks.push_back(check);
    return run;
  };
  Certification both;
  both.runs = {run_of("2026-07-28", Verdict::not_testable, "session era only"),
               run_of("2026-07-28", Verdict::not_testable, "session era only"),
               run_of("2025-11-25", Verdict::pass, "")};
  ASSERT_EQ(both.eras().size(), 2u);
  EXPECT_EQ(both.eras()[0].not_spoken, "session era only");
  EXPECT_EQ(both.eras()[1].tier, Tier::strict);
  EXPECT_EQ(both.tier(), Tier::strict);
  EXPECT_EQ(both.overall(), Overall::certified);
  EXPECT_EQ(both.counts().at("not spoken"), 2u);
  EXPECT_TRUE(both.failing_checks().empty());

  // A run that sent nothing (its client never reached the server) says nothing of the era: the
  // other runs decide, and the era's reason is theirs.
  Certification silent = both;
  silent.runs[0].era_not_spoken.clear();
  EXPECT_EQ(silent.eras()[0].not_spoken, "session era only");
  EXPECT_EQ(silent.overall(), Overall::certified);
  Certification all_silent = both;  // ... but runs that all sent nothing show no era of another
  all_silent.runs[0].era_not_spoken.clear();
  all_silent.runs[1].era_not_spoken.clear();
  EXPECT_EQ(all_silent.eras()[0].not_spoken, "");
  EXPECT_EQ(all_silent.eras()[0].tier, Tier::not_certified);

  Certification mixed = both;  // one run of 2026-07-28 spoke it: the era counts, its failure too
  mixed.runs[1].era_not_spoken.clear();
  WireLine spoke;  // a request of the era, on the wire
  spoke.server = "main";
  spoke.connection = "stdio:1";
  spoke.direction = "in";
  spoke.message = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "server/discover"}, {"params", json::object()}};
  mixed.runs[1].record.wire.push_back(spoke);
  mixed.runs[1].record.index();
  EXPECT_EQ(mixed.eras()[0].not_spoken, "");
  EXPECT_EQ(mixed.eras()[0].tier, Tier::not_certified);
  EXPECT_EQ(mixed.overall(), Overall::not_certified);
  EXPECT_EQ(mixed.failing_checks().size(), 2u);

  Certification none;  // pinned to the era it does not speak
  none.runs = {run_of("2026-07-28", Verdict::not_testable, "session era only")};
  EXPECT_EQ(none.tier(), Tier::not_certified);
  EXPECT_EQ(none.overall(), Overall::not_certified);
  EXPECT_EQ(none.blocking_next_tier(), std::vector<std::string>{"2026-07-28 not spoken: session era only"});

  Certification expected;  // a listed failure alone
  expected.runs = {run_of("2025-11-25", Verdict::fail, "")};
  expected.runs[0].checks[0].expected_failure = true;
  EXPECT_FALSE(expected.failed());
  EXPECT_EQ(expected.tier(), Tier::not_certified);
  EXPECT_EQ(expected.overall(), Overall::no_new_failure);
  EXPECT_EQ(overall_name(expected.overall()), "NO NEW FAILURE");

  Certification strict_listed;  // under strict, a listed warning alone: no new failure, not certified
  strict_listed.strict = true;
  strict_listed.runs = {run_of("2025-11-25", Verdict::warning, "")};
  strict_listed.runs[0].checks[0].expected_failure = true;
  EXPECT_EQ(strict_listed.tier(), Tier::certified);
  EXPECT_EQ(strict_listed.overall(), Overall::no_new_failure);
  strict_listed.strict = false;  // ... and without strict, the warning is no failure: certified
  EXPECT_EQ(strict_listed.overall(), Overall::certified);

  // An entry whose check passes in a run of an era the client does not speak is not stale there.
  std::vector<ScenarioRun> listed = {run_of("2026-07-28", Verdict::pass, "session era only"),
                                     run_of("2025-11-25", Verdict::fail, "")};
  EXPECT_EQ(apply_expected_failures({{"s.x", "c", "known", 1}}, listed), std::vector<std::string>{});
  EXPECT_TRUE(listed[1].checks[0].expected_failure);
  listed[0].era_not_spoken.clear();  // spoken there after all: the entry is stale in that run
  ASSERT_EQ(apply_expected_failures({{"s.x", "c", "known", 1}}, listed).size(), 1u);
}

// A client that discovers on a connection of its own (the TypeScript SDK v2 over stdio starts the
// server once for server/discover, then again for its session) has one session, not two.
TEST(Certify, ADiscoverOnlyConnectionJoinsTheNextSession) {
  RunRecord record;
  const std::vector<std::pair<std::string, std::string>> lines = {{"stdio:1", "server/discover"},
                                                                  {"stdio:2", "tools/list"},
                                                                  {"stdio:3", "server/discover"},
                                                                  {"stdio:4", "tools/call"}};
  for (std::size_t i = 0; i < lines.size(); ++i) {
    WireLine line;
    line.server = "main";
    line.connection = lines[i].first;
    line.direction = "in";
    line.time = 100.0 + static_cast<double>(i);
    line.message = {{"jsonrpc", "2.0"}, {"id", i}, {"method", lines[i].second}, {"params", json::object()}};
    record.wire.push_back(line);
  }
  number_sessions(record);
  std::vector<std::size_t> sessions;
  for (const auto& line : record.wire) sessions.push_back(line.session);
  EXPECT_EQ(sessions, (std::vector<std::size_t>{1, 1, 2, 2}));
}

TEST(Certify, TheReferenceClientPassesAgainstServersOfOlderRevisions) {
  for (const char* revision : {"2025-03-26", "2024-11-05"}) {
    test_support::TempDir dir;
    HarnessOptions options;
    options.client_command = kReference;
    options.transport = "stdio";
    options.mock_command = {MCP_HINTS_BIN, "mock"};
    options.work_dir = dir.path();
    options.timeout = std::chrono::seconds(30);
    std::vector<ScenarioRun> runs;
    for (const auto& s : certification_scenarios()) {
      if (!applies_under(s, revision)) continue;  // a scenario of the stateless era alone
      json document = s.document;
      for (auto& [key, server] : document["servers"].items()) server["protocolVersions"] = {revision};
      const auto pinned = mock::parse_scenario(document, s.source + " (" + revision + ")");
      runs.push_back(run_scenario(pinned, options));
      EXPECT_EQ(runs.back().verdict(), Verdict::pass) << revision << " " << s.id;
      EXPECT_EQ(runs.back().client.exit_code, 0) << revision << " " << s.id << ": " << runs.back().client.stderr_tail;
    }
    EXPECT_EQ(failures_of(runs), "") << revision;
  }
}

// Each variant breaks one behaviour; together they are the negative controls of every check.
const std::vector<std::string> kVariants = {"--never-prompt",
                                            "--ignore-denial",
                                            "--drop-propagation",
                                            "--retry-anything",
                                            "--ignore-list-changed",
                                            "--trust-missing-hints",
                                            "--leak-across-sessions",
                                            "--taint-high-only",
                                            "--silent-retries",
                                            "--reuse-listing",
                                            "--nag-after-denial",
                                            "--auto-answer-input",
                                            "--keep-first-hints",
                                            "--ttl-in-seconds",
                                            "--latest-level",
                                            "--per-server-propagation",
                                            "--malformed-cancel",
                                            "--share-private-cache",
                                            "--absence-as-false",
                                            "--agency-when-missing",
                                            "--relist-first-page",
                                            "--tools-by-name",
                                            "--merge-relisted-hints",
                                            "--skip-error-results",
                                            "--clear-sensitivity-only",
                                            "--bare-relist",
                                            "--first-member-only",
                                            "--closed-world-by-default",
                                            "--carry-from-medium",
                                            "--reuse-input-answer",
                                            "--bare-input-retry",
                                            "--ttl-from-use",
                                            "--per-server-taint",
                                            "--block-overrides-result",
                                            "--reconnect-clears",
                                            "--resend-on-timeout",
                                            "--string-sensitivity-only",
                                            "--no-resubscription"};

// The variants that break one dimension beyond values (issue 44, part 3), each caught by the
// scenarios of its dimension and by nothing else: a catalogue paged, shared or thinned, an
// annotated error, a new session's every key, the relist after list_changed, a list of several,
// a sensitivity given as an object.
const std::map<std::string, std::set<std::string>> kDimensionVariants = {
    {"--relist-first-page", {"rugpull.later-page-relisted:later-page-hints-applied"}},
    {"--tools-by-name", {"confirm.same-name-two-servers:destructive-sync-confirmed"}},
    {"--merge-relisted-hints", {"rugpull.hint-withdrawn:withdrawn-hint-defaulted"}},
    {"--skip-error-results", {"propagation.error-result:carried-after-error"}},
    {"--clear-sensitivity-only",
     {"propagation.new-session-clears-every-key:clean-start-private",
      "propagation.new-session-clears-every-key:clean-start-open-world",
      "propagation.new-session-clears-every-key:clean-start-malicious-activity",
      "propagation.new-session-clears-every-key:clean-start-attribution"}},
    {"--bare-relist", {"propagation.across-list-changed:carried-on-relist"}},
    {"--closed-world-by-default",
     {"exfiltration.after-sensitive-result:open-world-default",
      "exfiltration.after-sensitive-medium:open-world-default", "exfiltration.after-sensitive-low:open-world-default"}},
    {"--carry-from-medium", {"exfiltration.after-sensitive-low:carried"}},
    {"--per-server-taint",
     {"exfiltration.across-servers:other-server-sink", "escalation.across-servers:other-server-write-confirmed"}},
    {"--block-overrides-result", {"exfiltration.after-extension-sensitive:block-cannot-weaken"}},
    {"--reconnect-clears",
     {"propagation.across-reconnect:sensitive-after-reconnect",
      "propagation.across-reconnect:attribution-after-reconnect"}},
    {"--resend-on-timeout", {"retry.timed-out-not-repeated:one-approval-per-call"}},
    {"--string-sensitivity-only",
     {"exfiltration.sources.trust-annotations.sep-1913:returnmetadata-sensitivity-regulated",
      "exfiltration.sources.trust-annotations.sep-1913:returnmetadata-sensitivity-user-regulated",
      "exfiltration.sources.action-metadata.ext-2026-06:returnmetadata-sensitivity-regulated",
      "exfiltration.sources.action-metadata.ext-2026-06:returnmetadata-sensitivity-user-regulated"}}};

// Caution is never a failure: "Clients MAY apply stricter local policies regardless of hints"
// (proposal 1), and "Clients should never make tool use decisions based on ToolAnnotations received
// from untrusted servers" (every schema.json since 2025-03-26). A client that asks before every
// call, and one that refuses on its own every call it would ask about, keep the strict tier in both
// eras, their caution seen (info where nothing asked for it) and never graded above info.
//
// Listening is optional too: a client that opens no subscriptions/listen stream (the stateless era)
// learns of a changed catalog when its listing's ttlMs runs out, and keeps the strict tier; what it
// could not know is not applicable. So is elicitation: a client that declares none is never asked
// for input ("Servers MUST NOT send an inputRequests that the client has not declared support for",
// SEP-2322; the mock refuses the call with -32021), and how it would show a request is not applicable.
TEST(Certify, CarefulClientsKeepTheStrictTierInBothEras) {
  struct Careful {
    std::string variant, shows, outcome;  // the check that shows its course, and the outcome it shows
    std::vector<const char*> protocols;
  };
  const std::vector<Careful> careful = {
      {"--prompt-always", "confirm.no-over-prompting:spec-read-only", "confirmed-called", {"2025-11-25", "2026-07-28"}},
      {"--refuse-confirmable", "confirm.risk-critical:approved-called", "blocked", {"2025-11-25", "2026-07-28"}},
      {"--no-subscription", "rugpull.announced-on-subscription:relisted", "unannounced-while-fresh", {"2026-07-28"}},
      {"--no-elicitation", "confirm.input-required:shown-to-user", "capability-not-declared", {"2026-07-28"}}};
  for (const auto& [variant, shows, outcome, protocols] : careful)
    for (const char* protocol : protocols) {
      test_support::TempDir dir;
      const HarnessOptions options = options_for(kReference + " " + variant, "stdio", dir.path(), protocol);
      std::vector<RunRequest> requests;
      // Under the sanitizers, only the run that shows the variant's course: the rest of the sweep
      // repeats, scenario after scenario, the paths TheReferenceClientPasses* runs there already
      // (about 210 s of each sanitizer stage, 20 s in make test).
      const std::string shown_in = shows.substr(0, shows.find(':'));
      for (const auto& s : certification_scenarios())
        if (applies_under(s, protocol) && (!test_support::kUnderSanitizers || s.id == shown_in))
          requests.push_back({s, options});
      ASSERT_FALSE(requests.empty()) << shows;
      bool course_seen = false;
      for (const auto& run : run_scenarios(requests, 2))  // side by side, as certify --jobs 2 runs them
        for (const auto& c : run.checks) {
          EXPECT_FALSE(blocks(c.verdict, true))
              << variant << " " << protocol << " " << run.scenario.id << ":" << c.spec.id << " "
              << verdict_name(c.verdict) << " " << c.outcome << ": " << c.detail;
          if (run.scenario.id + ":" + c.spec.id == shows) course_seen = c.outcome == outcome;
        }
      EXPECT_TRUE(course_seen) << variant << " " << protocol << ": " << shows << " did not come out " << outcome;
    }
}

TEST(Certify, EveryCheckFailsAgainstSomeBrokenVariant) {
  MCP_HINTS_SKIP_SWEEP_UNDER_SANITIZERS(
      "every variant's paths run in Certify.TheReferenceClientPasses* and the "
      "variant tests of each area");
  std::map<std::string, std::set<std::string>> caught_by;  // scenario:check -> variants whose verdict is not pass
  std::map<std::string, std::set<std::string>> failed_by;  // ... whose verdict is a failure
  std::map<std::string, std::string> levels;
  for (const auto& variant : kVariants) {
    test_support::TempDir dir;
    std::size_t caught = 0;
    for (const auto& run : certify(kReference + " " + variant, "stdio", dir.path())) {
      for (const auto& c : run.checks) {
        const std::string name = run.scenario.id + ":" + c.spec.id;
        levels[name] = c.spec.level;
        if (c.verdict == Verdict::pass) continue;
        // A variant is caught by what it does, never because it crashed or did nothing.
        EXPECT_NE(c.verdict, Verdict::not_testable) << variant << " " << name << ": " << c.detail;
        caught_by[name].insert(variant);
        if (is_failure(c.own_verdict)) failed_by[name].insert(variant);  // a draft's MUST too
        ++caught;
      }
    }
    EXPECT_GT(caught, 0u) << variant << " is caught by no check";
  }
  for (const auto& [variant, checks] : kDimensionVariants) {
    std::set<std::string> caught;
    for (const auto& [name, variants] : caught_by)
      if (variants.count(variant)) caught.insert(name);
    EXPECT_EQ(caught, checks) << variant;
  }
  // A list read to its first member only: caught by every generated case whose deciding member is
  // not first, and by nothing else.
  std::size_t several = 0;
  for (const auto& [name, variants] : caught_by) {
    if (!variants.count("--first-member-only")) continue;
    EXPECT_TRUE(name.starts_with("confirm.triggers.") || name.starts_with("exfiltration.sources.")) << name;
    ++several;
  }
  EXPECT_GE(several, 10u);
  ASSERT_FALSE(levels.empty());
  for (const auto& [name, level] : levels) {
    EXPECT_FALSE(caught_by[name].empty()) << name << " is not shown to fail against any broken variant";
    if (level == "MUST") {
      EXPECT_FALSE(failed_by[name].empty()) << name << " (MUST) fails against no broken variant";
    }
  }
  // The variant each control is for catches what it is named after.
  EXPECT_TRUE(caught_by["propagation.sensitive-carried:carried"].count("--drop-propagation"));
  EXPECT_TRUE(caught_by["confirm.spec-destructive:denied-not-called"].count("--ignore-denial"));
  EXPECT_TRUE(caught_by["retry.non-idempotent-not-retried:spec-not-idempotent"].count("--retry-anything"));
  EXPECT_TRUE(caught_by["rugpull.read-only-turns-destructive:relisted"].count("--ignore-list-changed"));
  EXPECT_TRUE(caught_by["robustness.no-hints:approved-called"].count("--trust-missing-hints"));
  EXPECT_TRUE(caught_by["propagation.new-session-clean:clean-start"].count("--leak-across-sessions"));
  EXPECT_TRUE(caught_by["exfiltration.after-sensitive-result:public-destination"].count("--never-prompt"));
  EXPECT_TRUE(
      caught_by["exfiltration.extension-absence-no-claim:public-after-confidential"].count("--absence-as-false"));
  // SHOULD under the one rule for levels: where the data goes is known from advisory vocabularies.
  for (const char* level : {"medium", "low"})
    for (const char* check : {"external-effect", "public-destination", "open-world-writer"})
      EXPECT_TRUE(
          caught_by[std::string("exfiltration.after-sensitive-") + level + ":" + check].count("--taint-high-only"))
          << level << " " << check;
  EXPECT_TRUE(failed_by["escalation.malicious-activity:malicious-carried"].count("--drop-propagation"));
  // A missing agencyHint read as agentic: caught at SEP-1938's "should"; asking before every call
  // is not that.
  EXPECT_EQ(caught_by["confirm.agency-absent-no-claim:absent-like-false"],
            std::set<std::string>{"--agency-when-missing"});
  EXPECT_FALSE(caught_by["exfiltration.after-sensitive-result:public-destination"].count("--taint-high-only"));
  EXPECT_TRUE(caught_by["retry.retry-after-honoured:waited"].count("--retry-anything"));
  EXPECT_TRUE(caught_by["retry.retry-after-honoured:waited"].count("--silent-retries"));
  EXPECT_TRUE(caught_by["retry.idempotent-bounded:bounded"].count("--silent-retries"));
  // Certify's own check of every run: a malformed message is caught in every scenario, and nothing else is.
  for (const auto& [name, level] : levels) {
    if (name.ends_with(":client-messages"))
      EXPECT_EQ(caught_by[name], std::set<std::string>{"--malformed-cancel"}) << name;
    else
      EXPECT_FALSE(caught_by[name].count("--malformed-cancel")) << name;
  }
  EXPECT_TRUE(caught_by["propagation.new-session-clean:relisted-in-new-session"].count("--reuse-listing"));
  EXPECT_TRUE(caught_by["confirm.risk-approval-multi:denied-not-called"].count("--nag-after-denial"));
  EXPECT_TRUE(failed_by["confirm.input-required:shown-to-user"].count("--auto-answer-input"));
  EXPECT_TRUE(caught_by["rugpull.ttl-expiry:relisted-after-expiry"].count("--ttl-in-seconds"));
  EXPECT_TRUE(caught_by["rugpull.ttl-expiry:relisted-after-expiry"].count("--ignore-list-changed"));
  EXPECT_TRUE(caught_by["rugpull.ttl-expiry:new-hints-applied"].count("--keep-first-hints"));
  EXPECT_TRUE(failed_by["propagation.sensitive-carried:carried"].count("--latest-level"));
  EXPECT_TRUE(failed_by["propagation.cross-server:sensitive-to-b"].count("--per-server-propagation"));
  EXPECT_TRUE(failed_by["gateway.cache-scope-per-context:cache-per-context"].count("--share-private-cache"));
  EXPECT_TRUE(caught_by["gateway.cache-scope-per-context:bob-confirmed"].count("--share-private-cache"));
}

TEST(Certify, AClientThatDoesNothingOrCrashesPassesNothing) {
  for (const std::string client : {"true", "sh -c 'kill -SEGV $$'", "echo not json >&2; exit 4"}) {
    test_support::TempDir dir;
    for (const auto& run : certify(client, "stdio", dir.path())) {
      EXPECT_FALSE(run.could_not_run) << client;
      for (const auto& c : run.checks) {
        // A draft's expectation is info outside conformance, but holds no more than the rest.
        EXPECT_EQ(c.own_verdict, Verdict::not_testable)
            << client << " " << run.scenario.id << ":" << c.spec.id << " " << c.outcome;
        EXPECT_FALSE(c.holds) << client << " " << run.scenario.id << ":" << c.spec.id;
        EXPECT_TRUE(c.spec.conformance ? c.verdict == Verdict::not_testable : c.verdict == Verdict::info);
      }
    }
  }
}

TEST(Certify, AHungOrFloodingClientIsBoundedAndLeavesNothingBehind) {
  const auto scenario = mock::load_scenario("confirm.spec-destructive");
  for (const std::string client : {"sleep 60", "yes flood", "sh -c 'sleep 60 & yes >&2'"}) {
    test_support::TempDir dir;
    HarnessOptions options;
    options.client_command = client;
    options.mock_command = {MCP_HINTS_BIN, "mock"};
    options.work_dir = dir.path();
    options.timeout = std::chrono::milliseconds(300);
    const auto start = std::chrono::steady_clock::now();
    const auto run = run_scenario(scenario, options);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
              test_support::bound_seconds(10))
        << client;
    EXPECT_TRUE(run.client.timed_out) << client;
    EXPECT_LE(run.client.stdout_tail.size(), 16u * 1024) << client;
    EXPECT_LE(run.client.stderr_tail.size(), 16u * 1024) << client;
    EXPECT_EQ(run.verdict(), Verdict::not_testable) << client;
    ASSERT_FALSE(run.notes.empty());
    EXPECT_NE(run.notes.front().find("did not finish within 300 ms"), std::string::npos) << run.notes.front();
  }
}

// The peak resident memory of this process so far, in MiB (VmHWM).
long peak_mib() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6)) / 1024;
  return -1;
}

// Clients that attack the harness rather than the scenario: each run ends within its deadline,
// leaves no process behind, says what happened, and its outputs stay bounded in size.
TEST(Certify, AHostileClientIsBoundedAndLeavesNothingBehind) {
  const auto scenario = mock::load_scenario("confirm.spec-destructive");
  // The events file's path, from the context certify gives the client.
  const std::string events =
      "\"$(printf %s \"$MCP_CONFORMANCE_CONTEXT\" | sed 's/.*\"events\":\"\\([^\"]*\\)\".*/\\1/')\"";
  // Name this test's processes and no other test's (ctest runs tests side by side, another one runs
  // "yes flood", and a run of this one killed by its timeout may leave its sleep behind), with an end
  // mark: -12 is not -123.
  const std::string pid = std::to_string(::getpid());
  const std::string flood_marker = "hostile-flood-" + pid + "-";
  const std::string escaped_sleep = "sleep 301." + pid;
  struct Case {
    std::string name, client, transport, note;
  };
  const std::vector<Case> cases = {
      // A grandchild in a session of its own, which the client's process group does not hold.
      {"escapes its group",
       "setsid " + escaped_sleep + " </dev/null >/dev/null 2>&1 & p=$!; " +
           "while [ \"$(tr '\\0' ' ' </proc/$p/cmdline 2>/dev/null)\" != '" + escaped_sleep +
           " ' ]; do sleep 0.02; done; exit 0",
       "stdio", "1 process(es) the client left running outside its process group were killed"},
      // One endless events line (200 MB): read within the budget, never held whole.
      {"one endless events line", "head -c 200000000 /dev/zero | tr '\\0' x >>" + events, "stdio",
       "events file is larger than"},
      // Millions of small events: read up to the line bound.
      {"millions of events",
       "t=$(date +%s); yes \"{\\\"type\\\":\\\"blocked\\\",\\\"tool\\\":\\\"x\\\",\\\"time\\\":$t}\" | head -n 2000000 "
       ">>" +
           events,
       "stdio", "lines: read in part"},
      // Events from the future: the run cannot be ordered, and says why.
      {"events from the future", "echo '{\"type\":\"blocked\",\"tool\":\"x\",\"time\":4102444800}' >>" + events,
       "stdio", "outside the run"},
      // A thousand connections to the mock over HTTP, twenty at a time, then a wait past the deadline
      // (":" takes the URL certify appends to the command).
      {"a thousand connections",
       "seq 1000 | xargs -P 20 -I{} curl -s -o /dev/null --max-time 5 -X POST -H 'Content-Type: application/json' "
       "-H 'Accept: application/json, text/event-stream' -d '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
       "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"" +
           flood_marker + "\",\"version\":\"1\"}}}' \"$1\"; sleep 60; :",
       "http", "did not finish within"},
  };
  for (const auto& c : cases) {
    test_support::TempDir dir;
    HarnessOptions options;
    options.client_command = c.client;
    options.transport = c.transport;
    options.mock_command = {MCP_HINTS_BIN, "mock"};
    options.work_dir = dir.path();
    options.timeout = std::chrono::seconds(8);
    const auto start = std::chrono::steady_clock::now();
    const auto run = run_scenario(scenario, options);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30)) << c.name;
    std::string notes;
    for (const auto& n : run.notes) notes += n + "\n";
    EXPECT_NE(notes.find(c.note), std::string::npos) << c.name << ":\n" << notes;
    EXPECT_NE(run.verdict(), Verdict::pass) << c.name;
    // The report of the run stays bounded, whatever the client wrote.
    Certification certification;
    certification.client_command = c.client;
    certification.transport = c.transport;
    certification.runs.push_back(run);
    EXPECT_LT(certification_json(certification).dump().size(), std::size_t{8} << 20) << c.name;
    EXPECT_LT(certification_html(certification).size(), std::size_t{8} << 20) << c.name;
    EXPECT_EQ(test_support::processes_with(escaped_sleep + " "), 0u) << c.name;
    EXPECT_EQ(test_support::processes_with(flood_marker), 0u) << c.name;
  }
  if (test_support::kMemoryMeasurable) {
    EXPECT_LT(peak_mib(), 150) << "the endless line or the flood of events was held in memory";
  }
  std::printf("peak resident memory: %ld MiB\n", peak_mib());
}

// A client whose events are timed in milliseconds gives no usable events file: every run in which it
// wrote one (those of the confirm area, whose runs all have events) is not testable, with the
// reason, never judged on a misleading order.
TEST(Certify, AnEventsFileInTheWrongUnitMakesTheRunNotTestable) {
  test_support::TempDir dir;
  std::size_t with_events = 0;
  // The confirm area's runs, each of which reports the client's events.
  for (const auto& run :
       certify(kReference + " --events-in-ms", "stdio", dir.path(), std::chrono::seconds(30), {"confirm."})) {
    if (run.record.events.empty()) continue;
    ++with_events;
    EXPECT_NE(run.record.events_unusable.find("(milliseconds? the contract asks for seconds)"), std::string::npos)
        << run.scenario.id << ": " << run.record.events_unusable;
    for (const auto& c : run.checks) {
      EXPECT_EQ(c.outcome, kEventsUnusable) << run.scenario.id << ":" << c.spec.id;
      EXPECT_EQ(c.verdict, Verdict::not_testable) << run.scenario.id << ":" << c.spec.id;
    }
  }
  EXPECT_GE(with_events, 10u);
}

TEST(Certify, ExpectedFailuresAreAppliedAndStaleOnesFail) {
  test_support::TempDir dir;
  const auto list = dir.write("expected.txt",
                              "# known problems\n"
                              "propagation.sensitive-carried:client-messages  not valid yet\n"
                              "propagation.cross-server                 not valid yet\n"
                              "confirm.spec-destructive:approved-called passes, so stale\n"
                              "retry.idempotent-bounded:no-such-check   a typo\n"
                              "retry.idempotent-bounded:bonded          a typo that is close\n"
                              "confirm.spec-destructiv                  a scenario typo\n"
                              "unknown.scenario                         no such scenario\n");
  const auto entries = load_expected_failures(list.string());
  ASSERT_EQ(entries.size(), 7u);
  EXPECT_EQ(entries[0].check, "client-messages");
  EXPECT_EQ(entries[1].reason, "not valid yet");
  // The runs of the scenarios the list names (as certify --scenario makes them): the entries of the
  // others are judged against the scenarios certify knows.
  auto runs = certify(kReference + " --malformed-cancel", "stdio", dir.path() / "runs", std::chrono::seconds(30),
                      {"propagation.sensitive-carried", "propagation.cross-server", "confirm.spec-destructive",
                       "retry.idempotent-bounded"});
  const auto problems = apply_expected_failures(entries, runs);
  ASSERT_EQ(problems.size(), 5u);
  EXPECT_NE(problems[0].find("stale expected failure confirm.spec-destructive:approved-called (line 4)"),
            std::string::npos)
      << problems[0];
  EXPECT_NE(problems[1].find("retry.idempotent-bounded:no-such-check (line 5): the scenario has no such check"),
            std::string::npos);
  EXPECT_EQ(problems[1].find("did you mean"), std::string::npos) << problems[1];
  EXPECT_NE(problems[2].find("(line 6): the scenario has no such check (did you mean 'bounded'?)"), std::string::npos)
      << problems[2];
  EXPECT_NE(problems[3].find("(line 7): no such scenario (did you mean 'confirm.spec-destructive'?)"),
            std::string::npos)
      << problems[3];
  EXPECT_NE(problems[4].find("unknown.scenario (line 8): no such scenario"), std::string::npos) << problems[4];
  for (const auto& run : runs)
    for (const auto& c : run.checks)
      if (run.scenario.id == "propagation.sensitive-carried" || run.scenario.id == "propagation.cross-server") {
        // What passes is not expected to fail (a client that sends a malformed cancel still carries).
        EXPECT_EQ(c.expected_failure, c.spec.id == "client-messages") << run.scenario.id << ":" << c.spec.id;
      }
  // Bad lists are refused with the file and line.
  const auto no_reason = dir.write("bad.txt", "confirm.spec-destructive\n");
  EXPECT_THROW(load_expected_failures(no_reason.string()), mcp_hints::InputError);
  // Bounded: one line over 4096 bytes, a file over 1 MiB (a 200 MB line once took 625 MB).
  const auto long_line = dir.write("long.txt", "# ok\nconfirm.spec-destructive " + std::string(4096, 'r') + "\n");
  const auto fits = dir.write("fits.txt", "confirm.spec-destructive " + std::string(4096 - 25, 'r') + "\n");
  EXPECT_EQ(load_expected_failures(fits.string()).size(), 1u);
  const auto huge = dir.write("huge.txt", std::string((1 << 20) + 1, '#'));
  for (const auto& [path, says] : {std::pair{long_line, "long.txt:2: a line longer than the limit of 4096 bytes"},
                                   std::pair{huge, "huge.txt: larger than the limit of 1048576 bytes"}}) {
    try {
      load_expected_failures(path.string());
      ADD_FAILURE() << "accepted " << path;
    } catch (const mcp_hints::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  }
  const auto bad_name = dir.write("bad2.txt", "confirm.x: reason\n");
  try {
    load_expected_failures(bad_name.string());
    ADD_FAILURE() << "accepted " << bad_name;
  } catch (const mcp_hints::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad2.txt:1: 'confirm.x:' is not SCENARIO or SCENARIO:CHECK"),
              std::string::npos)
        << e.what();
  }
}

// A list of many typos is answered line by line without generating the scenarios again for each
// (found by fuzz/expected_failures: it took seconds a line).
TEST(Certify, ExpectedFailuresOfManyUnknownScenariosAreEachReported) {
  test_support::TempDir dir;
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "no.such.scenario" + std::to_string(i) + "  a typo\n";
  const auto entries = load_expected_failures(dir.write("typos.txt", text).string());
  ASSERT_EQ(entries.size(), 2000u);
  std::vector<ScenarioRun> runs;
  const auto started = std::chrono::steady_clock::now();
  const auto problems = apply_expected_failures(entries, runs);
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(problems.size(), 2000u);
  for (int i : {0, 1999})
    EXPECT_NE(problems[static_cast<std::size_t>(i)].find("no.such.scenario" + std::to_string(i) + " (line " +
                                                         std::to_string(i + 1) + "): no such scenario"),
              std::string::npos)
        << problems[static_cast<std::size_t>(i)];
  std::cout << "2000 unknown entries applied in " << seconds << " s\n";
}

TEST(CertifyCli, ExitCodesAndEveryOutput) {
  test_support::TempDir dir;
  const std::string out = (dir.path() / "ok").string();
  // Every scenario in both eras: about 12 s in a plain build, near a minute under the sanitizers.
  auto ok = test_support::run_command({MCP_HINTS_BIN, "certify", "--client", kReference, "--output", out}, "/dev/null",
                                      "", static_cast<int>(test_support::bound_seconds(60)));
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("checks: "), std::string::npos);
  const json results = test_support::read_json(fs::path(out) / "results.json");
  EXPECT_EQ(results["passed"], true);
  EXPECT_EQ(results["tier"], "certified, strict");
  EXPECT_EQ(results["blockingNextTier"], json::array());
  EXPECT_NE(ok.out.find("tier: certified, strict\n"), std::string::npos) << ok.out;
  EXPECT_GE(results["scenarios"].size(), 20u);
  const auto& first = results["scenarios"][0];
  EXPECT_FALSE(first["results"][0]["acceptableTraces"].empty());
  // A moot outcome is listed as the judge grades it: not applicable, whatever the traces say.
  std::size_t moot = 0;
  for (const auto& scenario : results["scenarios"])
    for (const auto& result : scenario["results"])
      for (const auto& trace : result["acceptableTraces"])
        if (trace["outcome"] == "not-reconnected" || trace["outcome"] == "unannounced-while-fresh") {
          ++moot;
          EXPECT_EQ(trace["verdict"], "not applicable") << scenario["id"] << " " << trace;
        }
  EXPECT_GT(moot, 0u);
  EXPECT_TRUE(fs::exists(fs::path(first["folder"].get<std::string>()) / "wire-main.jsonl"));
  EXPECT_EQ(first["run"], first["id"].get<std::string>() + "@" + first["protocol"].get<std::string>());
  const std::string junit = test_support::read_file(fs::path(out) / "junit.xml");
  EXPECT_NE(junit.find("<testsuites name=\"mcp-hints certify\""), std::string::npos);
  EXPECT_NE(junit.find("failures=\"0\""), std::string::npos);
  const std::string html = test_support::read_file(fs::path(out) / "report.html");
  for (const char* part :
       {"Observed trace", "Wire log of main", "acceptable traces", "confirmation_requested", "tools/call"})
    EXPECT_NE(html.find(part), std::string::npos) << part;

  // A broken client, run requiring the profile it breaks (#711's MUST is a draft's, so it decides
  // no tier, only the profile a run requires): findings, in every format.
  const std::string broken = kReference + " --drop-propagation";
  const std::vector<std::string> requiring = {"--require-profile", "trust-annotations"};
  auto cli = [&](std::vector<std::string> args) {
    args.insert(args.end(), requiring.begin(), requiring.end());
    return test_support::run_cli(args);
  };
  auto text = cli({"certify", "--client", broken, "--output", (dir.path() / "b").string(), "--scenario",
                   "propagation.sensitive-carried", "--scenario", "confirm.spec-destructive"});
  EXPECT_EQ(text.exit_code, 1) << text.err;
  EXPECT_NE(text.out.find("FAIL         propagation.sensitive-carried"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("carried [MUST] fail: dropped"), std::string::npos) << text.out;
  auto as_json = cli({"certify", "--client", broken, "--output", (dir.path() / "j").string(), "--scenario",
                      "propagation.sensitive-carried", "--format", "json"});
  EXPECT_EQ(as_json.exit_code, 1);
  EXPECT_EQ(json::parse(as_json.out)["scenarios"][0]["results"][0]["verdict"], "fail");
  auto junit_out = cli({"certify", "--client", broken, "--output", (dir.path() / "u").string(), "--scenario",
                        "propagation.sensitive-carried", "--format", "junit"});
  EXPECT_NE(junit_out.out.find("<failure message=\"[MUST] fail: dropped\""), std::string::npos) << junit_out.out;
  auto markdown = cli({"certify", "--client", broken, "--output", (dir.path() / "m").string(), "--scenario",
                       "propagation.sensitive-carried", "--format", "markdown"});
  EXPECT_NE(markdown.out.find("| propagation.sensitive-carried@2025-11-25 | carried | MUST | dropped | fail |"),
            std::string::npos)
      << markdown.out;
  auto html_out = cli({"certify", "--client", broken, "--output", (dir.path() / "h").string(), "--scenario",
                       "propagation.sensitive-carried", "--format", "html", "--transport", "http"});
  EXPECT_EQ(html_out.exit_code, 1);
  EXPECT_NE(html_out.out.find("<!DOCTYPE html>"), std::string::npos);

  // Expected failures turn the run green; a stale entry turns it red again.
  const auto expected = dir.write("expected.txt", "propagation.sensitive-carried  not carried yet\n");
  auto listed = cli({"certify", "--client", broken, "--output", (dir.path() / "x").string(), "--scenario",
                     "propagation.sensitive-carried", "--expected-failures", expected.string()});
  EXPECT_EQ(listed.exit_code, 0) << listed.out;
  EXPECT_NE(listed.out.find("expected failure"), std::string::npos);
  auto stale =
      test_support::run_cli({"certify", "--client", kReference, "--output", (dir.path() / "s").string(), "--scenario",
                             "propagation.sensitive-carried", "--expected-failures", expected.string()});
  EXPECT_EQ(stale.exit_code, 1);
  EXPECT_NE(stale.out.find("stale expected failure propagation.sensitive-carried"), std::string::npos) << stale.out;

  // A client that cannot be run at all: incomplete.
  auto missing = test_support::run_cli({"certify", "--client", "/no/such/client", "--output",
                                        (dir.path() / "n").string(), "--scenario", "confirm.spec-destructive"});
  EXPECT_EQ(missing.exit_code, 3) << missing.out << missing.err;
  // stderr: each run's line, then one line that says why.
  EXPECT_EQ(test_support::count_lines(missing.err), 3u) << missing.err;
  EXPECT_EQ(missing.err.rfind("mcp-hints certify: the client could not be run"),
            missing.err.find("mcp-hints certify: the client could not be run"));
  EXPECT_NE(missing.err.find("[1/2] NOT TESTABLE confirm.spec-destructive@2026-07-28"), std::string::npos)
      << missing.err;
  EXPECT_NE(missing.out.find("\nOVERALL: INCOMPLETE ("), std::string::npos) << missing.out;
  EXPECT_EQ(missing.out.find("CERTIFIED"), std::string::npos) << missing.out;
  const json missing_results = test_support::read_json(dir.path() / "n" / "results.json");
  EXPECT_EQ(missing_results["verdict"], "incomplete");
  // JUnit: the run's problem is an error, and the checks that never ran are skipped, not passed.
  const std::string missing_junit = test_support::read_file(dir.path() / "n" / "junit.xml");
  EXPECT_NE(missing_junit.find("name=\"run\" time=\""), std::string::npos) << missing_junit;
  EXPECT_NE(missing_junit.find("<error message=\"the run could not start\">"), std::string::npos) << missing_junit;
  EXPECT_NE(missing_junit.find("name=\"approved-called\""), std::string::npos) << missing_junit;
  EXPECT_NE(missing_junit.find("<skipped message=\"never ran: the run could not start\"/>"), std::string::npos);
  EXPECT_EQ(missing_junit.find("<failure"), std::string::npos) << missing_junit;
  EXPECT_NE(missing_junit.find(" errors=\"2\""), std::string::npos) << missing_junit;
}

namespace {

// results.json holds to its published schema.
void expect_valid_results(const json& results, const std::string& what) {
  for (const auto& v : mcp_hints::published_schemas().validate("certify-report.schema.json", results))
    ADD_FAILURE() << what << ": " << v.pointer << " " << v.message;
}

}  // namespace

// The end of every text run: a recap of each failing check (what was acceptable, what was seen,
// the proposal's words it enforces) and one OVERALL line; results.json, Markdown and HTML lead
// with the same verdict.
TEST(CertifyCli, RunsEndWithARecapAndOneOverallVerdict) {
  test_support::TempDir dir;
  // #711's propagation MUST is a draft's: it decides the run when the run requires its profile.
  auto run = [&](const std::string& client, const std::string& folder, const std::string& format = "text") {
    return test_support::run_cli({"certify", "--client", client, "--scenario", "propagation.sensitive-carried",
                                  "--protocol", "2025-11-25", "--format", format, "--output",
                                  (dir.path() / folder).string(), "--require-profile", "trust-annotations"});
  };
  const auto good = run(kReference, "good");
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_NE(good.out.find("\nOVERALL: CERTIFIED ("), std::string::npos) << good.out;
  EXPECT_EQ(good.out.find("Failed checks"), std::string::npos) << good.out;
  EXPECT_EQ(test_support::read_json(dir.path() / "good" / "results.json")["verdict"], "certified");
  expect_valid_results(test_support::read_json(dir.path() / "good" / "results.json"), "certified");

  const auto broken = run(kReference + " --drop-propagation", "broken");
  EXPECT_EQ(broken.exit_code, 1) << broken.err;
  const std::string& out = broken.out;
  const auto recap = out.find("\nFailed checks (");
  ASSERT_NE(recap, std::string::npos) << out;
  const auto overall = out.find("\nOVERALL: NOT CERTIFIED (");
  ASSERT_NE(overall, std::string::npos) << out;
  EXPECT_LT(recap, overall);
  const std::string listed = out.substr(recap, overall - recap);
  for (const char* part : {"Failed checks (2):\n", "required profile trust-annotations (not implemented)\n",
                           "propagation.sensitive-carried@2025-11-25:carried [MUST] fail\n",
                           "      expected: carried\n", "      observed: dropped — ",
                           "      enforces: issue #711 (trust annotations), Propagation: Every later request carries "
                           "sensitiveHint at the level seen or higher\n",
                           // ... and last the sentence it enforces (schemas/traceability.json), as h2spec quotes it.
                           "      -> “If any annotation (e.g., sensitiveHint) is ever true in a session, it MUST be "
                           "included in all subsequent requests in that session.” — issue #711, Propagation\n"})
    EXPECT_NE(listed.find(part), std::string::npos) << part << "\n" << listed;
  EXPECT_EQ(test_support::read_json(dir.path() / "broken" / "results.json")["verdict"], "not certified");
  expect_valid_results(test_support::read_json(dir.path() / "broken" / "results.json"), "not certified");
  const auto markdown = run(kReference + " --drop-propagation", "markdown", "markdown");
  EXPECT_NE(markdown.out.find("**OVERALL: NOT CERTIFIED**"), std::string::npos) << markdown.out;
  // A SHOULD not met leaves the client certified (with its tier saying what strict needs).
  const auto warned = test_support::run_cli({"certify", "--client", kReference + " --never-prompt", "--scenario",
                                             "confirm.spec-destructive", "--protocol", "2025-11-25", "--output",
                                             (dir.path() / "warned").string()});
  EXPECT_EQ(warned.exit_code, 0) << warned.err;
  EXPECT_NE(warned.out.find("\nOVERALL: CERTIFIED ("), std::string::npos) << warned.out;
  EXPECT_EQ(warned.out.find("Failed checks"), std::string::npos) << warned.out;
  const std::string html = test_support::read_file(dir.path() / "broken" / "report.html");
  const auto verdict_at = html.find("<strong>OVERALL: NOT CERTIFIED</strong>");
  EXPECT_NE(verdict_at, std::string::npos);
  EXPECT_LT(verdict_at, html.find("<table"));
  EXPECT_NE(html.find("<small class=\"enforces\">→ “If any annotation (e.g., sensitiveHint) is ever true"),
            std::string::npos);
  // The message that decided the failure: named in results.json (the request that dropped the
  // annotation), highlighted in the open trace and linked from "observed"; a pass names none.
  const json broken_results = test_support::read_json(dir.path() / "broken" / "results.json");
  const json& failed = broken_results["scenarios"][0]["results"][0];
  ASSERT_EQ(failed["outcome"], "dropped") << failed.dump();
  const json& decider = failed["decidedBy"];
  ASSERT_TRUE(decider.is_object()) << failed.dump();
  ASSERT_TRUE(decider.contains("received")) << decider.dump();
  EXPECT_EQ(decider["received"]["method"], "tools/call") << decider.dump();
  EXPECT_FALSE(decider["received"]["params"].contains("_meta") &&
               decider["received"]["params"]["_meta"].contains("annotations") &&
               decider["received"]["params"]["_meta"]["annotations"].contains("sensitiveHint"))
      << decider.dump();
  const std::string anchor = "propagation.sensitive-carried@2025-11-25-w" + decider["wireIndex"].dump();
  const auto mark = html.find("<mark id=\"" + anchor + "\"");
  ASSERT_NE(mark, std::string::npos) << anchor;
  const auto link = html.find("<a class=\"decider\" href=\"#" + anchor + "\">");
  ASSERT_NE(link, std::string::npos) << anchor;
  EXPECT_LT(link, mark);
  EXPECT_EQ(html.find("<mark", mark + 1), std::string::npos) << "one check failed, one message is marked";
  EXPECT_NE(html.rfind("<details open><summary>Observed trace", mark), std::string::npos);
  const std::string good_html = test_support::read_file(dir.path() / "good" / "report.html");
  EXPECT_EQ(good_html.find("<mark"), std::string::npos);
  EXPECT_EQ(good_html.find("<details open>"), std::string::npos) << "a passing run's trace stays folded";
  EXPECT_TRUE(test_support::read_json(dir.path() / "good" / "results.json")["scenarios"][0]["results"][0]["decidedBy"]
                  .is_null());

  // An output that cannot be written: the run is incomplete, and the outputs that were written say why.
  fs::create_directories(dir.path() / "blocked" / "report.html");
  const auto blocked = run(kReference, "blocked");
  EXPECT_EQ(blocked.exit_code, 3) << blocked.err;
  EXPECT_NE(blocked.out.find("\nOVERALL: INCOMPLETE ("), std::string::npos) << blocked.out;
  EXPECT_NE(blocked.err.find("cannot write "), std::string::npos) << blocked.err;
  const json blocked_results = test_support::read_json(dir.path() / "blocked" / "results.json");
  EXPECT_EQ(blocked_results["verdict"], "incomplete");
  expect_valid_results(blocked_results, "incomplete");
  // A client that cannot be started: no check ran, and the report still holds to the schema.
  const auto missing = test_support::run_cli({"certify", "--client", "/no/such/client", "--scenario",
                                              "retry.idempotent-bounded", "--output", (dir.path() / "n").string()});
  EXPECT_EQ(missing.exit_code, 3);
  expect_valid_results(test_support::read_json(dir.path() / "n" / "results.json"), "client missing");
  // The schema is no formality: a report with a verdict it does not know fails it.
  json wrong = blocked_results;
  wrong["verdict"] = "passed";
  EXPECT_FALSE(mcp_hints::published_schemas().validate("certify-report.schema.json", wrong).empty());
  ASSERT_EQ(blocked_results["runProblems"].size(), 1u);
  EXPECT_NE(blocked_results["runProblems"][0].get<std::string>().find("report.html"), std::string::npos);
  const std::string blocked_junit = test_support::read_file(dir.path() / "blocked" / "junit.xml");
  EXPECT_NE(blocked_junit.find("name=\"output\"><error message=\"cannot write"), std::string::npos) << blocked_junit;
  // A folder that cannot be made is an output that cannot be written too: 3, as everywhere.
  const auto unmakeable = test_support::run_cli(
      {"certify", "--client", kReference, "--scenario", "confirm.spec-destructive", "--output", "/proc/no/such"});
  EXPECT_EQ(unmakeable.exit_code, 3) << unmakeable.err;
  EXPECT_EQ(test_support::count_lines(unmakeable.err), 1u) << unmakeable.err;
}

// A long run is never silent: each run's line reaches stderr as the run ends, whether or not
// stderr is a terminal (here a pipe), long before the last run is over.
TEST(CertifyCli, EachRunsLineIsWrittenAsItEnds) {
  test_support::TempDir dir;
  // The second run's client waits 5 s before doing its work; the runs go side by side, so the first
  // one's line comes 2 s before the end unless it took 3 s longer than the second's work.
  const std::string client =
      "if [ \"$MCP_CONFORMANCE_SCENARIO\" = retry.idempotent-bounded ]; then sleep 5; fi; " + kReference;
  const std::string command = std::string(MCP_HINTS_BIN) + " certify --jobs 2 --protocol 2025-11-25 --scenario " +
                              "confirm.spec-destructive --scenario retry.idempotent-bounded --format json --output " +
                              test_support::shell_quote((dir.path() / "o").string()) + " --client " +
                              test_support::shell_quote(client) + " 2>&1 >/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::pair<std::string, double>> lines;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe))
    lines.emplace_back(buffer, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  const int status = ::pclose(pipe);
  const double ended = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(WEXITSTATUS(status), 0);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].first.rfind("[1/2] PASS         confirm.spec-destructive@2025-11-25 ", 0), 0u) << lines[0].first;
  EXPECT_EQ(lines[1].first.rfind("[2/2] PASS         retry.idempotent-bounded@2025-11-25 ", 0), 0u) << lines[1].first;
  EXPECT_LT(lines[0].second + 2.0, ended) << "the first line waited for the end of the run";
}

// The tiers: a client that misses only SHOULDs (it never asks before critical-risk tools) is
// certified but not strict, and --strict fails it; a MUST failure is not certified; each report
// names what blocks the next tier.
TEST(CertifyCli, TiersNameWhatIsReachedAndWhatBlocksTheNext) {
  test_support::TempDir dir;
  const std::string unprompting = kReference + " --never-prompt";
  auto lenient = test_support::run_cli({"certify", "--client", unprompting, "--output", (dir.path() / "l").string(),
                                        "--scenario", "confirm.spec-destructive", "--format", "json"});
  EXPECT_EQ(lenient.exit_code, 0) << lenient.out << lenient.err;
  const json lenient_results = json::parse(lenient.out);
  EXPECT_EQ(lenient_results["tier"], "certified");
  EXPECT_EQ(lenient_results["strict"], false);
  // Each era's run (certify runs both by default) names its own blockers.
  ASSERT_EQ(lenient_results["blockingNextTier"].size(), 4u) << lenient_results["blockingNextTier"];
  EXPECT_EQ(lenient_results["blockingNextTier"][0],
            "confirm.spec-destructive@2026-07-28:approved-called [SHOULD] warning: called-unprompted");
  EXPECT_EQ(lenient_results["blockingNextTier"][2],
            "confirm.spec-destructive@2025-11-25:approved-called [SHOULD] warning: called-unprompted");

  auto strict = test_support::run_cli({"certify", "--client", unprompting, "--output", (dir.path() / "s").string(),
                                       "--scenario", "confirm.spec-destructive", "--strict"});
  EXPECT_EQ(strict.exit_code, 1) << strict.out << strict.err;
  EXPECT_NE(
      strict.out.find("tier: certified; certified, strict is blocked by 4:\n"
                      "    confirm.spec-destructive@2026-07-28:approved-called [SHOULD] warning: called-unprompted\n"),
      std::string::npos)
      << strict.out;
  auto markdown = test_support::run_cli({"certify", "--client", unprompting, "--output", (dir.path() / "m").string(),
                                         "--scenario", "confirm.spec-destructive", "--format", "markdown"});
  EXPECT_NE(markdown.out.find("**tier: certified; certified, strict is blocked by 4:**"), std::string::npos)
      << markdown.out;
  auto html = test_support::run_cli({"certify", "--client", unprompting, "--output", (dir.path() / "h").string(),
                                     "--scenario", "confirm.spec-destructive", "--format", "html"});
  EXPECT_NE(html.out.find(
                "<li>confirm.spec-destructive@2025-11-25:denied-not-called [SHOULD] warning: called-unprompted</li>"),
            std::string::npos);

  // The reference client reaches the strict tier on the same scenario: --strict passes it.
  auto careful = test_support::run_cli({"certify", "--client", kReference, "--output", (dir.path() / "c").string(),
                                        "--scenario", "confirm.spec-destructive", "--strict"});
  EXPECT_EQ(careful.exit_code, 0) << careful.out;

  // A MUST failure of the specification (a malformed message): not certified, and an expected
  // failure keeps the run green but not the tier.
  const std::string malformed = kReference + " --malformed-cancel";
  const auto expected = dir.write("expected.txt", "confirm.spec-destructive:client-messages  not valid yet\n");
  auto failing =
      test_support::run_cli({"certify", "--client", malformed, "--output", (dir.path() / "f").string(), "--scenario",
                             "confirm.spec-destructive", "--expected-failures", expected.string(), "--format", "json"});
  EXPECT_EQ(failing.exit_code, 0) << failing.out;
  const json failing_results = json::parse(failing.out);
  EXPECT_EQ(failing_results["tier"], "not certified");
  // What the run proved, apart from the tier: no new failure, not a certificate.
  EXPECT_EQ(failing_results["verdict"], "no new failure");
  expect_valid_results(failing_results, "expected failures");
  EXPECT_EQ(failing_results["blockingNextTier"][0].get<std::string>().rfind(
                "confirm.spec-destructive@2026-07-28:client-messages [MUST] expected failure: ", 0),
            0u)
      << failing_results["blockingNextTier"];
  auto failing_text =
      test_support::run_cli({"certify", "--client", malformed, "--output", (dir.path() / "t").string(), "--scenario",
                             "confirm.spec-destructive", "--expected-failures", expected.string()});
  EXPECT_EQ(failing_text.exit_code, 0) << failing_text.out;
  EXPECT_NE(failing_text.out.find("tier: not certified"), std::string::npos) << failing_text.out;
  EXPECT_NE(failing_text.out.find("\nOVERALL: NO NEW FAILURE ("), std::string::npos) << failing_text.out;
  EXPECT_EQ(failing_text.out.find("OVERALL: CERTIFIED"), std::string::npos) << failing_text.out;

  // A required profile whose only misses are listed: no new failure, never CERTIFIED.
  const auto listed = dir.write("listed.txt", "propagation.sensitive-carried  not carried yet\n");
  auto profile =
      test_support::run_cli({"certify", "--client", kReference + " --drop-propagation", "--output",
                             (dir.path() / "p").string(), "--scenario", "propagation.sensitive-carried",
                             "--expected-failures", listed.string(), "--require-profile", "trust-annotations"});
  EXPECT_EQ(profile.exit_code, 0) << profile.out;
  EXPECT_NE(profile.out.find("tier: certified, strict"), std::string::npos) << profile.out;
  EXPECT_NE(profile.out.find("\nOVERALL: NO NEW FAILURE ("), std::string::npos) << profile.out;
}

// A client of one protocol era: the other era is "not spoken" (seen on the wire), its runs count
// for nothing, and the verdict says which era was certified; pinned to the era it does not speak,
// it is not certified. The reference client told which revision to speak is such a client.
TEST(CertifyCli, AClientOfOneEraIsCertifiedInItsEraAndTheOtherIsNotSpoken) {
  test_support::TempDir dir;
  auto certify_as = [&](const std::string& revision, const std::string& folder, std::vector<std::string> more) {
    std::vector<std::string> args = {"certify",
                                     "--client",
                                     "env MCP_CONFORMANCE_PROTOCOL_VERSION=" + revision + " " + kReference,
                                     "--output",
                                     (dir.path() / folder).string(),
                                     "--scenario",
                                     "confirm.risk-critical",
                                     "--scenario",
                                     "propagation.sensitive-carried"};
    args.insert(args.end(), more.begin(), more.end());
    return test_support::run_cli(args);
  };
  const auto session_only = certify_as("2025-11-25", "s", {});
  EXPECT_EQ(session_only.exit_code, 0) << session_only.out;
  EXPECT_NE(session_only.out.find("\nOVERALL: CERTIFIED in 2025-11-25 (2026-07-28 not spoken) ("), std::string::npos)
      << session_only.out;
  EXPECT_NE(session_only.out.find("NOT SPOKEN   confirm.risk-critical@2026-07-28"), std::string::npos)
      << session_only.out;
  EXPECT_NE(session_only.out.find("eras: 2026-07-28 not spoken: the client sent initialize to servers of the "
                                  "stateless era (2026-07-28) and no request of that era: it speaks the session era "
                                  "only; 2025-11-25 certified, strict"),
            std::string::npos)
      << session_only.out;
  const json results = test_support::read_json(dir.path() / "s" / "results.json");
  expect_valid_results(results, "session era only");
  EXPECT_EQ(results["verdict"], "certified");
  EXPECT_EQ(results["tier"], "certified, strict");
  ASSERT_EQ(results["eras"].size(), 2u);
  EXPECT_EQ(results["eras"][0]["tier"], "not spoken");
  EXPECT_EQ(results["eras"][1],
            (json{{"protocol", "2025-11-25"}, {"tier", "certified, strict"}, {"notSpoken", nullptr}}));
  EXPECT_GT(results["counts"].value("not spoken", 0), 0);
  EXPECT_FALSE(results["counts"].contains("not testable")) << results["counts"];
  const std::string junit = test_support::read_file(dir.path() / "s" / "junit.xml");
  EXPECT_NE(junit.find("<skipped message=\"era not spoken: the client sent initialize"), std::string::npos);
  EXPECT_EQ(junit.find("<failure"), std::string::npos) << junit;

  // The other way round: a client of the stateless era alone.
  const auto stateless_only = certify_as("2026-07-28", "x", {});
  EXPECT_EQ(stateless_only.exit_code, 0) << stateless_only.out;
  EXPECT_NE(stateless_only.out.find("\nOVERALL: CERTIFIED in 2026-07-28 (2025-11-25 not spoken) ("), std::string::npos)
      << stateless_only.out;

  // Pinned to the era it does not speak: nothing is certified.
  const auto pinned = certify_as("2025-11-25", "p", {"--protocol", "2026-07-28"});
  EXPECT_EQ(pinned.exit_code, 1) << pinned.out;
  EXPECT_NE(pinned.out.find("\nOVERALL: NOT CERTIFIED ("), std::string::npos) << pinned.out;
  EXPECT_NE(pinned.out.find("tier: not certified; certified is blocked by 1:\n    2026-07-28 not spoken: "),
            std::string::npos)
      << pinned.out;
}

// A client that speaks only the stateless era gets nowhere with a session-era mock server; the
// run says why instead of an unexplained not-reached.
TEST(CertifyCli, AClientThatGetsNowhereIsToldWhy) {
  test_support::TempDir dir;
  const std::string discover_only =
      R"(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}' | )"
      R"(sh -c "$MCP_HINTS_SERVER_COMMAND" >/dev/null)";
  const auto r = test_support::run_cli({"certify", "--client", discover_only, "--output", dir.path().string(),
                                        "--scenario", "confirm.spec-destructive"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("note: the client sent server/discover to main, which the mock server does not speak (-32601)"),
            std::string::npos)
      << r.out;
}

TEST(CertifyCli, BadInputIsAOneLineUsageError) {
  test_support::TempDir dir;
  const auto bad_scenario =
      dir.write("bad.json", R"({"id":"t.x","title":"t","checks":"c","proposals":[{"proposal":"p","section":"s"}],
    "level":"MUST","basis":"spec/json-rpc","servers":{"main":{"tools":[{"name":"rm","inputSchema":{"type":"object"}}]}},"task":[],
    "expect":[{"id":"g","title":"t","kind":"gate","tool":"mv","traces":{"confirmed-called":"pass"}}]})");
  const auto unknown_kind =
      dir.write("teleport.json", R"({"id":"t.x","title":"t","checks":"c","proposals":[{"proposal":"p","section":"s"}],
    "level":"MUST","basis":"spec/json-rpc","servers":{"main":{"tools":[{"name":"rm","inputSchema":{"type":"object"}}]}},"task":[],
    "expect":[{"id":"g","title":"t","kind":"teleport","traces":{"arrived":"pass"}}]})");
  const auto unused_member =
      dir.write("unused.json", R"({"id":"t.x","title":"t","checks":"c","proposals":[{"proposal":"p","section":"s"}],
    "level":"MUST","basis":"spec/json-rpc","servers":{"main":{"tools":[{"name":"rm","inputSchema":{"type":"object"}}]}},"task":[],
    "expect":[{"id":"p","title":"t","kind":"propagation","key":"privateHint","tool":"rm","traces":{"carried":"pass"}}]})");
  const auto overstated =
      dir.write("overstated.json", R"({"id":"t.x","title":"t","checks":"c","proposals":[{"proposal":"p","section":"s"}],
    "level":"MUST","basis":"spec/prompt-sensitive","servers":{"main":{"tools":[{"name":"rm","inputSchema":{"type":"object"}}]}},"task":[],
    "expect":[{"id":"g","title":"t","kind":"gate","tool":"rm","traces":{"confirmed-called":"pass","blocked":"pass"}}]})");
  const auto no_reason = dir.write("expected.txt", "confirm.spec-destructive\n");
  const std::string out = (dir.path() / "o").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"certify"}, "--client 'CMD' or --host NAME is required"},
      {{"certify", "--client", "x", "--transport", "ws"}, "unknown --transport 'ws'"},
      {{"certify", "--client", "x", "--format", "pdf"}, "unknown --format 'pdf'"},
      {{"certify", "--client", "x", "--timeout", "5ms"}, "--timeout must be 100ms to 1h, not 5ms"},
      {{"certify", "--client", "x", "--timeout", "30"},
       "'30' for option '--timeout': a duration needs its unit (write 30s"},
      {{"certify", "--client", "x", "--timeout", "2h"}, "'2h' for option '--timeout': unknown unit 'h' (ms, s or m)"},
      {{"certify", "--client", "x", "--timeout", "-1s"}, "'-1s' for option '--timeout': not a duration"},
      {{"certify", "--client", "x", "--timeout", "61m"}, "--timeout must be 100ms to 1h, not 3660s"},
      {{"certify", "--client", "x", "--protocol", "2099-01-01"}, "unknown --protocol '2099-01-01'"},
      {{"certify", "--client", "x", "--scenario", "no.such"}, "no scenario file or built-in scenario 'no.such'"},
      {{"certify", "--client", "x", "--scenario", "mock.basic"}, "it is a mock scenario, not a certification scenario"},
      {{"certify", "--client", "x", "--scenario", bad_scenario.string()},
       "/expect/0/tool: server 'main' never lists a tool 'mv'"},
      {{"certify", "--client", "x", "--scenario", unknown_kind.string()}, "/expect/0/kind: expected one of \"gate\""},
      {{"certify", "--client", "x", "--scenario", overstated.string()},
       "/expect/0/level: level MUST is above its basis, which grounds at most SHOULD (SHOULD: “Clients SHOULD: Prompt "
       "for user confirmation on sensitive operations”"},
      {{"certify", "--client", "x", "--scenario", unused_member.string()},
       "/expect/0/tool: a propagation check does not use 'tool'"},
      {{"certify", "--client", "x", "--expected-failures", no_reason.string()}, "has no reason"},
      {{"certify", "--client", "x", "--expected-failures", dir.path().string()}, "not a file"},
      {{"certify", "--client", "x", "--all", "--scenario", "confirm.spec-destructive"},
       "--all and --scenario exclude each other"},
      {{"certify", "--bogus"}, "unrecognised option"},
      {{"certify", "--client", "x", "--scenario", "confirm.input-required", "--protocol", "2025-11-25"},
       "confirm.input-required applies to the stateless era only"},
  };
  for (const auto& [args, message] : cases) {
    auto with_output = args;
    with_output.insert(with_output.end(), {"--output", out});
    test_support::expect_usage_error(with_output, message);
  }
  const auto list = test_support::run_cli({"certify", "--list"});
  EXPECT_EQ(list.exit_code, 0);
  // Each check under its scenario (an expected-failures line names it SCENARIO:CHECK).
  const auto scenario_row = list.out.find("\nconfirm.risk-approval-multi ");
  ASSERT_NE(scenario_row, std::string::npos) << list.out;
  const auto next_scenario = list.out.find("\nconfirm.risk-approval-single ", scenario_row);
  const auto check_row = list.out.find("\n  approved-called ", scenario_row);
  EXPECT_LT(check_row, next_scenario) << list.out;
  EXPECT_NE(list.out.find("(stateless era only)"), std::string::npos) << list.out;
}

// A scenario of one era has no run in the other: certify --protocol all makes one run of it, and
// the harness refuses to make the other.
TEST(Certify, AScenarioOfOneEraRunsOnlyInIt) {
  test_support::TempDir dir;
  const auto r =
      test_support::run_cli({"certify", "--client", "true", "--scenario", "confirm.input-required", "--protocol", "all",
                             "--format", "json", "--output", (dir.path() / "o").string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // `true` does nothing: not testable
  const json results = json::parse(r.out);
  ASSERT_EQ(results["scenarios"].size(), 1u) << r.out.substr(0, 500);
  EXPECT_EQ(results["scenarios"][0]["run"], "confirm.input-required@2026-07-28");
  const auto scenario = load_certification_scenario("confirm.input-required");
  EXPECT_TRUE(applies_under(scenario, "2026-07-28"));
  EXPECT_TRUE(applies_under(scenario, ""));
  EXPECT_FALSE(applies_under(scenario, "2025-11-25"));
  EXPECT_TRUE(applies_under(load_certification_scenario("confirm.spec-destructive"), "2025-11-25"));
  EXPECT_EQ(scenario_eras(load_certification_scenario("gateway.cache-scope-per-context")),
            std::vector<std::string>{"stateless"});
  EXPECT_EQ(scenario_eras(load_certification_scenario("confirm.spec-destructive")),
            (std::vector<std::string>{"legacy", "stateless"}));
  HarnessOptions options;
  options.client_command = "true";
  options.mock_command = {MCP_HINTS_BIN, "mock"};
  options.work_dir = dir.path();
  options.protocol = "2025-11-25";
  EXPECT_THROW(run_scenario(scenario, options), mock::ScenarioError);
}

}  // namespace

// Without a task of ours (the official suite's client scenarios) the reference client is a plain
// client: it speaks the revision it is told (MCP_CONFORMANCE_PROTOCOL_VERSION), lists, and calls
// every tool with arguments its input schema allows, instead of exiting without connecting.
TEST(Certify, WithoutATaskTheReferenceClientIsAPlainClient) {
  test_support::TempDir dir;
  json document = mock::load_scenario("mock.basic").document;
  document["servers"]["main"]["protocolVersions"] = {"2026-07-28", "2025-11-25"};
  const auto scenario = dir.write("both.json", document.dump());
  for (const std::string protocol : {"2026-07-28", "2025-11-25"}) {
    const auto record = (dir.path() / ("wire-" + protocol + ".jsonl")).string();
    const std::string server = test_support::shell_quote(MCP_HINTS_BIN) + " mock --scenario " +
                               test_support::shell_quote(scenario.string()) + " --record " +
                               test_support::shell_quote(record);
    const auto r = test_support::run_command({kReference}, "/dev/null",
                                             "MCP_HINTS_SERVER_COMMAND=" + test_support::shell_quote(server) +
                                                 " MCP_CONFORMANCE_PROTOCOL_VERSION=" + protocol);
    EXPECT_EQ(r.exit_code, 0) << protocol << ": " << r.err;
    std::set<std::string> called;
    bool stateless = false, listed = false;
    std::ifstream in(record);
    for (std::string text; std::getline(in, text);) {
      const json line = json::parse(text);
      if (line.value("direction", "") != "in" || !line.contains("message")) continue;
      const json& m = line["message"];
      listed = listed || m.value("method", "") == "tools/list";
      if (m.value("method", "") == "tools/call") called.insert(m["params"]["name"].get<std::string>());
      stateless = stateless || (m.contains("params") && m["params"].contains("_meta") &&
                                m["params"]["_meta"].contains("io.modelcontextprotocol/protocolVersion"));
    }
    EXPECT_TRUE(listed) << protocol;
    EXPECT_EQ(called.size(), document["servers"]["main"]["tools"].size()) << protocol;
    EXPECT_EQ(stateless, protocol == "2026-07-28");
  }
}

// A client that drives a real host is given the scripted model endpoint for the run: its base
// URL, and one URL per conversation of the task (cut at each newSession), served while the client
// runs and recorded in the run folder; a client without it gets no `model`.
TEST(Certify, AScriptedModelIsServedToAHostOneUrlPerConversation) {
  test_support::TempDir dir;
  const fs::path script = dir.path() / "host.sh";
  std::ofstream(script) << R"(ctx="$MCP_CONFORMANCE_CONTEXT"
printf '%s' "$ctx" > "$(dirname "$0")/context-seen.json"
port=$(printf '%s' "$ctx" | grep -o '"url":"http://127.0.0.1:[0-9]*"' | head -1 | grep -o '[0-9]*"$' | tr -d '"')
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /c/2/v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
cat <&3 > "$(dirname "$0")/answer.txt"
)";
  const auto scenario = load_certification_scenario("propagation.new-session-clean");
  std::size_t sessions = 0;
  for (const auto& item : scenario.document["task"]) sessions += item.value("newSession", false) ? 1 : 0;
  ASSERT_GE(sessions, 1u);
  HarnessOptions options = options_for("bash " + script.string(), "stdio", dir.path() / "runs", "2025-11-25");
  options.scripted_model = true;
  const ScenarioRun run = run_scenario(scenario, options);
  const json context = test_support::read_json(dir.path() / "context-seen.json");
  ASSERT_TRUE(context.contains("model")) << context.dump();
  const std::string base = context["model"]["url"];
  EXPECT_EQ(base.rfind("http://127.0.0.1:", 0), 0u) << base;
  ASSERT_EQ(context["model"]["conversations"].size(), sessions + 1);
  for (std::size_t i = 0; i <= sessions; ++i)
    EXPECT_EQ(context["model"]["conversations"][i], base + "/c/" + std::to_string(i + 1));
  EXPECT_NE(test_support::read_file(dir.path() / "answer.txt").find("HTTP/1.1 200"), std::string::npos);
  const json exchange = json::parse(test_support::read_file(run.folder / "model.jsonl"));
  EXPECT_EQ(exchange["api"], "models");
  EXPECT_EQ(exchange["conversation"], 2);
  // Without it: no model in the context, no record.
  options.scripted_model = false;
  const ScenarioRun plain = run_scenario(scenario, options);
  EXPECT_FALSE(test_support::read_json(dir.path() / "context-seen.json").contains("model"));
  EXPECT_FALSE(fs::exists(plain.folder / "model.jsonl"));
}

// A real host acts for the one user who runs it: a gateway's scenario (several authorization
// contexts) is not run, and the report says so in every format; given alone, nothing applies (a
// usage error). /bin/true stands in for the host: it does nothing, which only the runs' checks see.
TEST(CertifyCli, AHostIsNotRunOnAGatewaysScenarios) {
  if (!find_executable("node")) GTEST_SKIP() << "node is not on PATH";
  test_support::TempDir dir;
  test_support::expect_usage_error({"certify", "--host", "claude-code", "--host-bin", "/bin/true", "--scenario",
                                    "gateway.cache-scope-per-context", "--output", dir.path().string()},
                                   "no scenario given applies to a host that acts for one user");
  const auto r = test_support::run_cli({"certify", "--host", "claude-code", "--host-bin", "/bin/true", "--scenario",
                                        "gateway.cache-scope-per-context", "--scenario", "confirm.spec-destructive",
                                        "--format", "json", "--output", dir.path().string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // a host that does nothing reaches no decision
  const json report = json::parse(r.out);
  ASSERT_EQ(report["notRun"].size(), 1u);
  EXPECT_EQ(report["notRun"][0].get<std::string>().rfind("gateway.cache-scope-per-context: Claude Code acts for", 0),
            0u);
  for (const auto& run : report["scenarios"]) EXPECT_EQ(run["id"], "confirm.spec-destructive");
  const std::string text = test_support::read_file(dir.path() / "report.html");
  EXPECT_NE(text.find("Not run: gateway.cache-scope-per-context"), std::string::npos);
}
