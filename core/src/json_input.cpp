#include "mcp_hints/json_input.hpp"

namespace mcp_hints {

std::string escape_pointer_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
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

nlohmann::json parse_json(std::string_view text, const InputLimits& limits) {
  if (text.size() > limits.max_bytes)
    throw InputError("input is " + std::to_string(text.size()) + " bytes, over the limit of " +
                     std::to_string(limits.max_bytes));
  // The parser itself is iterative; the callback stops documents nested deeper than the limit
  // before anything recursive (such as printing) meets them.
  bool too_deep = false;
  auto guard = [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (static_cast<std::size_t>(depth) > limits.max_depth) too_deep = true;
    return !too_deep;
  };
  try {
    auto value = nlohmann::json::parse(text, guard);
    if (too_deep) throw InputError("nesting deeper than " + std::to_string(limits.max_depth) + " levels");
    return value;
  } catch (const nlohmann::json::parse_error& e) {
    if (too_deep) throw InputError("nesting deeper than " + std::to_string(limits.max_depth) + " levels");
    throw InputError(describe_parse_error(e));
  }
}

}  // namespace mcp_hints
