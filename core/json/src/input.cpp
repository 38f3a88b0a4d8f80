#include "mcp_hints/json/input.hpp"

namespace mcp_hints {

std::string escape_pointer_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
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

void JsonBuilder::value(nlohmann::json&& v) {
  if (stack_.empty()) {
    root_ = std::move(v);
    done_ = true;
    return;
  }
  insert(std::move(v));
}

void JsonBuilder::open(bool is_array) {
  nlohmann::json fresh = is_array ? nlohmann::json::array() : nlohmann::json::object();
  if (stack_.empty()) {
    root_ = std::move(fresh);
    done_ = false;
    stack_.push_back(&root_);
    return;
  }
  const nlohmann::json& parent = *stack_.back();
  path_.push_back(parent.is_array() ? std::to_string(parent.size()) : key_);
  stack_.push_back(insert(std::move(fresh)));
}

void JsonBuilder::close() {
  stack_.pop_back();
  if (stack_.empty()) {
    done_ = true;
  } else {
    path_.pop_back();
  }
}

nlohmann::json JsonBuilder::take() {
  done_ = false;
  stack_.clear();
  path_.clear();
  return std::move(root_);
}

std::string JsonBuilder::path() const {
  std::string p;
  for (const auto& token : path_) p += "/" + escape_pointer_token(token);
  return p;
}

std::string JsonBuilder::next_pointer() const {
  if (stack_.empty()) return {};
  const nlohmann::json& parent = *stack_.back();
  return path() + "/" + (parent.is_array() ? std::to_string(parent.size()) : escape_pointer_token(key_));
}

nlohmann::json* JsonBuilder::insert(nlohmann::json&& v) {
  nlohmann::json& parent = *stack_.back();
  if (parent.is_array()) {
    parent.push_back(std::move(v));
    return &parent.back();
  }
  nlohmann::json& slot = parent[key_];
  slot = std::move(v);
  return &slot;
}

namespace {

// A whole document into a tree, refusing nesting deeper than the limit.
class BoundedDomParser : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit BoundedDomParser(std::size_t max_depth) : max_depth_(max_depth) {}
  bool null() override { return value(nullptr); }
  bool boolean(bool v) override { return value(v); }
  bool number_integer(number_integer_t v) override { return value(v); }
  bool number_unsigned(number_unsigned_t v) override { return value(v); }
  bool number_float(number_float_t v, const string_t&) override { return value(v); }
  bool string(string_t& v) override { return value(std::move(v)); }
  bool binary(binary_t& v) override { return value(nlohmann::json::binary(std::move(v))); }
  bool start_object(std::size_t) override { return open(false); }
  bool start_array(std::size_t) override { return open(true); }
  bool key(string_t& k) override {
    builder.key(std::move(k));
    return true;
  }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error = describe_parse_error(e);
    return false;
  }

  JsonBuilder builder;
  std::string error;

 private:
  bool value(nlohmann::json&& v) {
    builder.value(std::move(v));
    return true;
  }
  bool open(bool is_array) {
    if (builder.depth() + 1 > max_depth_) {
      error = "nesting deeper than " + std::to_string(max_depth_) + " levels at " + builder.path();
      return false;
    }
    builder.open(is_array);
    return true;
  }
  bool close() {
    builder.close();
    return true;
  }
  std::size_t max_depth_;
};

}  // namespace

nlohmann::json parse_json(std::string_view text, const InputLimits& limits) {
  if (text.size() > limits.max_bytes)
    throw InputError("input is " + std::to_string(text.size()) + " bytes, over the limit of " +
                     std::to_string(limits.max_bytes));
  BoundedDomParser parser(limits.max_depth);
  if (!nlohmann::json::sax_parse(text, &parser) || !parser.builder.done()) {
    if (parser.error.empty()) parser.error = "not valid JSON";
    throw InputError(parser.error);
  }
  return parser.builder.take();
}

}  // namespace mcp_hints
