#include "mcp_hints/wire/orphans.hpp"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace mcp_hints {

namespace {

// The state and parent of `pid` from /proc/PID/stat ("PID (comm) STATE PPID ..."; comm may hold
// spaces and parentheses, so the fields are read after its last ')'); false when it is gone.
bool read_stat(const char* pid, char& state, pid_t& parent) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%s/stat", pid);
  std::FILE* f = std::fopen(path, "re");
  if (!f) return false;
  char buffer[512];
  const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, f);
  std::fclose(f);
  buffer[n] = '\0';
  const char* close = nullptr;
  for (const char* p = buffer; *p; ++p)
    if (*p == ')') close = p;
  int ppid = -1;
  if (!close || std::sscanf(close + 1, " %c %d", &state, &ppid) != 2) return false;
  parent = ppid;
  return true;
}

// Whether this process has no child at all, running or exited (waitid says ECHILD, counting the
// children of every thread and of every kind): then there is nothing to note or to sweep, and
// /proc, where finding our children means reading every process's stat, need not be read.
bool no_children() {
  siginfo_t info{};
  return ::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT | __WALL) < 0 && errno == ECHILD;
}

}  // namespace

std::set<pid_t> current_children() {
  std::set<pid_t> children;
  DIR* proc = ::opendir("/proc");
  if (!proc) return children;
  const pid_t self = ::getpid();
  while (const dirent* entry = ::readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    char state = 0;
    pid_t parent = -1;
    if (read_stat(entry->d_name, state, parent) && parent == self) children.insert(static_cast<pid_t>(pid));
  }
  ::closedir(proc);
  return children;
}

namespace {
// Sweeps alive: the process stays a subreaper while any is (orphans are adopted by init again
// after the last one, so nothing else in the process inherits zombies it never asked for).
std::atomic<int> sweeps{0};
}  // namespace

OrphanSweep::OrphanSweep() {
  if (sweeps++ == 0) ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  if (!no_children()) before_ = current_children();
}

OrphanSweep::~OrphanSweep() {
  sweep();
  if (--sweeps == 0) ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}

bool process_running(pid_t pid) {
  char state = 0;
  pid_t parent = -1;
  return read_stat(std::to_string(pid).c_str(), state, parent) && state != 'Z' && state != 'X';
}

std::size_t OrphanSweep::sweep(std::chrono::milliseconds bound) {
  const auto deadline = std::chrono::steady_clock::now() + bound;
  std::set<pid_t> ended;
  // A killed orphan's own children are adopted in turn: sweep until none is left, or the bound.
  for (;;) {
    if (no_children()) break;
    std::set<pid_t> found;
    for (pid_t pid : current_children())
      if (!before_.count(pid)) found.insert(pid);
    if (found.empty()) break;
    bool all_reaped = true;
    for (pid_t pid : found) {
      // One that has already exited (a mock that ended with its client) is reaped, not counted.
      // Any other is killed: also one whose main thread has exited while others run, which shows
      // as a zombie but can be reaped only once the whole process ends.
      if (::waitpid(pid, nullptr, WNOHANG) == pid) continue;
      all_reaped = false;
      if (::kill(pid, SIGKILL) == 0) ended.insert(pid);
    }
    if (std::chrono::steady_clock::now() >= deadline) break;
    // A zombie's children were adopted before it became one, so when every child found was reaped
    // the next look comes at once; one just killed needs a moment to die and hand over its own,
    // and one that cannot be killed is looked at again only after that moment too.
    if (!all_reaped) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return ended.size();
}

}  // namespace mcp_hints
