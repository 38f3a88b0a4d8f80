#include "mcp_hints/wire/jsonrpc.hpp"

namespace mcp_hints::jsonrpc {

using json = nlohmann::json;

json request(const json& id, const std::string& method, const std::optional<json>& params) {
  json m = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (params) m["params"] = *params;
  return m;
}

json notification(const std::string& method, const std::optional<json>& params) {
  json m = {{"jsonrpc", "2.0"}, {"method", method}};
  if (params) m["params"] = *params;
  return m;
}

json result(const json& id, const json& result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}; }

json error(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

Kind classify(const json& m) {
  if (!m.is_object() || m.value("jsonrpc", json()) != "2.0") return Kind::invalid;
  const bool has_id = m.contains("id") && (m["id"].is_string() || m["id"].is_number_integer());
  if (m.contains("method")) {
    if (!m["method"].is_string()) return Kind::invalid;
    if (m.contains("params") && !m["params"].is_object() && !m["params"].is_array()) return Kind::invalid;
    if (!m.contains("id")) return Kind::notification;
    return has_id ? Kind::request : Kind::invalid;
  }
  if (!has_id && !(m.contains("id") && m["id"].is_null() && m.contains("error"))) return Kind::invalid;
  if (m.contains("result") && !m.contains("error")) return Kind::result;
  if (m.contains("error") && !m.contains("result") && m["error"].is_object() && m["error"].contains("code") &&
      m["error"]["code"].is_number_integer())
    return Kind::error;
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
