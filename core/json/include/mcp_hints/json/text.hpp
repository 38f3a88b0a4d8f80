#pragma once
// Small text helpers shared by messages and reports: one of each, so every output says a list,
// a value or an escaped string the same way.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mcp_hints {

// "a, b, c" (or any separator).
std::string join(std::span<const std::string> items, std::string_view separator = ", ");

// A count and its noun, plural unless one: "1 tool", "3 tools" (nouns that take an s).
std::string plural(std::size_t n, std::string_view noun);

// The candidate a mistyped name most likely meant ("did you mean"): the closest by edit distance
// when that distance is small for the name's length (at most a third of it, and at most 3), or
// the only candidate that starts with the name; nullopt when none is close enough.
std::optional<std::string> closest_name(std::string_view name, std::span<const std::string> candidates);

// " (did you mean 'X'?)" for `closest_name`, or "" when nothing is close.
std::string did_you_mean(std::string_view name, std::span<const std::string> candidates);

// Rows of two columns for help and lists: the first column padded to its widest entry (at most
// `max_first`; a longer entry puts its second column on the next line), the second wrapped at
// `width` characters and continued under itself. Each row starts with `indent` spaces.
struct Row {
  std::string first, second;
};
std::string columns(std::span<const Row> rows, std::size_t indent, std::size_t max_first = 32, std::size_t width = 100);

// Text with its ASCII letters in lower case (other bytes, UTF-8 included, kept as they are).
std::string ascii_lower(std::string_view text);

// Text and at least one space after it, padded to `width` characters.
std::string padded(std::string_view text, std::size_t width);

// Words wrapped at `width` characters, each continuation line starting with `hanging` spaces.
std::string wrap(std::string_view text, std::size_t width, std::size_t hanging = 0);

// At most `max_bytes` bytes of text: cut on a UTF-8 character boundary and ended with "..."
// when cut (the result, "..." included, is never longer than max_bytes; max_bytes >= 4).
std::string shorten(std::string_view text, std::size_t max_bytes);

// Untrusted bytes for one line of a message: shown as `visible` shows them (so a line break or an
// escape sequence is seen, not obeyed), and long text shortened.
std::string printable(std::string_view text, std::size_t max_bytes);

// Untrusted text as a terminal may show it: printable UTF-8 is kept, and every control character
// (C0 with newline and tab, DEL, C1) and every byte that is not valid UTF-8 is written as a
// visible escape (\n, \t, \r, \x1b, \u009b, \xff), so a catalog or a server cannot move the
// cursor, clear the screen or recolour it. Text output passes every string it did not write
// itself through here; our own colour codes are added around the result.
std::string visible(std::string_view text);

// A value's JSON text appended to `out`, byte for byte as nlohmann::json::dump(indent, ' ', false,
// replace) writes it (indent -1: one line; invalid UTF-8 replaced). `width`: the spaces before the
// value's line when it stands inside an indented document written apart. Faster than dump, whose
// serializer writes a character at a time through an adapter: every message sent is this.
// (A binary value, which no JSON text makes, is written on one line at any indent.)
void append_json(std::string& out, const nlohmann::json& value, int indent = -1, std::size_t width = 0);
// A string's JSON text appended to `out`, as dump writes it.
void append_json_string(std::string& out, std::string_view text);
// An integer's JSON text (signed or unsigned), as dump writes it, held in place: no string made.
class IntegerText {
 public:
  explicit IntegerText(const nlohmann::json& integer);
  std::string_view view() const { return {digits_, size_}; }

 private:
  char digits_[24];  // "-9223372036854775808" and "18446744073709551615" fit
  std::size_t size_;
};
// append_json's text as a string: dump(indent) with invalid UTF-8 replaced.
std::string json_text(const nlohmann::json& value, int indent = -1);

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
