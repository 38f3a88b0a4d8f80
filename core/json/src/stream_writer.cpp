#include "mcp_hints/json/stream_writer.hpp"

#include <stdexcept>
#include <string>

namespace mcp_hints {

JsonStreamWriter::JsonStreamWriter(std::ostream& out, int indent, std::size_t depth)
    : out_(out), indent_(indent < 0 ? 0 : indent), base_depth_(depth) {}

void JsonStreamWriter::newline(std::size_t depth) {
  const std::size_t width = (base_depth_ + depth) * static_cast<std::size_t>(indent_);
  if (spaces_.size() < width + 1) spaces_ = '\n' + std::string(2 * width + 16, ' ');
  out_.write(spaces_.data(), static_cast<std::streamsize>(width + 1));
}

void JsonStreamWriter::before_value() {
  if (open_.empty()) return;
  Level& top = open_.back();
  if (top.object) {
    if (!after_key_) throw std::logic_error("JsonStreamWriter: a member's value without its key");
    after_key_ = false;
    return;
  }
  if (!top.empty) out_ << ',';
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
  if (!top.empty) out_ << ',';
  top.empty = false;
  top.last_key = name;
  newline(open_.size());
  out_ << nlohmann::json(name).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << ": ";
  after_key_ = true;
}

void JsonStreamWriter::begin_object() {
  before_value();
  out_ << '{';
  open_.push_back({true, true, {}});
}

void JsonStreamWriter::begin_array() {
  before_value();
  out_ << '[';
  open_.push_back({false, true, {}});
}

void JsonStreamWriter::end() {
  if (open_.empty() || after_key_) throw std::logic_error("JsonStreamWriter: nothing to end, or a key without a value");
  const Level level = open_.back();
  open_.pop_back();
  if (!level.empty) newline(open_.size());
  out_ << (level.object ? '}' : ']');
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
  write(out_);
}

void JsonStreamWriter::value(const nlohmann::json& v) {
  before_value();
  const std::string text = v.dump(indent_, ' ', false, nlohmann::json::error_handler_t::replace);
  // dump indents from column 0; within the document every line but the first moves right. A
  // string's line break is escaped in JSON text, so every '\n' here starts a line of structure.
  // The value is indented into one piece and written at once (a write per line costs more).
  const std::size_t width = (base_depth_ + open_.size()) * static_cast<std::size_t>(indent_);
  if (width == 0 || text.find('\n') == std::string::npos) {
    out_.write(text.data(), static_cast<std::streamsize>(text.size()));
    return;
  }
  indented_.clear();
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    indented_.append(text, start, nl + 1 - start);
    indented_.append(width, ' ');
  }
  indented_.append(text, start);
  out_.write(indented_.data(), static_cast<std::streamsize>(indented_.size()));
}

}  // namespace mcp_hints
