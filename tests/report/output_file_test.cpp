// Output files are written whole or not at all, and a failure says which file and why.
#include "mcp_hints/report/output_file.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "test_support.hpp"

namespace fs = std::filesystem;

namespace {

std::size_t entries(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST(OutputFile, ReplacesTheFileWholeAndLeavesNoTemporaryBehind) {
  test_support::TempDir dir;
  const fs::path path = dir.path() / "report.json";
  mcp_hints::write_file_atomically(path, "first");
  mcp_hints::write_file_atomically(path, "second, longer");
  EXPECT_EQ(test_support::read_file(path), "second, longer");
  EXPECT_EQ(entries(dir.path()), 1u);
}

TEST(OutputFile, ADirectoryOrAMissingFolderIsRefusedWithTheFileNamed) {
  test_support::TempDir dir;
  try {
    mcp_hints::write_file_atomically(dir.path(), "x");
    FAIL() << "a directory was written over";
  } catch (const mcp_hints::OutputError& e) {
    EXPECT_EQ(e.category(), mcp_hints::Error::Category::incomplete);
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
  const fs::path missing = dir.path() / "no" / "such" / "out.html";
  try {
    mcp_hints::write_file_atomically(missing, "x");
    FAIL() << "wrote into a missing folder";
  } catch (const mcp_hints::OutputError& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(entries(dir.path()), 0u);
}

// Written as it is made: a writer that fails half-way leaves the old file and no temporary one,
// and its error reaches the caller.
TEST(OutputFile, AStreamedWriteIsWholeOrLeavesTheOldFile) {
  test_support::TempDir dir;
  const fs::path path = dir.path() / "report.sarif";
  mcp_hints::write_file_atomically(path, [](std::ostream& out) { out << "streamed " << 42; });
  EXPECT_EQ(test_support::read_file(path), "streamed 42");
  EXPECT_THROW(mcp_hints::write_file_atomically(path,
                                                [](std::ostream& out) {
                                                  out << "half";
                                                  throw std::runtime_error("the writer failed");
                                                }),
               std::runtime_error);
  EXPECT_EQ(test_support::read_file(path), "streamed 42");
  EXPECT_EQ(entries(dir.path()), 1u);
}

// A spill gives back what was written, as often as asked, and a device that refuses the bytes
// leaves its stream bad (so the run ends incomplete, not silently short).
TEST(SpillFile, GivesBackWhatWasWrittenAndReportsAFailedCopy) {
  mcp_hints::SpillFile spill;
  std::string big(300000, 'x');
  spill.stream() << "head\n" << big;
  std::ostringstream once, twice;
  spill.copy_to(once);
  spill.copy_to(twice);
  EXPECT_EQ(once.str(), "head\n" + big);
  EXPECT_EQ(twice.str(), once.str());
  std::ofstream full("/dev/full");
  ASSERT_TRUE(full.is_open());
  spill.copy_to(full);
  full.flush();
  EXPECT_FALSE(full.good());
  mcp_hints::SpillFile empty;
  std::ostringstream nothing;
  empty.copy_to(nothing);
  EXPECT_TRUE(nothing.good());
  EXPECT_EQ(nothing.str(), "");
}
