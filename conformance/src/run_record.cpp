#include "mcp_hints/conformance/run_record.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <string_view>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/mock/recorder.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

const std::vector<std::string>& client_event_types() {
  static const std::vector<std::string> types = {"confirmation_requested", "user_decision", "blocked",    "escalated",
                                                 "progress_shown",         "retry",         "new_session"};
  return types;
}

bool RunRecord::is_request_in(const WireLine& line) const {
  return line.direction == "in" && jsonrpc::classify(line.message) == jsonrpc::Kind::request;
}

namespace {

std::string answer_key(const WireLine& line) {
  return line.server + '\n' + line.connection + '\n' + line.message["id"].dump();
}

}  // namespace

void RunRecord::index() {
  answers_.clear();
  for (std::size_t i = 0; i < wire.size(); ++i) {
    const auto& line = wire[i];
    if (line.direction == "out" && line.message.is_object() && line.message.contains("id") &&
        !line.message.contains("method"))
      answers_.emplace(answer_key(line), i);
  }
}

const WireLine* RunRecord::answer_to(const WireLine& request) const {
  if (!request.message.is_object() || !request.message.contains("id")) return nullptr;
  auto it = answers_.find(answer_key(request));
  return it == answers_.end() ? nullptr : &wire[it->second];
}

namespace {

// Calls each(line_number, text) for every line of the file, within max_bytes and max_lines;
// false when the file was cut.
// The file is read in blocks, so a line longer than the budget (a client writing one endless
// line) is never held whole.
template <class Each>
bool for_each_line(const std::string& path, std::size_t max_bytes, std::size_t max_lines, Each&& each) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return true;
  std::size_t total = 0, number = 0;
  std::string text;
  char block[65536];
  while (in.read(block, sizeof block) || in.gcount() > 0) {
    const std::string_view got(block, static_cast<std::size_t>(in.gcount()));
    for (std::size_t from = 0; from < got.size();) {
      const std::size_t end = std::min(got.find('\n', from), got.size());
      if (total + text.size() + (end - from) + 1 > max_bytes || number >= max_lines) return false;
      text.append(got.substr(from, end - from));
      if (end == got.size()) break;  // the line goes on in the next block
      total += text.size() + 1;
      each(++number, text);
      text.clear();
      from = end + 1;
    }
  }
  if (!text.empty()) {  // the last line, without its line break
    if (number >= max_lines) return false;
    each(++number, text);
  }
  return true;
}

}  // namespace

RunRecord read_run_record(const std::map<std::string, std::string>& wire_files, const std::string& events_file,
                          std::size_t max_bytes, std::size_t max_lines) {
  RunRecord record;
  InputLimits limits;
  limits.max_bytes = max_bytes;
  for (const auto& [server, path] : wire_files) {
    const bool whole =
        for_each_line(path, max_bytes, max_lines, [&, &server = server](std::size_t number, const std::string& text) {
          json line;
          try {
            line = parse_json_document(text, limits).value;
          } catch (const InputError& e) {
            record.notes.push_back("wire record of " + server + ", line " + std::to_string(number) + ": " + e.what());
            return;
          }
          if (!line.is_object() || !line.contains("connection") || !line["connection"].is_string() ||
              !line.contains("time") || !line["time"].is_number())
            return;
          WireLine w;
          w.server = server;
          w.connection = line["connection"].get<std::string>();
          w.time = line["time"].get<double>();
          if (line.contains("event") && line["event"].is_string()) w.event = line["event"].get<std::string>();
          if (line.contains("direction") && line["direction"].is_string())
            w.direction = line["direction"].get<std::string>();
          if (line.contains("message")) w.message = line["message"];
          if (line.contains("raw") && line["raw"].is_string()) w.raw = line["raw"].get<std::string>();
          if (line.contains("authorization") && line["authorization"].is_string())
            w.authorization = line["authorization"].get<std::string>();
          record.wire.push_back(std::move(w));
        });
    if (!whole)
      record.notes.push_back("wire record of " + server + " is larger than " + std::to_string(max_bytes) +
                             " bytes or " + std::to_string(max_lines) + " lines: read in part");
  }
  std::stable_sort(record.wire.begin(), record.wire.end(),
                   [](const WireLine& a, const WireLine& b) { return a.time < b.time; });

  const auto& types = client_event_types();
  const bool whole = for_each_line(events_file, max_bytes, max_lines, [&](std::size_t number, const std::string& text) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) return;
    const std::string where = "events line " + std::to_string(number) + ": ";
    json line;
    try {
      line = parse_json_document(text, limits).value;
    } catch (const InputError& e) {
      record.notes.push_back(where + e.what());
      return;
    }
    if (!line.is_object() || !line.contains("type") || !line["type"].is_string()) {
      record.notes.push_back(where + "not an object with a \"type\" string");
      return;
    }
    const std::string type = line["type"].get<std::string>();
    if (std::find(types.begin(), types.end(), type) == types.end()) {
      record.notes.push_back(where + "unknown event type \"" + type + "\"");
      return;
    }
    if (!line.contains("time") || !line["time"].is_number()) {
      record.notes.push_back(where + "no \"time\" number (Unix time in seconds)");
      return;
    }
    record.events.push_back({type, line["time"].get<double>(), line, number});
  });
  if (!whole)
    record.notes.push_back("events file is larger than " + std::to_string(max_bytes) + " bytes or " +
                           std::to_string(max_lines) + " lines: read in part");
  std::stable_sort(record.events.begin(), record.events.end(),
                   [](const ClientEvent& a, const ClientEvent& b) { return a.time < b.time; });
  number_sessions(record);
  return record;
}

void read_model_record(RunRecord& record, const std::string& model_file, std::size_t max_bytes, std::size_t max_lines) {
  record.model_served = true;
  InputLimits limits;
  limits.max_bytes = max_bytes;
  const bool whole = for_each_line(model_file, max_bytes, max_lines, [&](std::size_t number, const std::string& text) {
    json line;
    try {
      line = parse_json_document(text, limits).value;
    } catch (const InputError& e) {
      record.notes.push_back("model record, line " + std::to_string(number) + ": " + e.what());
      return;
    }
    if (!line.is_object() || !line.contains("answer") || !line["answer"].is_string() || !line.contains("time") ||
        !line["time"].is_number()) {
      record.notes.push_back("model record, line " + std::to_string(number) + ": not an exchange");
      return;
    }
    ModelTurn turn;
    turn.time = line["time"].get<double>();
    turn.answer = line["answer"].get<std::string>();
    if (line.contains("conversation") && line["conversation"].is_number_unsigned())
      turn.conversation = line["conversation"].get<std::size_t>();
    if (line.contains("server") && line["server"].is_string()) turn.server = line["server"].get<std::string>();
    if (line.contains("tool") && line["tool"].is_string()) turn.tool = line["tool"].get<std::string>();
    if (line.contains("notOffered") && line["notOffered"].is_array())
      for (const auto& call : line["notOffered"])
        if (call.is_object() && call.contains("server") && call["server"].is_string() && call.contains("tool") &&
            call["tool"].is_string())
          turn.not_offered.emplace_back(call["server"].get<std::string>(), call["tool"].get<std::string>());
    record.model.push_back(std::move(turn));
  });
  if (!whole)
    record.notes.push_back("model record is larger than " + std::to_string(max_bytes) + " bytes or " +
                           std::to_string(max_lines) + " lines: read in part");
}

bool RunRecord::never_offered(const std::string& server, const std::string& tool) const {
  if (model_served && model.empty()) return true;
  const std::pair<std::string, std::string> call{server, tool};
  return std::any_of(model.begin(), model.end(), [&](const ModelTurn& turn) {
    return std::find(turn.not_offered.begin(), turn.not_offered.end(), call) != turn.not_offered.end();
  });
}

void number_sessions(RunRecord& record) {
  std::vector<double> new_sessions;  // by time, as the events are
  for (const auto& event : record.events)
    if (event.type == "new_session") new_sessions.push_back(event.time);
  const auto new_session_between = [&](double from, double to) {
    const auto it = std::upper_bound(new_sessions.begin(), new_sessions.end(), from);
    return it != new_sessions.end() && *it <= to;
  };
  struct Connection {
    bool discover = false, other = false;  // the requests it carried: server/discover, anything else
    double opened = 0;                     // the time of its first line
    std::optional<double> dropped;         // when the server closed it as scripted
    std::string authorization;
    std::size_t session = 0;
    // The probe of a client that discovers on a connection of its own: it joins the next session.
    bool probe() const { return discover && !other; }
  };
  std::map<std::string, std::vector<std::string>> order;  // per server, its connections in order
  std::map<std::pair<std::string, std::string>, Connection> connections;
  for (const auto& line : record.wire) {
    const auto key = std::make_pair(line.server, line.connection);
    const bool first = !connections.count(key);
    Connection& c = connections[key];
    if (first) {
      order[line.server].push_back(line.connection);
      c.opened = line.time;
      c.authorization = line.authorization;
    }
    if (record.is_request_in(line))
      (line.message.value("method", "") == "server/discover" ? c.discover : c.other) = true;
    if (line.event == mock::kScriptedCloseEvent) c.dropped = line.time;
  }
  for (const auto& [server, names] : order) {
    std::size_t sessions = 0;
    std::vector<Connection*> probes;                  // waiting for the session that follows them
    std::map<std::string, const Connection*> latest;  // by authorization context: its last connection
    for (const auto& name : names) {
      Connection& c = connections[{server, name}];
      if (c.probe()) {
        probes.push_back(&c);
        continue;
      }
      // A connection the server dropped is followed by a reconnection, not by a new session of the
      // client's: that one is still the client's to begin (a new_session event).
      const Connection* before = latest[c.authorization];
      c.session =
          before && before->dropped && !new_session_between(*before->dropped, c.opened) ? before->session : ++sessions;
      latest[c.authorization] = &c;
      for (Connection* p : probes) p->session = c.session;
      probes.clear();
    }
    for (Connection* p : probes) p->session = std::max<std::size_t>(sessions, 1);  // none follows: the last
  }
  // Over HTTP the stateless era has no session at all: the client's own agent sessions, which it
  // reports with new_session events, are the sessions.
  for (auto& line : record.wire)
    line.session =
        line.connection == mock::kStatelessHttpConnection
            ? 1 + static_cast<std::size_t>(std::upper_bound(new_sessions.begin(), new_sessions.end(), line.time) -
                                           new_sessions.begin())
            : connections[{line.server, line.connection}].session;
  record.index();
}

std::vector<std::string> protocol_notes(const RunRecord& record) {
  std::vector<std::string> notes;
  auto add = [&](std::string note) {
    if (std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(std::move(note));
  };
  for (const auto& line : record.wire) {
    if (line.event.rfind("refused: ", 0) == 0)
      add("the mock server " + line.server + " refused a request at the HTTP level (" + line.event.substr(9) + ")");
    if (!record.is_request_in(line)) continue;
    const WireLine* answer = record.answer_to(line);
    const bool unknown_method =
        answer && answer->message.contains("error") && answer->message["error"].is_object() &&
        answer->message["error"].value("code", 0) == static_cast<int>(jsonrpc::method_not_found);
    if (unknown_method)
      add("the client sent " + line.message.value("method", std::string("?")) + " to " + line.server +
          ", which the mock server does not speak (-32601)");
  }
  return notes;
}

void check_event_times(RunRecord& record, double client_started, double client_ended) {
  constexpr double kSlack = 1.0;  // seconds: clocks read by two processes, rounding
  for (const auto& event : record.events) {
    if (event.time >= client_started - kSlack && event.time <= client_ended + kSlack) continue;
    const double ratio = event.time / client_started;
    const std::string unit = ratio > 500 && ratio < 2000 ? " (milliseconds? the contract asks for seconds)"
                             : ratio < 0.5               ? " (not Unix time: a monotonic clock?)"
                                                         : " (another clock?)";
    char buffer[200];
    std::snprintf(buffer, sizeof buffer, "events line %zu has time %.3f, outside the run (%.3f to %.3f, Unix seconds)",
                  event.line, event.time, client_started, client_ended);
    record.events_unusable = buffer + unit + ": the events cannot be ordered against the wire";
    record.notes.push_back(record.events_unusable);
    return;
  }
}

}  // namespace mcp_hints::conformance
