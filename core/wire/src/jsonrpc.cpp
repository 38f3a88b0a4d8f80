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

Kind classify(const json& m) {
  // Each member looked up once (a message is classified as it comes and as it goes).
  if (!m.is_object()) return Kind::invalid;
  const auto member = [&m](std::string_view name) { return mcp_hints::member(m, name); };
  const json* version = member("jsonrpc");
  if (!version || !version->is_string() || version->get_ref<const std::string&>() != "2.0") return Kind::invalid;
  const json* id = member("id");
  const bool has_id = id && (id->is_string() || id->is_number_integer());
  if (const json* method = member("method")) {
    if (!method->is_string()) return Kind::invalid;
    if (const json* params = member("params"); params && !params->is_object() && !params->is_array())
      return Kind::invalid;
    if (!id) return Kind::notification;
    return has_id ? Kind::request : Kind::invalid;
  }
  const json* result = member("result");
  const json* error = member("error");
  if (!has_id && !(id && id->is_null() && error)) return Kind::invalid;
  if (result && !error) return Kind::result;
  if (error && !result && error->is_object()) {
    const auto code = error->find("code");
    if (code != error->end() && code->is_number_integer()) return Kind::error;
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
