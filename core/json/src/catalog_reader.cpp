#include "mcp_hints/json/catalog_reader.hpp"
#include "mcp_hints/json/text.hpp"

#include <iterator>
#include <vector>

namespace mcp_hints {
namespace {

using json = nlohmann::json;

// Reads the stream in large chunks and hands the parser one character at a time, counting
// lines and following strings as it goes; reports the end of input once the byte limit or the
// string length limit is passed (the reader then says why the input ended).
class ChunkedInput {
 public:
  ChunkedInput(std::istream& in, const InputLimits& limits)
      : in_(in), max_bytes_(limits.max_bytes), max_string_(limits.max_string), buffer_(1 << 20) {}

  bool at_end() { return string_too_long_ || (pos_ == end_ && !refill()); }
  char peek() const { return buffer_[pos_]; }
  void advance() {
    const char c = buffer_[pos_++];
    const auto byte = static_cast<unsigned char>(c);
    // A token starts at a quote, a bracket, or the first character of a literal or number; the
    // value the parser reports next began at the last such start.
    if (!in_string_ && !is_space(c) && c != ',' && c != ':' && c != '}' && c != ']' && after_delimiter_)
      token_start_ = {line_, column_};
    if (!in_string_) after_delimiter_ = is_space(c) || c == ',' || c == ':' || c == '[' || c == '{';
    if ((byte & 0xc0) != 0x80) column_ += byte >= 0xf0 ? 2 : 1;  // UTF-16 code units
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      if (in_string_ && ++string_length_ > max_string_) string_too_long_ = true;
    } else if (c == '"') {
      in_string_ = true;
      string_length_ = 0;
    } else if (c == '\n') {
      ++line_;
      column_ = 1;
    }
  }
  std::size_t line() const { return line_; }
  // Where the last token (the value just reported) started.
  TextPosition token_start() const { return token_start_; }
  bool over_limit() const { return over_limit_; }
  bool string_too_long() const { return string_too_long_; }

 private:
  bool refill() {
    if (over_limit_ || !in_) return false;
    in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    const auto got = static_cast<std::size_t>(in_.gcount());
    if (got == 0) return false;
    consumed_ += got;
    pos_ = 0;
    end_ = got;
    if (consumed_ > max_bytes_) {
      // Hand over only what fits under the limit, then stop.
      const std::size_t excess = consumed_ - max_bytes_;
      end_ = got > excess ? got - excess : 0;
      over_limit_ = true;
    }
    return end_ > 0;
  }

  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

  std::istream& in_;
  std::size_t max_bytes_, max_string_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0, end_ = 0, consumed_ = 0, line_ = 1, column_ = 1, string_length_ = 0;
  TextPosition token_start_;
  bool over_limit_ = false, in_string_ = false, escaped_ = false, string_too_long_ = false;
  bool after_delimiter_ = true;
};

// The iterator pair nlohmann's parser reads through.
class ChunkedIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = char;

  ChunkedIterator() = default;
  explicit ChunkedIterator(ChunkedInput* input) : input_(input) {}
  char operator*() const { return input_->peek(); }
  ChunkedIterator& operator++() {
    input_->advance();
    return *this;
  }
  bool operator==(const ChunkedIterator& other) const { return done() == other.done(); }

 private:
  bool done() const { return input_ == nullptr || input_->at_end(); }
  ChunkedInput* input_ = nullptr;
};

// A SAX handler that finds the tools array of any accepted shape and builds one tool at a time.
class CatalogHandler : public nlohmann::json_sax<json> {
 public:
  CatalogHandler(const InputLimits& limits, const ChunkedInput& state,
                 const std::function<void(CatalogTool&&)>& on_tool)
      : limits_(limits), state_(state), on_tool_(on_tool) {}

  // Frames of the document outside the tool being built.
  struct Frame {
    bool is_array;
    std::string key;        // current member name (objects)
    std::size_t index = 0;  // next element index (arrays)
  };

  bool null() override { return value(json(nullptr)); }
  bool boolean(bool v) override { return value(json(v)); }
  bool number_integer(number_integer_t v) override { return value(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return value(json(v)); }
  bool number_float(number_float_t v, const string_t&) override { return value(json(v)); }
  bool string(string_t& v) override { return value(json(std::move(v))); }
  bool binary(binary_t& v) override { return value(json::binary(std::move(v))); }

  bool start_object(std::size_t) override { return open(false); }
  bool start_array(std::size_t) override { return open(true); }
  bool key(string_t& k) override {
    if (builder_.building()) {
      builder_.key(std::move(k));
      return true;
    }
    frames_.back().key = std::move(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
    error_ = describe_parse_error(ex);
    return false;
  }

  // Where the parser is: the container being read, inside the tool being built if any.
  std::string location() const { return builder_.building() ? tool_pointer_ + builder_.path() : pointer(); }

  const std::string& error() const { return error_; }
  const std::string& error_pointer() const { return error_pointer_; }
  bool saw_tools() const { return tools_found_; }
  CatalogShape shape() const { return shape_; }
  std::size_t tool_count() const { return tool_count_; }
  const json& rpc_error() const { return rpc_error_; }
  bool root_is_object() const { return root_kind_ == 1; }
  bool root_seen() const { return root_kind_ != 0; }
  const std::vector<std::string>& root_keys() const { return root_keys_; }
  bool tools_not_array() const { return tools_not_array_; }

 private:
  std::string pointer() const {
    std::string p;
    for (const auto& f : frames_) p += "/" + (f.is_array ? std::to_string(f.index) : escape_pointer_token(f.key));
    return p;
  }

  // Where the tools array sits: [] (bare array), ["tools"], or ["result","tools"].
  bool at_tools_array() const {
    if (frames_.empty()) return false;
    if (frames_.size() == 1 && frames_[0].is_array) return true;
    if (frames_.size() == 2 && !frames_[0].is_array && frames_[1].is_array) return frames_[0].key == "tools";
    if (frames_.size() == 3 && !frames_[0].is_array && !frames_[1].is_array && frames_[2].is_array)
      return frames_[0].key == "result" && frames_[1].key == "tools";
    return false;
  }

  std::size_t depth() const { return frames_.size() + builder_.depth(); }

  bool fail_depth() {
    error_ = "nesting deeper than " + std::to_string(limits_.max_depth) + " levels";
    error_pointer_ = location();
    return false;
  }

  bool open(bool is_array) {
    if (depth() + 1 > limits_.max_depth) return fail_depth();
    if (builder_.building()) {
      note_position();
      builder_.open(is_array);
      return true;
    }
    if (frames_.empty()) {
      root_kind_ = is_array ? 2 : 1;
    } else if (at_tools_array()) {
      tool_pointer_ = pointer();
      tool_line_ = state_.line();
      note_position();
      builder_.open(is_array);
      return true;
    } else if (capture_rpc_error()) {
      rpc_building_ = true;
      builder_.open(is_array);
      return true;
    }
    note_member(is_array);
    frames_.push_back(Frame{is_array, {}, 0});
    if (is_array && at_tools_array()) {
      tools_found_ = true;
      shape_ = frames_.size() == 1   ? CatalogShape::bare_array
               : frames_.size() == 2 ? CatalogShape::list_result
                                     : CatalogShape::jsonrpc_response;
    }
    return true;
  }

  // Notes facts about the root object's members for a clear error when no tools array is found.
  void note_member(bool is_array) {
    if (frames_.size() == 1 && !frames_[0].is_array) {
      root_keys_.push_back(frames_[0].key);
      if (frames_[0].key == "tools" && !is_array) tools_not_array_ = true;
    }
    if (frames_.size() == 2 && frames_[0].key == "result" && !frames_[0].is_array && frames_[1].key == "tools" &&
        !is_array)
      tools_not_array_ = true;
  }

  bool capture_rpc_error() const { return frames_.size() == 1 && !frames_[0].is_array && frames_[0].key == "error"; }

  bool close() {
    if (builder_.building()) {
      builder_.close();
      if (builder_.done()) finish_built();
      return true;
    }
    frames_.pop_back();
    if (!frames_.empty() && frames_.back().is_array) ++frames_.back().index;
    return true;
  }

  bool value(json&& v) {
    if (builder_.building()) {
      note_position();
      builder_.value(std::move(v));
      return true;
    }
    if (frames_.empty()) {
      root_kind_ = 3;
      return true;
    }
    if (at_tools_array()) {
      tool_pointer_ = pointer();
      tool_line_ = state_.line();
      note_position();
      builder_.value(std::move(v));
      finish_built();
      return true;
    }
    if (capture_rpc_error()) rpc_error_ = std::move(v);
    note_member(false);
    if (frames_.back().is_array) ++frames_.back().index;
    return true;
  }

  // Where the value about to be added to the tool starts (a JSON-RPC error's are not kept).
  void note_position() {
    if (!rpc_building_) positions_.add(builder_.next_pointer(), state_.token_start());
  }

  void finish_built() {
    if (rpc_building_) {
      rpc_building_ = false;
      rpc_error_ = builder_.take();
      frames_.back().key.clear();
      return;
    }
    auto& array = frames_.back();
    on_tool_(CatalogTool{builder_.take(), tool_pointer_, array.index, tool_line_, std::move(positions_)});
    positions_ = ValuePositions();
    ++array.index;
    ++tool_count_;
  }

  const InputLimits& limits_;
  const ChunkedInput& state_;
  const std::function<void(CatalogTool&&)>& on_tool_;
  std::vector<Frame> frames_;
  JsonBuilder builder_;  // the tool (or JSON-RPC error) being built
  std::string tool_pointer_;
  std::size_t tool_line_ = 0;
  ValuePositions positions_;  // of the tool being built
  std::size_t tool_count_ = 0;
  bool tools_found_ = false;
  bool tools_not_array_ = false;
  bool rpc_building_ = false;
  CatalogShape shape_ = CatalogShape::bare_array;
  json rpc_error_;
  int root_kind_ = 0;  // 0 none, 1 object, 2 array, 3 scalar
  std::vector<std::string> root_keys_;
  std::string error_;
  std::string error_pointer_;
};

std::string list_keys(const std::vector<std::string>& keys) {
  if (keys.empty()) return "an empty object";
  std::string out = "members ";
  for (std::size_t i = 0; i < keys.size() && i < 6; ++i) out += (i ? ", " : "") + ("\"" + keys[i] + "\"");
  if (keys.size() > 6) out += ", …";
  return out;
}

}  // namespace

TextPosition ValuePositions::at(std::string_view pointer) const {
  for (;;) {
    if (const auto it = positions_.find(pointer); it != positions_.end()) return it->second;
    if (pointer.empty()) return {};
    pointer = pointer.substr(0, pointer.rfind('/'));
  }
}

CatalogSummary read_catalog(std::istream& in, const InputLimits& limits,
                            const std::function<void(CatalogTool&&)>& on_tool) {
  ChunkedInput input(in, limits);
  CatalogHandler handler(limits, input, on_tool);
  const bool ok = nlohmann::json::sax_parse(ChunkedIterator(&input), ChunkedIterator(), &handler);
  if (input.over_limit())
    throw InputError("input is larger than the limit of " + std::to_string(limits.max_bytes) + " bytes");
  if (input.string_too_long())
    throw InputError("a string longer than the limit of " + std::to_string(limits.max_string) + " bytes",
                     handler.location(), input.line());
  if (!ok) throw InputError(handler.error(), handler.error_pointer(), input.line());
  if (!handler.rpc_error().is_null()) {
    const auto& e = handler.rpc_error();
    // A well-formed error says {code, message}; show whatever this one says.
    const json& said = e.is_object() && e.contains("message") ? e["message"] : e;
    const std::string detail =
        said.is_object() && said.empty() ? std::string("no message") : shorten(value_text(said), 200);
    std::string code = e.is_object() && e.contains("code") && e["code"].is_number() ? e["code"].dump() + " " : "";
    throw InputError("the document is a JSON-RPC error response (" + code + detail + "), not a tools/list result",
                     "/error");
  }
  if (!handler.saw_tools()) {
    if (handler.tools_not_array()) throw InputError("the tools member is not an array", "/tools");
    if (!handler.root_is_object())
      throw InputError("not a tools/list result: expected an object with a tools array, or an array of tools");
    throw InputError("not a tools/list result: no tools array at /tools or /result/tools (found " +
                     list_keys(handler.root_keys()) + ")");
  }
  return CatalogSummary{handler.shape(), handler.tool_count()};
}

}  // namespace mcp_hints
