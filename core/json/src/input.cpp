#include "mcp_hints/json/input.hpp"

#include "chunked_input.hpp"
#include "fast_sax.hpp"
#include "mcp_hints/json/text.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>

namespace mcp_hints {

void append_pointer_token(std::string& out, std::string_view token) {
  out += '/';
  // Most names have neither '~' nor '/': two scans of the whole (memchr) say so.
  if (token.find('~') == std::string_view::npos && token.find('/') == std::string_view::npos) {
    out += token;
    return;
  }
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
}

std::string escape_pointer_token(std::string_view token) {
  std::string out;
  out.reserve(token.size() + 1);
  append_pointer_token(out, token);
  out.erase(0, 1);
  return out;
}

std::optional<std::string> unescape_pointer_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] != '~') {
      out += token[i];
    } else if (i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out += token[++i] == '0' ? '~' : '/';
    } else {
      return std::nullopt;
    }
  }
  return out;
}

std::string describe_parse_error(const std::exception& error) {
  std::string what = error.what();
  // nlohmann's text: "[json.exception.parse_error.101] parse error at line 1, column 2: ...;
  // last read: '<the whole token>'" -- the token can be megabytes long.
  if (auto at = what.find("parse error"); at != std::string::npos) what = what.substr(at);
  constexpr std::size_t max_length = 240;
  if (what.size() > max_length) what = what.substr(0, max_length) + "...'";
  return "not valid JSON: " + what;
}

InputError limit_error(InputLimit which, const InputLimits& limits, std::string pointer, TextPosition at) {
  switch (which) {
    case InputLimit::bytes:
      return InputError("input is larger than the limit of " + std::to_string(limits.max_bytes) + " bytes", {}, 0,
                        "max_bytes");
    case InputLimit::depth:
      return InputError("nesting deeper than " + std::to_string(limits.max_depth) + " levels", std::move(pointer),
                        at.line, "max_depth");
    case InputLimit::string: break;
  }
  return InputError("a string longer than the limit of " + std::to_string(limits.max_string) + " bytes",
                    std::move(pointer), at.line, "max_string");
}

namespace {

std::string where(TextPosition at) {
  return at.line == 0 ? std::string()
                      : " (line " + std::to_string(at.line) + ", column " + std::to_string(at.column) + ")";
}

}  // namespace

std::string DuplicateMember::name() const {
  const auto slash = pointer.rfind('/');
  const std::string token = pointer.substr(slash == std::string::npos ? 0 : slash + 1);
  return unescape_pointer_token(token).value_or(token);
}

std::string DuplicateMember::describe(const nlohmann::json& later) const {
  const auto slash = pointer.rfind('/');
  const std::string object =
      slash == std::string::npos || slash == 0 ? "the top-level object" : "the object at " + pointer.substr(0, slash);
  return "member \"" + printable(name(), 80) + "\" given twice in " + object + ": first " + shown(earlier) +
         where(earlier_at) + ", then " + shown(later) + where(later_at);
}

nlohmann::json given_after(const nlohmann::json& root, std::span<const DuplicateMember> duplicates, std::size_t i) {
  // The members given twice are listed as each one's name is given again: the first listed after
  // this one at its pointer, or at an object holding it, replaced the value given after.
  const std::string& pointer = duplicates[i].pointer;
  const auto inside = [](const nlohmann::json& value, std::string_view below) {
    const nlohmann::json::json_pointer at{std::string(below)};
    return value.contains(at) ? value.at(at) : nlohmann::json();
  };
  for (const auto& later : duplicates.subspan(i + 1)) {
    if (later.pointer == pointer) return later.earlier;
    if (pointer.starts_with(later.pointer) && pointer[later.pointer.size()] == '/')
      return inside(later.earlier, std::string_view(pointer).substr(later.pointer.size()));
  }
  return inside(root, pointer);
}

nlohmann::json* JsonBuilder::scalar_place(TextPosition at) {
  if (!stack_.empty()) return place(at).first;
  spare_root_ = nullptr;
  done_ = true;
  return &root_;
}

void JsonBuilder::value(nlohmann::json&& v, TextPosition at) { *scalar_place(at) = std::move(v); }

void JsonBuilder::string(std::string& s, TextPosition at) {
  nlohmann::json* slot = scalar_place(at);
  if (auto* held = slot->get_ptr<std::string*>())
    held->swap(s);
  else
    *slot = std::move(s);
}

void JsonBuilder::string(std::string_view s, TextPosition at) {
  nlohmann::json* slot = scalar_place(at);
  if (auto* held = slot->get_ptr<std::string*>())
    copy_text(*held, s);
  else
    *slot = std::string(s);
}

void JsonBuilder::open(bool is_array, TextPosition at) {
  nlohmann::json* slot = &root_;
  if (stack_.empty()) {
    root_ = std::move(spare_root_);
    done_ = false;
  } else {
    const std::size_t index = open_[stack_.size() - 1].elements;
    const auto [placed, key] = place(at);  // first: a member given again is reported at its parent
    steps_.push_back({key, index});
    slot = placed;
  }
  stack_.push_back(slot);
  if (open_.size() < stack_.size()) open_.resize(stack_.size());
  Open& open = open_[stack_.size() - 1];
  open.elements = 0;
  // A recycled container of the same kind is kept, what it holds taken as the new one is given. An
  // object's members are told apart from those given twice by a list, looked through: a short one.
  constexpr std::size_t kMostRecycledMembers = 32;
  if (is_array && slot->is_array()) return;
  if (!is_array && slot->is_object() && slot->size() <= kMostRecycledMembers) {
    auto& members = slot->get_ref<nlohmann::json::object_t&>();
    for (auto member = members.begin(); member != members.end(); ++member) open.untouched.push_back(member);
    return;
  }
  *slot = is_array ? nlohmann::json::array() : nlohmann::json::object();
}

void JsonBuilder::close() {
  nlohmann::json& closed = *stack_.back();
  Open& open = open_[stack_.size() - 1];
  if (closed.is_array()) {
    auto& elements = closed.get_ref<nlohmann::json::array_t&>();
    elements.erase(elements.begin() + static_cast<std::ptrdiff_t>(open.elements), elements.end());
  } else {
    auto& members = closed.get_ref<nlohmann::json::object_t&>();
    for (const auto member : open.untouched) members.erase(member);
    open.untouched.clear();
  }
  stack_.pop_back();
  if (stack_.empty())
    done_ = true;
  else
    steps_.pop_back();
}

nlohmann::json JsonBuilder::take() {
  // A value left unfinished keeps what its recycled containers held, in place: any value will do.
  done_ = false;
  stack_.clear();
  steps_.clear();
  spare_root_ = nullptr;
  for (Open& open : open_) open.untouched.clear();
  // A builder may live as long as its thread: a long member name read once keeps no room past it.
  if (key_.capacity() > 1024) std::string().swap(key_);
  return std::move(root_);
}

std::string JsonBuilder::path() const {
  std::string out;
  for (const Step& step : steps_) {
    if (step.key)
      append_pointer_token(out, *step.key);
    else
      out += "/" + std::to_string(step.index);
  }
  return out;
}

std::string JsonBuilder::next_pointer() const {
  if (stack_.empty()) return {};
  const nlohmann::json& parent = *stack_.back();
  return path() + "/" +
         (parent.is_array() ? std::to_string(open_[stack_.size() - 1].elements) : escape_pointer_token(key_));
}

std::pair<nlohmann::json*, const std::string*> JsonBuilder::place(TextPosition at) {
  nlohmann::json& parent = *stack_.back();
  Open& open = open_[stack_.size() - 1];
  if (parent.is_array()) {
    auto& elements = parent.get_ref<nlohmann::json::array_t&>();
    const std::size_t index = open.elements++;
    if (index == elements.size()) elements.emplace_back();
    return {&elements[index], nullptr};
  }
  // A recycled member not given yet is found in the short list of them (most names differ in
  // length, so most are passed over by their size), not by the map's look-up; any other name is
  // made, or found given before.
  for (auto recycled = open.untouched.begin(); recycled != open.untouched.end(); ++recycled) {
    const auto member = *recycled;
    // Names of one length often differ in their first byte: told apart without a call to memcmp.
    const std::string& name = member->first;
    if (name.size() != key_.size() || (!name.empty() && name[0] != key_[0]) || name != key_) continue;
    *recycled = open.untouched.back();
    open.untouched.pop_back();
    return {&member->second, &member->first};
  }
  const auto [member, made] = parent.get_ref<nlohmann::json::object_t&>().try_emplace(key_);
  if (!made) duplicates_.push_back(DuplicateMember{next_pointer(), std::move(member->second), {}, at});
  return {&member->second, &member->first};
}

namespace {

// A whole document into a tree, within the limits; where each value starts is known, for the
// report of a repeated member. `Positions` says where the reader is: detail::ChunkedInput under
// nlohmann's parser, detail::FastPositions under the fast reader.
template <class Positions>
class BoundedDomParser final : public nlohmann::json_sax<nlohmann::json> {
 public:
  BoundedDomParser(const InputLimits& limits, const Positions& input, JsonBuilder& builder)
      : builder(builder), limits_(limits), input_(input) {}
  bool null() override { return value(nullptr); }
  bool boolean(bool v) override { return value(v); }
  bool number_integer(number_integer_t v) override { return value(v); }
  bool number_unsigned(number_unsigned_t v) override { return value(v); }
  bool number_float(number_float_t v, const string_t&) override { return value(v); }
  bool string(string_t& v) override {  // swapped into a recycled string: the reader clears v
    builder.string(v, input_.token_start());
    return true;
  }
  // The fast reader's string where it stands: copied once, into its place.
  bool string_value(std::string_view v) {
    builder.string(v, input_.token_start());
    return true;
  }
  bool binary(binary_t& v) override { return value(nlohmann::json::binary(std::move(v))); }
  bool start_object(std::size_t) override { return open(false); }
  bool start_array(std::size_t) override { return open(true); }
  bool key(string_t& k) override { return key_name(k); }
  bool key_name(std::string_view k) {
    builder.key(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error = InputError(describe_parse_error(e), builder.path(), input_.line());
    return false;
  }

  JsonBuilder& builder;
  std::optional<InputError> error;

 private:
  bool value(nlohmann::json&& v) {
    builder.value(std::move(v), input_.token_start());
    return true;
  }
  bool open(bool is_array) {
    if (builder.depth() + 1 > limits_.max_depth) {
      error = limit_error(InputLimit::depth, limits_, builder.path(), input_.token_start());
      return false;
    }
    builder.open(is_array, input_.token_start());
    return true;
  }
  bool close() {
    builder.close();
    return true;
  }
  const InputLimits& limits_;
  const Positions& input_;
};

}  // namespace

JsonDocument parse_json_document(std::string_view text, const InputLimits& limits, JsonReader reader,
                                 nlohmann::json* recycled) {
  if (reader != JsonReader::nlohmann_only) {
    // One builder per thread, kept: its stacks keep their room from one message to the next.
    thread_local JsonBuilder builder;
    builder.take();  // what a read that threw midway left (a limit passed) is dropped
    builder.take_duplicates();
    detail::FastPositions at;
    BoundedDomParser parser(limits, at, builder);
    if (recycled) builder.recycle(std::move(*recycled));
    detail::TextSource source(text, limits);
    const bool read = detail::FastSaxReader(source, limits, parser, at).read() && builder.done();
    JsonDocument document{builder.take(), builder.take_duplicates()};  // the builder left ready for the next
    if (read) return document;
    if (reader == JsonReader::fast_only) throw InputError("the fast reader gave up");
  }
  // What the fast reader gave up on, read again by nlohmann's parser, which says what is wrong.
  if (recycled) *recycled = nullptr;
  detail::ChunkedInput input(text, limits);
  JsonBuilder builder;
  BoundedDomParser parser(limits, input, builder);
  const bool ok = nlohmann::json::sax_parse(detail::ChunkedIterator(&input), detail::ChunkedIterator(), &parser);
  input.throw_if_stopped(limits, builder.path());
  if (!ok || !builder.done()) throw parser.error.value_or(InputError("not valid JSON"));
  return JsonDocument{builder.take(), builder.take_duplicates()};
}

std::optional<std::pair<std::size_t, std::size_t>> member_value_span(std::string_view text, std::string_view name) {
  std::size_t i = 0;
  const auto space = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  };
  const auto take = [&](char c) {
    space();
    if (i >= text.size() || text[i] != c) return false;
    ++i;
    return true;
  };
  // Past the string whose opening quote is at i; false where it is not closed.
  const auto pass_string = [&] {
    for (++i; i < text.size(); ++i) {
      if (text[i] == '\\')
        ++i;
      else if (text[i] == '"')
        return ++i, true;
    }
    return false;
  };
  if (!take('{')) return std::nullopt;
  for (;;) {
    space();
    if (i >= text.size() || text[i] != '"') return std::nullopt;
    const std::size_t name_begin = i + 1;
    if (!pass_string()) return std::nullopt;
    const std::string_view member = text.substr(name_begin, i - 1 - name_begin);
    if (!take(':')) return std::nullopt;
    space();
    const std::size_t begin = i;
    if (i >= text.size()) return std::nullopt;
    if (text[i] == '"') {
      if (!pass_string()) return std::nullopt;
    } else if (text[i] == '{' || text[i] == '[') {  // passed by its brackets, strings and all
      std::size_t depth = 0;
      while (i < text.size()) {
        const char c = text[i];
        if (c == '"') {
          if (!pass_string()) return std::nullopt;
          continue;
        }
        ++i;
        if (c == '{' || c == '[') {
          ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
          break;
        }
      }
      if (depth > 0) return std::nullopt;
    } else {
      while (i < text.size() && std::string_view(",} \t\r\n").find(text[i]) == std::string_view::npos) ++i;
      if (i == begin) return std::nullopt;
    }
    if (member == name) return std::pair{begin, i};
    if (!take(',')) return std::nullopt;
  }
}

std::optional<nlohmann::json> value_in_place(std::string_view text, std::pair<std::size_t, std::size_t> span,
                                             nlohmann::json::value_t type, std::string_view other,
                                             const InputLimits& limits) {
  const auto [begin, end] = span;
  const std::size_t after = text.size() - end;
  if (other.size() > limits.max_bytes || other.size() < begin + after ||
      other.substr(0, begin) != text.substr(0, begin) || other.substr(other.size() - after) != text.substr(end))
    return std::nullopt;
  const std::string_view given = other.substr(begin, other.size() - after - begin);
  // Digits alone, without a leading zero, that fit: the unsigned integer nlohmann reads them as
  // (a request's id, mostly), without a reader.
  if (type == nlohmann::json::value_t::number_unsigned && !given.empty() && given[0] >= '0' && given[0] <= '9' &&
      (given[0] != '0' || given.size() == 1)) {
    std::uint64_t number = 0;
    const auto [end_of_number, error] = std::from_chars(given.data(), given.data() + given.size(), number);
    if (error == std::errc() && end_of_number == given.data() + given.size()) return nlohmann::json(number);
  }
  // Read alone, a text is read as no member's value is: nlohmann's parser passes over a byte order
  // mark that begins it (in a member's place, an error).
  if (given.starts_with("\xEF\xBB\xBF")) return std::nullopt;
  try {
    // Outside the value the text is one that was read: with a value that reads as the member's
    // would (one level deeper, no member given twice), it reads alike.
    InputLimits member_limits = limits;
    member_limits.max_depth = limits.max_depth == 0 ? 0 : limits.max_depth - 1;
    JsonDocument value = parse_json_document(given, member_limits);
    if (value.value.type() == type && value.duplicates.empty()) return std::move(value.value);
  } catch (const InputError&) {
    // Not one JSON value: the whole text is read as any other, which says what is wrong with it.
  }
  return std::nullopt;
}

MessageReader::MessageReader(std::string name, InputLimits limits, JsonReader reader)
    : name_(std::move(name)), limits_(limits), reader_(reader) {}

nlohmann::json& MessageReader::read(std::string_view text) {
  repeated_ = false;
  if (span_ && message_.is_object()) {
    if (auto value = value_in_place(text_, *span_, type_, text, limits_)) {
      message_[name_] = std::move(*value);
      repeated_ = true;
      return message_;
    }
  }
  span_.reset();
  JsonDocument document;
  try {
    document = parse_json_document(text, limits_, reader_, &message_);
  } catch (const InputError&) {
    message_ = nullptr;
    throw;
  }
  message_ = std::move(document.value);
  if (document.duplicates.empty() && message_.is_object()) {
    // A message without the member (a notification's id) is not scanned for it.
    const auto member = message_.find(name_);
    if (member != message_.end()) span_ = member_value_span(text, name_);
    if (span_) {
      type_ = member->type();
      text_.assign(text);
    }
  }
  return message_;
}

std::string read_text(std::istream& in, const InputLimits& limits) {
  std::string text;
  char chunk[65536];
  while (text.size() <= limits.max_bytes) {
    const std::size_t want = std::min(sizeof chunk, limits.max_bytes + 1 - text.size());
    const auto got = in.read(chunk, static_cast<std::streamsize>(want)).gcount();
    if (got <= 0) break;
    text.append(chunk, static_cast<std::size_t>(got));
  }
  return text;
}

nlohmann::json parse_json(std::string_view text, const InputLimits& limits) {
  JsonDocument document = parse_json_document(text, limits);
  if (!document.duplicates.empty()) {
    const auto& first = document.duplicates.front();
    throw InputError(first.describe(given_after(document.value, document.duplicates, 0)) +
                         "; which one counts is undefined (RFC 8259, 4)",
                     first.pointer, first.later_at.line);
  }
  return std::move(document.value);
}

}  // namespace mcp_hints
