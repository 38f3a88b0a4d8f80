#include "mcp_hints/conformance/client_harness.hpp"

#include <signal.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "mcp_hints/conformance/coverage.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/mock/model_endpoint.hpp"
#include "mcp_hints/mock/recorder.hpp"
#include "mcp_hints/wire/child_process.hpp"
#include "mcp_hints/wire/orphans.hpp"
#include "mcp_hints/wire/protocol.hpp"
#include "mcp_hints/wire/transport.hpp"
#include "semantics.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;
namespace fs = std::filesystem;

std::string shell_quote(const std::string& argument) {
  std::string out = "'";
  for (char c : argument) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

Verdict ScenarioRun::verdict() const {
  if (could_not_run) return Verdict::not_testable;
  Verdict worst = Verdict::pass;
  bool has_own = false, own_applied = false;
  for (const auto& c : checks) {
    const bool own = !is_implicit_kind(c.spec.kind);
    has_own = has_own || own;
    const Verdict v = c.expected_failure && is_failure(c.verdict) ? Verdict::info : c.verdict;
    if (v == Verdict::not_applicable) continue;
    own_applied = own_applied || own;
    if (static_cast<int>(v) > static_cast<int>(worst)) worst = v;
  }
  // A run that judged none of what its scenario was written for is no pass of it: the checks certify
  // adds to every run still show what they hold against the client, their passes do not.
  if (has_own && !own_applied && (worst == Verdict::pass || worst == Verdict::info)) return Verdict::not_applicable;
  return worst;
}

std::string ScenarioRun::run_id() const { return protocol.empty() ? scenario.id : scenario.id + "@" + protocol; }

namespace {

constexpr std::size_t kTail = std::size_t{16} * 1024;

void keep_tail(std::string& text) {
  if (text.size() > kTail) text.erase(0, text.size() - kTail);
}

// `scenario_file` holds the very document judged (written into the run's folder), so the mock
// servers serve what the judge reads whether the scenario came from a file, the built-in set, or
// was made in memory.
std::vector<std::string> mock_argv(const HarnessOptions& options, const std::string& scenario_file,
                                   const std::string& server, const std::string& record) {
  std::vector<std::string> argv = options.mock_command;
  argv.insert(argv.end(), {"--scenario", scenario_file});
  argv.insert(argv.end(), {"--server", server, "--record", record, "--transport", options.transport});
  return argv;
}

// A stdio mock server records "open" and, when its client goes, "close ...", unless the client
// killed it. Wait (bounded) until each connection "stdio:PID" has closed or its process is gone,
// so the record is whole before it is judged.
void wait_for_stdio_records(const std::map<std::string, std::string>& files, Deadline deadline) {
  for (;;) {
    bool settled = true;
    for (const auto& [server, path] : files) {
      std::ifstream in(path);
      std::map<std::string, bool> open;  // connection -> still open
      for (std::string text; std::getline(in, text);) {
        if (text.find("\"event\"") == std::string::npos) continue;  // only opens and closes matter here
        nlohmann::json line;
        try {
          line = parse_json_document(text).value;
        } catch (const InputError&) {
          continue;
        }
        if (!line.is_object() || !line.contains("event") || !line["event"].is_string()) continue;
        const std::string event = line["event"], connection = line.value("connection", "");
        if (event == "open")
          open[connection] = true;
        else if (event.rfind("close", 0) == 0)
          open[connection] = false;
      }
      for (const auto& [connection, still] : open) {
        if (!still || connection.rfind("stdio:", 0) != 0) continue;
        const pid_t pid = static_cast<pid_t>(std::atol(connection.c_str() + 6));
        // An exited mock may linger as a zombie of ours (we adopt what the client leaves): gone.
        if (pid > 0 && process_running(pid)) settled = false;
      }
    }
    if (settled || Clock::now() >= deadline) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace

std::vector<mock::Scenario> certification_scenarios() {
  // Built once: they come from compiled-in data, and generating them validates each against the
  // scenario schema (a tenth of a second and more).
  static const std::vector<mock::Scenario> scenarios = [] {
    std::vector<mock::Scenario> out = generated_scenarios();
    for (const auto& id : mock::builtin_scenario_ids()) {
      auto scenario = mock::load_scenario(id);
      if (scenario.document.contains("expect")) out.push_back(std::move(scenario));
    }
    std::sort(out.begin(), out.end(), [](const mock::Scenario& a, const mock::Scenario& b) { return a.id < b.id; });
    return out;
  }();
  return scenarios;
}

mock::Scenario load_certification_scenario(const std::string& file_or_id) {
  for (const auto& scenario : generated_scenarios())
    if (scenario.id == file_or_id) return scenario;
  return mock::load_scenario(file_or_id);
}

std::vector<std::string> scenario_eras(const mock::Scenario& scenario) {
  if (!scenario.eras.empty()) return scenario.eras;
  return {to_string(ProtocolEra::legacy), to_string(ProtocolEra::stateless)};
}

bool applies_under(const mock::Scenario& scenario, const std::string& protocol) {
  return protocol.empty() || scenario.applies_to_era(to_string(is_stateless_revision(protocol) ? ProtocolEra::stateless
                                                                                               : ProtocolEra::legacy));
}

std::vector<CheckSpec> run_checks(const mock::Scenario& scenario, const mock::Scenario& served,
                                  const std::string& transport, const std::string& protocol) {
  auto checks = read_checks(scenario);
  checks.push_back(client_messages_check(served));
  if (transport == "http" &&
      (protocol.empty() ? served.applies_to_era(to_string(ProtocolEra::stateless)) : is_stateless_revision(protocol)))
    checks.push_back(client_headers_check());
  return checks;
}

ScenarioRun run_scenario(const mock::Scenario& scenario, const HarnessOptions& options) {
  ScenarioRun run = perform_scenario(scenario, options);
  judge_run(run, scenario);
  return run;
}

std::string era_not_spoken(const RunRecord& record, const std::string& protocol) {
  if (protocol.empty()) return {};
  bool initialize = false, stateless = false;
  for (const auto& line : record.wire) {
    // A request refused at the HTTP level before its body was read (a wrong Accept or
    // Content-Type) says nothing of its era: the run is judged.
    if (line.event.rfind("refused", 0) == 0 && !record.is_request_in(line)) return {};
    if (!record.is_request_in(line)) continue;
    const json* method = find_member(line.message, {"method"});
    if (method && *method == "initialize") {
      // An initialize that asks for a revision of the stateless era is an attempt at that era.
      const json* version = find_member(line.message, {"params", "protocolVersion"});
      (version && version->is_string() && is_stateless_revision(version->get<std::string>()) ? stateless : initialize) =
          true;
      continue;
    }
    const json* meta = find_member(line.message, {"params", "_meta"});
    if ((method && *method == "server/discover") || (meta && meta->is_object() && meta->contains(kProtocolVersionMeta)))
      stateless = true;
  }
  if (is_stateless_revision(protocol))
    return initialize && !stateless ? "the client sent initialize to servers of the stateless era (" + protocol +
                                          ") and no request of that era: it speaks the session era only"
                                    : std::string();
  return stateless && !initialize
             ? "the client sent only requests of the stateless era (server/discover, or the protocol version in "
               "_meta) to servers of the session era (" +
                   protocol + ") and never initialize: it speaks the stateless era only"
             : std::string();
}

std::set<std::string> unspoken_protocols(const std::vector<ScenarioRun>& runs) {
  std::map<std::string, bool> unspoken;  // by protocol: every run so far unspoken
  for (const auto& run : runs) {
    // A run whose client sent no request at all (it could not reach a server that wanted a
    // credential, say) says nothing of the era it speaks: the other runs decide.
    const bool sent_nothing =
        std::ranges::none_of(run.record.wire, [&](const WireLine& line) { return run.record.is_request_in(line); });
    if (run.era_not_spoken.empty() && !run.could_not_run && sent_nothing) continue;
    const bool this_one = !run.era_not_spoken.empty() && !run.could_not_run;
    const auto [it, added] = unspoken.emplace(run.protocol, this_one);
    if (!added) it->second = it->second && this_one;
  }
  std::set<std::string> out;
  for (const auto& [protocol, all] : unspoken)
    if (all) out.insert(protocol);
  return out;
}

void judge_run(ScenarioRun& run, const mock::Scenario& scenario) {
  const auto started = Clock::now();
  if (!run.could_not_run) {
    run.era_not_spoken = era_not_spoken(run.record, run.protocol);
    for (const auto& check : run_checks(scenario, run.scenario, run.transport, run.protocol))
      run.checks.push_back(judge_check(check, run.record, run.transport));
  }
  run.seconds += std::chrono::duration<double>(Clock::now() - started).count();
}

ScenarioRun perform_scenario(const mock::Scenario& scenario, const HarnessOptions& options) {
  if (!applies_under(scenario, options.protocol))
    throw mock::ScenarioError(scenario.source + ": applies to the " + join(scenario_eras(scenario), " and ") +
                              " era only, not to " + options.protocol);
  const auto started = Clock::now();
  ScenarioRun run;
  run.scenario = mock::pinned_to(scenario, options.protocol);
  run.transport = options.transport;
  run.protocol = options.protocol;
  run.folder = options.work_dir / run.run_id();
  std::error_code ec;
  fs::remove_all(run.folder, ec);
  fs::create_directories(run.folder);
  const std::string events = (run.folder / "events.jsonl").string();
  std::ofstream(events).flush();  // exists and empty, so a client may open it for appending
  const std::string scenario_file = fs::absolute(run.folder / "scenario.json").string();
  std::ofstream(scenario_file) << run.scenario.document.dump(2) << "\n";

  // Whatever the client leaves behind outside its process group is adopted, and ended, here.
  OrphanSweep orphans;
  // The mock servers: the client starts them (stdio), or we do and give it their URLs (HTTP).
  json servers = json::object();
  std::vector<std::unique_ptr<ChildProcess>> mocks;
  std::string first_url, first_command;
  for (const auto& [key, spec] : scenario.servers) {
    const std::string record = (run.folder / ("wire-" + key + ".jsonl")).string();
    run.wire_files[key] = record;
    const auto argv = mock_argv(options, scenario_file, key, record);
    if (options.transport == "stdio") {
      std::string command;
      for (const auto& a : argv) {
        if (!command.empty()) command += ' ';
        command += shell_quote(a);
      }
      servers[key] = {{"command", command}};
      if (first_command.empty()) first_command = command;
      continue;
    }
    try {
      ProcessOptions process;
      process.argv = argv;
      auto child = std::make_unique<ChildProcess>(process);
      orphans.leave(child->pid());
      std::string out;
      const Deadline ready = Clock::now() + std::chrono::seconds(10);
      while (out.find('\n') == std::string::npos && child->read(out, 4096, ready) == ChildProcess::ReadStatus::data) {
      }
      const std::string url = out.substr(0, out.find('\n'));
      if (url.rfind("http://", 0) != 0) {
        run.could_not_run = true;
        run.notes.push_back("the mock server " + key + " did not start: " + child->stderr_log().substr(0, 500));
        return run;
      }
      servers[key] = {{"url", url}};
      if (first_url.empty()) first_url = url;
      mocks.push_back(std::move(child));
    } catch (const ProcessError& e) {
      run.could_not_run = true;
      run.notes.push_back(std::string("the mock server could not be started: ") + e.what());
      return run;
    }
  }

  const json& doc = scenario.document;
  run.context = {{"scenario", scenario.id},
                 {"transport", options.transport},
                 {"servers", servers},
                 {"task", doc.value("task", json::array())},
                 {"user", doc.value("user", json::object())},
                 {"trustLevel", semantics::scenario_trust_level(scenario)},
                 {"events", events}};
  if (!run.protocol.empty()) run.context["protocolVersion"] = run.protocol;
  if (doc.contains("authorizations")) run.context["authorizations"] = doc["authorizations"];
  if (const json* timeout = find_member(doc, {"client", "requestTimeoutMs"}))
    run.context["requestTimeoutMs"] = *timeout;
  // A real host's model: served here for the client's lifetime, one base URL per conversation.
  std::optional<mock::ScriptedModel> model;
  std::optional<HttpServer> model_server;
  if (options.scripted_model) {
    const auto conversations = mock::model_conversations(scenario);
    model.emplace(conversations, run.folder / "model.jsonl");
    model_server.emplace([&model](const HttpRequestView& req) { return model->handle(req); });
    try {
      model_server->listen("127.0.0.1", 0, "/*");
    } catch (const TransportError& e) {
      run.could_not_run = true;
      run.notes.push_back(std::string("the scripted model endpoint could not be started: ") + e.what());
      return run;
    }
    json urls = json::array();
    for (std::size_t i = 1; i <= conversations.size(); ++i)
      urls.push_back(model_server->url() + "/c/" + std::to_string(i));
    run.context["model"] = {{"url", model_server->url()}, {"conversations", urls}};
  }
  std::ofstream(run.folder / "context.json") << run.context.dump(2) << "\n";

  ProcessOptions client;
  // The URL goes last, as in the official conformance suite: sh appends "$@" to the command. A
  // command of plain words is started without the shell.
  if (auto words = direct_argv(options.client_command))
    client.argv = std::move(*words);
  else
    client.argv = {"/bin/sh", "-c", options.client_command + " \"$@\"", "sh"};
  if (options.transport == "http") client.argv.push_back(first_url);
  client.env = {{"MCP_CONFORMANCE_SCENARIO", scenario.id}, {"MCP_CONFORMANCE_CONTEXT", run.context.dump()}};
  if (options.transport == "stdio") client.env.emplace_back("MCP_HINTS_SERVER_COMMAND", first_command);
  // As the official conformance suite tells a client the revision under test.
  if (!run.protocol.empty()) client.env.emplace_back("MCP_CONFORMANCE_PROTOCOL_VERSION", run.protocol);
  const Deadline deadline = Clock::now() + options.timeout;
  const double client_started = mock::unix_seconds();
  try {
    ChildProcess process(client);
    orphans.leave(process.pid());
    run.client.started = true;
    for (;;) {
      const auto status = process.read(run.client.stdout_tail, 65536, deadline);
      keep_tail(run.client.stdout_tail);
      if (status == ChildProcess::ReadStatus::eof) break;
      if (status == ChildProcess::ReadStatus::timeout) {
        run.client.timed_out = true;
        break;
      }
    }
    if (!run.client.timed_out && !process.wait(deadline)) run.client.timed_out = true;
    if (run.client.timed_out) {
      process.kill_group();
      run.notes.push_back("the client did not finish within " + std::to_string(options.timeout.count()) +
                          " ms and was killed");
    }
    run.client.how = process.describe_exit();
    run.client.exit_code = process.exit_code();
    run.client.stderr_tail = process.stderr_log();
    keep_tail(run.client.stderr_tail);
  } catch (const ProcessError& e) {
    run.could_not_run = true;
    run.notes.push_back(std::string("the client could not be started: ") + e.what());
  }
  if (model_server) model_server->stop();
  if (options.transport == "stdio") wait_for_stdio_records(run.wire_files, Clock::now() + std::chrono::seconds(3));
  for (auto& m : mocks) m->kill_group();  // every answer was recorded before it was sent
  if (const std::size_t left = orphans.sweep())
    run.notes.push_back(std::to_string(left) +
                        " process(es) the client left running outside its process group were killed");

  run.record = read_run_record(run.wire_files, events);
  if (options.scripted_model) read_model_record(run.record, (run.folder / "model.jsonl").string());
  check_event_times(run.record, client_started, mock::unix_seconds());
  for (auto& note : protocol_notes(run.record)) run.record.notes.push_back(std::move(note));
  for (const auto& note : run.record.notes) run.notes.push_back(note);
  // sh says 127 or 126 when the command is not there or not executable.
  if (run.client.started && !run.client.timed_out && (run.client.exit_code == 127 || run.client.exit_code == 126) &&
      run.record.wire.empty() && run.record.events.empty()) {
    run.could_not_run = true;
    run.notes.push_back("the client command could not be run (" + run.client.how +
                        "): " + run.client.stderr_tail.substr(0, run.client.stderr_tail.find('\n')));
  }
  run.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return run;
}

}  // namespace mcp_hints::conformance
