#pragma once
// Descendants that outlive their parent — a client that double-forks, daemonizes or leaves its
// process group with setsid — escape the group a ChildProcess kills. While an OrphanSweep exists,
// this process is their subreaper (PR_SET_CHILD_SUBREAPER): they are adopted by us instead of
// init, so the sweep can end them.
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <set>

namespace mcp_hints {

class OrphanSweep {
 public:
  // Makes this process the subreaper (while any sweep exists) and notes the children it has now,
  // which the sweep leaves alone.
  OrphanSweep();
  ~OrphanSweep();  // sweeps
  OrphanSweep(const OrphanSweep&) = delete;
  OrphanSweep& operator=(const OrphanSweep&) = delete;

  // A child of ours the sweep leaves alone (one we started and reap ourselves).
  void leave(pid_t pid) { before_.insert(pid); }
  // Kills and reaps every child this process gained since the sweep began (adopted orphans, and
  // what they leave behind in turn), within `bound`; returns how many were still running (those
  // that had already exited are reaped, not counted).
  std::size_t sweep(std::chrono::milliseconds bound = std::chrono::seconds(2));

 private:
  std::set<pid_t> before_;
};

// The children of this process now (from /proc), zombies included.
std::set<pid_t> current_children();
// Whether the process exists and has not exited (a zombie, exited but not yet reaped, has).
bool process_running(pid_t pid);

}  // namespace mcp_hints
