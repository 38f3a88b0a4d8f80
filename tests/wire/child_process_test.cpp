#include "mcp_hints/wire/child_process.hpp"
#include "mcp_hints/wire/orphans.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>

#include <fstream>

#include "listening_child.hpp"
#include "test_support.hpp"
#include "time_bounds.hpp"

using mcp_hints::ChildProcess;
using mcp_hints::Clock;
using mcp_hints::ProcessOptions;

namespace {

using test_support::sh;

std::string read_all(ChildProcess& p, std::chrono::milliseconds within = std::chrono::seconds(5)) {
  std::string out;
  const auto deadline = Clock::now() + within;
  while (p.read(out, 1 << 20, deadline) == ChildProcess::ReadStatus::data) {
  }
  return out;
}

}  // namespace

TEST(ChildProcess, TalksThroughStdinAndStdout) {
  ChildProcess p(sh("read line; echo \"got $line\""));
  ASSERT_TRUE(p.write("hello\n", Clock::now() + std::chrono::seconds(5)));
  EXPECT_EQ(read_all(p), "got hello\n");
  for (int i = 0; i < 100 && !p.exited(); ++i) usleep(10000);
  EXPECT_EQ(p.describe_exit(), "exited with status 0");
}

TEST(ChildProcess, PassesEnvironmentAndKeepsTheTailOfStderr) {
  ProcessOptions o = sh("printf 'x%.0s' $(seq 1 5000) >&2; echo \"$MCP_HINTS_TEST_VAR\" >&2; echo done");
  o.env = {{"MCP_HINTS_TEST_VAR", "forty-two"}};
  o.stderr_limit = 100;
  ChildProcess p(o);
  EXPECT_EQ(read_all(p), "done\n");
  const std::string log = p.stderr_log();
  EXPECT_LE(log.size(), 100u);
  EXPECT_NE(log.find("forty-two"), std::string::npos);
}

TEST(ChildEnvironment, OverridesInPlaceAddsTheRestAndKeepsEveryOtherEntry) {
  const char* base[] = {"PATH=/bin", "PATHEXT=.x", "HOME=/root", "EMPTY=", "PATH=/dup", "NOEQUALS", nullptr};
  const auto env = mcp_hints::child_environment(base, {{"PATH", "/usr/bin"}, {"NEW", "1"}, {"NEW", "2"}, {"P", "p"}});
  EXPECT_EQ(env, (std::vector<std::string>{"PATH=/usr/bin", "PATHEXT=.x", "HOME=/root", "EMPTY=", "NOEQUALS", "NEW=2",
                                           "P=p"}));
  EXPECT_EQ(mcp_hints::child_environment(base, {}),
            (std::vector<std::string>{"PATH=/bin", "PATHEXT=.x", "HOME=/root", "EMPTY=", "PATH=/dup", "NOEQUALS"}));
  EXPECT_TRUE(mcp_hints::child_environment(nullptr, {}).empty());
}

// Boost 1.74's environment lookup read past the end of every environ entry shorter than the name
// looked up: under AddressSanitizer, any child given a variable aborted the run.
TEST(ChildProcess, SeesAddedAndOverriddenVariablesAndKeepsTheOthers) {
  ASSERT_EQ(::setenv("MCP_HINTS_KEPT", "kept", 1), 0);
  ASSERT_EQ(::setenv("MCP_HINTS_OVERRIDDEN", "before", 1), 0);
  const std::string added = "MCP_HINTS_ADDED_WITH_A_LONG_NAME_" + std::string(40, 'x');
  ProcessOptions o =
      sh("echo \"$MCP_HINTS_KEPT $MCP_HINTS_OVERRIDDEN $" + added + "\"; env | grep -c '^MCP_HINTS_OVERRIDDEN='");
  o.env = {{"MCP_HINTS_OVERRIDDEN", "after"}, {added, "added"}};
  ChildProcess p(o);
  EXPECT_EQ(read_all(p), "kept after added\n1\n");
  ::unsetenv("MCP_HINTS_KEPT");
  ::unsetenv("MCP_HINTS_OVERRIDDEN");
}

TEST(ChildProcess, ReadsTimeOutAndTellsSignalsFromExitCodes) {
  ChildProcess quiet(sh("sleep 30"));
  std::string out;
  const auto start = Clock::now();
  EXPECT_EQ(quiet.read(out, 100, Clock::now() + std::chrono::milliseconds(200)), ChildProcess::ReadStatus::timeout);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
  quiet.kill_group();
  EXPECT_EQ(quiet.describe_exit(), "was killed by signal 9 (Killed)");
  ChildProcess failing(sh("exit 7"));
  EXPECT_EQ(read_all(failing), "");
  failing.kill_group();  // reaps
  EXPECT_EQ(failing.describe_exit(), "exited with status 7");
}

TEST(ChildProcess, KillingTheGroupEndsGrandchildrenToo) {
  test_support::TempDir dir;
  const auto pid_file = dir.path() / "grandchild";
  pid_t group;
  {
    ChildProcess p(sh("sleep 300 & echo $! > " + pid_file.string() + "; echo started; wait"));
    EXPECT_EQ(test_support::first_line(p), "started");
    group = p.pid();
  }  // destructor
  EXPECT_TRUE(mcp_hints::process_group_gone(group));
  pid_t grandchild = 0;
  std::ifstream(pid_file) >> grandchild;
  ASSERT_GT(grandchild, 0);
  EXPECT_NE(::kill(grandchild, 0), 0);
}

// begin_kill_group ends the group without waiting; kill_group then reaps it. Either again, after
// the reaping, changes nothing of what is known of the child.
TEST(ChildProcess, BeginningToKillTheGroupEndsItAndKillingItReaps) {
  test_support::TempDir dir;
  const auto pid_file = dir.path() / "grandchild";
  ChildProcess p(sh("sleep 300 & echo $! > " + pid_file.string() + "; echo started; wait"));
  EXPECT_EQ(test_support::first_line(p), "started");
  pid_t grandchild = 0;
  std::ifstream(pid_file) >> grandchild;
  ASSERT_GT(grandchild, 0);
  p.begin_kill_group();
  EXPECT_TRUE(p.wait(Clock::now() + std::chrono::seconds(5)));  // it goes, though nobody waits for it
  EXPECT_EQ(p.describe_exit(), "was killed by signal 9 (Killed)");
  p.kill_group();
  p.begin_kill_group();
  p.kill_group();
  EXPECT_EQ(p.describe_exit(), "was killed by signal 9 (Killed)");
  EXPECT_TRUE(mcp_hints::process_group_gone(p.pid()));
  EXPECT_NE(::kill(grandchild, 0), 0);
}

TEST(ChildProcess, WritingToAChildThatStoppedReadingFailsCleanly) {
  ChildProcess p(sh("exec 0<&-; sleep 5"));
  usleep(100000);
  EXPECT_FALSE(p.write(std::string(1 << 20, 'x'), Clock::now() + std::chrono::seconds(2)));
}

TEST(ChildProcess, SaysWhyACommandCannotStart) {
  ProcessOptions o;
  o.argv = {"no-such-command-mcp-hints"};
  EXPECT_THROW({ ChildProcess p(o); }, mcp_hints::ProcessError);
  test_support::TempDir dir;
  const auto plain = dir.write("not-a-program", "just text\n");
  std::filesystem::permissions(plain, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  o.argv = {plain.string()};
  try {
    ChildProcess p(o);
    FAIL();
  } catch (const mcp_hints::ProcessError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot run " + plain.string() + ": Permission denied"), std::string::npos)
        << e.what();
  }
  const auto script = dir.write("garbage", "\x7f\x01\x02 not a program\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  o.argv = {script.string()};
  const auto children = mcp_hints::current_children();
  // ThreadSanitizer turns vfork into fork: the child's exec error then lands in its own copy of
  // the memory Boost reads it back from, and the start looks successful (a plain build vforks).
  if (!test_support::kThreadSanitizer) {
    try {
      ChildProcess p(o);
      FAIL();
    } catch (const mcp_hints::ProcessError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot start " + script.string() + ": Exec format error"),
                std::string::npos)
          << e.what();
    }
    EXPECT_EQ(mcp_hints::current_children(), children) << "the child whose exec failed is reaped, not left a zombie";
  }
  o.argv = {};
  EXPECT_THROW({ ChildProcess p(o); }, mcp_hints::ProcessError);
}

// A command line of plain words starts without a shell, with the argv sh would have given it: the
// differential runs each line both ways through a program that prints its arguments. Everything a
// shell would expand, look up or read as a script of its own is left to the shell (nullopt).
TEST(DirectArgv, StartsWhatShWouldRunAsItStandsAndLeavesTheRestToTheShell) {
  test_support::TempDir dir;
  const auto printer = dir.write("print-args", "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]' \"$a\"; done\n");
  std::filesystem::permissions(printer, std::filesystem::perms::owner_all);
  const std::string p = printer.string();
  const std::vector<std::string> direct = {
      p,
      p + " a b  c\t d",
      p + " 'two words' 'it'\\''s' '' x''y 'a\"b' '$HOME' '*' '~' '#' ';|&<>()`'",
      p + " --flag=value key=value a:b,c+d@e%f",
      p + " \\$HOME \\* back\\ slash",
      "'" + p + "' quoted-path",
  };
  for (const auto& line : direct) {
    const auto words = mcp_hints::direct_argv(line);
    ASSERT_TRUE(words) << line;
    ProcessOptions o;
    o.argv = *words;
    ChildProcess started_directly(o);
    ChildProcess started_by_sh(sh(line));
    EXPECT_EQ(read_all(started_directly), read_all(started_by_sh)) << line;
  }
  EXPECT_EQ(*mcp_hints::direct_argv(p + " 'it'\\''s'"), (std::vector<std::string>{p, "it's"}));

  // A FIFO named as the command is not waited on (no writer would ever come): the shell has it.
  const auto fifo = dir.path() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0700), 0);
  EXPECT_FALSE(mcp_hints::direct_argv(fifo.string()));
  const auto no_shebang = dir.write("script-without-shebang", "echo from a script\n");
  std::filesystem::permissions(no_shebang, std::filesystem::perms::owner_all);
  for (const std::string& line :
       std::vector<std::string>{"print-args a",  // no '/': a builtin, a function or PATH decide
                                "echo hello",    // a builtin
                                "FOO=1 " + p,    // an assignment first
                                "X=" + p,        // the whole first word an assignment
                                p + " $HOME",
                                p + " *.json",
                                p + " ~",  // expansions
                                p + " a; rm -rf x",
                                p + " a | cat",
                                p + " a && b",
                                p + " > out",
                                p + " `id`",
                                p + " \"double quoted\"",  // double quotes expand $ and `
                                p + " 'unterminated",
                                p + " trailing\\",  // not a complete command
                                p + " a\nb",        // two commands
                                p + " # comment",
                                no_shebang.string(),  // sh would run it as a script of its own
                                "",
                                "   "}) {
    EXPECT_FALSE(mcp_hints::direct_argv(line)) << line;
  }
  // The control: a program (ELF) and a #! script are started directly; a path that is not there
  // is too, and ChildProcess then says so.
  EXPECT_TRUE(mcp_hints::direct_argv("/bin/sh -c true"));
  EXPECT_TRUE(mcp_hints::direct_argv(p));
  const auto missing = mcp_hints::direct_argv(dir.path().string() + "/missing arg");
  ASSERT_TRUE(missing);
  ProcessOptions o;
  o.argv = *missing;
  EXPECT_THROW({ ChildProcess c(o); }, mcp_hints::ProcessError);
}
