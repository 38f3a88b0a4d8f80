#pragma once
// Option values every command reads the same way: durations with units and sizes that cannot be
// negative. Boost.Program_options reads each through its `validate` overload, so a bad value is
// refused while parsing, with the option's name, as every other usage error.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <boost/any.hpp>

namespace mcp_hints::cli {

// A duration, said one way by every option: a number and its unit, "30s", "500ms", "2m", "1.5s";
// "0" alone needs none. Any other bare number is refused: commands once read it in different
// units (seconds here, milliseconds there), and a guess would be wrong half the time. Never
// negative.
struct Duration {
  std::chrono::milliseconds value{};
  Duration() = default;
  explicit Duration(std::chrono::milliseconds v) : value(v) {}
};

// A count or a size in bytes, 1 or more: digits only (no sign), so "-1" is refused rather than
// wrapped, and read without narrowing (a value past the largest size is refused, saying the range).
struct Count {
  std::size_t value = 0;
  Count() = default;
  explicit Count(std::size_t v) : value(v) {}
};

// --jobs: how many things go side by side, 1 to kMost; by default one per core of the machine.
struct Jobs {
  // More than this only queue on the machine's cores (and, for processes, its process table).
  static constexpr std::size_t kMost = 256;
  std::size_t value = cores();
  Jobs() = default;
  explicit Jobs(std::size_t v) : value(v) {}
  static std::size_t cores();
};

// A TCP port, 0 to 65535 (0: any free one).
struct Port {
  std::size_t value = 0;
  Port() = default;
  explicit Port(std::size_t v) : value(v) {}
};

// "30s"-style text to milliseconds (a bare number only when it is 0); throws
// std::invalid_argument saying what is wrong.
std::chrono::milliseconds parse_duration(const std::string& text);
// Digits to a whole number from least to most; throws std::invalid_argument for anything else (a
// sign, a unit, a fraction, a value out of the range, which the message gives).
std::size_t parse_count(const std::string& text, std::size_t least = 1, std::size_t most = SIZE_MAX);

// "30s", "500ms": how help and messages write a duration.
std::string duration_text(std::chrono::milliseconds value);

// The overloads Boost.Program_options calls to read the values above (found by argument-dependent lookup).
void validate(boost::any& out, const std::vector<std::string>& values, Duration*, int);
void validate(boost::any& out, const std::vector<std::string>& values, Count*, int);
void validate(boost::any& out, const std::vector<std::string>& values, Jobs*, int);
void validate(boost::any& out, const std::vector<std::string>& values, Port*, int);

}  // namespace mcp_hints::cli
