// The streamed document is dump's document, byte for byte: at every indent, for containers opened
// by hand at every depth and whole values below, empty ones, escapes and invalid UTF-8; and a
// caller that breaks dump's order or the document's shape is stopped, not silently wrong.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <stdexcept>

#include "mcp_hints/json/stream_writer.hpp"

namespace {

using json = nlohmann::json;
using mcp_hints::JsonStreamWriter;

// Writes `v` through the writer, opening containers by hand down to `hand_depth` levels and
// giving what lies below as whole values; `typed`: strings and unsigned numbers at the hand-opened
// levels through text() and number().
void write(JsonStreamWriter& w, const json& v, int hand_depth, bool typed = false) {
  if (typed && v.is_string()) return w.text(v.get<std::string>());
  if (typed && v.is_number_unsigned()) return w.number(v.get<std::uint64_t>());
  if (hand_depth <= 0 || !v.is_structured()) {
    w.value(v);
    return;
  }
  if (v.is_object()) {
    w.begin_object();
    for (const auto& [k, child] : v.items()) {
      w.key(k);
      write(w, child, hand_depth - 1, typed);
    }
  } else {
    w.begin_array();
    for (const auto& child : v) write(w, child, hand_depth - 1, typed);
  }
  w.end();
}

// Every byte value alone among plain characters, as a key and as a value: each is written as dump
// writes it, escaped, kept, or (not UTF-8 alone) replaced.
json every_byte() {
  json out = json::object();
  for (int byte = 0; byte < 256; ++byte) {
    const std::string text = std::string("a") + static_cast<char>(byte) + "b";
    out[text] = json::array({text, std::string(1, static_cast<char>(byte))});
  }
  return out;
}

TEST(JsonStreamWriter, WritesWhatDumpWrites) {
  const std::vector<json> documents = {
      every_byte(),
      json::parse(R"({"tool":"mcp-hints","files":[{"file":"a.json","tools":["x","y"],"error":null}],
        "findings":[{"check":"a.b","line":3,"message":"line one\nline two \"quoted\" \u00e9","empty":{},"none":[]},
                    {"check":"c.d","nested":{"deep":[1,2.5,[true,false,null],{"k":"v"}]}}],
        "summary":{"error":1,"passed":false},"z":[],"zz":{}})"),
      json::object(),
      json::array(),
      json::array({json::array(), json::object(), 1}),
      json("a string"),
      json(42),
      json(nullptr),
      json{{"bad", std::string("\xff\xfe ok \xc3", 7)}, {"nested", {{"bad", std::string("\xc0", 1)}}}},
      // Every kind of character a string can hold, in values and keys, and every kind of number.
      json{{"plain", " !#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~"},
           {"escaped", "quote \" backslash \\ slash / tab \t newline \n return \r bell \x07 unit \x1f"},
           {std::string("nul\0key", 7), std::string("nul \0 inside", 13)},
           {"del \x7f", "del \x7f"},
           {"utf-8 \xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80"},
           {"truncated", std::string("\xe2\x86", 2)},
           {"", ""},
           {"numbers", {0, -1, 1, -9223372036854775807LL - 1, 18446744073709551615ULL, 0.1, -0.0, 1e300, 2.5e-8}},
           {"unsigned", 18446744073709551615ULL},
           {"zero", 0U}},
  };
  for (const auto& doc : documents)
    for (int indent : {0, 1, 2, 4})
      for (int depth : {0, 1, 2, 3, 6}) {
        for (bool typed : {false, true}) {
          std::ostringstream out;
          JsonStreamWriter w(out, indent);
          write(w, doc, depth, typed);
          EXPECT_EQ(out.str(), doc.dump(indent, ' ', false, json::error_handler_t::replace))
              << "indent " << indent << ", depth " << depth << (typed ? ", typed" : "") << ": "
              << doc.dump(-1, ' ', false, json::error_handler_t::replace);
        }
      }
}

// A piece written apart at its depth (an array spilled until the members before it are known)
// and put in with raw() makes the same document.
TEST(JsonStreamWriter, APieceWrittenApartFitsInPlace) {
  const json doc =
      json::parse(R"({"count":2,"file":"x","tools":[{"name":"a","keys":{"/k":1}},{"name":"b","keys":{}}]})");
  for (int indent : {0, 2, 3}) {
    std::ostringstream piece;
    JsonStreamWriter apart(piece, indent, 1);
    write(apart, doc["tools"], 1);
    std::ostringstream out;
    JsonStreamWriter w(out, indent);
    w.object({{"count", 2}, {"file", "x"}}, {{"tools", [&] { w.raw([&](std::ostream& o) { o << piece.str(); }); }}});
    EXPECT_EQ(out.str(), doc.dump(indent)) << indent;
  }
}

TEST(JsonStreamWriter, StopsACallerThatBreaksTheOrderOrTheShape) {
  std::ostringstream out;
  {
    JsonStreamWriter w(out, 2);
    w.begin_object();
    w.member("b", 1);
    EXPECT_THROW(w.key("a"), std::logic_error);  // dump sorts keys: "a" cannot follow "b"
    EXPECT_THROW(w.key("b"), std::logic_error);  // nor can a key come twice
  }
  {
    JsonStreamWriter w(out, 2);
    w.begin_object();
    EXPECT_THROW(w.value(1), std::logic_error);  // a member without its key
    w.key("a");
    EXPECT_THROW(w.key("b"), std::logic_error);  // two keys in a row
    EXPECT_THROW(w.end(), std::logic_error);     // a key left without its value
  }
  {
    JsonStreamWriter w(out, 2);
    EXPECT_THROW(w.end(), std::logic_error);
    w.begin_array();
    EXPECT_THROW(w.key("a"), std::logic_error);  // an array has no keys
  }
}

}  // namespace
