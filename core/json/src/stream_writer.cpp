#include "mcp_hints/json/stream_writer.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace mcp_hints {

JsonStreamWriter::JsonStreamWriter(std::ostream& out, int indent, std::size_t depth)
    : out_(out), indent_(indent < 0 ? 0 : indent), base_depth_(depth) {}

JsonStreamWriter::~JsonStreamWriter() { flush(); }

// The text goes out in pieces of some size (a write per token costs more than the token), and
// whole whenever the caller may write to the stream itself: after the document, before raw().
void JsonStreamWriter::flush() {
  if (pending_.empty()) return;
  out_.write(pending_.data(), static_cast<std::streamsize>(pending_.size()));
  pending_.clear();
}

void JsonStreamWriter::after_value() {
  if (open_.empty() || pending_.size() >= (std::size_t{64} << 10)) flush();
}

void JsonStreamWriter::newline(std::size_t depth) {
  pending_ += '\n';
  pending_.append((base_depth_ + depth) * static_cast<std::size_t>(indent_), ' ');
}

void JsonStreamWriter::before_value() {
  if (open_.empty()) return;
  Level& top = open_.back();
  if (top.object) {
    if (!after_key_) throw std::logic_error("JsonStreamWriter: a member's value without its key");
    after_key_ = false;
    return;
  }
  if (!top.empty) pending_ += ',';
  top.empty = false;
  newline(open_.size());
}

void JsonStreamWriter::key(std::string_view name) {
  if (open_.empty() || !open_.back().object || after_key_)
    throw std::logic_error("JsonStreamWriter: a key outside an object, or two keys in a row");
  Level& top = open_.back();
  if (!top.empty && !(top.last_key < name))
    throw std::logic_error("JsonStreamWriter: key \"" + std::string(name) + "\" after \"" + top.last_key +
                           "\" (dump writes keys sorted)");
  if (!top.empty) pending_ += ',';
  top.empty = false;
  top.last_key = name;
  newline(open_.size());
  append_string(pending_, name);
  pending_ += ": ";
  after_key_ = true;
}

void JsonStreamWriter::begin_object() {
  before_value();
  pending_ += '{';
  open_.push_back({true, true, {}});
}

void JsonStreamWriter::begin_array() {
  before_value();
  pending_ += '[';
  open_.push_back({false, true, {}});
}

void JsonStreamWriter::end() {
  if (open_.empty() || after_key_) throw std::logic_error("JsonStreamWriter: nothing to end, or a key without a value");
  const Level level = open_.back();
  open_.pop_back();
  if (!level.empty) newline(open_.size());
  pending_ += level.object ? '}' : ']';
  after_value();
}

void JsonStreamWriter::object(const nlohmann::json& members, const Streamed& streamed) {
  begin_object();
  auto member = members.items().begin();
  auto stream = streamed.begin();
  // Both are sorted; merged, they are the object's members in dump's order.
  while (member != members.items().end() || stream != streamed.end()) {
    if (stream == streamed.end() || (member != members.items().end() && member.key() < stream->first)) {
      this->member(member.key(), member.value());
      ++member;
    } else {
      key(stream->first);
      stream->second();
      ++stream;
    }
  }
  end();
}

void JsonStreamWriter::raw(const std::function<void(std::ostream&)>& write) {
  before_value();
  flush();
  write(out_);
}

void JsonStreamWriter::value(const nlohmann::json& v) {
  before_value();
  append_value(pending_, v, (base_depth_ + open_.size()) * static_cast<std::size_t>(indent_));
  after_value();
}

void JsonStreamWriter::text(std::string_view s) {
  before_value();
  append_string(pending_, s);
  after_value();
}

void JsonStreamWriter::number(std::uint64_t n) {
  before_value();
  pending_ += std::to_string(n);
  after_value();
}

// dump's text, written here rather than by dump: its serializer writes a character at a time,
// and a report of a million findings is mostly this. Text dump would write differently (a string
// with escapes or bytes beyond ASCII, a floating-point number) is left to dump itself.
void JsonStreamWriter::append_string(std::string& out, std::string_view s) {
  const bool plain =
      std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
  if (!plain) {
    out += nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  out += '"';
  out += s;
  out += '"';
}

void JsonStreamWriter::append_value(std::string& out, const nlohmann::json& v, std::size_t width) const {
  using Type = nlohmann::json::value_t;
  const auto step = static_cast<std::size_t>(indent_);
  switch (v.type()) {
    case Type::object:
    case Type::array: {
      const bool object = v.is_object();
      if (v.empty()) {
        out += object ? "{}" : "[]";
        return;
      }
      out += object ? '{' : '[';
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        out += first ? "\n" : ",\n";
        first = false;
        out.append(width + step, ' ');
        if (object) {
          append_string(out, it.key());
          out += ": ";
        }
        append_value(out, *it, width + step);
      }
      out += '\n';
      out.append(width, ' ');
      out += object ? '}' : ']';
      return;
    }
    case Type::string: append_string(out, v.get_ref<const std::string&>()); return;
    case Type::boolean: out += v.get<bool>() ? "true" : "false"; return;
    case Type::null: out += "null"; return;
    case Type::number_integer: out += std::to_string(v.get<std::int64_t>()); return;
    case Type::number_unsigned: out += std::to_string(v.get<std::uint64_t>()); return;
    default: out += v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); return;
  }
}

}  // namespace mcp_hints
