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
#include <thread>

namespace mcp_hints {

namespace {

// The parent of `pid` from /proc/PID/stat ("PID (comm) STATE PPID ..."; comm may hold spaces
// and parentheses, so the fields are read after its last ')'); -1 when it cannot be read.
pid_t parent_of(const char* pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%s/stat", pid);
  std::FILE* f = std::fopen(path, "re");
  if (!f) return -1;
  char buffer[512];
  const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, f);
  std::fclose(f);
  buffer[n] = '\0';
  const char* close = nullptr;
  for (const char* p = buffer; *p; ++p)
    if (*p == ')') close = p;
  if (!close) return -1;
  char state = 0;
  int parent = -1;
  if (std::sscanf(close + 1, " %c %d", &state, &parent) != 2) return -1;
  return parent;
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
    if (parent_of(entry->d_name) == self) children.insert(static_cast<pid_t>(pid));
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
  before_ = current_children();
}

OrphanSweep::~OrphanSweep() {
  sweep();
  if (--sweeps == 0) ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}

void OrphanSweep::reap_exited() {
  for (pid_t pid : current_children())
    if (!before_.count(pid)) ::waitpid(pid, nullptr, WNOHANG);
}

std::size_t OrphanSweep::sweep(std::chrono::milliseconds bound) {
  const auto deadline = std::chrono::steady_clock::now() + bound;
  std::set<pid_t> ended;
  // A killed orphan's own children are adopted in turn: sweep until none is left, or the bound.
  for (;;) {
    std::set<pid_t> found;
    for (pid_t pid : current_children())
      if (!before_.count(pid)) found.insert(pid);
    if (found.empty()) break;
    for (pid_t pid : found) {
      ::kill(pid, SIGKILL);
      int status = 0;
      const pid_t reaped = ::waitpid(pid, &status, WNOHANG);
      if (reaped == pid || (reaped < 0 && errno == ECHILD)) ended.insert(pid);
    }
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return ended.size();
}

}  // namespace mcp_hints
