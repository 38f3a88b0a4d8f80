// Scenario runs side by side, each in a worker process: what a worker sends back is the run, to
// the byte; results keep the order asked for whatever order runs end in; a client that kills its
// worker or a run that throws is said, never lost or hung; and certify --jobs N writes the same
// report as --jobs 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <regex>
#include <set>
#include <thread>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mcp_hints/conformance/certification_report.hpp"
#include "mcp_hints/conformance/parallel_runs.hpp"
#include "test_support.hpp"
#include "time_bounds.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints::conformance;
namespace mock = mcp_hints::mock;
namespace fs = std::filesystem;

using test_support::kReference;

HarnessOptions options_for(const std::string& client, const fs::path& dir, const std::string& protocol = "") {
  HarnessOptions options;
  options.client_command = client;
  options.mock_command = {MCP_HINTS_BIN, "mock"};
  options.work_dir = dir;
  options.protocol = protocol;
  return options;
}

void expect_same_record(const RunRecord& a, const RunRecord& b) {
  ASSERT_EQ(a.wire.size(), b.wire.size());
  for (std::size_t i = 0; i < a.wire.size(); ++i) {
    const auto &x = a.wire[i], &y = b.wire[i];
    EXPECT_EQ(
        std::tie(x.server, x.connection, x.session, x.direction, x.time, x.message, x.event, x.raw, x.authorization),
        std::tie(y.server, y.connection, y.session, y.direction, y.time, y.message, y.event, y.raw, y.authorization))
        << "wire line " << i;
  }
  ASSERT_EQ(a.events.size(), b.events.size());
  for (std::size_t i = 0; i < a.events.size(); ++i)
    EXPECT_EQ(std::tie(a.events[i].type, a.events[i].time, a.events[i].data, a.events[i].line),
              std::tie(b.events[i].type, b.events[i].time, b.events[i].data, b.events[i].line));
  ASSERT_EQ(a.model.size(), b.model.size());
  for (std::size_t i = 0; i < a.model.size(); ++i)
    EXPECT_EQ(
        std::tie(a.model[i].time, a.model[i].conversation, a.model[i].answer, a.model[i].server, a.model[i].tool),
        std::tie(b.model[i].time, b.model[i].conversation, b.model[i].answer, b.model[i].server, b.model[i].tool));
  EXPECT_EQ(a.notes, b.notes);
  EXPECT_EQ(a.events_unusable, b.events_unusable);
  // Answers are indexed again: every request finds the same answer.
  for (const auto& line : b.wire) {
    if (b.is_request_in(line)) {
      EXPECT_EQ(a.answer_to(line) != nullptr, b.answer_to(line) != nullptr);
    }
  }
}

// The report's view of a certification without what differs between two runs of the same
// thing: times and durations, process ids, the run's folder.
json comparable(json j) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end();) {
      const std::string& key = it.key();
      if (key == "seconds" || key == "time" || key == "ms" || key == "connection" || key == "folder")
        it = j.erase(it);
      else if (key == "detail" && it->is_string()) {
        *it = std::regex_replace(it->get<std::string>(), std::regex("[0-9]+ ms"), "N ms");
        ++it;
      } else {
        *it = comparable(*it);
        ++it;
      }
    }
  } else if (j.is_array()) {
    for (auto& e : j) e = comparable(e);
  }
  return j;
}

// Everything of a performed run survives the trip from the worker, bytes that are not UTF-8
// included, and judged here it is the run judged in place.
TEST(ParallelRuns, AWorkersReplyIsTheRunItself) {
  test_support::TempDir dir;
  // A broken client, so checks fail and name the wire line that decided them.
  const RunRequest request{mock::load_scenario("propagation.sensitive-carried"),
                           options_for(kReference + " --drop-propagation", dir.path(), "2025-11-25")};
  ScenarioRun run = perform_scenario(request.scenario, request.options);
  EXPECT_TRUE(run.checks.empty()) << "performing judges nothing";
  run.client.stderr_tail += std::string("\xff\xfe not UTF-8 \xc3", 15);
  run.notes.push_back("a note");
  run.record.notes.push_back("a record note");
  run.record.model.push_back({1000.25, 2, "call", "main", "read_doc", {{"main", "send_email"}}});
  ScenarioRun back = decode_run(request, encode_run(run));
  EXPECT_EQ(back.run_id(), run.run_id());
  EXPECT_EQ(back.scenario.document, run.scenario.document);
  EXPECT_EQ(back.client.stderr_tail, run.client.stderr_tail);
  EXPECT_EQ(
      std::tie(back.client.started, back.client.timed_out, back.client.exit_code, back.client.how,
               back.client.stdout_tail),
      std::tie(run.client.started, run.client.timed_out, run.client.exit_code, run.client.how, run.client.stdout_tail));
  EXPECT_EQ(back.notes, run.notes);
  EXPECT_EQ(back.could_not_run, run.could_not_run);
  EXPECT_EQ(back.folder, run.folder);
  EXPECT_EQ(back.wire_files, run.wire_files);
  EXPECT_EQ(back.context, run.context);
  EXPECT_EQ(back.seconds, run.seconds);
  expect_same_record(run.record, back.record);
  // Judged, both are the same run: every check and every report of it, to the byte.
  judge_run(run, request.scenario);
  judge_run(back, request.scenario);
  back.seconds = run.seconds;  // judging took its own time each
  ASSERT_FALSE(run.checks.empty());
  ASSERT_TRUE(std::any_of(run.checks.begin(), run.checks.end(), [](const CheckResult& c) { return c.decided_by; }));
  ASSERT_EQ(back.checks.size(), run.checks.size());
  for (std::size_t i = 0; i < run.checks.size(); ++i) {
    const auto &a = run.checks[i], &b = back.checks[i];
    EXPECT_EQ(std::tie(a.spec.id, a.outcome, a.detail), std::tie(b.spec.id, b.outcome, b.detail));
    EXPECT_EQ(a.verdict, b.verdict) << a.spec.id;
  }
  Certification one, other;
  one.runs = {run};
  other.runs = {back};
  EXPECT_EQ(certification_json(one).dump(-1, ' ', false, json::error_handler_t::replace),
            certification_json(other).dump(-1, ' ', false, json::error_handler_t::replace));
  EXPECT_EQ(certification_html(one), certification_html(other));
  EXPECT_EQ(certification_junit(one), certification_junit(other));
}

// Runs side by side judge as runs one after another, and come back in the order asked for even
// when the first ends last (it waits 2 s: a run beside it ends sooner unless it takes 2 s longer).
TEST(ParallelRuns, SideBySideRunsJudgeAsOneAtATimeInTheOrderAsked) {
  test_support::TempDir dir;
  const std::string slow_first =
      "if [ \"$MCP_CONFORMANCE_SCENARIO@$MCP_CONFORMANCE_PROTOCOL_VERSION\" = confirm.spec-destructive@2025-11-25 ]; "
      "then sleep 2; fi; " +
      kReference + " --drop-propagation";
  std::vector<RunRequest> requests;
  for (const char* id : {"confirm.spec-destructive", "propagation.sensitive-carried", "retry.idempotent-bounded"})
    for (const char* protocol : {"2025-11-25", "2026-07-28"})
      requests.push_back({mock::load_scenario(id), options_for(slow_first, dir.path() / "side", protocol)});
  std::vector<ScenarioRun> alone;
  for (auto request : requests) {
    request.options.work_dir = dir.path() / "alone";
    alone.push_back(run_scenario(request.scenario, request.options));
  }
  std::vector<std::size_t> started, ended;
  RunWatch watch;
  watch.started = [&](std::size_t i) { started.push_back(i); };
  watch.ended = [&](std::size_t i, const ScenarioRun& run) {
    ended.push_back(i);
    EXPECT_EQ(run.run_id(), requests[i].scenario.id + "@" + requests[i].options.protocol);
  };
  const auto side = run_scenarios(requests, 3, watch);
  ASSERT_EQ(side.size(), requests.size());
  EXPECT_EQ(started, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(std::set<std::size_t>(ended.begin(), ended.end()).size(), requests.size());
  EXPECT_NE(ended.front(), 0u) << "the slow first run ended first: were they run side by side?";
  Certification one, other;
  one.runs = alone;
  other.runs = side;
  one.required_profiles = other.required_profiles = {"trust-annotations"};  // what the client breaks
  EXPECT_TRUE(one.failed());
  EXPECT_EQ(comparable(certification_json(one)).dump(1), comparable(certification_json(other)).dump(1));
  for (std::size_t i = 0; i < side.size(); ++i) {
    EXPECT_EQ(side[i].run_id(), alone[i].run_id());
    EXPECT_EQ(side[i].folder.parent_path(), dir.path() / "side");
  }
}

// A client that kills the process running it (its worker) makes a run that could not run, said
// in its notes; the runs beside it are untouched, and nothing hangs.
TEST(ParallelRuns, AClientThatKillsItsWorkerIsSaidNotLost) {
  test_support::TempDir dir;
  const std::string killer =
      "if [ \"$MCP_CONFORMANCE_SCENARIO\" = confirm.spec-destructive ]; then kill -KILL $PPID; sleep 5; fi; " +
      kReference;
  std::vector<RunRequest> requests;
  for (const char* id : {"confirm.spec-destructive", "propagation.sensitive-carried"})
    requests.push_back({mock::load_scenario(id), options_for(killer, dir.path(), "2025-11-25")});
  const auto start = std::chrono::steady_clock::now();
  const auto runs = run_scenarios(requests, 2);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
            test_support::bound_seconds(10));
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_TRUE(runs[0].could_not_run);
  EXPECT_EQ(runs[0].verdict(), Verdict::not_testable);
  ASSERT_FALSE(runs[0].notes.empty());
  EXPECT_NE(runs[0].notes.front().find("worker process was killed by signal 9"), std::string::npos)
      << runs[0].notes.front();
  EXPECT_NE(runs[0].notes.front().find("(did the client kill it?)"), std::string::npos) << runs[0].notes.front();
  EXPECT_GT(runs[0].seconds, 0.0);
  EXPECT_EQ(runs[0].run_id(), "confirm.spec-destructive@2025-11-25");
  EXPECT_FALSE(runs[1].could_not_run);
  EXPECT_EQ(runs[1].verdict(), Verdict::pass) << (runs[1].notes.empty() ? "" : runs[1].notes.front());
  // No reply file is left in the work folder.
  for (const auto& entry : fs::directory_iterator(dir.path()))
    EXPECT_NE(entry.path().filename().string().rfind(".worker-", 0), 0u) << entry.path();
}

// A run made whose reply cannot be written (a folder stands where the reply goes) could not run,
// and the note names the file, not the client.
TEST(ParallelRuns, AReplyThatCannotBeWrittenIsSaidAsSuch) {
  test_support::TempDir dir;
  const fs::path reply = dir.path() / (".worker-" + std::to_string(::getpid()) + "-0");
  const std::string blocker = "mkdir -p '" + reply.string() + "'; " + kReference;
  const auto runs = run_scenarios(
      {{mock::load_scenario("confirm.spec-destructive"), options_for(blocker, dir.path(), "2025-11-25")}}, 1);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(runs[0].could_not_run);
  ASSERT_FALSE(runs[0].notes.empty());
  EXPECT_NE(runs[0].notes.front().find("could not write its reply to " + reply.string()), std::string::npos)
      << runs[0].notes.front();
  EXPECT_EQ(runs[0].notes.front().find("client"), std::string::npos) << runs[0].notes.front();
  EXPECT_GT(runs[0].seconds, 0.0);
}

// A run that throws (a scenario of the other era) ends certification with that Error, in its
// category, as it does when runs go one at a time.
TEST(ParallelRuns, AnErrorOfARunIsThrownAgainInItsCategory) {
  test_support::TempDir dir;
  std::vector<RunRequest> requests = {
      {mock::load_scenario("confirm.spec-destructive"), options_for(kReference, dir.path(), "2025-11-25")},
      {mock::load_scenario("confirm.input-required"), options_for(kReference, dir.path(), "2025-11-25")}};
  try {
    run_scenarios(requests, 2);
    ADD_FAILURE() << "no error";
  } catch (const mcp_hints::Error& e) {
    EXPECT_EQ(e.category(), mcp_hints::Error::Category::bad_input);
    EXPECT_NE(std::string(e.what()).find("applies to the stateless era only"), std::string::npos) << e.what();
  }
}

// The runs whose scripts wait longest (retryAfterMs, ttlMs, delayMs) start first, and the results
// keep the order asked for. After a run throws, the runs before it in that order are still made,
// so the error said is the first in order, as one by one, not the first to happen.
TEST(ParallelRuns, TheLongestWaitsStartFirstAndTheFirstErrorInOrderIsSaid) {
  test_support::TempDir dir;
  const auto long_wait = mock::load_scenario("retry.retry-after-honoured");
  const auto no_wait = mock::load_scenario("confirm.spec-destructive");
  EXPECT_EQ(mock::scripted_wait_ms(no_wait), 0);
  EXPECT_GE(mock::scripted_wait_ms(long_wait), 600);
  mock::Scenario nested = no_wait;
  nested.document["x"] = {{"a", {{"delayMs", 5}, {"ttlMs", -3}}}, {"b", json::array({{{"retryAfterMs", 7.5}}})}};
  nested.document["ttlMs"] = "not a number";
  EXPECT_EQ(mock::scripted_wait_ms(nested), 12.5);
  std::vector<RunRequest> requests = {{no_wait, options_for(kReference, dir.path(), "2025-11-25")},
                                      {long_wait, options_for(kReference, dir.path(), "2025-11-25")},
                                      {no_wait, options_for(kReference, dir.path(), "2026-07-28")}};
  std::vector<std::size_t> started;
  RunWatch watch;
  watch.started = [&](std::size_t i) { started.push_back(i); };
  const auto runs = run_scenarios(requests, 1, watch);
  EXPECT_EQ(started, (std::vector<std::size_t>{1, 0, 2}));
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].run_id(), "confirm.spec-destructive@2025-11-25");
  EXPECT_EQ(runs[1].run_id(), "retry.retry-after-honoured@2025-11-25");
  EXPECT_EQ(runs[2].run_id(), "confirm.spec-destructive@2026-07-28");
  for (const auto& run : runs) EXPECT_EQ(run.verdict(), Verdict::pass) << run.run_id();

  // Both of these apply to the stateless era only; the one with the longer wait starts, and throws, first.
  requests = {{mock::load_scenario("confirm.input-required"), options_for(kReference, dir.path(), "2025-11-25")},
              {mock::load_scenario("rugpull.ttl-expiry"), options_for(kReference, dir.path(), "2025-11-25")}};
  ASSERT_GT(mock::scripted_wait_ms(requests[1].scenario), 0);
  started.clear();
  try {
    run_scenarios(requests, 1, watch);
    ADD_FAILURE() << "no error";
  } catch (const mcp_hints::Error& e) {
    EXPECT_NE(std::string(e.what()).find("confirm.input-required"), std::string::npos) << e.what();
  }
  EXPECT_EQ(started, (std::vector<std::size_t>{1, 0}));
}

// A run whose script sleeps (kSleepingRunMs or more) holds none of the `jobs` places when there
// are two or more: a run that keeps a core busy starts beside it, and at most
// sleeping_places(jobs) sleeping runs go at once. With --jobs 1 each run waits for the one before.
TEST(ParallelRuns, ASleepingRunHoldsNoPlaceOfTheBusyOnes) {
  const auto quick = mock::load_scenario("confirm.spec-destructive");
  const auto retry = mock::load_scenario("retry.retry-after-honoured");
  EXPECT_FALSE(run_sleeps(quick));
  EXPECT_TRUE(run_sleeps(retry));
  mock::Scenario at_bound = quick;
  at_bound.document["x"] = {{"delayMs", kSleepingRunMs}};
  EXPECT_TRUE(run_sleeps(at_bound));
  at_bound.document["x"] = {{"delayMs", kSleepingRunMs - 0.001}};
  EXPECT_FALSE(run_sleeps(at_bound));
  EXPECT_EQ(sleeping_places(1), 0u);
  EXPECT_EQ(sleeping_places(2), 2 * kSleepingRunsPerJob);
  EXPECT_EQ(sleeping_places(256), kMostSleepingRuns);

  test_support::TempDir dir;
  // A folder each: one run id would share one.
  const auto request = [&](const mock::Scenario& scenario, std::size_t i) {
    return RunRequest{scenario, options_for(kReference, dir.path() / std::to_string(i), "2025-11-25")};
  };
  const auto watched = [](std::vector<std::string>& events) {
    RunWatch watch;
    watch.started = [&events](std::size_t i) { events.push_back("start " + std::to_string(i)); };
    watch.ended = [&events](std::size_t i, const ScenarioRun&) { events.push_back("end " + std::to_string(i)); };
    return watch;
  };
  const std::size_t jobs = 2, sleepers = sleeping_places(jobs) + 1;
  std::vector<RunRequest> requests = {request(quick, 0)};
  for (std::size_t i = 1; i <= sleepers; ++i) requests.push_back(request(retry, i));
  requests.push_back(request(quick, sleepers + 1));
  requests.push_back(request(quick, sleepers + 2));
  std::vector<std::string> events;
  auto runs = run_scenarios(requests, jobs, watched(events));
  ASSERT_EQ(events.size(), 2 * requests.size());
  const auto at = [&](const std::string& event) {
    const auto found = std::find(events.begin(), events.end(), event);
    EXPECT_NE(found, events.end()) << event;
    return found - events.begin();
  };
  // Every sleeping place taken, then both busy places, before anything has ended.
  for (std::size_t i = 0; i + 1 < sleepers; ++i) EXPECT_EQ(events[i], "start " + std::to_string(i + 1));
  EXPECT_EQ(events[sleepers - 1], "start 0");
  EXPECT_EQ(events[sleepers], "start " + std::to_string(sleepers + 1));
  // The last sleeping run waits for a sleeping place; the last busy run for a busy one.
  auto first_sleeper_ended = events.size();
  for (std::size_t i = 1; i < sleepers; ++i)
    first_sleeper_ended = std::min<std::size_t>(first_sleeper_ended, at("end " + std::to_string(i)));
  EXPECT_LT(first_sleeper_ended, at("start " + std::to_string(sleepers)));
  EXPECT_LT(std::min(at("end 0"), at("end " + std::to_string(sleepers + 1))),
            at("start " + std::to_string(sleepers + 2)));
  ASSERT_EQ(runs.size(), requests.size());
  for (const auto& run : runs) EXPECT_EQ(run.verdict(), Verdict::pass) << run.run_id();

  // --jobs 1: one after another, the sleeping run first.
  requests = {request(quick, 100), request(retry, 101), request(quick, 102)};
  events.clear();
  runs = run_scenarios(requests, 1, watched(events));
  EXPECT_EQ(events, (std::vector<std::string>{"start 1", "end 1", "start 0", "end 0", "start 2", "end 2"}));
  for (const auto& run : runs) EXPECT_EQ(run.verdict(), Verdict::pass) << run.run_id();
}

// Certify killed outright (no chance to clean up) takes its workers, and their runs' processes,
// with it: nothing is left running until the client's timeout.
TEST(ParallelRuns, AKilledCertifyLeavesNoWorkerBehind) {
  test_support::TempDir dir;
  const std::string marker = "parallel-runs-orphan-" + std::to_string(::getpid()) + "-";  // -12 is not -123
  const std::string client = "sleep 20 # " + marker;
  const std::string output = (dir.path() / "o").string();
  const pid_t certify = ::fork();
  ASSERT_GE(certify, 0);
  if (certify == 0) {
    ::execl(MCP_HINTS_BIN, MCP_HINTS_BIN, "certify", "--client", client.c_str(), "--jobs", "2", "--timeout", "30s",
            "--scenario", "confirm.spec-destructive", "--output", output.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Certify, its two workers and their clients' shells, all naming the marker. A process between
  // vfork and exec names it too, and one in the middle of exec names nothing for a moment: only a
  // count that holds for several readings in a row says the runs have started.
  const auto started = std::chrono::steady_clock::now();
  int readings_at_five = 0;
  while (readings_at_five < 5 &&
         std::chrono::steady_clock::now() - started < std::chrono::duration<double>(test_support::bound_seconds(10))) {
    readings_at_five = test_support::processes_with(marker) >= 5 ? readings_at_five + 1 : 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // Killed whatever the test finds, so that a failure leaves nothing running behind it.
  ::kill(certify, SIGKILL);
  ::waitpid(certify, nullptr, 0);
  ASSERT_EQ(readings_at_five, 5) << "the runs did not start";
  const auto killed = std::chrono::steady_clock::now();
  while (test_support::processes_with(marker) > 0 &&
         std::chrono::steady_clock::now() - killed < std::chrono::duration<double>(test_support::bound_seconds(5)))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(test_support::processes_with(marker), 0u) << "a worker or its client outlived certify";
}

// The command: --jobs 1 and --jobs 4 write the same report (times aside), lines numbered by the
// run's place in it; a bad --jobs is a usage error.
TEST(ParallelRuns, CertifyWritesTheSameReportWithAnyJobs) {
  test_support::TempDir dir;
  const std::string client = kReference + " --drop-propagation";
  std::map<std::string, test_support::RunResult> by_jobs;
  for (const char* jobs : {"1", "4"})
    by_jobs[jobs] = test_support::run_cli(
        {"certify", "--client", client, "--jobs", jobs, "--format", "json", "--output", (dir.path() / jobs).string(),
         "--scenario", "confirm.spec-destructive", "--scenario", "propagation.sensitive-carried", "--scenario",
         "rugpull.ttl-expiry", "--scenario", "retry.idempotent-bounded", "--require-profile", "trust-annotations"});
  const auto &one = by_jobs["1"], &four = by_jobs["4"];
  EXPECT_EQ(one.exit_code, 1) << one.err;
  EXPECT_EQ(four.exit_code, 1) << four.err;
  EXPECT_EQ(comparable(json::parse(one.out)).dump(1), comparable(json::parse(four.out)).dump(1));
  // Each run's line carries its place in the report, whichever order the lines come in.
  for (const auto* r : {&one, &four}) {
    EXPECT_EQ(test_support::count_lines(r->err), 7u) << r->err;
    for (const char* line : {"[1/7] PASS         confirm.spec-destructive@2026-07-28",
                             "[6/7] FAIL         propagation.sensitive-carried@2025-11-25",
                             "[3/7] PASS         rugpull.ttl-expiry@2026-07-28"})
      EXPECT_NE(r->err.find(line), std::string::npos) << line << "\n" << r->err;
  }
  for (const char* jobs : {"0", "-1", "x", "257"}) {
    const auto bad =
        test_support::run_cli({"certify", "--client", "x", "--jobs", jobs, "--output", (dir.path() / "bad").string()});
    EXPECT_EQ(bad.exit_code, 2) << jobs;
    EXPECT_EQ(test_support::count_lines(bad.err), 1u) << bad.err;
    EXPECT_NE(bad.err.find("--jobs"), std::string::npos) << bad.err;
  }
}

}  // namespace
