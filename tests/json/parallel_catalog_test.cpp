#include "mcp_hints/json/parallel_catalog.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "json_samples.hpp"

using mcp_hints::CatalogTool;
using mcp_hints::InputError;

namespace {

// A bare array of n tools named t0, t1, ...; `cut` characters from its end are left out.
std::string catalog(std::size_t n, std::size_t cut = 0) {
  std::string text = "[";
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0) text += ",\n";
    text += R"({"name":"t)" + std::to_string(i) + R"("})";
  }
  text += "]";
  return text.substr(0, text.size() - cut);
}

struct Outcome {
  std::vector<std::string> kept;
  std::size_t tool_count = 0;
  std::string error;  // what was thrown, if anything

  bool operator==(const Outcome&) const = default;
};

// Reads the text on `threads` threads; work names the tool (and throws at the tool named
// `throw_at`), keep records the names (and throws at the one named `keep_throws_at`).
Outcome read(const std::string& text, std::size_t threads, const std::string& throw_at = "",
             const std::string& keep_throws_at = "") {
  Outcome outcome;
  const std::function<std::string(CatalogTool &&)> work = [&](CatalogTool&& tool) {
    std::string name = tool.tool.at("name");
    if (name == throw_at) throw std::runtime_error("work failed at " + name);
    return name + "@" + tool.pointer;
  };
  const std::function<void(std::string &&)> keep = [&](std::string&& name) {
    if (name.starts_with(keep_throws_at + "@") && !keep_throws_at.empty())
      throw std::logic_error("keep failed at " + name);
    outcome.kept.push_back(std::move(name));
  };
  std::istringstream in(text);
  try {
    outcome.tool_count = mcp_hints::read_catalog_in_parallel(in, {}, threads, work, keep).tool_count;
  } catch (const InputError& e) {
    outcome.error = std::string("input: ") + e.what();
  } catch (const std::exception& e) {
    outcome.error = e.what();
  }
  return outcome;
}

}  // namespace

TEST(ParallelCatalog, KeepsEveryResultInDocumentOrderForAnyNumberOfThreads) {
  const auto text = catalog(3000);
  const auto one = read(text, 1);
  ASSERT_EQ(one.kept.size(), 3000u);
  EXPECT_EQ(one.kept[2999], "t2999@/2999");
  EXPECT_EQ(one.tool_count, 3000u);
  for (std::size_t threads : {2, 3, 8}) EXPECT_EQ(read(text, threads), one) << threads << " threads";
}

TEST(ParallelCatalog, KeepsTheToolsBeforeAnInputErrorThenThrowsIt) {
  const auto text = catalog(3000, 30);  // cut inside the last tool
  const auto one = read(text, 1);
  EXPECT_NE(one.error.find("input: "), std::string::npos) << one.error;
  EXPECT_EQ(one.kept.size(), 2998u);
  EXPECT_EQ(read(text, 4), one);
}

// Each tool's text is read by the thread that works on it: where one is not JSON (or breaks a
// limit), the document is read again, and the results and the error are those of one thread,
// whether the tool was worked on by the reading thread (the first 256) or by another.
TEST(ParallelCatalog, AToolWhoseTextIsRefusedEndsTheReadAsOneThreadDoes) {
  const std::string whole = catalog(3000);
  for (const char* at : {"t5\"", "t255\"", "t256\"", "t1000\"", "t2999\""}) {
    const auto place = whole.find(std::string("\"") + at) + std::string(at).size() + 1;
    const std::vector<std::string> damages = {
        ",\"x\":tru", ",\"x\":[}",      ",\"x\":\"\x01\"", ",\"x\":\"\xc0\"",
        ",\"x\":01",  ",\"x\":\"\\q\"", ",\"x\":\"{[\\\"", ",\"x\":" + std::string(300, '[') + std::string(300, ']')};
    for (const auto& damage : damages) {
      std::string text = whole;
      text.insert(place, damage);
      const auto one = read(text, 1);
      ASSERT_NE(one.error, "") << at << damage;
      EXPECT_EQ(read(text, 2), one) << at << damage;
      EXPECT_EQ(read(text, 4), one) << at << damage;
      // A work that throws before the refused text: its exception, as on one thread.
      if (std::string_view(at) == "t1000\"") {
        EXPECT_EQ(read(text, 2, "t900"), read(text, 1, "t900")) << damage;
      }
    }
  }
}

TEST(ParallelCatalog, AWorkThatThrowsEndsTheReadAfterTheResultsBeforeIt) {
  const auto text = catalog(3000);
  for (const char* at : {"t5", "t700", "t2999"}) {
    const auto one = read(text, 1, at);
    EXPECT_EQ(one.error, std::string("work failed at ") + at);
    EXPECT_EQ(read(text, 4, at), one) << at;
  }
  // A work that throws before the input fails: its exception, not the input's, is the one thrown.
  const auto truncated = catalog(3000, 30);
  EXPECT_EQ(read(truncated, 4, "t2000"), read(truncated, 1, "t2000"));
  EXPECT_EQ(read(truncated, 4, "t2000").error, "work failed at t2000");
}

TEST(ParallelCatalog, AKeepThatThrowsEndsTheRead) {
  const auto text = catalog(3000);
  const auto one = read(text, 1, "", "t1000");
  EXPECT_EQ(one.error, "keep failed at t1000@/1000");
  EXPECT_EQ(one.kept.size(), 1000u);
  EXPECT_EQ(read(text, 4, "", "t1000"), one);
}

// The tools worked on, on any number of threads, are the tools read one after another with none
// built into a recycled tree: each tool whole (kinds of number included) with its members given
// twice, over a catalog of tools that share most member names but not their shapes, so that each
// is built into a tree of another shape, kept by a worker a batch at a time.
TEST(ParallelCatalog, ToolsBuiltIntoTreesWorkedOnAreTheToolsRead) {
  json_samples::Documents documents(31, true);
  const std::string text = documents.catalog(3000);
  std::vector<std::string> expected;
  {
    std::istringstream in(text);
    mcp_hints::read_catalog(in, {}, [&](CatalogTool&& tool) {
      std::string said = json_samples::typed(tool.tool);
      for (const auto& d : tool.duplicates) said += " " + d.pointer + "=" + json_samples::typed(d.earlier);
      expected.push_back(std::move(said));
    });
  }
  ASSERT_EQ(expected.size(), 3000u);
  const std::function<std::string(CatalogTool &&)> work = [](CatalogTool&& tool) {
    std::string said = json_samples::typed(tool.tool);
    for (const auto& d : tool.duplicates) said += " " + d.pointer + "=" + json_samples::typed(d.earlier);
    return said;
  };
  for (std::size_t threads : {1, 2, 3}) {
    std::vector<std::string> kept;
    const std::function<void(std::string &&)> keep = [&](std::string&& said) { kept.push_back(std::move(said)); };
    std::istringstream in(text);
    mcp_hints::read_catalog_in_parallel(in, {}, threads, work, keep);
    EXPECT_EQ(kept, expected) << threads << " threads";
  }
}
