// Boost.Process starts the child (PATH search, environment, vfork and exec); the pipes, the
// process group and the parent-death signal are set up here so every descriptor is ours.
#include <utility>  // before Boost headers in C++20
// Boost.Process 1.74 compiles its vfork launcher only where the system declares POSIX 2001 and not
// 2008 (which dropped vfork); glibc still has it (unistd.h, under _GNU_SOURCE).
#define BOOST_POSIX_HAS_VFORK 1

#include "mcp_hints/wire/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pthread.h>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>

#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/posix.hpp>
#include <boost/process/search_path.hpp>

namespace bp = boost::process;

namespace mcp_hints {
namespace {

struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw ProcessError(std::string("cannot create a pipe: ") + std::strerror(errno));
    read = fds[0];
    write = fds[1];
  }
};

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// write(2) to a pipe whose reader is gone raises SIGPIPE, which would end whatever program uses
// this library: block it for this thread during the write and consume it if it came.
ssize_t write_without_sigpipe(int fd, const char* data, std::size_t n) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  const ssize_t written = ::write(fd, data, n);
  const int saved = errno;
  if (written < 0 && saved == EPIPE) {
    const timespec zero{0, 0};
    sigtimedwait(&pipe_set, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = saved;
  return written;
}

int milliseconds_until(Deadline deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1 << 30));
}

std::string_view entry_name(std::string_view entry) { return entry.substr(0, entry.find('=')); }

}  // namespace

std::vector<std::string> child_environment(const char* const* base,
                                           const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::vector<std::string> env;
  std::vector<bool> used(overrides.size(), false);
  // The override that wins for a name: the last one given.
  auto winner = [&](std::string_view name) -> std::optional<std::size_t> {
    for (std::size_t i = overrides.size(); i-- > 0;)
      if (overrides[i].first == name) return i;
    return std::nullopt;
  };
  for (const char* const* p = base; p != nullptr && *p != nullptr; ++p) {
    const std::string_view entry = *p;
    const auto i = winner(entry_name(entry));
    if (!i) {
      env.emplace_back(entry);
    } else if (!used[*i]) {
      used[*i] = true;
      env.push_back(overrides[*i].first + "=" + overrides[*i].second);
    }  // a second entry of an overridden name is dropped
  }
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    const auto w = winner(overrides[i].first);
    if (*w == i && !used[i]) {
      used[i] = true;
      env.push_back(overrides[i].first + "=" + overrides[i].second);
    }
  }
  return env;
}

struct ChildProcess::Impl {
  bp::child child;
  pid_t pid = -1;
  int in = -1, out = -1, err = -1;
  std::size_t stderr_limit = 0;
  std::string stderr_tail;
  bool reaped = false;
  int status = 0;

  void keep_stderr(const char* data, std::size_t n) {
    stderr_tail.append(data, n);
    if (stderr_tail.size() > stderr_limit) stderr_tail.erase(0, stderr_tail.size() - stderr_limit);
  }

  void drain_stderr() {
    char buffer[8192];
    while (err >= 0) {
      const ssize_t n = ::read(err, buffer, sizeof buffer);
      if (n > 0) {
        keep_stderr(buffer, static_cast<std::size_t>(n));
      } else if (n == 0) {
        close_fd(err);
      } else {
        if (errno != EAGAIN && errno != EINTR) close_fd(err);
        return;
      }
    }
  }

  void reap(bool wait) {
    if (reaped || pid <= 0) return;
    int st = 0;
    const pid_t r = ::waitpid(pid, &st, wait ? 0 : WNOHANG);
    if (r == pid) {
      reaped = true;
      status = st;
    }
  }
};

std::optional<std::vector<std::string>> direct_argv(std::string_view command) {
  const auto plain = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_-./:,+@%=").find(c) != std::string_view::npos;
  };
  std::vector<std::string> words;
  bool in_word = false, first_has_assignment = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if (c == ' ' || c == '\t') {
      in_word = false;
      continue;
    }
    if (!in_word) words.emplace_back();
    in_word = true;
    std::string& word = words.back();
    if (c == '\'') {
      const auto close = command.find('\'', i + 1);
      if (close == std::string_view::npos) return std::nullopt;
      word.append(command.substr(i + 1, close - i - 1));
      i = close;
    } else if (c == '\\') {
      if (i + 1 == command.size() || command[i + 1] == '\n') return std::nullopt;
      word += command[++i];
    } else if (plain(c)) {
      word += c;
      // Unquoted: `NAME=value` first would be an assignment, not the command.
      if (words.size() == 1 && c == '=') first_has_assignment = true;
    } else {
      return std::nullopt;
    }
  }
  if (words.empty() || words[0].find('/') == std::string::npos || first_has_assignment) return std::nullopt;
  // A file that is there and starts as neither a program nor a #! script, sh runs as a script.
  // (Not blocking: a FIFO named as the command has nothing to read, and goes to the shell.)
  if (const int fd = ::open(words[0].c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK); fd >= 0) {
    char head[4] = {};
    const ssize_t n = ::read(fd, head, sizeof head);
    ::close(fd);
    const std::string_view start(head, n > 0 ? static_cast<std::size_t>(n) : 0);
    if (!start.starts_with("#!") && start != std::string_view("\x7f"
                                                              "ELF",
                                                              4))
      return std::nullopt;
  }
  return words;
}

ChildProcess::ChildProcess(const ProcessOptions& options) : impl_(std::make_unique<Impl>()) {
  if (options.argv.empty()) throw ProcessError("no command given");
  impl_->stderr_limit = options.stderr_limit;
  boost::filesystem::path exe = options.argv[0];
  if (!options.working_dir.empty()) {
    std::error_code dir_error;
    if (!std::filesystem::is_directory(options.working_dir, dir_error))
      throw ProcessError("cannot start " + options.argv[0] + ": working directory " + options.working_dir +
                         " is not a directory");
    if (exe.is_relative() && options.argv[0].find('/') != std::string::npos)
      exe = boost::filesystem::path(options.working_dir) / exe;
  }
  if (options.argv[0].find('/') == std::string::npos) {
    exe = bp::search_path(options.argv[0]);
    if (exe.empty()) throw ProcessError("command not found: " + options.argv[0]);
  } else if (::access(exe.c_str(), X_OK) != 0) {
    throw ProcessError("cannot run " + options.argv[0] + ": " + std::strerror(errno));
  }
  Pipe in, out, err;
  // A server's answer can be megabytes (a catalog's tools/list): a pipe that holds 1 MiB (the
  // kernel's default most) lets it arrive in a few reads, not one wake-up per 64 KiB. Where the
  // kernel refuses, the default stands.
  ::fcntl(out.read, F_SETPIPE_SZ, 1 << 20);
  // The child's environment is built here and handed to execve directly: Boost 1.74's
  // environment lookup (basic_environment_impl::find) reads past the end of shorter entries.
  const std::vector<std::string> env = child_environment(environ, options.env);
  std::vector<char*> envp;
  envp.reserve(env.size() + 1);
  for (const auto& entry : env) envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);
  char** const child_envp = envp.data();
  const int child_in = in.read, child_out = out.write, child_err = err.write;
  const char* const child_dir = options.working_dir.empty() ? nullptr : options.working_dir.c_str();
  // Runs in the child between vfork and exec, on this thread's stack and memory: only system
  // calls, nothing that allocates or takes a lock (Boost itself writes back only an error code and
  // a short message when exec fails). vfork, unlike fork, copies no page table of this process,
  // which every child would otherwise pay for: certify starts hundreds.
  auto setup = [=](auto&) {
    // The folder was found above; one removed since leaves the child where we are, as exec would.
    if (child_dir) (void)::chdir(child_dir);
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // we die, it dies (the group is killed by us otherwise)
    ::signal(SIGPIPE, SIG_DFL);
    ::dup2(child_in, 0);
    ::dup2(child_out, 1);
    ::dup2(child_err, 2);
  };
  std::error_code ec;
  impl_->child = bp::child(
      bp::exe = exe, bp::args = std::vector<std::string>(options.argv.begin() + 1, options.argv.end()),
      bp::extend::on_setup = [child_envp](auto& exec) { exec.env = child_envp; }, bp::extend::on_exec_setup = setup,
      // A child whose exec failed exits: reaped here, or it would stay our zombie (Boost leaves it).
      bp::extend::on_error =
          [](auto& exec, const std::error_code&) {
            if (exec.pid > 0) ::waitpid(exec.pid, nullptr, 0);
          },
      bp::posix::use_vfork, ec);
  ::close(in.read);
  ::close(out.write);
  ::close(err.write);
  if (ec) {
    ::close(in.write);
    ::close(out.read);
    ::close(err.read);
    throw ProcessError("cannot start " + options.argv[0] + ": " + ec.message());
  }
  impl_->pid = impl_->child.id();
  // Also from here, in case the child has not run setpgid yet when we first signal the group.
  ::setpgid(impl_->pid, impl_->pid);
  impl_->child.detach();  // we reap it ourselves with waitpid
  impl_->in = in.write;
  impl_->out = out.read;
  impl_->err = err.read;
  for (int fd : {impl_->in, impl_->out, impl_->err}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

ChildProcess::~ChildProcess() { kill_group(); }

pid_t ChildProcess::pid() const { return impl_->pid; }

bool ChildProcess::write(std::string_view data, Deadline deadline) {
  while (!data.empty()) {
    if (impl_->in < 0) return false;
    const ssize_t n = write_without_sigpipe(impl_->in, data.data(), data.size());
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
      close_fd(impl_->in);  // EPIPE: the child closed its stdin or exited
      return false;
    }
    pollfd fds[2] = {{impl_->in, POLLOUT, 0}, {impl_->err, POLLIN, 0}};
    const int waited = ::poll(fds, impl_->err >= 0 ? 2 : 1, milliseconds_until(deadline));
    if (waited == 0) return false;
    if (fds[1].revents) impl_->drain_stderr();
  }
  return true;
}

ChildProcess::ReadStatus ChildProcess::read(std::string& out, std::size_t max, Deadline deadline) {
  char buffer[65536];
  for (;;) {
    if (impl_->out < 0) return ReadStatus::eof;
    const ssize_t n = ::read(impl_->out, buffer, std::min(sizeof buffer, max));
    if (n > 0) {
      out.append(buffer, static_cast<std::size_t>(n));
      return ReadStatus::data;
    }
    if (n == 0) {
      close_fd(impl_->out);
      impl_->drain_stderr();
      return ReadStatus::eof;
    }
    if (errno != EAGAIN && errno != EINTR) {
      close_fd(impl_->out);
      return ReadStatus::eof;
    }
    pollfd fds[2] = {{impl_->out, POLLIN, 0}, {impl_->err, POLLIN, 0}};
    const int waited = ::poll(fds, impl_->err >= 0 ? 2 : 1, milliseconds_until(deadline));
    if (waited == 0) return ReadStatus::timeout;
    if (waited > 0 && fds[1].revents) impl_->drain_stderr();
  }
}

std::string ChildProcess::stderr_log() {
  impl_->drain_stderr();
  return impl_->stderr_tail;
}

bool ChildProcess::exited() {
  impl_->reap(false);
  return impl_->reaped;
}

bool ChildProcess::wait(Deadline deadline) {
  // No portable way to wait for a child with a timeout: poll reaping, 1 ms apart.
  while (!exited()) {
    if (Clock::now() >= deadline) return false;
    ::usleep(1000);
  }
  return true;
}

int ChildProcess::exit_code() {
  impl_->reap(false);
  if (!impl_->reaped) return -1;
  const int st = impl_->status;
  return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

std::string ChildProcess::describe_exit() {
  impl_->reap(false);
  if (!impl_->reaped) return "running";
  return describe_wait_status(impl_->status);
}

std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status))
    return "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")";
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

void ChildProcess::begin_kill_group() {
  if (impl_->pid > 0) {
    ::kill(-impl_->pid, SIGKILL);                     // what it left running in its group too, after it has gone
    if (!impl_->reaped) ::kill(impl_->pid, SIGKILL);  // in case it left its group (once reaped, the pid is free)
  }
}

void ChildProcess::kill_group() {
  if (impl_->pid > 0) {
    begin_kill_group();
    impl_->reap(true);
  }
  impl_->drain_stderr();
  close_fd(impl_->in);
  close_fd(impl_->out);
  close_fd(impl_->err);
}

bool process_group_gone(pid_t group) {
  // kill with signal 0 tests for any member; zombies count until reaped by their parent, so
  // wait a little for init to reap orphans.
  for (int i = 0; i < 200; ++i) {
    while (::waitpid(-group, nullptr, WNOHANG) > 0) {
    }  // members adopted by us (a subreaper) are reaped here
    if (::kill(-group, 0) != 0 && errno == ESRCH) return true;
    ::usleep(10 * 1000);
  }
  return false;
}

}  // namespace mcp_hints
