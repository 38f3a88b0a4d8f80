#pragma once
// A child process in a process group of its own, spoken to through pipes on its stdin and
// stdout, with its stderr kept in a bounded log. Ending it ends the whole group, so a server
// that forks leaves nothing behind.
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcp_hints/json/error.hpp"

namespace mcp_hints {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

// A child process that cannot be started or spoken to.
class ProcessError : public Error {
 public:
  explicit ProcessError(const std::string& what) : Error(Category::incomplete, what) {}
};

struct ProcessOptions {
  std::vector<std::string> argv;                         // argv[0] is looked up on PATH
  std::vector<std::pair<std::string, std::string>> env;  // added to (or replacing in) our environment
  std::size_t stderr_limit = std::size_t{64} * 1024;     // bytes of stderr kept (the last ones)
  std::string working_dir{};  // where the child starts ("": ours); a relative argv[0] with a '/' is found there
};

// The environment a child starts with, as "K=V" strings: every entry of base (a null-terminated
// array like environ) in its order, an entry whose name is overridden replaced in place, then the
// overrides whose name base lacks, in their order (the last of two overrides of one name wins).
// Names are compared whole: overriding PATH leaves PATHEXT alone.
std::vector<std::string> child_environment(const char* const* base,
                                           const std::vector<std::pair<std::string, std::string>>& overrides);

// The argv that starts a shell command line without /bin/sh, where that does just what `sh -c`
// would: words of plain characters, single-quoted text and backslash escapes, the first a path
// (with a '/': no builtin, function or PATH search) to a program or a #! script (sh would read any
// other file as a script of its own), and no assignment. nullopt for anything else, which only a
// shell runs as meant. It spares a shell's start per process.
std::optional<std::vector<std::string>> direct_argv(std::string_view command);

class ChildProcess {
 public:
  // Starts the command; throws ProcessError when it cannot be started (not found, not executable).
  explicit ChildProcess(const ProcessOptions& options);
  ~ChildProcess();  // ends the whole process group
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const;

  // Writes all of data to the child's stdin; false when the child stopped reading (closed its
  // stdin or exited) or the deadline passed.
  bool write(std::string_view data, Deadline deadline);

  enum class ReadStatus { data, eof, timeout };
  // Reads what the child wrote to stdout (at most max bytes) into out; meanwhile keeps draining
  // stderr so the child never blocks on it.
  ReadStatus read(std::string& out, std::size_t max, Deadline deadline);

  // The stderr kept so far (its last stderr_limit bytes).
  std::string stderr_log();

  // Whether the child has exited, without waiting; after it has, how it ended.
  bool exited();
  // Waits until the child exits or the deadline passes; true when it has exited.
  bool wait(Deadline deadline);
  // "exited with status 3", "was killed by signal 11 (Segmentation fault)", or "running".
  std::string describe_exit();
  // The exit status, 128 + the signal number when a signal ended it, -1 while it runs.
  int exit_code();

  // SIGKILL to the whole group, then reaps the child. Safe to call more than once.
  void kill_group();
  // SIGKILL to the whole group without waiting: the kernel takes it down while the caller goes
  // on; kill_group() then reaps it.
  void begin_kill_group();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// True when no process of the group is left (for tests and for checking that nothing leaked).
bool process_group_gone(pid_t group);
// How a process ended, from its waitpid status: "exited with status N" or "was killed by signal N
// (NAME)".
std::string describe_wait_status(int status);

}  // namespace mcp_hints
