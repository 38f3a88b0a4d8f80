// client-messages: every message the client sent to a mock server, held to the schema.json of the
// revision it was sent under. Certify adds this check to every run; a scenario does not declare it.
#include <algorithm>
#include <map>
#include <set>

#include "check_kind.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/protocol_schema.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

using json = nlohmann::json;

namespace {

// The revision each server speaks when nothing on the wire says which (its first, as served).
struct ClientMessages {
  std::map<std::string, std::string> fallback_revision;  // by server
};

ClientMessages read_client_messages(CheckReader& in) {
  in.fail("kind", "certify adds the client-messages check to every run: a scenario does not declare it");
}

bool is_bundled(const std::string& revision) {
  const auto revisions = bundled_protocol_revisions();
  return std::find(revisions.begin(), revisions.end(), revision) != revisions.end();
}

// The revision a request names in its own _meta (stateless era), when we hold its schema.
std::string named_revision(const json& message) {
  const json* version = member(message, {"params", "_meta", kProtocolVersionMeta});
  return version && version->is_string() && is_bundled(version->get<std::string>()) ? version->get<std::string>()
                                                                                    : std::string();
}

std::string connection_key(const WireLine& line) { return line.server + '\n' + line.connection; }

Observation judge_client_messages(const ClientMessages& check, const RunRecord& record) {
  // What each connection agreed in initialize (legacy era), and what the server asked the client
  // (by id, so that an answer is checked as the result of the request it answers).
  std::map<std::string, std::string> negotiated, asked;
  for (const auto& line : record.wire) {
    if (line.direction != "out" || !line.message.is_object()) continue;
    if (jsonrpc::classify(line.message) == jsonrpc::Kind::request) {
      asked[connection_key(line) + '\n' + line.message["id"].dump()] = line.message.value("method", "");
    } else if (const json* version = member(line.message, {"result", "protocolVersion"});
               version && version->is_string() && is_bundled(version->get<std::string>())) {
      negotiated.emplace(connection_key(line), version->get<std::string>());
    }
  }

  static ProtocolSchemas schemas;  // compiled once per process: certify judges run after run
  std::size_t checked = 0, unknown = 0;
  std::set<std::string> revisions, seen;
  // By check id: how many messages broke it (a fault repeated word for word counts once), and the
  // first, so that every check broken is named.
  std::map<std::string, std::pair<std::size_t, std::string>> faults;
  const WireLine* first_fault = nullptr;  // the first message found at fault decides the outcome
  const WireLine* current = nullptr;
  auto note = [&](std::string_view id, const std::string& what) {
    if (!seen.insert(std::string(id) + what).second) return;  // the same fault in every request counts once
    if (!first_fault) first_fault = current;
    auto& [count, first] = faults[std::string(id)];
    if (count++ == 0) first = what;
  };
  for (const auto& line : record.wire) {
    if (line.direction != "in") continue;
    current = &line;
    std::string revision = named_revision(line.message);
    if (revision.empty()) {
      auto it = negotiated.find(connection_key(line));
      if (it != negotiated.end()) revision = it->second;
    }
    if (revision.empty()) {
      auto it = check.fallback_revision.find(line.server);
      if (it != check.fallback_revision.end() && is_bundled(it->second)) revision = it->second;
    }
    if (revision.empty()) {  // only a scenario of a revision we hold no schema of
      ++unknown;
      continue;
    }
    ++checked;
    revisions.insert(revision);
    if (line.message.is_null()) {
      note(protocol_check::message, "to " + line.server + ": input that is not JSON" +
                                        (line.raw.empty() ? std::string() : ": " + line.raw.substr(0, 80)));
      continue;
    }
    std::string answered;
    if (line.message.is_object() && line.message.contains("id") && !line.message.contains("method"))
      if (auto it = asked.find(connection_key(line) + '\n' + line.message["id"].dump()); it != asked.end())
        answered = it->second;
    // One fault per message and check: its first violation says what is wrong (a message that is
    // no JSON-RPC message at all fails each alternative of the schema's anyOf).
    std::set<std::string_view> faulted;
    for (const auto& v : schemas.validate_message(revision, line.message, Direction::client_to_server, answered))
      if (faulted.insert(v.check_id).second)
        note(v.check_id, (v.method.empty() ? std::string("a message") : v.method) + " to " + line.server + " (" +
                             revision + " " + v.definition + ") at " + (v.pointer.empty() ? "/" : v.pointer) + ": " +
                             v.message);
  }

  std::string under;
  for (const auto& r : revisions) under += (under.empty() ? "" : ", ") + r;
  std::string counts = std::to_string(checked) + " message(s) from the client checked against " +
                       (under.empty() ? std::string("no schema") : "the schema.json of " + under);
  if (unknown > 0)
    counts += "; " + std::to_string(unknown) + " not checked (sent under a revision whose schema is not bundled)";
  if (checked == 0) return {"no-messages", counts};
  if (faults.empty()) return {"schema-valid", counts};
  std::string shown;
  for (const auto& [id, fault] : faults)
    shown += "; " + id + " (" + std::to_string(fault.first) + " fault(s)), first: " + fault.second;
  return {"schema-violation", counts + shown, first_fault};
}

}  // namespace

CheckKind client_messages_kind() {
  CheckKind kind = make_check_kind(
      "client-messages",
      {{"schema-valid", "every message the client sent holds to the schema.json of the revision it was sent under"},
       {"schema-violation",
        "a message the client sent breaks the schema.json of its revision (the detail names the check: "
        "protocol.message, protocol.request, protocol.notification, protocol.result or protocol.error)"},
       {"no-messages", "the client sent no message a bundled schema could judge", true}},
      read_client_messages, judge_client_messages);
  kind.implicit = true;
  return kind;
}

CheckSpec client_messages_check(const mock::Scenario& served) {
  CheckSpec check;
  check.id = "client-messages";
  check.title = "Every message the client sends holds to its protocol revision's schema.json";
  check.level = "MUST";
  check.basis = "spec/json-rpc";
  check.proposal = "MCP specification";
  check.section =
      "schema.json of the revision spoken (both eras: the revision initialize agreed, or the one each "
      "request names in its _meta)";
  check.kind = "client-messages";
  check.traces = {{"schema-valid", Verdict::pass}};
  ClientMessages parameters;
  for (const auto& [key, server] : served.servers)
    parameters.fallback_revision[key] =
        server.protocol_versions.empty() ? supported_protocol_versions().front() : server.protocol_versions.front();
  check.parameters = parameters;
  return check;
}

}  // namespace mcp_hints::conformance
