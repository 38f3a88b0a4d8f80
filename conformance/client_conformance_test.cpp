// The certification scenarios as GoogleTest cases, one per scenario:
//
//   MCP_HINTS_CLIENT='CMD' ctest -L client
//
// runs them against CMD (the reference client when unset). MCP_HINTS_TRANSPORT picks stdio
// (default) or http; MCP_HINTS_EXPECTED_FAILURES names an expected-failures file; the records of
// each run stay in MCP_HINTS_CLIENT_OUTPUT (default: a folder under the build tree).
#include <gtest/gtest.h>

#include <cstdlib>

#include "mcp_hints/conformance/client_harness.hpp"
#include "mcp_hints/conformance/expected_failures.hpp"

namespace {

using namespace mcp_hints::conformance;
namespace mock = mcp_hints::mock;

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

std::vector<std::string> certification_ids() {
  std::vector<std::string> ids;
  for (const auto& scenario : certification_scenarios()) ids.push_back(scenario.id);
  return ids;
}

class ClientScenario : public testing::TestWithParam<std::string> {};

TEST_P(ClientScenario, Passes) {
  HarnessOptions options;
  options.client_command = env_or("MCP_HINTS_CLIENT", MCP_HINTS_REFERENCE_CLIENT);
  options.transport = env_or("MCP_HINTS_TRANSPORT", "stdio");
  options.mock_command = {MCP_HINTS_BIN, "mock"};
  options.work_dir = env_or("MCP_HINTS_CLIENT_OUTPUT", MCP_HINTS_CLIENT_OUTPUT_DEFAULT);
  std::vector<ScenarioRun> runs{run_scenario(load_certification_scenario(GetParam()), options)};
  std::vector<std::string> problems;
  if (const std::string list = env_or("MCP_HINTS_EXPECTED_FAILURES", ""); !list.empty())
    problems = apply_expected_failures(load_expected_failures(list), runs);
  const auto& run = runs.front();
  for (const auto& p : problems) ADD_FAILURE() << p;
  for (const auto& note : run.notes) std::cout << "note: " << note << "\n";
  ASSERT_FALSE(run.could_not_run) << "the client could not be run: " << options.client_command;
  for (const auto& check : run.checks) {
    const std::string line = check.spec.id + " [" + check.spec.level + "] " + std::string(verdict_name(check.verdict)) +
                             ": " + check.outcome + " — " + check.detail;
    if (is_failure(check.verdict) && !check.expected_failure)
      ADD_FAILURE() << line;
    else if (check.verdict != Verdict::pass)
      std::cout << line << (check.expected_failure ? " (expected failure)" : "") << "\n";
  }
  std::cout << "records: " << run.folder.string() << "\n";
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ClientScenario, testing::ValuesIn(certification_ids()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (auto& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

}  // namespace
