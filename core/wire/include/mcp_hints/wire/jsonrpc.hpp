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

// The members a message is told by, found in one walk over its members (a message is classified as
// it comes and as it goes, and then read: one walk costs less than a look-up for each). Null where
// absent, all null for a message that is no object; they point into the message.
struct Envelope {
  const nlohmann::json* jsonrpc = nullptr;
  const nlohmann::json* id = nullptr;
  const nlohmann::json* method = nullptr;
  const nlohmann::json* params = nullptr;
  const nlohmann::json* result = nullptr;
  const nlohmann::json* error = nullptr;
};
Envelope envelope_of(const nlohmann::json& message);

// What a message is; a batch (array) or anything malformed is invalid.
Kind classify(const nlohmann::json& message);
// The same, from its envelope (envelope_of(message)).
Kind classify(const Envelope& envelope);

// A short description of a message for error text: "response to 3", "request tools/list", ...
std::string describe(const nlohmann::json& message);

}  // namespace mcp_hints::jsonrpc
