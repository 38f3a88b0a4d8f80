// The published test vectors (schemas/tests, JSON-Schema-Test-Suite shape) under valijson, and
// every real specification example that carries a Tool against our spec schema.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "mcp_hints/json/schema_registry.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"
#include "test_support.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

TEST(SchemaVectors, EveryVectorGetsItsExpectedVerdict) {
  const auto& registry = mcp_hints::published_schemas();
  std::size_t files = 0, vectors = 0;
  for (const auto& entry : fs::directory_iterator(test_support::source_dir() / "schemas" / "tests")) {
    ++files;
    for (const auto& group : test_support::read_json(entry.path())) {
      for (const auto& test : group["tests"]) {
        ++vectors;
        const bool valid = registry.validate_inline(group["schema"], test["data"]).empty();
        EXPECT_EQ(valid, test["valid"].get<bool>())
            << entry.path().filename().string() << ": " << group["description"] << " / " << test["description"];
      }
    }
  }
  EXPECT_GE(files, 8u);
  EXPECT_GE(vectors, 500u);
}

namespace {

// The schemas of the table "Machine outputs and their schemas" (docs/output-contract.md), each
// named as `schemas/NAME`.
std::set<std::string> machine_output_schemas() {
  const std::string readme = test_support::read_file(test_support::source_dir() / "docs" / "output-contract.md");
  const auto start = readme.find("\n## Machine outputs and their schemas\n");
  EXPECT_NE(start, std::string::npos) << "docs/output-contract.md has no table of machine outputs";
  std::set<std::string> names;
  if (start == std::string::npos) return names;
  // A plain scan, not std::regex: a test's unoptimized copy of the regex engine would replace the
  // library's at link time, and its larger frames overflow the stack on the long patterns
  // SchemaRegistry.LongStringsNeverReachTheRegexEngine checks.
  const auto end = readme.find("\n#", start + 2);
  const std::string section = readme.substr(start, end == std::string::npos ? std::string::npos : end - start);
  const std::string open = "`schemas/";
  for (auto at = section.find(open); at != std::string::npos; at = section.find(open, at + 1)) {
    const auto first = at + open.size(), stop = section.find('`', first);
    if (stop == std::string::npos) break;
    const std::string name = section.substr(first, stop - first);
    if (name.ends_with(".schema.json") && name.find_first_of(" /") == std::string::npos) names.insert(name);
  }
  return names;
}

}  // namespace

TEST(SchemaVectors, EveryMachineOutputSchemaIsPublished) {
  const auto names = machine_output_schemas();
  EXPECT_GE(names.size(), 10u);
  for (const auto& name : names) EXPECT_TRUE(mcp_hints::published_schemas().contains(name)) << name;
}

TEST(SchemaVectors, EveryPublishedSchemaHasVectors) {
  const auto outputs = machine_output_schemas();
  for (const auto& entry : fs::directory_iterator(test_support::source_dir() / "schemas")) {
    const std::string name = entry.path().filename().string();
    // The schemas of our own outputs are held to real output instead (a test of each command).
    if (!name.ends_with(".schema.json") || outputs.count(name)) continue;
    const std::string stem = name.substr(0, name.size() - std::string(".schema.json").size());
    EXPECT_TRUE(fs::exists(test_support::source_dir() / "schemas" / "tests" / (stem + ".json"))) << name;
  }
}

TEST(SchemaVectors, RealSpecificationExamplesWithToolsAreValid) {
  const fs::path examples = test_support::shared_dir() / "reference" / "mcp-examples" / "2026-07-28";
  if (!fs::exists(examples)) GTEST_SKIP() << "no " << examples << " beside the project";
  const auto& registry = mcp_hints::published_schemas();
  std::size_t tools = 0;
  for (const auto& entry : fs::recursive_directory_iterator(examples)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    const json doc = test_support::read_json(entry.path());
    std::vector<json> found;
    const std::string kind = entry.path().parent_path().filename().string();
    if (kind == "Tool") found.push_back(doc);
    for (const json* list :
         {doc.contains("tools") ? &doc["tools"] : nullptr,
          doc.contains("result") && doc["result"].contains("tools") ? &doc["result"]["tools"] : nullptr}) {
      if (list && list->is_array())
        for (const auto& t : *list) found.push_back(t);
    }
    for (const auto& tool : found) {
      ++tools;
      auto v = registry.validate("spec-tool.2026-07-28.schema.json", tool);
      EXPECT_TRUE(v.empty()) << entry.path() << ": " << (v.empty() ? "" : v[0].pointer + " " + v[0].message);
    }
  }
  EXPECT_GE(tools, 8u);
}
