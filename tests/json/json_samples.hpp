#pragma once
// JSON for the readers' differential tests: random documents that use every part of the grammar,
// damage of every kind to them, and a value written with the kind of each number.
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace json_samples {

using json = nlohmann::json;

// A value and its kind, all the way down: 1, 1u and 1.0 differ here.
inline std::string typed(const json& value) {
  switch (value.type()) {
    case json::value_t::number_integer: return "i" + value.dump();
    case json::value_t::number_unsigned: return "u" + value.dump();
    case json::value_t::number_float: return "f" + value.dump();
    case json::value_t::array: {
      std::string out = "[";
      for (const auto& element : value) out += typed(element) + ",";
      return out + "]";
    }
    case json::value_t::object: {
      std::string out = "{";
      for (const auto& [name, member] : value.items()) out += json(name).dump() + ":" + typed(member) + ",";
      return out + "}";
    }
    default: return value.dump();
  }
}

// Random documents that use every part of the grammar: nesting, every escape, surrogate pairs,
// characters of two, three and four bytes, long plain runs, numbers of every kind and size,
// members given twice, and every kind of whitespace between tokens.
class Documents {
 public:
  // `few_names`: member names drawn from four, so that objects share most of theirs.
  explicit Documents(unsigned seed, bool few_names = false) : random_(seed), few_names_(few_names) {}

  // A saved tools/list: a result of `count` tools (objects, mostly), every shape of value inside.
  std::string catalog(std::size_t count) {
    std::string out = "{\"tools\":[";
    for (std::size_t i = 0; i < count; ++i) {
      if (i) out += ',';
      space(out);
      if (pick(8) == 0)
        value(out, 1);
      else
        object(out, 1);
      space(out);
    }
    return out + "]}";
  }

  std::string next() {
    std::string out;
    space(out);
    value(out, 0);
    space(out);
    return out;
  }

 private:
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_); }

  // Indents of 15 to 33 spaces too: the readers take runs of spaces sixteen at a time.
  void space(std::string& out) {
    static const char* const spaces[] = {"", "", "", " ", "\n", "\t", "\r\n", "  \n  "};
    const std::size_t which = pick(12);
    if (which < 8)
      out += spaces[which];
    else
      out += "\n" + std::string(std::size_t{15} + pick(19), ' ');
  }

  void string(std::string& out) {
    static const char* const pieces[] = {"a",
                                         "Z",
                                         "0",
                                         " ",
                                         "plain text of some length",
                                         "\\\"",
                                         "\\\\",
                                         "\\/",
                                         "\\b",
                                         "\\f",
                                         "\\n",
                                         "\\r",
                                         "\\t",
                                         "\\u0041",
                                         "\\u00e9",
                                         "\\u20AC",
                                         "\\ud83d\\ude00",
                                         "\\u0000",
                                         "\\u001f",
                                         "\xc3\xa9",
                                         "\xe2\x82\xac",
                                         "\xf0\x9f\x98\x80",
                                         "\xed\x9f\xbf",
                                         "\xf4\x8f\xbf\xbf",
                                         "abcdefgh",
                                         "mcp.dev/effect",
                                         "{[}]",
                                         "\\\\\\\""};
    out += '"';
    for (std::size_t n = pick(8); n > 0; --n) out += pieces[pick(std::size(pieces))];
    out += '"';
  }

  void number(std::string& out) {
    static const char* const numbers[] = {"0",
                                          "-0",
                                          "1",
                                          "-1",
                                          "42",
                                          "0.5",
                                          "-0.0",
                                          "1e3",
                                          "1E+3",
                                          "2.5e-3",
                                          "9223372036854775807",
                                          "-9223372036854775808",
                                          "9223372036854775808",
                                          "18446744073709551615",
                                          "18446744073709551616",
                                          "-9223372036854775809",
                                          "123456789012345678901234567890",
                                          "1.7976931348623157e308",
                                          "4.9e-324",
                                          "1e-400",
                                          "0.1",
                                          "3.141592653589793238462643383279"};
    out += numbers[pick(std::size(numbers))];
  }

  void object(std::string& out, int depth) {
    out += '{';
    const std::size_t n = pick(5);
    std::vector<std::string> names;
    for (std::size_t i = 0; i < n; ++i) {
      if (i) out += ',';
      space(out);
      std::string name;
      if (!names.empty() && pick(5) == 0) {
        name = names[pick(names.size())];  // a member given again
      } else {
        if (few_names_)
          name = std::array{"\"a\"", "\"b\"", "\"\"", "\"name\""}[pick(4)];
        else
          string(name);
        names.push_back(name);
      }
      out += name;
      space(out);
      out += ':';
      space(out);
      value(out, depth + 1);
      space(out);
    }
    out += '}';
  }

  void value(std::string& out, int depth) {
    const std::size_t kind = depth > 5 ? 2 + pick(4) : pick(6);
    switch (kind) {
      case 0: object(out, depth); return;
      case 1: {
        out += '[';
        const std::size_t n = pick(5);
        for (std::size_t i = 0; i < n; ++i) {
          if (i) out += ',';
          space(out);
          value(out, depth + 1);
          space(out);
        }
        out += ']';
        return;
      }
      case 2: string(out); return;
      case 3: number(out); return;
      case 4: out += pick(2) ? "true" : "false"; return;
      default: out += "null"; return;
    }
  }

  std::mt19937 random_;
  bool few_names_;
};

// The text with one random change: a byte replaced by one that matters to a reader, a byte taken
// out, one put in, or the text cut short.
inline std::string damaged(const std::string& text, std::mt19937& random) {
  static const char interesting[] =
      "\"\\{}[],:0-.eE+ \n\t\x01\x1f\x7f\x80\xbf\xc0\xc1\xc2\xe0\xed\xef\xf0\xf4\xf5\xffu";
  static const std::string bytes = std::string(interesting, sizeof interesting - 1) + '\0';
  std::uniform_int_distribution<std::size_t> at(0, text.empty() ? 0 : text.size() - 1);
  std::uniform_int_distribution<std::size_t> byte(0, bytes.size() - 1);
  std::string out = text;
  if (out.empty()) return std::string(1, bytes[byte(random)]);
  switch (random() % 4) {
    case 0: out[at(random)] = bytes[byte(random)]; break;
    case 1: out.erase(at(random), 1); break;
    case 2: out.insert(at(random), 1, bytes[byte(random)]); break;
    default: out.resize(at(random)); break;
  }
  return out;
}

}  // namespace json_samples
