// Runs one command as bench/compare.sh's run() needs it, and writes "WALL_SECONDS PEAK_RSS_KIB".
//   timed LIMIT_SECONDS TIME_FILE COMMAND [ARG...]
// The wall time runs from just before the fork to the reaping of the command, to the microsecond
// (GNU time's %e is cut to hundredths, too coarse for a run of a few tens of milliseconds); the
// peak RSS is the kernel's for the command and the processes it waited for, as GNU time reports
// it (from a process this small, so that its own size is no floor). Past LIMIT_SECONDS the
// command is sent SIGTERM, and SIGKILL 5 s later, as `timeout -k 5` does; the exit status is then
// 124 (137 when it took SIGKILL), else the command's own (128 + N for signal N).
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

double seconds_since(const timespec& start) {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec - start.tv_sec) + static_cast<double>(now.tv_nsec - start.tv_nsec) / 1e9;
}

// Waits up to `seconds` for SIGCHLD (blocked, so it stays pending); true if it came.
bool child_ended_within(double seconds) {
  sigset_t child;
  sigemptyset(&child);
  sigaddset(&child, SIGCHLD);
  timespec wait{static_cast<time_t>(seconds), static_cast<long>(std::fmod(seconds, 1.0) * 1e9)};
  for (;;) {
    if (::sigtimedwait(&child, nullptr, &wait) == SIGCHLD) return true;
    if (errno != EINTR) return false;  // EAGAIN: the time is up
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: timed LIMIT_SECONDS TIME_FILE COMMAND [ARG...]\n");
    return 2;
  }
  const double limit = std::strtod(argv[1], nullptr);
  sigset_t child_set;
  sigemptyset(&child_set);
  sigaddset(&child_set, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &child_set, nullptr);
  timespec start{};
  ::clock_gettime(CLOCK_MONOTONIC, &start);
  const pid_t pid = ::fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    ::sigprocmask(SIG_UNBLOCK, &child_set, nullptr);
    ::execvp(argv[3], argv + 3);
    std::perror(argv[3]);
    _exit(127);
  }
  bool timed_out = false, killed = false;
  if (!child_ended_within(limit)) {
    timed_out = true;
    ::kill(pid, SIGTERM);
    if (!child_ended_within(5)) {
      ::kill(pid, SIGKILL);
      killed = true;
    }
  }
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0)
    if (errno != EINTR) return 1;
  const double wall = seconds_since(start);
  if (std::FILE* out = std::fopen(argv[2], "w")) {
    std::fprintf(out, "%.6f %ld\n", wall, usage.ru_maxrss);
    std::fclose(out);
  }
  if (timed_out) return killed ? 137 : 124;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
