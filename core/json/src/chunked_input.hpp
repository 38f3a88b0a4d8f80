#pragma once
// The one way the json role reads a document: a stream in large chunks, or text already in
// memory, handed to nlohmann's parser one character at a time while counting lines and columns
// and following strings, so that every reader (parse_json, read_catalog) applies the same limits
// with the same words and knows where each value starts. Private to the json role.
#include <cstddef>
#include <istream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_hints/json/input.hpp"

namespace mcp_hints::detail {

// Reports the end of input once the byte limit or the string length limit is passed, or at a NUL
// byte outside a string (the reader then says why the input ended: throw_if_stopped).
class ChunkedInput {
 public:
  ChunkedInput(std::istream& in, const InputLimits& limits)
      : in_(&in), max_bytes_(limits.max_bytes), max_string_(limits.max_string), buffer_(1 << 20) {}
  // Text in memory: read in place, never copied.
  ChunkedInput(std::string_view text, const InputLimits& limits)
      : max_bytes_(limits.max_bytes), max_string_(limits.max_string), data_(text.data()) {
    end_ = text.size();
    consumed_ = text.size();
    if (end_ > max_bytes_) {
      end_ = max_bytes_;
      over_limit_ = true;
    }
  }

  bool at_end() {
    if (string_too_long_ || nul_ || (pos_ == end_ && !refill())) return true;
    // nlohmann's parser takes a NUL byte for the end of input, as a C string's; JSON has none
    // outside a string (in one, the parser words it as a control character): the input ends
    // there, and the reader says why (throw_if_stopped).
    if (data_[pos_] == '\0' && !in_string_) nul_ = true;
    return nul_;
  }
  char peek() const { return data_[pos_]; }
  void advance() {
    const char c = data_[pos_++];
    const auto byte = static_cast<unsigned char>(c);
    if (in_string_) {                                              // most characters: one test more than the column's
      if ((byte & 0xc0) != 0x80) column_ += byte >= 0xf0 ? 2 : 1;  // UTF-16 code units
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
        return;
      }
      if (++string_length_ > max_string_) string_too_long_ = true;
      return;
    }
    // A token starts at a quote, a bracket, or the first character of a literal or number; the
    // value the parser reports next began at the last such start.
    const bool space = is_space(c);
    if (after_delimiter_ && !space && c != ',' && c != ':' && c != '}' && c != ']') token_start_ = {line_, column_};
    after_delimiter_ = space || c == ',' || c == ':' || c == '[' || c == '{';
    if ((byte & 0xc0) != 0x80) column_ += byte >= 0xf0 ? 2 : 1;
    if (c == '"') {
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
  // Throws the InputError of what ended the input early, if anything did: a limit passed, or a NUL
  // byte; `pointer` says where the reader was.
  void throw_if_stopped(const InputLimits& limits, const std::string& pointer) const {
    if (over_limit_) throw limit_error(InputLimit::bytes, limits);
    if (string_too_long_) throw limit_error(InputLimit::string, limits, pointer, token_start_);
    if (nul_)
      throw InputError("not valid JSON: a NUL byte at line " + std::to_string(line_) + ", column " +
                           std::to_string(column_) + " (JSON has none outside a string)",
                       pointer, line_);
  }

 private:
  bool refill() {
    if (over_limit_ || in_ == nullptr || !*in_) return false;
    in_->read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    const auto got = static_cast<std::size_t>(in_->gcount());
    if (got == 0) return false;
    consumed_ += got;
    data_ = buffer_.data();
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

  std::istream* in_ = nullptr;
  std::size_t max_bytes_, max_string_;
  std::vector<char> buffer_;
  const char* data_ = nullptr;
  std::size_t pos_ = 0, end_ = 0, consumed_ = 0, line_ = 1, column_ = 1, string_length_ = 0;
  TextPosition token_start_;
  bool over_limit_ = false, in_string_ = false, escaped_ = false, string_too_long_ = false, nul_ = false;
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

}  // namespace mcp_hints::detail
