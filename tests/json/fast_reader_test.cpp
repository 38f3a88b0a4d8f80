// The fast reader of documents in memory (core/json/src/fast_sax.hpp) against nlohmann's parser:
// the same value (each number of the same kind), the same repeated members at the same positions,
// and the same error in the same words, for generated documents and for every kind of damage to
// them; it never accepts what nlohmann refuses, and it does read well-formed JSON itself.
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mcp_hints/json/input.hpp"

using json = nlohmann::json;
using mcp_hints::InputError;
using mcp_hints::InputLimits;
using mcp_hints::JsonDocument;
using mcp_hints::JsonReader;
using mcp_hints::parse_json_document;

namespace {

// A value and its kind, all the way down: 1, 1u and 1.0 differ here.
std::string typed(const json& value) {
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

// What reading a text gives: the value and the repeated members with where they are, or the error.
std::string outcome(const std::string& text, JsonReader reader, const InputLimits& limits = {}) {
  try {
    const JsonDocument document = parse_json_document(text, limits, reader);
    std::string out = typed(document.value);
    for (const auto& d : document.duplicates)
      out += "\nrepeated " + d.pointer + " " + typed(d.earlier) + " at " + std::to_string(d.later_at.line) + ":" +
             std::to_string(d.later_at.column) + " and " + std::to_string(d.earlier_at.line) + ":" +
             std::to_string(d.earlier_at.column);
    return out;
  } catch (const InputError& e) {
    return std::string("error: ") + e.what() + " at " + e.pointer() + " line " + std::to_string(e.line());
  }
}

// Random documents that use every part of the grammar: nesting, every escape, surrogate pairs,
// characters of two, three and four bytes, long plain runs, numbers of every kind and size,
// members given twice, and every kind of whitespace between tokens.
class Documents {
 public:
  explicit Documents(unsigned seed) : random_(seed) {}

  std::string next() {
    std::string out;
    space(out);
    value(out, 0);
    space(out);
    return out;
  }

 private:
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_); }

  void space(std::string& out) {
    static const char* const spaces[] = {"", "", "", " ", "\n", "\t", "\r\n", "  \n  "};
    out += spaces[pick(8)];
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
                                         "mcp.dev/effect"};
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

  void value(std::string& out, int depth) {
    const std::size_t kind = depth > 5 ? 2 + pick(4) : pick(6);
    switch (kind) {
      case 0: {
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
        return;
      }
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
};

// The text with one random change: a byte replaced by one that matters to a reader, a byte taken
// out, one put in, or the text cut short.
std::string damaged(const std::string& text, std::mt19937& random) {
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

}  // namespace

// Generated documents are read alike by both readers, and the fast reader reads each itself (it
// does not just hand them on); the same holds for the documents with their names repeated.
TEST(FastReader, ReadsWellFormedDocumentsAsNlohmannDoes) {
  Documents documents(1);
  int read_fast = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string text = documents.next();
    const std::string expected = outcome(text, JsonReader::nlohmann_only);
    ASSERT_EQ(outcome(text, JsonReader::fastest), expected) << text;
    const std::string fast = outcome(text, JsonReader::fast_only);
    if (fast.rfind("error: the fast reader gave up", 0) == 0) {
      // It gives up on numbers nlohmann turns into a double that is out of range, and nothing else.
      EXPECT_TRUE(text.find("e-400") != std::string::npos || text.find("4.9e-324") != std::string::npos) << text;
    } else {
      ASSERT_EQ(fast, expected) << text;
      ++read_fast;
    }
  }
  EXPECT_GT(read_fast, 2500);
}

// Every kind of damage: whatever the fast reader accepts, nlohmann accepts with the same result,
// and the two readers together say exactly what nlohmann alone says.
TEST(FastReader, NeverAcceptsWhatNlohmannRefuses) {
  Documents documents(2);
  std::mt19937 random(3);
  int refused = 0, accepted_by_fast = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text = documents.next();
    for (int changes = 1 + static_cast<int>(random() % 3); changes > 0; --changes) text = damaged(text, random);
    const std::string expected = outcome(text, JsonReader::nlohmann_only);
    ASSERT_EQ(outcome(text, JsonReader::fastest), expected) << json(text).dump();
    const std::string fast = outcome(text, JsonReader::fast_only);
    if (fast.rfind("error: the fast reader gave up", 0) != 0) {
      ASSERT_EQ(fast, expected) << json(text).dump();
      ++accepted_by_fast;
    }
    refused += expected.rfind("error: ", 0) == 0;
  }
  EXPECT_GT(refused, 10000);
  EXPECT_GT(accepted_by_fast, 1000);
}

// The limits: a string, a depth and a size just within and just past each, read alike.
TEST(FastReader, KeepsToTheLimitsAsNlohmannDoes) {
  InputLimits limits;
  limits.max_string = 8;
  limits.max_depth = 3;
  limits.max_bytes = 40;
  for (const std::string text :
       {R"(["12345678"])", R"(["123456789"])", R"({"12345678":1})", R"({"123456789":1})", R"(["\u00e9\u00e9\u00e9"])",
        R"([[[1]]])", R"([[[[1]]]])", R"({"a":{"b":{"c":1}}})", R"({"a":{"b":{"c":{}}}})",
        R"(["0123456789012345678901234567890123"])", R"(["01234567890123456789012345678901234"])",
        R"([1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16])"}) {
    EXPECT_EQ(outcome(text, JsonReader::fastest, limits), outcome(text, JsonReader::nlohmann_only, limits)) << text;
  }
  EXPECT_EQ(outcome(R"(["12345678"])", JsonReader::fast_only, limits), R"(["12345678",])");
  EXPECT_EQ(outcome(R"([[[1]]])", JsonReader::fast_only, limits), "[[[u1,],],]");
}

// Where a repeated member's later value starts, in UTF-16 code units of its line: after
// characters of one to four bytes, escapes, tabs and carriage returns, and after a number that
// ends a line (nlohmann has read the newline by then).
TEST(FastReader, SaysWhereARepeatedMemberIsAsNlohmannDoes) {
  for (const std::string text :
       {"{\"a\":1,\"a\":2}", "{\"\xc3\xa9\":1,\"\xc3\xa9\":2}",
        "{\"\xf0\x9f\x98\x80\":1,\r\n\t\"\xf0\x9f\x98\x80\": 2}", "{\"a\":\"\\u00e9\\n\",\n \"a\":[1,\n2]}",
        "[{\"k\":1\n,\"k\":{\"x\":true}}]", "{\"a\":0\n,\"a\":\n-1.5e3}"}) {
    const std::string fast = outcome(text, JsonReader::fast_only);
    EXPECT_EQ(fast, outcome(text, JsonReader::nlohmann_only)) << text;
    EXPECT_NE(fast.find("repeated"), std::string::npos) << fast;
  }
}
