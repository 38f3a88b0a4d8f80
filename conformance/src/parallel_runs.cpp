#include "mcp_hints/conformance/parallel_runs.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>

#include "mcp_hints/json/error.hpp"
#include "mcp_hints/wire/child_process.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

json wire_json(const WireLine& line) {
  return {{"server", line.server},
          {"connection", line.connection},
          {"session", line.session},
          {"direction", line.direction},
          {"time", line.time},
          {"message", line.message},
          {"event", line.event},
          {"raw", line.raw},
          {"authorization", line.authorization}};
}

WireLine wire_line(const json& j) {
  WireLine line;
  line.server = j.at("server");
  line.connection = j.at("connection");
  line.session = j.at("session");
  line.direction = j.at("direction");
  line.time = j.at("time");
  line.message = j.at("message");
  line.event = j.at("event");
  line.raw = j.at("raw");
  line.authorization = j.at("authorization");
  return line;
}

// A reply that is not a run: the Error (or bug) the worker's run threw, said again by the parent.
[[noreturn]] void throw_reply_error(const json& reply) {
  const std::string what = reply.at("error"), category = reply.at("category");
  if (category == "bad_input") throw Error(Error::Category::bad_input, what);
  if (category == "incomplete") throw Error(Error::Category::incomplete, what);
  throw std::runtime_error(what);
}

}  // namespace

std::vector<std::uint8_t> encode_run(const ScenarioRun& run) {
  json wire = json::array(), events = json::array();
  for (const auto& line : run.record.wire) wire.push_back(wire_json(line));
  for (const auto& e : run.record.events)
    events.push_back({{"type", e.type}, {"time", e.time}, {"data", e.data}, {"line", e.line}});
  json model = json::array();
  for (const auto& m : run.record.model)
    model.push_back({{"time", m.time},
                     {"conversation", m.conversation},
                     {"answer", m.answer},
                     {"server", m.server},
                     {"tool", m.tool},
                     {"notOffered", m.not_offered}});
  const json client = {{"started", run.client.started},         {"timed_out", run.client.timed_out},
                       {"exit_code", run.client.exit_code},     {"how", run.client.how},
                       {"stdout_tail", run.client.stdout_tail}, {"stderr_tail", run.client.stderr_tail}};
  return json::to_msgpack(json{{"run",
                                {{"client", client},
                                 {"notes", run.notes},
                                 {"could_not_run", run.could_not_run},
                                 {"folder", run.folder.string()},
                                 {"wire_files", run.wire_files},
                                 {"record",
                                  {{"wire", wire},
                                   {"events", events},
                                   {"model", model},
                                   {"model_served", run.record.model_served},
                                   {"notes", run.record.notes},
                                   {"events_unusable", run.record.events_unusable}}},
                                 {"context", run.context},
                                 {"seconds", run.seconds}}}});
}

ScenarioRun decode_run(const RunRequest& request, const std::vector<std::uint8_t>& bytes) {
  const json reply = json::from_msgpack(bytes);
  if (reply.contains("error")) throw_reply_error(reply);
  const json& r = reply.at("run");
  ScenarioRun run;
  run.scenario = mock::pinned_to(request.scenario, request.options.protocol);
  run.transport = request.options.transport;
  run.protocol = request.options.protocol;
  const json& client = r.at("client");
  run.client.started = client.at("started");
  run.client.timed_out = client.at("timed_out");
  run.client.exit_code = client.at("exit_code");
  run.client.how = client.at("how");
  run.client.stdout_tail = client.at("stdout_tail");
  run.client.stderr_tail = client.at("stderr_tail");
  run.notes = r.at("notes").get<std::vector<std::string>>();
  run.could_not_run = r.at("could_not_run");
  run.folder = r.at("folder").get<std::string>();
  run.wire_files = r.at("wire_files").get<std::map<std::string, std::string>>();
  const json& record = r.at("record");
  for (const auto& line : record.at("wire")) run.record.wire.push_back(wire_line(line));
  for (const auto& e : record.at("events"))
    run.record.events.push_back({e.at("type"), e.at("time"), e.at("data"), e.at("line")});
  for (const auto& m : record.at("model"))
    run.record.model.push_back({m.at("time"), m.at("conversation"), m.at("answer"), m.at("server"), m.at("tool"),
                                m.at("notOffered").get<std::vector<std::pair<std::string, std::string>>>()});
  run.record.model_served = record.at("model_served");
  run.record.notes = record.at("notes").get<std::vector<std::string>>();
  run.record.events_unusable = record.at("events_unusable");
  run.record.index();
  run.context = r.at("context");
  run.seconds = r.at("seconds");
  return run;
}

namespace {

using Clock = std::chrono::steady_clock;

// A worker's exit status when its run was made but its reply could not be written (the work
// folder went away, the disk is full): the parent says so rather than blame the client.
constexpr int kReplyNotWritten = 4;

// The worker's whole life: one run, its reply written to `reply_file`. Never returns to the
// caller's code: the parent's buffers and destructors are the parent's business (_exit).
[[noreturn]] void be_worker(const RunRequest& request, const fs::path& reply_file) {
  int code = 0;
  try {
    std::vector<std::uint8_t> bytes;
    try {
      bytes = encode_run(perform_scenario(request.scenario, request.options));
    } catch (const Error& e) {
      bytes = json::to_msgpack(
          {{"error", e.what()}, {"category", e.category() == Error::Category::bad_input ? "bad_input" : "incomplete"}});
    } catch (const std::exception& e) {
      bytes = json::to_msgpack({{"error", e.what()}, {"category", "internal"}});
    }
    std::ofstream out(reply_file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) code = kReplyNotWritten;
  } catch (...) {
    code = kReplyNotWritten;
  }
  ::_exit(code);
}

struct Worker {
  pid_t pid = -1;
  int pidfd = -1;  // readable when the worker has ended; -1 where the kernel has no pidfd_open
  std::size_t index = 0;
  Clock::time_point started, bound;
  fs::path reply_file;
};

// Ends every worker still running (the runs they were doing are abandoned), reaped.
void stop_all(std::vector<Worker>& running) {
  for (auto& w : running) {
    ::kill(w.pid, SIGKILL);
    while (::waitpid(w.pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    if (w.pidfd >= 0) ::close(w.pidfd);
    std::error_code ec;
    fs::remove(w.reply_file, ec);
  }
  running.clear();
}

// The run of a worker that left no usable reply: it could not run, and the notes say why.
ScenarioRun lost_run(const RunRequest& request, const std::string& why, double seconds) {
  ScenarioRun run;
  run.scenario = mock::pinned_to(request.scenario, request.options.protocol);
  run.transport = request.options.transport;
  run.protocol = request.options.protocol;
  run.could_not_run = true;
  run.folder = request.options.work_dir / run.run_id();
  run.seconds = seconds;
  run.notes.push_back("the run's worker process " + why + " before the run was judged");
  return run;
}

// The reply a worker left, or nothing where there is no file to read (something else stands there).
std::optional<std::vector<std::uint8_t>> read_reply(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return bytes;
}

}  // namespace

std::vector<ScenarioRun> run_scenarios(const std::vector<RunRequest>& requests, std::size_t jobs,
                                       const RunWatch& watch) {
  jobs = std::max<std::size_t>(jobs, 1);
  std::vector<std::optional<ScenarioRun>> results(requests.size());
  std::vector<std::exception_ptr> errors(requests.size());
  std::vector<Worker> running;
  // After a run throws, only runs before it in the requests' order are still made: the first error
  // in that order is the one said, as a run after it would not have been made one by one.
  std::size_t first_error = requests.size();
  // The runs that wait longest start first, so that none of them is left to the end alone; the
  // results keep the requests' order. A run whose script waits (a slow call, a Retry-After, a
  // listing's ttlMs) sleeps through it: it takes a place of its own, not one of the `jobs` the
  // runs that keep a core busy share.
  std::vector<std::size_t> order(requests.size());
  std::vector<double> waits(requests.size());
  std::vector<bool> sleeps(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    order[i] = i;
    waits[i] = mock::scripted_wait_ms(requests[i].scenario);
    sleeps[i] = run_sleeps(waits[i]);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return waits[a] > waits[b]; });
  std::vector<bool> begun(requests.size(), false);
  // The next run in `order` not yet begun that may begin now: a sleeping one while there is a
  // sleeping place, any other (or any, without such places) while fewer than `jobs` of those run.
  const std::size_t sleeping_room = sleeping_places(jobs);
  if (sleeping_room == 0) std::fill(sleeps.begin(), sleeps.end(), false);
  const auto next_to_begin = [&]() -> std::optional<std::size_t> {
    std::size_t sleeping = 0;
    for (const auto& w : running) sleeping += sleeps[w.index] ? 1 : 0;
    const bool room_to_sleep = sleeping < sleeping_room, room_to_work = running.size() - sleeping < jobs;
    for (const std::size_t index : order)
      if (!begun[index] && index <= first_error && (sleeps[index] ? room_to_sleep : room_to_work)) return index;
    return std::nullopt;
  };
  const pid_t parent = ::getpid();
  try {
    for (;;) {
      for (auto index = next_to_begin(); index; index = next_to_begin()) {
        begun[*index] = true;
        Worker w;
        w.index = *index;
        const RunRequest& request = requests[w.index];
        fs::create_directories(request.options.work_dir);
        w.reply_file = request.options.work_dir / (".worker-" + std::to_string(parent) + "-" + std::to_string(w.index));
        std::cout.flush();  // nothing buffered is written twice, by the worker too
        std::cerr.flush();
        w.pid = ::fork();
        if (w.pid < 0)
          throw Error(Error::Category::incomplete,
                      std::string("cannot start a run's worker process: ") + std::strerror(errno));
        if (w.pid == 0) {
          // A worker dies with certify (killed or crashed), and its run's processes with it, as
          // they did when runs were made in certify itself: nothing outlives the command.
          ::prctl(PR_SET_PDEATHSIG, SIGKILL);
          if (::getppid() != parent) ::_exit(3);
          be_worker(request, w.reply_file);
        }
        w.pidfd = static_cast<int>(::syscall(SYS_pidfd_open, w.pid, 0));
        w.started = Clock::now();
        w.bound = w.started + request.options.timeout + std::chrono::minutes(1);
        running.push_back(w);
        if (watch.started) watch.started(w.index);
      }
      if (running.empty()) break;  // every run is made, or the rest come after an error
      // Wait until a worker ends (or, without pidfds, a short while), then collect every one that has.
      std::vector<pollfd> fds;
      bool all_pidfds = true;
      for (const auto& w : running) {
        if (w.pidfd >= 0)
          fds.push_back({w.pidfd, POLLIN, 0});
        else
          all_pidfds = false;
      }
      const auto soonest = std::min_element(running.begin(), running.end(),
                                            [](const Worker& a, const Worker& b) { return a.bound < b.bound; });
      auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(soonest->bound - Clock::now()).count() + 1;
      if (!all_pidfds) wait = std::min<long long>(wait, 2);
      ::poll(fds.data(), fds.size(), static_cast<int>(std::clamp<long long>(wait, 0, 60000)));
      for (auto it = running.begin(); it != running.end();) {
        int status = 0;
        pid_t done = ::waitpid(it->pid, &status, WNOHANG);
        std::string why;
        if (done == 0 && Clock::now() >= it->bound) {
          ::kill(it->pid, SIGKILL);
          while ((done = ::waitpid(it->pid, &status, 0)) < 0 && errno == EINTR) {
          }
          why = "did not end within the run's bound and was killed";
        }
        if (done == 0 || (done < 0 && errno == EINTR)) {
          ++it;
          continue;
        }
        const std::size_t index = it->index;
        const fs::path reply_file = it->reply_file;
        const double seconds = std::chrono::duration<double>(Clock::now() - it->started).count();
        const auto bytes = why.empty() ? read_reply(it->reply_file) : std::nullopt;
        std::error_code ec;
        fs::remove(it->reply_file, ec);
        if (it->pidfd >= 0) ::close(it->pidfd);
        it = running.erase(it);
        if (why.empty() && (done < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !bytes)) {
          if (done < 0)
            why = "could not be waited for";
          else if (WIFEXITED(status) && WEXITSTATUS(status) == kReplyNotWritten)
            why = "could not write its reply to " + reply_file.string();
          else
            why = describe_wait_status(status) + " (did the client kill it?)";
        }
        if (!why.empty()) {
          results[index] = lost_run(requests[index], why, seconds);
        } else {
          try {
            results[index] = decode_run(requests[index], *bytes);
            judge_run(*results[index], requests[index].scenario);
          } catch (...) {
            errors[index] = std::current_exception();
            first_error = std::min(first_error, index);
            continue;
          }
        }
        if (watch.ended) watch.ended(index, *results[index]);
      }
    }
  } catch (...) {
    stop_all(running);
    throw;
  }
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
  std::vector<ScenarioRun> runs;
  runs.reserve(results.size());
  for (auto& r : results) runs.push_back(std::move(*r));
  return runs;
}

}  // namespace mcp_hints::conformance
