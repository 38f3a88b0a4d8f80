#pragma once
// SEP-2243 (2026-07-28, Streamable HTTP): a tool's inputSchema may mark properties with
// `x-mcp-header`, whose values a client mirrors into Mcp-Param-{Name} headers. A client over
// Streamable HTTP "MUST reject tool definitions where any `x-mcp-header` value violates these
// constraints" and "MUST exclude the invalid tool from the result of `tools/list`" (transports,
// 2026-07-28). Knows nothing of hints.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcp_hints {

// Why the x-mcp-header annotations of a tool's inputSchema make it one to leave out: "" when they
// keep every constraint (or there are none). The constraints: a non-empty string of HTTP token
// characters (RFC 9110 tchar: no space, colon, control or non-ASCII character), unique among the
// schema's annotations ignoring case, on a property of type integer, string or boolean, reached
// from the root through `properties` alone (never items, composition, conditionals or $ref).
std::string invalid_param_headers(const nlohmann::json& input_schema);

// Whether a property reached from the root through `properties` alone carries an x-mcp-header.
bool has_param_headers(const nlohmann::json& input_schema);

// A value as a header carries it ("Value Encoding"): as is when it is visible ASCII, spaces and
// tabs, with no whitespace at either end and not of the sentinel's form =?base64?...?=; else
// "=?base64?" + the Base64 of its UTF-8 + "?=".
std::string header_value(std::string_view value);

// A header value as a server reads it ("Value Encoding"): the Base64 sentinel form decoded, strictly
// (the standard alphabet, padded), any other value as it is; nullopt for a value with a character
// outside visible ASCII, space and tab, or a sentinel whose Base64 is malformed.
std::optional<std::string> decoded_header_value(std::string_view value);

// A header value that mirrors `text` (a parameter's value as its header carries it, decoded)
// wrongly, whatever the parameter's type: an integer's text becomes another integer (0, or 1 for
// 0: numbers far apart, so no numeric comparison takes them for equal), a boolean's the other
// boolean, any other text the same with a suffix; encoded by header_value. What a probe of a
// server's validation sends.
std::string mismatched_header_value(std::string_view text);

// What a server finds wrong with a tools/call's Mcp-Param headers ("Any server that processes the
// message body MUST validate that encoded header values, after decoding if Base64-encoded, match the
// corresponding values in the request body", transports, 2026-07-28): each annotated parameter the
// arguments give has its header (names compared ignoring case), whose decoded value is the body's
// (an integer compared as a number); "" when all do. `headers`: the request's Mcp-Param-{Name}
// headers, {Name} as sent.
std::string param_header_mismatch(const nlohmann::json& input_schema, const nlohmann::json& arguments,
                                  const std::vector<std::pair<std::string, std::string>>& headers);

// The Mcp-Param-{Name} headers of a tools/call with `arguments` under `input_schema` (one whose
// annotations keep the constraints), in the schema's order: the value at each annotated
// property's path of properties, converted (a string as is, an integer in decimal, a boolean
// true or false) and encoded by header_value; absent or null, or of another type, no header.
std::vector<std::pair<std::string, std::string>> param_headers(const nlohmann::json& input_schema,
                                                               const nlohmann::json& arguments);

}  // namespace mcp_hints
