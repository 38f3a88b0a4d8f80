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

#include "json_samples.hpp"
#include "mcp_hints/json/input.hpp"

using json = nlohmann::json;
using json_samples::damaged;
using json_samples::Documents;
using json_samples::typed;
using mcp_hints::InputError;
using mcp_hints::InputLimits;
using mcp_hints::JsonDocument;
using mcp_hints::JsonReader;
using mcp_hints::parse_json_document;

namespace {

// What reading a text gives, in words: the value and the repeated members with where they are, or
// the error; `recycled`: the value it is built into, given the one read (the
// value read is left there).
std::string outcome(const std::string& text, JsonReader reader, const InputLimits& limits = {},
                    json* recycled = nullptr) {
  try {
    JsonDocument document = parse_json_document(text, limits, reader, recycled);
    if (recycled && !recycled->is_null()) return "error: the recycled value was not taken";
    std::string out = typed(document.value);
    if (recycled) *recycled = std::move(document.value);
    for (const auto& d : document.duplicates)
      out += "\nrepeated " + d.pointer + " " + typed(d.earlier) + " at " + std::to_string(d.later_at.line) + ":" +
             std::to_string(d.later_at.column) + " and " + std::to_string(d.earlier_at.line) + ":" +
             std::to_string(d.earlier_at.column);
    return out;
  } catch (const InputError& e) {
    if (recycled && !recycled->is_null()) return "error: the recycled value was not taken";
    return std::string("error: ") + e.what() + " at " + e.pointer() + " line " + std::to_string(e.line());
  }
}

}  // namespace

// Nesting past the levels the reader keeps in itself (256), and across each 64-level word of them,
// each level's place taken by both kinds in turn: containers each closed by its own bracket are
// read alike, by the fast reader itself; one closed by the other kind's, at any level, is refused
// alike.
TEST(FastReader, ReadsNestingAtEveryDepthAsNlohmannDoes) {
  InputLimits deep;
  deep.max_depth = 1000;
  std::mt19937 random(7);
  for (const std::size_t depth : {1, 2, 63, 64, 65, 127, 128, 129, 255, 256, 257, 258, 320, 600}) {
    for (int pattern = 0; pattern < 4; ++pattern) {  // all arrays, all objects, by turns, at random
      std::vector<bool> arrays(depth);
      for (std::size_t i = 0; i < depth; ++i)
        arrays[i] = pattern == 0 || (pattern == 2 && i % 2 == 0) || (pattern == 3 && random() % 2 == 0);
      // `wrong`: the level closed by the other kind's bracket (none when it is depth). Inside each
      // level, a container of the other kind than the next level's comes first: every level's
      // place is taken twice, by each kind.
      const auto text = [&](std::size_t wrong) {
        std::string out;
        for (std::size_t i = 0; i < depth; ++i) {
          const std::string sibling = i + 1 < depth && arrays[i + 1] ? "{\"t\":0}" : "[0]";
          out += arrays[i] ? "[" + sibling + "," : "{\"s\":" + sibling + ",\"k\":";
        }
        out += "0";
        for (std::size_t i = depth; i-- > 0;) out += arrays[i] != (i == wrong) ? "]" : "}";
        return out;
      };
      const std::string whole = text(depth);
      ASSERT_EQ(outcome(whole, JsonReader::fast_only, deep), outcome(whole, JsonReader::nlohmann_only, deep))
          << "depth " << depth << ", pattern " << pattern;
      for (const std::size_t wrong : {std::size_t{0}, depth / 2, depth - 1, std::size_t{255}, std::size_t{256}}) {
        if (wrong >= depth) continue;
        const std::string damaged = text(wrong);
        EXPECT_EQ(outcome(damaged, JsonReader::fastest, deep), outcome(damaged, JsonReader::nlohmann_only, deep));
        EXPECT_EQ(outcome(damaged, JsonReader::fast_only, deep).rfind("error: ", 0), 0u)
            << "depth " << depth << ", pattern " << pattern << ", level " << wrong;
      }
    }
  }
}

// Generated documents are read alike by both readers, and the fast reader reads each itself (it
// does not just hand them on); the same holds for the documents with their names repeated.
TEST(FastReader, ReadsWellFormedDocumentsAsNlohmannDoes) {
  Documents documents(1);
  int read_fast = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string text = documents.next();
    const std::string expected = outcome(text, JsonReader::nlohmann_only);
    ASSERT_EQ(outcome(text, JsonReader::fastest), expected) << text;
    ASSERT_EQ(outcome(text, JsonReader::fast_only), expected) << text;
    ++read_fast;
  }
  EXPECT_EQ(read_fast, 3000);
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

// Documents read one after another, each built into the one read before (as the mock reads a
// client's messages), are read as a fresh read reads them: intact ones, damaged ones, and ones
// past a limit midway (which leave the reader's builder unfinished for the next read).
TEST(FastReader, ADocumentBuiltIntoTheOneBeforeIsTheDocumentRead) {
  Documents documents(23, true);
  std::mt19937 random(5);
  InputLimits tight;
  tight.max_depth = 3;
  tight.max_string = 6;
  json last;
  int recycled = 0;
  for (int i = 0; i < 6000; ++i) {
    std::string text = documents.next();
    const bool damage = i % 3 == 1, past_limit = i % 7 == 3;
    if (damage) text = damaged(text, random);
    const InputLimits& limits = past_limit ? tight : InputLimits{};
    const std::string expected = outcome(text, JsonReader::nlohmann_only, limits);
    // A read that may fail is built into a copy: the chain of reads built into the last goes on.
    json copy = damage || past_limit ? last : json();
    json& into = damage || past_limit ? copy : last;
    recycled += into.is_structured();
    ASSERT_EQ(outcome(text, JsonReader::fastest, limits, &into), expected) << json(text).dump();
    if (i % 5 == 0) {  // nlohmann's parser alone takes a value handed to it too, and says the same
      json other = last;
      ASSERT_EQ(outcome(text, JsonReader::nlohmann_only, limits, &other), expected) << json(text).dump();
    }
    if (i % 11 == 0) {  // the fast reader alone, built into the value before, says the same or gives up
      json other = last;
      const std::string fast = outcome(text, JsonReader::fast_only, limits, &other);
      if (fast.rfind("error: the fast reader gave up", 0) != 0) {
        ASSERT_EQ(fast, expected) << json(text).dump();
      }
    }
  }
  EXPECT_GT(recycled, 1500);  // reads built into a tree (the rest into a scalar or nothing)
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
  // A number is not a string, but the fast reader holds none longer than a string may be: past
  // that it gives up, and nlohmann's parser reads the number as it reads any.
  for (const std::string number : {"12345678", "123456789", "-1234567", "-12345678", "1.5e+100", "1.5e+1000"}) {
    const std::string text = "[" + number + "]";
    EXPECT_EQ(outcome(text, JsonReader::fastest, limits), outcome(text, JsonReader::nlohmann_only, limits)) << text;
    if (number.size() > limits.max_string)
      EXPECT_EQ(outcome(text, JsonReader::fast_only, limits).rfind("error: ", 0), 0u) << text;
    else
      EXPECT_EQ(outcome(text, JsonReader::fast_only, limits), outcome(text, JsonReader::nlohmann_only, limits)) << text;
  }
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
