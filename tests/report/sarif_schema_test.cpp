// Every SARIF log mcp-hints writes holds to the official SARIF 2.1.0 schema: the one
// @microsoft/jest-sarif ships (node/package.json; `make deps` installs it), read by valijson.
// Broken in one member, a log does not: the schema is really applied.
#include <gtest/gtest.h>

#include <filesystem>

#include "mcp_hints/vocab/published_schemas.hpp"
#include "test_support.hpp"

using json = nlohmann::json;
using test_support::run_cli;
namespace fs = std::filesystem;

namespace {

const fs::path kSarifSchema = test_support::source_dir() / "node" / "node_modules" / "@microsoft" / "jest-sarif" /
                              "lib" / "schemas" / "sarif-2.1.0-rtm.5.json";

std::vector<std::string> violations(const json& schema, const json& log) {
  std::vector<std::string> out;
  for (const auto& v : mcp_hints::published_schemas().validate_inline(schema, log))
    out.push_back(v.pointer + ": " + v.message);
  return out;
}

}  // namespace

TEST(SarifSchema, EveryLogHoldsToTheSarif210Schema) {
  if (!fs::exists(kSarifSchema)) GTEST_SKIP() << "no " << kSarifSchema << " (make deps installs it with npm)";
  const json schema = test_support::read_json(kSarifSchema);
  test_support::TempDir dir;
  const fs::path catalogs = test_support::source_dir() / "examples" / "catalogs";
  const std::string bad = (catalogs / "bad-catalog.json").string();
  const std::string baseline = (dir.path() / "baseline.json").string();
  ASSERT_EQ(run_cli({"lint", "--write-baseline", baseline, bad}).exit_code, 0);
  json better = test_support::read_json(bad);
  better["result"]["tools"].erase(3);
  const std::string fixed = dir.write("better.json", better.dump(2)).string();
  const std::string config = dir.write("config.json", R"({"suppressions": [{"checkId": "risk.*", "reason": "known"},
                                                    {"checkId": "infer.*", "reason": "left over"}]})")
                                 .string();
  const std::vector<std::vector<std::string>> runs = {
      {"lint", "--format", "sarif", test_support::fixture("lint/clean.json").string()},
      {"lint", "--format", "sarif", bad},
      {"lint", "--format", "sarif", "--baseline", baseline, fixed},           // suppressed, stale, baselineState
      {"lint", "--format", "sarif", "--config", config, bad},                 // suppressed with a reason, unused
      {"lint", "--format", "sarif", dir.write("broken.json", "{").string()},  // an input error
      {"check-server", "--format", "sarif", "--observe", "0", "--baseline", baseline, "--", MCP_HINTS_SAMPLE_SERVER,
       "--catalog", bad, "--misbehave", "relist-changes"},
  };
  json suppressed_log;
  for (const auto& args : runs) {
    const auto r = run_cli(args);
    json log;
    ASSERT_NO_THROW(log = json::parse(r.out)) << r.out << r.err;
    EXPECT_EQ(log["version"], "2.1.0");
    for (const auto& v : violations(schema, log)) ADD_FAILURE() << args[args.size() - 1] << ": " << v;
    if (args[3] == "--baseline" && args[0] == "lint") suppressed_log = log;
  }
  // The controls: a log with one member the specification does not allow.
  ASSERT_FALSE(suppressed_log.is_null());
  const auto& results = suppressed_log["runs"][0]["results"];
  ASSERT_FALSE(results.empty());
  ASSERT_FALSE(results[0]["suppressions"].empty()) << results[0].dump();
  for (const auto& [pointer, broken] :
       std::vector<std::pair<std::string, json>>{{"/runs/0/results/0/suppressions/0/kind", "baseline"},
                                                 {"/runs/0/results/0/suppressions/0/status", "ok"},
                                                 {"/runs/0/results/0/baselineState", "stale"},
                                                 {"/runs/0/results/0/level", "fatal"},
                                                 {"/runs/0/results/0/suppressions/0/justification", 3}}) {
    json copy = suppressed_log;
    copy[json::json_pointer(pointer)] = broken;
    EXPECT_FALSE(violations(schema, copy).empty()) << "the SARIF schema accepts " << broken.dump() << " at " << pointer;
  }
}
