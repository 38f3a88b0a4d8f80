#pragma once
// JSON-RPC 2.0 messages as MCP uses them. Knows nothing of hints.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace mcp_hints::jsonrpc {

enum ErrorCode : int {
  parse_error = -32700,
  invalid_request = -32600,
  method_not_found = -32601,
  invalid_params = -32602,
  internal_error = -32603,
};

nlohmann::json request(const nlohmann::json& id, const std::string& method,
                       const std::optional<nlohmann::json>& params = std::nullopt);
nlohmann::json notification(const std::string& method, const std::optional<nlohmann::json>& params = std::nullopt);
nlohmann::json result(const nlohmann::json& id, const nlohmann::json& result);
nlohmann::json error(const nlohmann::json& id, int code, const std::string& message);

enum class Kind { request, notification, result, error, invalid };
// What a message is; a batch (array) or anything malformed is invalid.
Kind classify(const nlohmann::json& message);

// A short description of a message for error text: "response to 3", "request tools/list", ...
std::string describe(const nlohmann::json& message);

}  // namespace mcp_hints::jsonrpc
