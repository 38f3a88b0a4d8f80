#pragma once
// Bounded reading of untrusted JSON: every limit gives an InputError with one line of text.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/error.hpp"

namespace mcp_hints {

struct InputLimits {
  std::size_t max_bytes = std::size_t{1} << 30;    // whole document
  std::size_t max_depth = 256;                     // nesting of arrays and objects
  std::size_t max_string = std::size_t{16} << 20;  // one string or member name, in bytes
};

// A problem with input: says what was wrong and, where known, where (JSON pointer, line).
class InputError : public Error {
 public:
  explicit InputError(const std::string& what, std::string pointer = {}, std::size_t line = 0)
      : Error(Category::bad_input, what), pointer_(std::move(pointer)), line_(line) {}
  const std::string& pointer() const { return pointer_; }
  std::size_t line() const { return line_; }

 private:
  std::string pointer_;
  std::size_t line_;
};

// Builds one JSON value from SAX events, remembering where it is so a caller can say where a
// problem was. Nothing here recurses, so any depth the caller allows is safe to build.
class JsonBuilder {
 public:
  bool building() const { return !stack_.empty(); }
  std::size_t depth() const { return stack_.size(); }
  // A value: the root when nothing is being built, else the next member or element.
  void value(nlohmann::json&& v);
  // An object or array: the root, or nested in the open container.
  void open(bool is_array);
  void key(std::string&& k) { key_ = std::move(k); }
  // Closes the innermost container.
  void close();
  // True once a root value is complete; take() hands it over and resets the builder.
  bool done() const { return done_; }
  nlohmann::json take();
  // Where the next value goes, as a JSON pointer below the root.
  std::string path() const;
  // The pointer the next value will have: path() and its member name or element index ("" for
  // the root).
  std::string next_pointer() const;

 private:
  nlohmann::json* insert(nlohmann::json&& v);
  nlohmann::json root_;
  std::vector<nlohmann::json*> stack_;
  std::vector<std::string> path_;
  std::string key_;
  bool done_ = false;
};

// Parses a whole document held in memory, within the limits.
nlohmann::json parse_json(std::string_view text, const InputLimits& limits = {});

// nlohmann's parse error as one short line: "not valid JSON: parse error at line L, column C: ...".
std::string describe_parse_error(const std::exception& error);

// Escapes one reference token of a JSON pointer (RFC 6901).
std::string escape_pointer_token(std::string_view token);

}  // namespace mcp_hints
