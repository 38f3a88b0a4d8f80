// The orphan sweep: a grandchild that left its process group (setsid) outlives the group's kill,
// is adopted while a sweep exists, and is ended by it; children we started and named are left.
#include "mcp_hints/wire/orphans.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "mcp_hints/wire/child_process.hpp"
#include "test_support.hpp"

namespace {

using mcp_hints::ChildProcess;
using mcp_hints::OrphanSweep;
using mcp_hints::ProcessOptions;

// Starts `sh -c script` and waits for it to end (its group killed after).
void run_and_end(const std::string& script) {
  ProcessOptions options;
  options.argv = {"/bin/sh", "-c", script};
  ChildProcess child(options);
  ASSERT_TRUE(child.wait(mcp_hints::Clock::now() + std::chrono::seconds(10)));
  child.kill_group();
}

bool alive(pid_t pid) { return ::kill(pid, 0) == 0; }

// A script that leaves `sleep SECONDS` running in a session of its own, and ends only once that
// sleep runs (however loaded the machine): its command line is sleep's, not setsid's any more,
// which names the same seconds before it execs.
std::string escaping(const std::string& seconds) {
  return "setsid sleep " + seconds + " </dev/null >/dev/null 2>&1 & p=$!; while [ \"$(tr '\\0' ' ' </proc/$p/cmdline " +
         "2>/dev/null)\" != 'sleep " + seconds + " ' ]; do sleep 0.02; done";
}

TEST(OrphanSweep, EndsWhatEscapedTheGroupAndLeavesOurOwn) {
  // A child of ours from before the sweep, and one started during it that we name: both stay.
  ProcessOptions sleeper;
  sleeper.argv = {"sleep", "30"};
  ChildProcess before(sleeper);
  OrphanSweep sweep;
  ChildProcess named(sleeper);
  sweep.leave(named.pid());
  // The escaped grandchild sleeps in a session of its own.
  run_and_end(escaping("31.5"));
  std::set<pid_t> adopted;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (adopted.empty() && std::chrono::steady_clock::now() < deadline) {
    for (pid_t pid : mcp_hints::current_children())
      if (pid != before.pid() && pid != named.pid()) adopted.insert(pid);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(adopted.size(), 1u) << "the setsid grandchild is adopted by this process";
  const pid_t orphan = *adopted.begin();
  ASSERT_TRUE(alive(orphan));
  EXPECT_EQ(sweep.sweep(), 1u);
  EXPECT_FALSE(alive(orphan)) << "ended and reaped";
  EXPECT_TRUE(alive(before.pid()));
  EXPECT_TRUE(alive(named.pid()));
  EXPECT_EQ(sweep.sweep(), 0u) << "nothing is left to sweep";
}

// Adopted orphans found as the only children of this process, running or already exited: the
// sweep must not take "no child of ours from before" for "nothing to sweep".
TEST(OrphanSweep, EndsAnOrphanThatIsTheOnlyChild) {
  ASSERT_TRUE(mcp_hints::current_children().empty());
  OrphanSweep sweep;
  run_and_end(escaping("32.25"));
  std::set<pid_t> adopted;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (adopted.empty() && std::chrono::steady_clock::now() < deadline) {
    adopted = mcp_hints::current_children();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(adopted.size(), 1u) << "the setsid grandchild is adopted by this process";
  const pid_t orphan = *adopted.begin();
  EXPECT_EQ(sweep.sweep(), 1u);
  EXPECT_FALSE(alive(orphan)) << "ended and reaped";
  EXPECT_TRUE(mcp_hints::current_children().empty());
}

TEST(OrphanSweep, ReapsAnOrphanThatHasEndedWithoutCountingIt) {
  ASSERT_TRUE(mcp_hints::current_children().empty());
  OrphanSweep sweep;
  run_and_end(escaping("31.75"));
  std::set<pid_t> adopted;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (adopted.empty() && std::chrono::steady_clock::now() < deadline) {
    adopted = mcp_hints::current_children();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(adopted.size(), 1u) << "the setsid grandchild is adopted by this process";
  const pid_t orphan = *adopted.begin();
  // It ends (as a mock ends when its client goes) and waits, a zombie of ours, to be reaped.
  ASSERT_EQ(::kill(orphan, SIGTERM), 0);
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (mcp_hints::process_running(orphan) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_FALSE(mcp_hints::process_running(orphan));
  ASSERT_EQ(mcp_hints::current_children(), adopted) << "not reaped yet";
  EXPECT_EQ(sweep.sweep(), 0u) << "it had ended: reaped, not counted";
  EXPECT_TRUE(mcp_hints::current_children().empty()) << "no zombie is left";
}

// A process whose main thread has exited while another thread runs shows as a zombie ("Z" in
// /proc) but cannot be reaped until the whole process ends: the sweep kills it, counts it, and
// reaps it, rather than taking it for one that has ended (which would leave it running).
TEST(OrphanSweep, EndsAProcessWhoseMainThreadHasExited) {
  ASSERT_TRUE(mcp_hints::current_children().empty());
  OrphanSweep sweep;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::thread([] { std::this_thread::sleep_for(std::chrono::seconds(30)); }).detach();
    ::syscall(SYS_exit, 0);  // this thread alone ends (no unwinding into the test), the other keeps the process
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (mcp_hints::process_running(child) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_FALSE(mcp_hints::process_running(child)) << "its main thread shows as a zombie";
  ASSERT_EQ(::waitpid(child, nullptr, WNOHANG), 0) << "and it cannot be reaped: a thread still runs";
  EXPECT_EQ(sweep.sweep(), 1u);
  EXPECT_TRUE(mcp_hints::current_children().empty()) << "killed and reaped";
  EXPECT_FALSE(alive(child));
}

TEST(OrphanSweep, WithoutASweepOrphansAreNotOurs) {
  {
    OrphanSweep sweep;  // ends; the process is no longer a subreaper
  }
  // Seconds this process alone names (its pid in them), whatever else runs beside it.
  const std::string seconds = "30.7" + std::to_string(::getpid());
  run_and_end(escaping(seconds));
  EXPECT_TRUE(mcp_hints::current_children().empty());
  // The escaped sleep belongs to init now (a run that needs it ended holds a sweep): end it here.
  std::size_t ended = 0;
  for (const auto& [pid, cmdline] : test_support::process_command_lines())
    if (cmdline == std::string("sleep") + '\0' + seconds + '\0') ended += ::kill(pid, SIGKILL) == 0;
  EXPECT_EQ(ended, 1u);
}

}  // namespace
