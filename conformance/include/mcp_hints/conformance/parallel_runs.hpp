#pragma once
// Runs certification scenarios side by side, each performed in a worker process of its own and
// judged here. A run is a handful of processes already (the client, the mock servers); only a
// process of its own can be the subreaper that adopts and ends what its client leaves behind
// (OrphanSweep) without touching another run's, and no run inherits another's pipes. Judging
// stays in this process, where what it compiles once (the protocol schemas) serves every run.
// Results come back in the order asked for, whatever order the runs end in, and equal what
// run_scenario returns in this process.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/conformance/client_harness.hpp"

namespace mcp_hints::conformance {

struct RunRequest {
  mock::Scenario scenario;  // as loaded; run_scenario pins it to options.protocol
  HarnessOptions options;
};

struct RunWatch {
  std::function<void(std::size_t index)> started;                        // a run's worker was started
  std::function<void(std::size_t index, const ScenarioRun& run)> ended;  // its result is in
};

// A run whose script asks for at least this many milliseconds of waiting (mock::scripted_wait_ms)
// sleeps most of its time: its processes use about a tenth of that on a core. With `jobs` 2 or
// more, such runs take places of their own, kSleepingRunsPerJob for each of the `jobs` (at most
// kMostSleepingRuns), and hold none of the `jobs`: together they keep a core less than half as
// busy as the runs in those places do. With `jobs` 1 every run waits for the one before it (a
// client that cannot run twice at once is certified so).
inline constexpr double kSleepingRunMs = 100;
inline constexpr std::size_t kSleepingRunsPerJob = 4;
inline constexpr std::size_t kMostSleepingRuns = 32;
inline bool run_sleeps(double scripted_wait_ms) { return scripted_wait_ms >= kSleepingRunMs; }
inline bool run_sleeps(const mock::Scenario& scenario) { return run_sleeps(mock::scripted_wait_ms(scenario)); }
// How many sleeping runs may go beside `jobs` others (0: they take those places too).
inline std::size_t sleeping_places(std::size_t jobs) {
  return jobs < 2 ? 0 : std::min(kSleepingRunsPerJob * jobs, kMostSleepingRuns);
}

// Runs every request, at most `jobs` (1 or more) at once and, beside them, at most
// sleeping_places(jobs) runs that sleep; the longest waits start first. A worker that dies or
// outlives its run's bound (the client's timeout and a minute for the rest) yields a run that
// could not run, saying so. An Error a run throws (a scenario that does not apply, say) ends the
// others and is thrown again here, as the first one in order.
std::vector<ScenarioRun> run_scenarios(const std::vector<RunRequest>& requests, std::size_t jobs,
                                       const RunWatch& watch = {});

// What a worker sends back: the performed run (perform_scenario), without the scenario, which the
// parent has. Binary (MessagePack), so a client's output that is not UTF-8 comes back as it was.
std::vector<std::uint8_t> encode_run(const ScenarioRun& run);
ScenarioRun decode_run(const RunRequest& request, const std::vector<std::uint8_t>& bytes);

}  // namespace mcp_hints::conformance
