// Runs one command as bench/compare.sh's run() needs it, and writes "WALL_SECONDS PEAK_RSS_KIB".
//   timed LIMIT_SECONDS TIME_FILE COMMAND [ARG...]
// The wall time runs from just before the fork to the reaping of the command, to the microsecond
// (GNU time's %e is cut to hundredths, too coarse for a run of a few tens of milliseconds); the
// peak RSS is the kernel's for the command and the processes it waited for, as GNU time reports
// it (from a process this small, so that its own size is no floor). The command runs in a process
// group of its own; past LIMIT_SECONDS the group is sent SIGTERM, and SIGKILL 5 s later, as
// `timeout -k 5` does. The exit status is then 124 (137 when it took SIGKILL), else the command's
// own (128 + N for signal N; 126 a command that cannot be run, 127 one not found). Without a
// figure (the command could not be started or reaped) TIME_FILE is left empty.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace {

double now_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

// Waits until `deadline` (now_seconds) for the child to end; true if it did. SIGCHLD is blocked,
// so it stays pending until taken here; a child that only stopped or went on is waited for still.
bool ended_by(pid_t pid, double deadline) {
  sigset_t child;
  sigemptyset(&child);
  sigaddset(&child, SIGCHLD);
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid)
      return true;
    const double left = deadline - now_seconds();
    if (left <= 0) return false;
    const timespec wait{static_cast<time_t>(left), static_cast<long>(std::fmod(left, 1.0) * 1e9)};
    if (::sigtimedwait(&child, nullptr, &wait) < 0 && errno != EINTR && errno != EAGAIN) return false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: timed LIMIT_SECONDS TIME_FILE COMMAND [ARG...]\n");
    return 2;
  }
  const double limit = std::strtod(argv[1], nullptr);
  if (std::FILE* out = std::fopen(argv[2], "w")) std::fclose(out);  // no figure until there is one
  ::signal(SIGCHLD, SIG_DFL);  // an inherited SIG_IGN would have the kernel reap the child unseen
  sigset_t child_set;
  sigemptyset(&child_set);
  sigaddset(&child_set, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &child_set, nullptr);
  const double start = now_seconds();
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::perror("timed: fork");
    return 1;
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    ::sigprocmask(SIG_UNBLOCK, &child_set, nullptr);
    ::execvp(argv[3], argv + 3);
    const int failed = errno;
    std::perror(argv[3]);
    _exit(failed == ENOENT ? 127 : 126);
  }
  ::setpgid(pid, pid);  // also here, so that the group exists before any signal is sent to it
  bool timed_out = false, killed = false;
  if (!ended_by(pid, start + limit)) {
    timed_out = true;
    ::kill(-pid, SIGTERM);
    if (!ended_by(pid, now_seconds() + 5)) {
      ::kill(-pid, SIGKILL);
      killed = true;
    }
  }
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) {
      std::perror("timed: wait4");
      return 1;
    }
  }
  const double wall = now_seconds() - start;
  if (timed_out) ::kill(-pid, SIGKILL);  // what the command left of its group
  if (std::FILE* out = std::fopen(argv[2], "w")) {
    std::fprintf(out, "%.6f %ld\n", wall, usage.ru_maxrss);
    std::fclose(out);
  }
  if (timed_out) return killed ? 137 : 124;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
