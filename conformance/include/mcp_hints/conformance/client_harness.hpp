#pragma once
// Runs one scenario against a client under test, as the adapter contract (conformance/ADAPTER.md)
// says: starts the scenario's mock servers (HTTP) or tells the client how to start them (stdio),
// runs the client's command with the scenario, task and scripted user, waits for it within a
// deadline, then judges the record. Nothing is taken from the client but its events file.
#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/conformance/judge.hpp"
#include "mcp_hints/conformance/run_record.hpp"
#include "mcp_hints/mock/scenario.hpp"

namespace mcp_hints::conformance {

struct HarnessOptions {
  std::string client_command;                // a shell command line; the URL is appended (HTTP)
  std::string transport = "stdio";           // or "http"
  std::vector<std::string> mock_command;     // argv that runs `mcp-hints mock` (options are added)
  std::filesystem::path work_dir;            // one folder per scenario is made in it
  std::chrono::milliseconds timeout{30000};  // per scenario, for the client
  std::string protocol;                      // the revision every mock server speaks; empty: the scenario's
  // A real host: a scripted model endpoint asks it for the task's calls (the context's `model`),
  // its exchanges recorded in the run folder's model.jsonl.
  bool scripted_model = false;
};

struct ClientExit {
  bool started = false;
  bool timed_out = false;
  int exit_code = -1;
  std::string how;                       // "exited with status 0", "was killed by signal 9 ..."
  std::string stdout_tail, stderr_tail;  // the last 16 KiB of each
};

struct ScenarioRun {
  mock::Scenario scenario;  // as served: pinned to the protocol, when one was asked for
  std::string transport;
  std::string protocol;  // the revision the mock servers spoke; empty: the scenario's own
  std::vector<CheckResult> checks;
  ClientExit client;
  std::vector<std::string> notes;                 // problems with the run or the client's events
  bool could_not_run = false;                     // the client or a mock server could not be started at all
  std::filesystem::path folder;                   // wire-SERVER.jsonl, events.jsonl, context.json
  std::map<std::string, std::string> wire_files;  // server -> path
  RunRecord record;
  nlohmann::json context;  // what the client was given
  double seconds = 0;
  // Why the wire shows a client that does not speak the protocol era the mock servers spoke
  // (era_not_spoken); empty when it spoke it. Set by judge_run.
  std::string era_not_spoken;

  // The worst verdict of the run: not testable when the client could not run; not applicable when
  // none of the scenario's own checks applies and the checks certify adds to every run (the
  // implicit kinds) find nothing worse than info.
  Verdict verdict() const;
  // The scenario's id, with the protocol revision when one was pinned ("id@2026-07-28").
  std::string run_id() const;
};

// The scenarios that certify a client, sorted by id: the built-in ones with checks and those
// generated from the crosswalk (coverage.hpp).
std::vector<mock::Scenario> certification_scenarios();
// A certification scenario by id (built-in or generated) or a scenario file.
mock::Scenario load_certification_scenario(const std::string& file_or_id);

// The protocol eras a scenario applies to (its "eras": "legacy", "stateless"; default both), and
// whether it applies under a revision (an empty one: the scenario's own, always). certify makes
// no run of a scenario in an era it does not apply to.
std::vector<std::string> scenario_eras(const mock::Scenario& scenario);
bool applies_under(const mock::Scenario& scenario, const std::string& protocol);

// The checks a run of `scenario` over `transport` under `protocol` (empty: the scenario's own)
// judges, in order: its own, then the implicit ones on what the client sent (which read the
// served scenario): its messages, and over HTTP where the stateless era may be spoken its headers.
std::vector<CheckSpec> run_checks(const mock::Scenario& scenario, const mock::Scenario& served,
                                  const std::string& transport = "stdio", const std::string& protocol = "");

// Runs a scenario (as loaded by mock::load_scenario) against the client and judges it: both steps
// below. A mock::ScenarioError when it does not apply under options.protocol.
ScenarioRun run_scenario(const mock::Scenario& scenario, const HarnessOptions& options);
// The run alone: the mock servers and the client, and the record they leave; nothing is judged.
ScenarioRun perform_scenario(const mock::Scenario& scenario, const HarnessOptions& options);
// Whether the client spoke the protocol era of `protocol`, as its requests show: a client of the
// session era alone sends initialize to servers of the stateless era and no request of that era
// (server/discover, or the protocol version in a request's _meta); a client of the stateless era
// alone sends those to servers of the session era and never initialize. Says why when it did not;
// empty when it did, when it sent no request at all (a client that does nothing is not testable,
// not of another era), and when no revision was pinned.
std::string era_not_spoken(const RunRecord& record, const std::string& protocol);
// The revisions whose runs all show a client that does not speak their era (era_not_spoken on
// every one that sent a request, at least one, none that could not run): their runs say nothing
// of the client. A run whose client sent no request at all says nothing of its era either way.
std::set<std::string> unspoken_protocols(const std::vector<ScenarioRun>& runs);

// Judges a performed run: every check of run_checks (none when the run could not run); the time
// it takes is added to the run's.
void judge_run(ScenarioRun& run, const mock::Scenario& scenario);

// Quotes an argument for /bin/sh.
std::string shell_quote(const std::string& argument);

}  // namespace mcp_hints::conformance
