// Translate's output against lint: for every lint fixture and example catalog, every target
// revision translate supports and every placement, the translated tool lints without schema
// errors the input did not have, unless the loss report says what could not be carried over.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "mcp_hints/checks/lint.hpp"
#include "mcp_hints/vocab/translate.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints;

std::vector<std::filesystem::path> catalogs() {
  std::vector<std::filesystem::path> out;
  for (const auto& dir : {test_support::source_dir() / "tests" / "fixtures" / "lint",
                          test_support::source_dir() / "examples" / "catalogs"})
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
      if (entry.is_regular_file() && entry.path().extension() == ".json") out.push_back(entry.path());
  return out;
}

// The schema errors lint finds on one tool, as "check at pointer".
std::set<std::string> schema_errors(const Linter& linter, const json& tool) {
  std::vector<Finding> findings;
  linter.lint_tool(tool, "f", "/tools/0", nullptr, findings);
  std::set<std::string> out;
  for (const auto& f : findings)
    if (f.level == Level::error && f.check.rfind("schema.", 0) == 0) out.insert(f.check + " at " + f.pointer);
  return out;
}

// Every revision translate accepts as a target, under each placement.
std::vector<TranslateOptions> targets() {
  std::vector<TranslateOptions> out;
  for (const auto& revision : Vocabulary::builtin().revisions())
    for (auto placement : {TranslateOptions::Placement::annotations, TranslateOptions::Placement::meta,
                           TranslateOptions::Placement::both}) {
      TranslateOptions options;
      options.target = &revision;
      options.placement = placement;
      options.meta_prefix = "com.example";
      try {
        validate_translate_options(options);
      } catch (const OptionError&) {
        continue;  // not a target (the specification's, message hints)
      }
      out.push_back(options);
    }
  return out;
}

TEST(TranslateLint, OutputHasNoNewSchemaErrorsUnlessALossSaysWhy) {
  const Linter linter({});
  const auto options = targets();
  ASSERT_GE(options.size(), 12u);  // six tool-hint revisions or more, three placements each
  std::size_t translated = 0, with_losses = 0;
  for (const auto& path : catalogs()) {
    const json catalog = test_support::read_json(path);
    const json& tools = catalog.contains("tools") ? catalog["tools"] : catalog["result"]["tools"];
    for (const auto& tool : tools) {
      const auto before = schema_errors(linter, tool);
      for (const auto& o : options) {
        const auto out = translate_tool(tool, o);
        std::vector<std::string> added;
        for (const auto& e : schema_errors(linter, out.tool))
          if (!before.count(e)) added.push_back(e);
        ++translated;
        if (!out.losses.empty()) ++with_losses;
        if (added.empty() || !out.losses.empty()) continue;
        ADD_FAILURE() << path.filename() << " tool " << tool.value("name", "?") << " -> " << o.target->ref()
                      << " (placement " << static_cast<int>(o.placement) << "): new " << added.front()
                      << " and no loss reported\n"
                      << out.tool.dump();
      }
    }
  }
  EXPECT_GT(translated, 500u);
  EXPECT_GT(with_losses, 0u);  // the fixtures include hints some targets cannot express
}

// The bug this guards: risk metadata's sideEffects, always an array, became a bare string.
TEST(TranslateLint, ArrayOnlyKeysStayArrays) {
  const json catalog =
      test_support::read_json(test_support::source_dir() / "examples" / "catalogs" / "good-catalog.json");
  TranslateOptions options;
  options.target = Vocabulary::builtin().find("risk-metadata@sep-2793");
  const Linter linter({});
  std::size_t seen = 0;
  for (const auto& tool : catalog["tools"]) {
    if (!tool.contains("annotations") || !tool["annotations"].contains("sideEffects")) continue;
    const auto out = translate_tool(tool, options);
    EXPECT_EQ(out.tool["annotations"]["sideEffects"], tool["annotations"]["sideEffects"]);
    EXPECT_TRUE(out.tool["annotations"]["sideEffects"].is_array());
    EXPECT_EQ(schema_errors(linter, out.tool), schema_errors(linter, tool));
    ++seen;
  }
  EXPECT_GT(seen, 0u);
}

}  // namespace
