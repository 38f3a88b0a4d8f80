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

// Untrusted text as a terminal may show it: printable UTF-8 is kept, and every control character
// (C0 with newline and tab, DEL, C1) and every byte that is not valid UTF-8 is written as a
// visible escape (\n, \t, \r, \x1b, \u009b, \xff), so a catalog or a server cannot move the
// cursor, clear the screen or recolour it. Text output passes every string it did not write
// itself through here; our own colour codes are added around the result.
std::string visible(std::string_view text);

// A string as it is, any other value as compact JSON.
std::string value_text(const nlohmann::json& value);

// A value as a message shows it: compact JSON (invalid UTF-8 replaced), shortened.
std::string shown(const nlohmann::json& value, std::size_t max_bytes = 80);

// Text safe in one Markdown table cell: '|' escaped, control characters (line breaks too) shown
// as `visible` shows them.
std::string markdown_cell(std::string_view text);

// Text safe in HTML and XML character data and attribute values. Control characters other than
// tab, newline and return (not allowed in XML 1.0) and invalid UTF-8 are shown as `visible`
// shows them.
std::string html_escape(std::string_view text);

}  // namespace mcp_hints
