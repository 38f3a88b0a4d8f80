#include "mcp_hints/json/text.hpp"

#include <algorithm>

namespace mcp_hints {

std::string join(std::span<const std::string> items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += separator;
    out += items[i];
  }
  return out;
}

std::string shorten(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  constexpr std::string_view ellipsis = "...";
  std::size_t cut = max_bytes > ellipsis.size() ? max_bytes - ellipsis.size() : 0;
  // Back up over continuation bytes (10xxxxxx) so a multi-byte character is never split.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + std::string(ellipsis);
}

std::string printable(std::string_view text, std::size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size(), max_bytes));
  for (unsigned char c : text) out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  return shorten(out, max_bytes);
}

std::string value_text(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>()
                           : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string shown(const nlohmann::json& value, std::size_t max_bytes) {
  return shorten(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), max_bytes);
}

std::string markdown_cell(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
          out += '?';
        else
          out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace mcp_hints
