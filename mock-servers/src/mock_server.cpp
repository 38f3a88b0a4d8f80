#include "mcp_hints/mock/mock_server.hpp"

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/version.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/mcp_client.hpp"

namespace mcp_hints::mock {

using json = nlohmann::json;
namespace rpc = jsonrpc;

MockServer::MockServer(ServerSpec spec) : spec_(std::move(spec)), tools_(spec_.tools) {}

std::optional<json> MockServer::cancelled_request(const json& message) {
  if (rpc::classify(message) != rpc::Kind::notification || message["method"] != "notifications/cancelled")
    return std::nullopt;
  const json params = message.value("params", json::object());
  if (!params.is_object() || !params.contains("requestId")) return std::nullopt;
  return params["requestId"];
}

std::vector<Outgoing> MockServer::handle_text(std::string_view text, json* parsed) {
  json message;
  try {
    message = parse_json(text);
  } catch (const InputError& e) {
    return {Outgoing{rpc::error(nullptr, rpc::parse_error, std::string("Parse error: ") + e.what())}};
  }
  if (parsed) *parsed = message;
  return handle(message);
}

std::vector<Outgoing> MockServer::handle(const json& message) {
  const auto kind = rpc::classify(message);
  if (message.is_array())
    return {Outgoing{
        rpc::error(nullptr, rpc::invalid_request, "Invalid Request: batches are not part of MCP since 2025-06-18")}};
  if (kind == rpc::Kind::invalid) {
    const json id = message.is_object() && message.contains("id") &&
                            (message["id"].is_string() || message["id"].is_number_integer())
                        ? message["id"]
                        : json();
    return {
        Outgoing{rpc::error(id, rpc::invalid_request, "Invalid Request: not a JSON-RPC 2.0 request or notification")}};
  }
  if (kind != rpc::Kind::request) return {};  // notifications and responses need no answer
  const json& id = message["id"];
  const std::string method = message["method"];
  const json params = message.value("params", json::object());
  if (!params.is_object())
    return {Outgoing{rpc::error(id, rpc::invalid_params, "Invalid params: not an object"), {}, false, id}};
  std::lock_guard lock(mutex_);
  if (method == "initialize") {
    if (!params.contains("protocolVersion") || !params["protocolVersion"].is_string())
      return {Outgoing{
          rpc::error(id, rpc::invalid_params, "Invalid params: protocolVersion must be a string"), {}, false, id}};
    const auto& versions = spec_.protocol_versions.empty() ? supported_protocol_versions() : spec_.protocol_versions;
    std::string version = params["protocolVersion"];
    if (std::find(versions.begin(), versions.end(), version) == versions.end()) version = versions.front();
    return {Outgoing{rpc::result(id, {{"protocolVersion", version},
                                      {"capabilities", {{"tools", {{"listChanged", true}}}}},
                                      {"serverInfo", {{"name", spec_.name}, {"version", kVersion}}}}),
                     {},
                     false,
                     id}};
  }
  if (method == "ping") return {Outgoing{rpc::result(id, json::object()), {}, false, id}};
  if (method == "tools/list") return list_tools(id, params);
  if (method == "tools/call") return call_tool(id, params);
  // server/discover (2026-07-28) and everything else: clients probing newer eras fall back.
  return {Outgoing{rpc::error(id, rpc::method_not_found, "Method not found: " + method), {}, false, id}};
}

std::vector<Outgoing> MockServer::list_tools(const json& id, const json& params) {
  std::size_t start = 0;
  if (params.contains("cursor")) {
    const json& cursor = params["cursor"];
    const std::string text = cursor.is_string() ? cursor.get<std::string>() : "";
    char* end = nullptr;
    const unsigned long value = text.rfind("page-", 0) == 0 ? std::strtoul(text.c_str() + 5, &end, 10) : 0;
    if (!cursor.is_string() || text.rfind("page-", 0) != 0 || *end != '\0' || value >= tools_.size() || value == 0)
      return {Outgoing{rpc::error(id, rpc::invalid_params, "Invalid params: unknown cursor"), {}, false, id}};
    start = value;
  }
  const std::size_t size = spec_.page_size ? spec_.page_size : tools_.size();
  json page = json::array();
  for (std::size_t i = start; i < tools_.size() && i < start + size; ++i) page.push_back(tools_[i]);
  json result = {{"tools", std::move(page)}};
  if (start + size < tools_.size()) result["nextCursor"] = "page-" + std::to_string(start + size);
  return {Outgoing{rpc::result(id, result), {}, false, id}};
}

std::vector<Outgoing> MockServer::call_tool(const json& id, const json& params) {
  if (!params.contains("name") || !params["name"].is_string())
    return {Outgoing{rpc::error(id, rpc::invalid_params, "Invalid params: name must be a string"), {}, false, id}};
  if (params.contains("arguments") && !params["arguments"].is_object())
    return {
        Outgoing{rpc::error(id, rpc::invalid_params, "Invalid params: arguments must be an object"), {}, false, id}};
  const std::string name = params["name"];
  const bool listed = std::any_of(tools_.begin(), tools_.end(), [&](const json& t) { return t["name"] == name; });
  if (!listed) return {Outgoing{rpc::error(id, rpc::invalid_params, "Unknown tool: " + name), {}, false, id}};
  const std::size_t n = calls_[name]++;
  auto script = spec_.scripts.find(name);
  if (script == spec_.scripts.end() || n >= script->second.size())
    return {Outgoing{rpc::result(id, spec_.default_result), {}, false, id}};
  const Step& step = script->second[n];
  std::vector<Outgoing> out;
  // Progress for a caller that asked for it (a progressToken), before the answer.
  if (const json* token =
          params.contains("_meta") && params["_meta"].is_object() && params["_meta"].contains("progressToken")
              ? &params["_meta"]["progressToken"]
              : nullptr;
      token && step.progress > 0)
    for (int i = 1; i <= step.progress; ++i)
      out.push_back({rpc::notification("notifications/progress",
                                       json{{"progressToken", *token}, {"progress", i}, {"total", step.progress}}),
                     step.delay * i / (step.progress + 1), false, id});
  // list_changed goes out before the answer, so a client has it before it makes its next call.
  if (step.list_changed) {
    tools_ = *step.list_changed;
    out.push_back({rpc::notification("notifications/tools/list_changed"), step.delay, false, json()});
  }
  switch (step.kind) {
    case Step::Kind::result: out.push_back({rpc::result(id, step.payload), step.delay, false, id}); break;
    case Step::Kind::error:
      out.push_back({{{"jsonrpc", "2.0"}, {"id", id}, {"error", step.payload}}, step.delay, false, id});
      break;
    case Step::Kind::transient_failure: {
      json error = rpc::error(id, rpc::internal_error, "Transient failure: try again");
      error["error"]["data"] = step.payload;
      out.push_back({error, step.delay, false, id});
      break;
    }
    case Step::Kind::close: out.push_back({json(), step.delay, true, id}); break;
  }
  return out;
}

}  // namespace mcp_hints::mock
