#include "mcp_hints/wire/jsonrpc.hpp"

#include "mcp_hints/json/member.hpp"

namespace mcp_hints::jsonrpc {

using json = nlohmann::json;

namespace {

// A message's members are put in its object one by one: a message is made for every call, and
// nlohmann's initializer lists copy each value and test whether each pair is a member first.
json::object_t& envelope(json& m) {
  m = json::object();
  auto& object = m.get_ref<json::object_t&>();
  object.emplace("jsonrpc", "2.0");
  return object;
}

}  // namespace

json request(const json& id, const std::string& method, const std::optional<json>& params) {
  json m;
  auto& object = envelope(m);
  object.emplace("id", id);
  object.emplace("method", method);
  if (params) object.emplace("params", *params);
  return m;
}

json notification(const std::string& method, const std::optional<json>& params) {
  json m;
  auto& object = envelope(m);
  object.emplace("method", method);
  if (params) object.emplace("params", *params);
  return m;
}

json result(const json& id, const json& result) {
  json m;
  auto& object = envelope(m);
  object.emplace("id", id);
  object.emplace("result", result);
  return m;
}

json error(const json& id, int code, const std::string& message) {
  json m;
  auto& object = envelope(m);
  object.emplace("id", id);
  json& body = object.emplace("error", json::object()).first->second;
  body["code"] = code;
  body["message"] = message;
  return m;
}

Envelope envelope_of(const json& m) {
  Envelope e;
  if (!m.is_object()) return e;
  for (const auto& [name, value] : m.get_ref<const json::object_t&>()) {
    // Told apart by length first: the six names have four lengths.
    switch (name.size()) {
      case 2:
        if (name == "id") e.id = &value;
        break;
      case 5:
        if (name == "error") e.error = &value;
        break;
      case 6:
        if (name == "method")
          e.method = &value;
        else if (name == "params")
          e.params = &value;
        else if (name == "result")
          e.result = &value;
        break;
      case 7:
        if (name == "jsonrpc") e.jsonrpc = &value;
        break;
      default: break;
    }
  }
  return e;
}

Kind classify(const json& m) { return classify(envelope_of(m)); }  // no object: no jsonrpc, invalid

Kind classify(const Envelope& e) {
  if (!e.jsonrpc || !text_is(*e.jsonrpc, "2.0")) return Kind::invalid;
  const json* id = e.id;
  const bool has_id = id && (id->is_string() || id->is_number_integer());
  if (const json* method = e.method) {
    if (!method->is_string()) return Kind::invalid;
    if (const json* params = e.params; params && !params->is_object() && !params->is_array()) return Kind::invalid;
    if (!id) return Kind::notification;
    return has_id ? Kind::request : Kind::invalid;
  }
  const json* result = e.result;
  const json* error = e.error;
  if (!has_id && !(id && id->is_null() && error)) return Kind::invalid;
  if (result && !error) return Kind::result;
  if (error && !result && error->is_object()) {
    const json* code = member(*error, "code");
    if (code && code->is_number_integer()) return Kind::error;
  }
  return Kind::invalid;
}

std::string describe(const json& m) {
  switch (classify(m)) {
    case Kind::request: return "request " + m["method"].get<std::string>();
    case Kind::notification: return "notification " + m["method"].get<std::string>();
    case Kind::result: return "response to " + m["id"].dump();
    case Kind::error: return "error response to " + m["id"].dump();
    case Kind::invalid: break;
  }
  return "malformed message";
}

}  // namespace mcp_hints::jsonrpc
