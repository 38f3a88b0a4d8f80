// The findings list (findings.hpp): in memory or spilled to disk, the same findings in the same
// order, with the same counts, whatever is asked of it.
#include "mcp_hints/checks/findings.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "mcp_hints/checks/lint.hpp"
#include "test_support.hpp"

using mcp_hints::Finding;
using mcp_hints::FindingList;
using mcp_hints::Level;
using mcp_hints::Suppression;

namespace {

// Every member, so a field the spill forgets or mixes up shows.
auto fields(const Finding& f) {
  std::vector<std::tuple<int, std::string>> suppressions;
  for (const auto& s : f.suppressions) suppressions.emplace_back(static_cast<int>(s.source), s.justification);
  return std::tuple(f.check, static_cast<int>(f.level), f.file, f.tool, f.pointer, f.line, f.column, f.message,
                    f.proposal, f.tool_line, f.tool_pointer, suppressions);
}

// The nth finding of a varied run: every level, empty and long texts, bytes that are not UTF-8,
// large numbers, and no, one or two suppressions of either source.
Finding nth(std::size_t n) {
  Finding f{};
  f.check = "area.check-" + std::to_string(n % 7);
  f.level = static_cast<Level>(n % 3);
  f.file = n % 5 ? "catalog.json" : "";
  f.tool = n % 11 ? "tool_" + std::to_string(n / 3) : "";
  f.pointer = "/tools/" + std::to_string(n / 3) + "/annotations/x~1y";
  f.line = n * 1000003;
  f.column = n % 2 ? 0 : std::size_t{1} << 40;
  f.message = "expected x, saw \xff\xfe " + std::string(n % 97 == 0 ? 100000 : n % 50, 'm');
  f.proposal = "risk-metadata@sep-2793 \xc2\xa7" + std::to_string(n % 4);
  f.tool_line = n;
  f.tool_pointer = n % 13 ? "/tools/" + std::to_string(n / 3) : "";
  if (n % 4 == 1) f.suppressions.push_back({Suppression::Source::config, "known: " + std::to_string(n)});
  if (n % 8 == 3) {
    f.suppressions.push_back({Suppression::Source::baseline, "in the baseline b.json"});
    f.suppressions.push_back({Suppression::Source::config, ""});
  }
  return f;
}

void expect_holds(const FindingList& list, std::size_t count) {
  ASSERT_EQ(list.size(), count);
  std::size_t i = 0;
  for (const auto& f : list) {
    ASSERT_LT(i, count);
    EXPECT_EQ(fields(f), fields(nth(i))) << "finding " << i;
    ++i;
  }
  EXPECT_EQ(i, count);
  std::size_t counting[3] = {0, 0, 0}, suppressed = 0, baselined = 0;
  for (std::size_t n = 0; n < count; ++n) {
    const Finding f = nth(n);
    (f.suppressed() ? suppressed : counting[static_cast<int>(f.level)])++;
    baselined += f.baselined();
  }
  for (Level level : {Level::info, Level::warning, Level::error})
    EXPECT_EQ(list.counting(level), counting[static_cast<int>(level)]) << mcp_hints::level_name(level);
  EXPECT_EQ(list.suppressed(), suppressed);
  EXPECT_EQ(list.baselined(), baselined);
}

}  // namespace

TEST(FindingList, InMemoryAndSpilledHoldTheSameFindingsInOrder) {
  for (std::size_t budget : {FindingList::kDefaultMemoryBudget, std::size_t{0}, std::size_t{50000}}) {
    FindingList list(budget);
    EXPECT_TRUE(list.empty());
    EXPECT_EQ(list.begin(), list.end());
    for (std::size_t n = 0; n < 1000; ++n) list.push_back(nth(n));
    EXPECT_EQ(list.spilled(), budget != FindingList::kDefaultMemoryBudget) << budget;
    expect_holds(list, 1000);
    // Any one, on either side of where the spill's blocks start, and the last.
    for (std::size_t i : {0, 1, 255, 256, 257, 511, 512, 776, 999})
      EXPECT_EQ(fields(list[i]), fields(nth(i))) << budget << ": finding " << i;
    EXPECT_EQ(fields(list.front()), fields(nth(0)));
    EXPECT_EQ(fields(list.back()), fields(nth(999)));
    EXPECT_THROW(list[1000], std::out_of_range);
  }
}

TEST(FindingList, ASmallBudgetSpillsOnceItIsPassedAndFindingsAddedLaterFollow) {
  FindingList list(300000);
  std::size_t n = 0;
  while (!list.spilled()) list.push_back(nth(n++));
  EXPECT_GT(n, 5u);
  // Walked part way, then added to, then walked again: the spill's unwritten end is read too.
  auto it = list.begin();
  for (std::size_t i = 0; i < 3; ++i) ++it;
  EXPECT_EQ(fields(*it), fields(nth(3)));
  for (std::size_t i = 0; i < 600; ++i) list.push_back(nth(n++));
  expect_holds(list, n);
  // Two walks at once, and a copy of a walk, each go their own way.
  auto a = list.begin(), b = list.begin();
  ++a;
  auto c = a;
  ++c;
  EXPECT_EQ(fields(*a), fields(nth(1)));
  EXPECT_EQ(fields(*b), fields(nth(0)));
  EXPECT_EQ(fields(*c), fields(nth(2)));
  EXPECT_EQ(a->check, nth(1).check);
}

TEST(FindingList, UpdateChangesEveryFindingAndTheCounts) {
  for (std::size_t budget : {FindingList::kDefaultMemoryBudget, std::size_t{0}}) {
    FindingList list(budget);
    for (std::size_t n = 0; n < 700; ++n) list.push_back(nth(n));
    std::size_t seen = 0;
    list.update([&](Finding& f) {
      EXPECT_EQ(fields(f), fields(nth(seen))) << "in order";
      if (seen++ % 2 == 0) f.suppressions.push_back({Suppression::Source::baseline, "in the baseline"});
      f.message += "!";
    });
    EXPECT_EQ(seen, 700u);
    ASSERT_EQ(list.size(), 700u);
    std::size_t i = 0, suppressed = 0, baselined = 0, counting = 0;
    for (const auto& f : list) {
      Finding expected = nth(i);
      if (i % 2 == 0) expected.suppressions.push_back({Suppression::Source::baseline, "in the baseline"});
      expected.message += "!";
      EXPECT_EQ(fields(f), fields(expected)) << i;
      suppressed += expected.suppressed();
      baselined += expected.baselined();
      counting += !expected.suppressed();
      ++i;
    }
    EXPECT_EQ(list.suppressed(), suppressed);
    EXPECT_EQ(list.baselined(), baselined);
    EXPECT_EQ(list.counting(Level::info) + list.counting(Level::warning) + list.counting(Level::error), counting);
  }
}

TEST(FindingList, ACopyIsItsOwn) {
  for (std::size_t budget : {FindingList::kDefaultMemoryBudget, std::size_t{0}}) {
    FindingList list(budget);
    for (std::size_t n = 0; n < 300; ++n) list.push_back(nth(n));
    FindingList copy = list;
    copy.update([](Finding& f) { f.check = "changed"; });
    copy.push_back(nth(300));
    expect_holds(list, 300);
    EXPECT_EQ(copy.size(), 301u);
    EXPECT_EQ(copy[0].check, "changed");
    FindingList moved = std::move(list);
    expect_holds(moved, 300);
    list = moved;  // assigned after a move: usable again
    expect_holds(list, 300);
  }
}

// Lint's findings, spilled from the first: the same, in the same order, as those kept in memory.
TEST(FindingList, LintFindsTheSameWhetherItsFindingsAreOnDiskOrInMemory) {
  const mcp_hints::Linter linter({});
  for (const auto& fixture : {test_support::source_dir() / "examples" / "catalogs" / "bad-catalog.json",
                              test_support::fixture("lint/negative/json.duplicate-member.json")}) {
    FindingList memory, disk(0);
    std::ifstream a(fixture), b(fixture);
    linter.lint_stream(a, "f", memory);
    linter.lint_stream(b, "f", disk);
    ASSERT_GT(memory.size(), 0u) << fixture;
    EXPECT_FALSE(memory.spilled());
    EXPECT_TRUE(disk.spilled());
    ASSERT_EQ(disk.size(), memory.size());
    auto it = disk.begin();
    for (const auto& f : memory) {
      EXPECT_EQ(fields(*it), fields(f)) << fixture;
      ++it;
    }
    for (Level level : {Level::info, Level::warning, Level::error})
      EXPECT_EQ(disk.counting(level), memory.counting(level));
  }
}

// A finding given by reference is kept as given and left as it was, in memory and spilled.
TEST(FindingList, AFindingGivenByReferenceIsKeptAndLeftWhole) {
  for (std::size_t budget : {FindingList::kDefaultMemoryBudget, std::size_t{0}, std::size_t{300000}}) {
    FindingList list(budget);
    for (std::size_t n = 0; n < 600; ++n) {
      const Finding f = nth(n);
      list.push_back(f);
      ASSERT_EQ(fields(f), fields(nth(n))) << "left whole";
    }
    expect_holds(list, 600);
  }
}
