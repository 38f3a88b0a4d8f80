#include "mcp_hints/json/stream_writer.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "mcp_hints/json/text.hpp"

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
  append_json_string(pending_, name);
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
  append_json(pending_, v, indent_, (base_depth_ + open_.size()) * static_cast<std::size_t>(indent_));
  after_value();
}

void JsonStreamWriter::text(std::string_view s) {
  before_value();
  append_json_string(pending_, s);
  after_value();
}

void JsonStreamWriter::number(std::uint64_t n) {
  before_value();
  pending_ += std::to_string(n);
  after_value();
}

}  // namespace mcp_hints
