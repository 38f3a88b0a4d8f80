#include "mcp_hints/json/text.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <vector>

namespace mcp_hints {

std::string plural(std::size_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

std::string join(std::span<const std::string> items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += separator;
    out += items[i];
  }
  return out;
}

namespace {

// Edit distance counting a swap of two neighbours as one edit (optimal string alignment), the
// typo people make most.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

// The display width of UTF-8 text, one column per code point (continuation bytes do not count).
std::size_t text_width(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; }));
}

}  // namespace

std::optional<std::string> closest_name(std::string_view name, std::span<const std::string> candidates) {
  if (name.empty()) return std::nullopt;
  const std::size_t allowed = std::min<std::size_t>(3, std::max<std::size_t>(1, name.size() / 3));
  std::optional<std::string> best, prefixed;
  std::size_t best_distance = allowed + 1, starting = 0;
  for (const auto& candidate : candidates) {
    if (candidate.starts_with(name)) {
      ++starting;
      prefixed = candidate;
    }
    // The distance is at least the difference in length: a name far longer or shorter than a
    // candidate is no typo of it, and is never compared letter by letter (a hostile name of
    // megabytes would take minutes).
    const std::size_t longer = std::max(name.size(), candidate.size());
    if (longer - std::min(name.size(), candidate.size()) > allowed) continue;
    const std::size_t d = edit_distance(name, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  if (best) return best;
  return starting == 1 ? prefixed : std::nullopt;
}

std::string did_you_mean(std::string_view name, std::span<const std::string> candidates) {
  const auto match = closest_name(name, candidates);
  return match ? " (did you mean '" + *match + "'?)" : std::string();
}

namespace {

// Words from `column` on, wrapped at `width`, continuation lines indented by `hanging`. Spaces
// between words are kept as written (they may align a column) except where a line breaks.
std::string wrap_from(std::string_view text, std::size_t width, std::size_t hanging, std::size_t column) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t word_start = text.find_first_not_of(' ', at);
    if (word_start == std::string_view::npos) break;
    const std::size_t word_end = std::min(text.find(' ', word_start), text.size());
    const std::size_t spaces = out.empty() ? 0 : word_start - at;
    const std::string_view word = text.substr(word_start, word_end - word_start);
    const std::size_t length = text_width(word);
    if (!out.empty() && column + spaces + length > width) {
      out += "\n" + std::string(hanging, ' ');
      column = hanging;
    } else {
      out += std::string(spaces, ' ');
      column += spaces;
    }
    out += word;
    column += length;
    at = word_end;
  }
  return out;
}

}  // namespace

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string padded(std::string_view text, std::size_t width) {
  const std::size_t w = text_width(text);
  return std::string(text) + std::string(w < width ? width - w : 1, ' ');
}

std::string wrap(std::string_view text, std::size_t width, std::size_t hanging) {
  return wrap_from(text, width, hanging, 0);
}

std::string columns(std::span<const Row> rows, std::size_t indent, std::size_t max_first, std::size_t width) {
  std::size_t first = 0;
  for (const auto& row : rows)
    if (const std::size_t w = text_width(row.first); w <= max_first) first = std::max(first, w);
  const std::size_t second_at = indent + first + 2;
  std::string out;
  for (const auto& row : rows) {
    out += std::string(indent, ' ') + row.first;
    const std::size_t w = text_width(row.first);
    if (row.second.empty()) {
      out += "\n";
      continue;
    }
    if (w > first)
      out += "\n" + std::string(second_at, ' ');
    else
      out += std::string(second_at - indent - w, ' ');
    out += wrap_from(row.second, width, second_at, second_at) + "\n";
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

std::string printable(std::string_view text, std::size_t max_bytes) { return shorten(visible(text), max_bytes); }

namespace {

// The length of the valid UTF-8 sequence that starts `text` (2 to 4), or 0 if there is none:
// no overlong forms, no surrogates, nothing above U+10FFFF.
std::size_t utf8_sequence_length(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // the range allowed for the second byte
  if (lead >= 0xc2 && lead <= 0xdf)
    length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
  }
  if (length == 0 || text.size() < length || byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if ((byte(i) & 0xc0) != 0x80) return 0;
  return length;
}

void append_hex_escape(std::string& out, std::string_view prefix, unsigned value, int digits) {
  constexpr char hex[] = "0123456789abcdef";
  out += prefix;
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += hex[(value >> shift) & 0xf];
}

}  // namespace

std::string visible(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      // A run of printable ASCII, appended whole.
      std::size_t end = i + 1;
      while (end < text.size() && static_cast<unsigned char>(text[end]) >= 0x20 &&
             static_cast<unsigned char>(text[end]) < 0x7f)
        ++end;
      out.append(text, i, end - i);
      i = end;
    } else if (c < 0x80) {
      if (c == '\n')
        out += "\\n";
      else if (c == '\t')
        out += "\\t";
      else if (c == '\r')
        out += "\\r";
      else
        append_hex_escape(out, "\\x", c, 2);
      ++i;
    } else if (const std::size_t length = utf8_sequence_length(text.substr(i)); length == 0) {
      append_hex_escape(out, "\\x", c, 2);
      ++i;
    } else {
      if (c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0)  // C1: U+0080 to U+009F
        append_hex_escape(out, "\\u", static_cast<unsigned char>(text[i + 1]), 4);
      else
        out += text.substr(i, length);
      i += length;
    }
  }
  return out;
}

// Written here rather than by dump: its serializer writes a character at a time through an
// adapter. dump's escapes (ensure_ascii off): the short ones, \u00XX for any other control
// character; DEL and valid UTF-8 as they are. A string with invalid UTF-8, which dump replaces
// in its own way, is left to dump.
void append_json_string(std::string& out, std::string_view text) {
  const std::size_t start = out.size();
  out.reserve(start + text.size() + 2);
  out += '"';
  std::size_t plain_from = 0;  // the run of bytes written as they are, appended at once
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t length = utf8_sequence_length(text.substr(i));
      if (length == 0) {  // what was written of it is taken back
        out.resize(start);
        out += nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        return;
      }
      i += length;
      continue;
    }
    if (c >= 0x20 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    out.append(text.data() + plain_from, i - plain_from);
    plain_from = ++i;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: append_hex_escape(out, "\\u", c, 4); break;
    }
  }
  out.append(text.data() + plain_from, text.size() - plain_from);
  out += '"';
}

IntegerText::IntegerText(const nlohmann::json& integer) {
  const auto written = integer.is_number_unsigned()
                           ? std::to_chars(digits_, digits_ + sizeof digits_, integer.get<std::uint64_t>())
                           : std::to_chars(digits_, digits_ + sizeof digits_, integer.get<std::int64_t>());
  size_ = static_cast<std::size_t>(written.ptr - digits_);
}

void append_json(std::string& out, const nlohmann::json& value, int indent, std::size_t width) {
  using Type = nlohmann::json::value_t;
  switch (value.type()) {
    case Type::object:
    case Type::array: {
      const bool object = value.is_object();
      if (value.empty()) {
        out += object ? "{}" : "[]";
        return;
      }
      out += object ? '{' : '[';
      // One line (indent -1): "," and ":" alone; indented: each member on a line of its own.
      const std::size_t inner = indent < 0 ? 0 : width + static_cast<std::size_t>(indent);
      const auto next_line = [&] {
        if (indent < 0) return;
        out += '\n';
        out.append(inner, ' ');
      };
      // The containers themselves, not nlohmann's iterators, which ask the value's kind at every step.
      bool first = true;
      if (object) {
        for (const auto& [key, member] : value.get_ref<const nlohmann::json::object_t&>()) {
          if (!first) out += ',';
          first = false;
          next_line();
          append_json_string(out, key);
          out += indent < 0 ? ":" : ": ";
          append_json(out, member, indent, inner);
        }
      } else {
        for (const auto& element : value.get_ref<const nlohmann::json::array_t&>()) {
          if (!first) out += ',';
          first = false;
          next_line();
          append_json(out, element, indent, inner);
        }
      }
      if (indent >= 0) {
        out += '\n';
        out.append(width, ' ');
      }
      out += object ? '}' : ']';
      return;
    }
    case Type::string: append_json_string(out, value.get_ref<const std::string&>()); return;
    case Type::boolean: out += value.get<bool>() ? "true" : "false"; return;
    case Type::null: out += "null"; return;
    case Type::number_integer:
    case Type::number_unsigned: out += IntegerText(value).view(); return;
    default: out += value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); return;
  }
}

std::string json_text(const nlohmann::json& value, int indent) {
  std::string out;
  out.reserve(256);  // a message's size: grown once or never, not from empty at every step
  append_json(out, value, indent);
  return out;
}

std::string value_text(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : json_text(value);
}

std::string shown(const nlohmann::json& value, std::size_t max_bytes) { return shorten(json_text(value), max_bytes); }

std::string markdown_cell(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : visible(text)) {
    if (c == '|')
      out += "\\|";
    else
      out += c;
  }
  return out;
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto plain = [](unsigned char c) {
    return c >= 0x20 && c < 0x7f && c != '&' && c != '<' && c != '>' && c != '"' && c != '\'';
  };
  const auto kept = [](unsigned char c) { return c == '\t' || c == '\n' || c == '\r'; };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t end = i + 1;
    if (plain(c)) {
      while (end < text.size() && plain(static_cast<unsigned char>(text[end]))) ++end;
      out.append(text, i, end - i);
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else if (c == '\'') {
      out += "&apos;";
    } else if (kept(c)) {
      // Tabs and line breaks stay (a <pre> keeps its layout).
      out += static_cast<char>(c);
    } else {
      // Every other control character and every invalid byte is shown escaped (XML 1.0 cannot
      // hold them at all), as `visible` shows them: a run of such bytes, which holds any UTF-8
      // sequence that starts in it, and whose escapes hold nothing HTML would read.
      while (end < text.size()) {
        const auto next = static_cast<unsigned char>(text[end]);
        if ((next >= 0x20 && next < 0x7f) || kept(next)) break;
        ++end;
      }
      out += visible(text.substr(i, end - i));
    }
    i = end;
  }
  return out;
}

}  // namespace mcp_hints
