// The streamed document is dump's document, byte for byte: at every indent, for containers opened
// by hand at every depth and whole values below, empty ones, escapes and invalid UTF-8; and a
// caller that breaks dump's order or the document's shape is stopped, not silently wrong.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "mcp_hints/json/stream_writer.hpp"

namespace {

using json = nlohmann::json;
using mcp_hints::JsonStreamWriter;

// Writes `v` through the writer, opening containers by hand down to `hand_depth` levels and
// giving what lies below as whole values.
void write(JsonStreamWriter& w, const json& v, int hand_depth) {
  if (hand_depth <= 0 || !v.is_structured()) {
    w.value(v);
    return;
  }
  if (v.is_object()) {
    w.begin_object();
    for (const auto& [k, child] : v.items()) {
      w.key(k);
      write(w, child, hand_depth - 1);
    }
  } else {
    w.begin_array();
    for (const auto& child : v) write(w, child, hand_depth - 1);
  }
  w.end();
}

TEST(JsonStreamWriter, WritesWhatDumpWrites) {
  const std::vector<json> documents = {
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
  };
  for (const auto& doc : documents)
    for (int indent : {0, 1, 2, 4})
      for (int depth : {0, 1, 2, 3, 6}) {
        std::ostringstream out;
        JsonStreamWriter w(out, indent);
        write(w, doc, depth);
        EXPECT_EQ(out.str(), doc.dump(indent, ' ', false, json::error_handler_t::replace))
            << "indent " << indent << ", depth " << depth << ": "
            << doc.dump(-1, ' ', false, json::error_handler_t::replace);
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
