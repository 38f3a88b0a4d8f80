// Linting on several threads (LintOptions::jobs, lint --jobs) gives the report linting on one
// gives: every finding, in the same order, every file's result, input errors part way included.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mcp_hints/checks/lint.hpp"
#include "test_support.hpp"

namespace {

// Every field of a finding, so that two reports compare field by field.
std::string all_fields(const mcp_hints::Finding& f) {
  std::string out = f.check + "|" + std::string(mcp_hints::level_name(f.level)) + "|" + f.file + "|" + f.tool + "|" +
                    f.pointer + "|" + std::to_string(f.line) + ":" + std::to_string(f.column) + "|" + f.message + "|" +
                    f.proposal + "|" + std::to_string(f.tool_line) + "|" + f.tool_pointer;
  for (const auto& s : f.suppressions) out += "|" + s.justification;
  return out;
}

struct Linted {
  mcp_hints::LintReport report;
  std::vector<std::pair<std::string, std::size_t>> progress;
};

Linted lint(const std::vector<std::string>& files, std::size_t jobs) {
  Linted linted;
  mcp_hints::LintOptions options;
  options.jobs = jobs;
  options.progress = [&](const std::string& file, std::size_t tools) { linted.progress.emplace_back(file, tools); };
  linted.report = mcp_hints::Linter(options).lint_files(files);
  return linted;
}

void expect_same(const Linted& one, const Linted& many) {
  ASSERT_EQ(one.report.files.size(), many.report.files.size());
  for (std::size_t i = 0; i < one.report.files.size(); ++i) {
    const auto &a = one.report.files[i], &b = many.report.files[i];
    EXPECT_EQ(a.file, b.file);
    EXPECT_EQ(a.tool_count, b.tool_count) << a.file;
    EXPECT_EQ(a.error, b.error) << a.file;
    EXPECT_EQ(a.tool_names, b.tool_names) << a.file;
    EXPECT_EQ(a.tool_revisions, b.tool_revisions) << a.file;
    EXPECT_EQ(a.limit, b.limit) << a.file;
  }
  ASSERT_EQ(one.report.findings.size(), many.report.findings.size());
  for (std::size_t i = 0; i < one.report.findings.size(); ++i)
    ASSERT_EQ(all_fields(one.report.findings[i]), all_fields(many.report.findings[i])) << "finding " << i;
  EXPECT_EQ(one.progress, many.progress);
}

}  // namespace

class ParallelLint : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string text =
        test_support::varied_catalog(2500);  // about 35 batches past the tools linted before threads start
    whole_ = dir_.write("catalog.json", text).string();
    // Cut part way through, inside a tool: the tools before the cut are linted, then the error.
    truncated_ = dir_.write("truncated.json", text.substr(0, text.size() * 7 / 10)).string();
    small_ = dir_.write("small.json", test_support::varied_catalog(20)).string();
  }
  test_support::TempDir dir_;
  std::string whole_, truncated_, small_;
};

TEST_F(ParallelLint, FourThreadsReportWhatOneReports) {
  const auto one = lint({whole_, truncated_, small_, whole_}, 1);
  // The catalog makes findings of many kinds, and the truncated file is an input error part way.
  ASSERT_EQ(one.report.files.size(), 4u);
  EXPECT_EQ(one.report.files[0].tool_count, 2500u);
  EXPECT_FALSE(one.report.files[0].error);
  ASSERT_TRUE(one.report.files[1].error);
  EXPECT_GT(one.report.files[1].tool_names.size(), 1000u);
  EXPECT_LT(one.report.files[1].tool_names.size(), 2500u);
  std::set<std::string> checks;
  for (const auto& f : one.report.findings) checks.insert(f.check);
  EXPECT_TRUE(checks.contains("json.duplicate-member"));
  EXPECT_GE(checks.size(), 6u);
  EXPECT_GT(one.report.findings.size(), 5000u);
  expect_same(one, lint({whole_, truncated_, small_, whole_}, 4));
  expect_same(one, lint({whole_, truncated_, small_, whole_}, 2));
}

TEST_F(ParallelLint, TheCommandWritesTheSameBytesWithAnyJobs) {
  for (const char* format : {"json", "sarif", "junit", "text"}) {
    auto run = [&](const char* jobs) {
      return test_support::run_cli({"lint", "--jobs", jobs, "--format", format, whole_, truncated_, small_});
    };
    const auto one = run("1"), four = run("4");
    EXPECT_EQ(one.exit_code, 2) << format << ": " << one.err;  // the truncated file
    EXPECT_EQ(four.exit_code, one.exit_code) << format;
    EXPECT_GT(one.out.size(), 100000u) << format;
    EXPECT_TRUE(one.out == four.out) << format << ": the outputs differ";
    EXPECT_EQ(one.err, four.err) << format;
  }
}

// A catalog piped in ("-", kept in a temporary file as it is read, so that the fast reader reads it)
// gives the bytes the same file gives, whole and cut part way, on one thread and on several; and
// so do the commands that read one catalog.
TEST_F(ParallelLint, TheCommandReadsAPipeAsItReadsAFile) {
  const auto piped = [](const std::string& file, const std::vector<std::string>& args) {
    std::string command = "cat \"$0\" | \"$1\"";
    for (std::size_t i = 0; i < args.size(); ++i) command += " \"$" + std::to_string(i + 2) + "\"";
    std::vector<std::string> argv = {"sh", "-c", command, file, MCP_HINTS_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    return test_support::run_command(argv);
  };
  // What a file's run says, with the file's name where a pipe's says "-".
  const auto as_piped = [](std::string text, const std::string& file) {
    for (auto at = text.find(file); at != std::string::npos; at = text.find(file, at + 1))
      text.replace(at, file.size(), "-");
    return text;
  };
  for (const std::string& file : {whole_, truncated_}) {
    for (const char* jobs : {"1", "2", "3"}) {
      const auto from_file = test_support::run_cli({"lint", "--jobs", jobs, "--format", "json", file});
      const auto from_pipe = piped(file, {"lint", "--jobs", jobs, "--format", "json", "-"});
      EXPECT_EQ(from_pipe.exit_code, from_file.exit_code) << file << " " << jobs << ": " << from_pipe.err;
      EXPECT_GT(from_pipe.out.size(), 100000u) << file;
      EXPECT_TRUE(from_pipe.out == as_piped(from_file.out, file)) << file << " " << jobs << ": the outputs differ";
      EXPECT_EQ(from_pipe.err, as_piped(from_file.err, file)) << file << " " << jobs;
    }
    for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
             {"report"}, {"translate", "--to", "risk-metadata@sep-2793"}, {"infer", "--all", "--format", "json"}}) {
      std::vector<std::string> with_file = command, with_pipe = command;
      with_file.push_back(file);
      with_pipe.push_back("-");
      const auto from_file = test_support::run_cli(with_file);
      const auto from_pipe = piped(file, with_pipe);
      EXPECT_EQ(from_pipe.exit_code, from_file.exit_code) << command[0] << " " << file << ": " << from_pipe.err;
      EXPECT_GT(from_pipe.out.size() + from_pipe.err.size(), 100u) << command[0] << " " << file;
      EXPECT_TRUE(from_pipe.out == as_piped(from_file.out, file))
          << command[0] << " " << file << ": the outputs differ";
      EXPECT_EQ(from_pipe.err, as_piped(from_file.err, file)) << command[0] << " " << file;
    }
  }
}

TEST(ParallelLintCommand, RefusesABadJobsCount) {
  for (const char* jobs : {"0", "-1", "two", "257"})
    test_support::expect_usage_error({"lint", "--jobs", jobs, "x.json"}, "--jobs");
}
