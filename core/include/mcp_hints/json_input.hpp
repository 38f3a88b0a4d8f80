#pragma once
// Bounded reading of untrusted JSON: every limit gives an InputError with one line of text.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mcp_hints {

struct InputLimits {
  std::size_t max_bytes = std::size_t{1} << 30;  // whole document
  std::size_t max_depth = 256;                   // nesting of arrays and objects
  std::size_t max_string = std::size_t{16} << 20;  // one string or member name, in bytes
};

// A problem with input: says what was wrong and, where known, where (JSON pointer, line).
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what, std::string pointer = {}, std::size_t line = 0)
      : std::runtime_error(what), pointer_(std::move(pointer)), line_(line) {}
  const std::string& pointer() const { return pointer_; }
  std::size_t line() const { return line_; }

 private:
  std::string pointer_;
  std::size_t line_;
};

// Parses a whole document held in memory, within the limits.
nlohmann::json parse_json(std::string_view text, const InputLimits& limits = {});

// nlohmann's parse error as one short line: "not valid JSON: parse error at line L, column C: ...".
std::string describe_parse_error(const std::exception& error);

// Escapes one reference token of a JSON pointer (RFC 6901).
std::string escape_pointer_token(std::string_view token);

}  // namespace mcp_hints
