#pragma once
// SEP-2243 (2026-07-28, Streamable HTTP): a tool's inputSchema may mark properties with
// `x-mcp-header`, whose values a client mirrors into Mcp-Param-{Name} headers. A client over
// Streamable HTTP "MUST reject tool definitions where any `x-mcp-header` value violates these
// constraints" and "MUST exclude the invalid tool from the result of `tools/list`" (transports,
// 2026-07-28). Knows nothing of hints.
#include <string>

#include <nlohmann/json.hpp>

namespace mcp_hints {

// Why the x-mcp-header annotations of a tool's inputSchema make it one to leave out: "" when they
// keep every constraint (or there are none). The constraints: a non-empty string of HTTP token
// characters (RFC 9110 tchar: no space, colon, control or non-ASCII character), unique among the
// schema's annotations ignoring case, on a property of type integer, string or boolean, reached
// from the root through `properties` alone (never items, composition, conditionals or $ref).
std::string invalid_param_headers(const nlohmann::json& input_schema);

}  // namespace mcp_hints
