#pragma once
// The expected-failures file: known failures of a client that should not fail its run, each with
// a reason. An entry that no longer fails is stale and fails the run, so the list stays true.
//
//   # comment
//   confirm.risk-approval-multi                 our UI asks once
//   propagation.cross-server:carried-to-b       not yet implemented
#include <cstddef>
#include <string>
#include <vector>

#include "mcp_hints/conformance/client_harness.hpp"

namespace mcp_hints::conformance {

struct ExpectedFailure {
  std::string scenario, check;  // check empty: every failing check of the scenario
  std::string reason;
  std::size_t line = 0;
};

// The file's bounds: a list of known failures is short, and a hostile one must not take memory.
inline constexpr std::size_t kMaxExpectedFailuresBytes = std::size_t{1} << 20;  // the whole file
inline constexpr std::size_t kMaxExpectedFailuresLine = 4096;                   // one line, in bytes
inline constexpr std::size_t kMaxExpectedFailuresLines = 100000;

// Reads the file; throws InputError (file and line) when it cannot be read, passes a bound, or a
// line has no reason.
std::vector<ExpectedFailure> load_expected_failures(const std::string& path);

// Marks the failures each entry covers (CheckResult::expected_failure; under the strict tier
// warnings too) and returns what is wrong with the list: stale entries (nothing failing) and
// entries naming a check the scenario lacks. Entries for scenarios that were not run are ignored.
std::vector<std::string> apply_expected_failures(const std::vector<ExpectedFailure>& entries,
                                                 std::vector<ScenarioRun>& runs, bool strict = false);

}  // namespace mcp_hints::conformance
