#pragma once
// Small text helpers shared by messages and reports: one of each, so every output says a list,
// a value or an escaped string the same way.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mcp_hints {

// "a, b, c" (or any separator).
std::string join(std::span<const std::string> items, std::string_view separator = ", ");

// At most `max_bytes` bytes of text: cut on a UTF-8 character boundary and ended with "..."
// when cut (the result, "..." included, is never longer than max_bytes; max_bytes >= 4).
std::string shorten(std::string_view text, std::size_t max_bytes);

// Untrusted bytes for one line of a message: anything but printable ASCII becomes '?', and long
// text is shortened.
std::string printable(std::string_view text, std::size_t max_bytes);

// A string as it is, any other value as compact JSON.
std::string value_text(const nlohmann::json& value);

// A value as a message shows it: compact JSON (invalid UTF-8 replaced), shortened.
std::string shown(const nlohmann::json& value, std::size_t max_bytes = 80);

// Text safe in one Markdown table cell: '|' escaped, line breaks as spaces.
std::string markdown_cell(std::string_view text);

// Text safe in HTML and XML character data and attribute values. Control characters other than
// tab, newline and return (not allowed in XML 1.0) become '?'.
std::string html_escape(std::string_view text);

}  // namespace mcp_hints
