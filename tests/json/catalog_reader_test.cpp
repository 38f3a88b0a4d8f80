#include "mcp_hints/json/catalog_reader.hpp"

#include <gtest/gtest.h>

#include <functional>

#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <vector>

#include "json_samples.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/parallel_catalog.hpp"
#include "mcp_hints/json/recorded_input.hpp"
#include "time_bounds.hpp"

using mcp_hints::CatalogShape;
using mcp_hints::CatalogTool;
using mcp_hints::InputError;
using mcp_hints::InputLimits;

namespace {

struct Read {
  mcp_hints::CatalogSummary summary;
  std::vector<CatalogTool> tools;
};

Read read(const std::string& text, InputLimits limits = {}) {
  std::istringstream in(text);
  Read r;
  r.summary = mcp_hints::read_catalog(in, limits, [&](CatalogTool&& t) { r.tools.push_back(std::move(t)); });
  return r;
}

std::string error_of(const std::string& text, InputLimits limits = {}) {
  try {
    read(text, limits);
  } catch (const InputError& e) {
    return std::string(e.what()) + " @" + e.pointer();
  }
  return "no error";
}

}  // namespace

TEST(CatalogReader, ReadsAToolsListResult) {
  auto r = read(R"({"tools": [{"name": "a", "inputSchema": {"type": "object"}}, {"name": "b"}], "nextCursor": "x"})");
  EXPECT_EQ(r.summary.shape, CatalogShape::list_result);
  ASSERT_EQ(r.tools.size(), 2u);
  EXPECT_EQ(r.tools[0].tool["name"], "a");
  EXPECT_EQ(r.tools[0].tool["inputSchema"]["type"], "object");
  EXPECT_EQ(r.tools[1].pointer, "/tools/1");
  EXPECT_EQ(r.tools[1].index, 1u);
}

TEST(CatalogReader, ReadsAJsonRpcResponse) {
  auto r = read(R"({"jsonrpc": "2.0", "id": 7, "result": {"tools": [{"name": "a"}]}})");
  EXPECT_EQ(r.summary.shape, CatalogShape::jsonrpc_response);
  ASSERT_EQ(r.tools.size(), 1u);
  EXPECT_EQ(r.tools[0].pointer, "/result/tools/0");
}

TEST(CatalogReader, ReadsABareArrayAndKeepsNonObjectTools) {
  auto r = read(R"([{"name": "a"}, 3, "x", [1], null])");
  EXPECT_EQ(r.summary.shape, CatalogShape::bare_array);
  ASSERT_EQ(r.tools.size(), 5u);
  EXPECT_EQ(r.tools[1].tool, 3);
  EXPECT_EQ(r.tools[3].tool, nlohmann::json::array({1}));
  EXPECT_EQ(r.tools[4].pointer, "/4");
}

TEST(CatalogReader, KnowsTheLineEachToolStartsOn) {
  auto r = read("{\n\"tools\": [\n{\"name\": \"a\"},\n\n{\"name\":\n\"b\"}\n]}");
  ASSERT_EQ(r.tools.size(), 2u);
  EXPECT_EQ(r.tools[0].line, 3u);
  EXPECT_EQ(r.tools[1].line, 5u);
}

// Each value's own line and column (1-based; columns in UTF-16 code units), at every depth,
// pretty or minified; a missing key gets its nearest enclosing value's.
TEST(CatalogReader, KnowsWhereEveryValueStarts) {
  using mcp_hints::TextPosition;
  auto expect_at = [](const CatalogTool& t, const std::string& pointer, std::size_t line, std::size_t column) {
    const TextPosition at = t.positions.at(pointer);
    EXPECT_EQ(at.line, line) << pointer;
    EXPECT_EQ(at.column, column) << pointer;
  };
  const auto pretty = read(
      "{\n"
      "  \"tools\": [\n"
      "    {\n"
      "      \"name\": \"a\",\n"
      "      \"annotations\": {\"readOnlyHint\": true, \"title\": \"x\"},\n"
      "      \"tags\": [1, -2.5e3, null, [false]]\n"
      "    },\n"
      "    {\"name\": \"b\"}\n"
      "  ]\n"
      "}\n");
  ASSERT_EQ(pretty.tools.size(), 2u);
  const auto& a = pretty.tools[0];
  expect_at(a, "", 3, 5);
  expect_at(a, "/name", 4, 15);
  expect_at(a, "/annotations", 5, 22);
  expect_at(a, "/annotations/readOnlyHint", 5, 39);
  expect_at(a, "/annotations/title", 5, 54);
  expect_at(a, "/tags", 6, 15);
  expect_at(a, "/tags/0", 6, 16);
  expect_at(a, "/tags/1", 6, 19);
  expect_at(a, "/tags/2", 6, 27);
  expect_at(a, "/tags/3", 6, 33);
  expect_at(a, "/tags/3/0", 6, 34);
  expect_at(a, "/annotations/destructiveHint", 5, 22);  // missing: its object
  expect_at(a, "/_meta/mcp.dev~1effect", 3, 5);         // missing, and its parent too: the tool
  expect_at(pretty.tools[1], "/name", 8, 14);
  // Minified, and after characters of two UTF-8 bytes (one unit) and four (two units).
  const auto minified = read("{\"tools\":[{\"name\":\"\xc3\xa9\xf0\x9f\x98\x80\",\"x\":7}]}");
  ASSERT_EQ(minified.tools.size(), 1u);
  expect_at(minified.tools[0], "", 1, 11);
  expect_at(minified.tools[0], "/name", 1, 19);
  expect_at(minified.tools[0], "/x", 1, 29);
  // A bare array of tools and the JSON-RPC shape.
  const auto rpc = read("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[\n  {\"name\":\"r\"}]}}");
  expect_at(rpc.tools[0], "/name", 2, 11);
}

TEST(CatalogReader, BuildsNestedToolsFaithfully) {
  const std::string tool = R"({"name":"n","a":{"b":[1,2.5,true,null,{"c":"d"}],"e":{}},"f":[]})";
  auto r = read("{\"tools\":[" + tool + "]}");
  ASSERT_EQ(r.tools.size(), 1u);
  EXPECT_EQ(r.tools[0].tool, nlohmann::json::parse(tool));
}

TEST(CatalogReader, AnEmptyToolListIsFine) {
  auto r = read(R"({"tools": []})");
  EXPECT_EQ(r.summary.tool_count, 0u);
}

TEST(CatalogReader, SaysWhatIsWrongWithDocumentsThatAreNotToolLists) {
  EXPECT_NE(error_of(R"({"foo": 1, "bar": 2})")
                .find("no tools array at /tools or /result/tools (found members \"foo\", \"bar\")"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"tools": {"a": 1}})").find("the tools member is not an array @/tools"), std::string::npos);
  EXPECT_NE(error_of(R"("tools")").find("expected an object with a tools array"), std::string::npos);
  EXPECT_NE(error_of(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}})")
                .find("JSON-RPC error response (-32601 Method not found)"),
            std::string::npos);
  EXPECT_NE(
      error_of(R"({"error":{"code":"x","message":{"deep":[1]}}})").find("JSON-RPC error response ({\"deep\":[1]})"),
      std::string::npos);
  EXPECT_NE(error_of(R"({"error":"plain"})").find("JSON-RPC error response (plain)"), std::string::npos);
  EXPECT_NE(error_of("").find("not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("{\"tools\": [}").find("not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("{\"tools\": []} trailing").find("not valid JSON"), std::string::npos);
}

TEST(CatalogReader, StopsDeepNestingInsideAndOutsideTools) {
  const std::string deep_tool = "{\"tools\":[{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}]}";
  const std::string err = error_of(deep_tool);
  EXPECT_NE(err.find("nesting deeper than 256 levels"), std::string::npos) << err;
  const std::string deep_outside = std::string(100000, '[');
  EXPECT_NE(error_of(deep_outside).find("nesting deeper than 256"), std::string::npos);
}

TEST(CatalogReader, StopsAtTheByteLimit) {
  InputLimits limits;
  limits.max_bytes = 100;
  std::string big = "{\"tools\":[" + std::string(200, ' ') + "]}";
  EXPECT_NE(error_of(big, limits).find("larger than the limit of 100 bytes"), std::string::npos);
  EXPECT_EQ(error_of(R"({"tools":[]})", limits), "no error");
}

// A NUL byte ends no catalog: after one, between tools or inside one, the reader says where it is.
TEST(CatalogReader, RejectsANulByteWhereverItStands) {
  using namespace std::string_literals;
  EXPECT_EQ(error_of("{\"tools\":[{\"name\":\"a\"}]}\0tail"s),
            "not valid JSON: a NUL byte at line 1, column 25 (JSON has none outside a string) @");
  EXPECT_EQ(error_of("{\"tools\":[{\"name\":\"a\"},\n\0{\"name\":\"b\"}]}"s),
            "not valid JSON: a NUL byte at line 2, column 1 (JSON has none outside a string) @/tools/1");
  EXPECT_EQ(error_of("{\"tools\":[{\"name\":\0\"a\"}]}"s),
            "not valid JSON: a NUL byte at line 1, column 19 (JSON has none outside a string) @/tools/0");
}

TEST(CatalogReader, StreamsOneToolAtATime) {
  // The callback sees each tool as soon as it closes, before the rest is read: a broken tail
  // still leaves the earlier tools delivered.
  std::istringstream in(R"({"tools": [{"name": "a"}, {"name": "b"}, {"name": )");
  std::vector<std::string> seen;
  EXPECT_THROW(mcp_hints::read_catalog(in, {}, [&](CatalogTool&& t) { seen.push_back(t.tool["name"]); }), InputError);
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b"}));
}

TEST(CatalogReader, StopsAStringOverTheLengthLimitAndSaysWhere) {
  InputLimits limits;
  limits.max_string = 10;
  EXPECT_EQ(error_of(R"({"tools":[{"name":"0123456789"}]})", limits), "no error");
  EXPECT_EQ(error_of(R"({"tools":[{"name":"0123456789A"}]})", limits),
            "a string longer than the limit of 10 bytes @/tools/0");
  EXPECT_EQ(error_of(R"({"tools":[{"a":{"b":"0123456789\"\"\""}}]})", limits),
            "a string longer than the limit of 10 bytes @/tools/0/a");
  // Escaped quotes do not end a string: this one is 12 characters of text.
  EXPECT_EQ(error_of(R"({"tools":["\"\"\"\"\"\""]})", limits), "a string longer than the limit of 10 bytes @/tools/0");
}

// A member a tool gives twice keeps its last value, and the tool says so: where each value starts
// (the later one is where the tool's positions point), and the earlier value.
TEST(CatalogReader, ListsTheMembersAToolGivesTwiceWithWhereEachStarts) {
  const auto r = read(
      "{\"tools\": [\n"
      "  {\"name\": \"a\", \"annotations\": {\"readOnlyHint\": true,\n"
      "                                   \"readOnlyHint\": false}},\n"
      "  {\"name\": \"b\", \"_meta\": {\"x\": {\"deep\": [1]}, \"x\": {\"other\": 2}}},\n"
      "  {\"name\": \"c\", \"annotations\": {\"readOnlyHint\": true}, \"_meta\": {\"readOnlyHint\": false}}\n"
      "]}");
  ASSERT_EQ(r.tools.size(), 3u);
  const auto& a = r.tools[0];
  EXPECT_EQ(a.tool["annotations"]["readOnlyHint"], false);
  ASSERT_EQ(a.duplicates.size(), 1u);
  EXPECT_EQ(a.duplicates[0].pointer, "/annotations/readOnlyHint");
  EXPECT_EQ(a.duplicates[0].earlier, true);
  EXPECT_EQ(a.duplicates[0].earlier_at.line, 2u);
  EXPECT_EQ(a.duplicates[0].earlier_at.column, 49u);
  EXPECT_EQ(a.duplicates[0].later_at.line, 3u);
  EXPECT_EQ(a.duplicates[0].later_at.column, 52u);
  EXPECT_EQ(a.positions.at("/annotations/readOnlyHint").line, 3u);  // the value kept
  EXPECT_EQ(a.duplicates[0].describe(false),
            "member \"readOnlyHint\" given twice in the object at /annotations: first true (line 2, column 49), then "
            "false (line 3, column 52)");
  const auto& b = r.tools[1];
  ASSERT_EQ(b.duplicates.size(), 1u);
  EXPECT_EQ(b.duplicates[0].pointer, "/_meta/x");
  EXPECT_EQ(b.duplicates[0].earlier, (nlohmann::json{{"deep", {1}}}));
  // What the replaced value held is gone: a pointer into it falls back to the value kept.
  EXPECT_EQ(b.positions.at("/_meta/x/deep").line, b.positions.at("/_meta/x").line);
  EXPECT_EQ(b.positions.at("/_meta/x").column, 52u);
  EXPECT_TRUE(r.tools[2].duplicates.empty());  // the same name in sibling objects
}

// Outside the tools, which of two tools arrays (or results) counts would be a guess: refused.
TEST(CatalogReader, RefusesAMemberGivenTwiceOutsideTheTools) {
  EXPECT_EQ(
      error_of(R"({"tools": [{"name": "a"}], "tools": [{"name": "b"}]})"),
      "member \"tools\" given twice in the top-level object; which one counts is undefined (RFC 8259, 4) @/tools");
  EXPECT_NE(error_of(R"({"result": {"tools": [], "tools": []}})").find("given twice in the object at /result"),
            std::string::npos);
  EXPECT_EQ(error_of(R"({"a": {"x": 1}, "b": {"x": 2}, "tools": []})"), "no error");
}

namespace {

// Writes a value minified on one line, noting the column where each value starts by its pointer.
void emit(const nlohmann::json& v, const std::string& pointer, std::string& out,
          std::map<std::string, std::size_t>& columns) {
  columns[pointer] = out.size() + 1;
  if (v.is_object()) {
    out += '{';
    bool first = true;
    for (const auto& [key, member] : v.items()) {
      out += first ? "" : ",";
      first = false;
      out += nlohmann::json(key).dump() + ":";
      emit(member, pointer + "/" + mcp_hints::escape_pointer_token(key), out, columns);
    }
    out += '}';
  } else if (v.is_array()) {
    out += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      out += i ? "," : "";
      emit(v[i], pointer + "/" + std::to_string(i), out, columns);
    }
    out += ']';
  } else {
    out += v.dump();
  }
}

// A tool of nested objects and arrays whose member names are those a pointer must escape, spell
// as digits, or leave empty.
nlohmann::json random_tool(std::mt19937& random, int depth) {
  static const std::vector<std::string> keys = {"a", "b", "", "/", "~", "a/b", "m~0", "0", "01", "1", "-", "name"};
  const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(random() % n); };
  if (depth == 0 || pick(4) == 0) {
    const std::size_t kind = pick(4);
    return kind == 0 ? nlohmann::json(nullptr) : kind == 1 ? nlohmann::json(pick(1000)) : nlohmann::json("s");
  }
  if (pick(2) == 0) {
    nlohmann::json array = nlohmann::json::array();
    for (std::size_t i = pick(13); i > 0; --i) array.push_back(random_tool(random, depth - 1));
    return array;
  }
  nlohmann::json object = nlohmann::json::object();
  for (std::size_t i = pick(6); i > 0; --i) object[keys[pick(keys.size())]] = random_tool(random, depth - 1);
  return object;
}

}  // namespace

// Every value of a tool is found where it starts, whatever its pointer spells (escaped names, an
// empty name, names of digits, elements past 9), and a pointer the tool does not have all of gets
// the position of the deepest value it does have: a name held by a later sibling is not taken
// for the earlier one's, and an element index spelled otherwise than a pointer spells it ("01")
// names nothing.
TEST(CatalogReader, FindsEveryValueByItsPointerAndTheNearestOneForAMissingPointer) {
  std::mt19937 random(17);
  for (int round = 0; round < 200; ++round) {
    nlohmann::json tool = random_tool(random, 4);
    if (!tool.is_object()) tool = {{"wrapped", tool}};
    tool["later"] = {{"only-here", 1}};
    std::string text = "[";
    std::map<std::string, std::size_t> columns;
    emit(tool, "", text, columns);
    text += "]";
    const auto r = read(text);
    ASSERT_EQ(r.tools.size(), 1u);
    const auto& positions = r.tools[0].positions;
    for (const auto& [pointer, column] : columns) {
      EXPECT_EQ(positions.at(pointer).column, column) << pointer << " in " << text;
      EXPECT_EQ(positions.at(pointer).line, 1u);
      EXPECT_EQ(positions.at(pointer + "/not-there").column, column) << pointer;
      if (pointer != "/later") {
        EXPECT_EQ(positions.at(pointer + "/only-here").column, column) << pointer;
      }
      const auto& value = tool.at(nlohmann::json::json_pointer(pointer));
      if (value.is_array() && value.size() > 1) {
        EXPECT_EQ(positions.at(pointer + "/01").column, column) << pointer;
        EXPECT_EQ(positions.at(pointer + "/1").column, columns.at(pointer + "/1")) << pointer;
        EXPECT_EQ(positions.at(pointer + "/" + std::to_string(value.size())).column, column) << pointer;
      }
    }
  }
}

namespace {

// A stream that cannot be read again (as a pipe): the reader takes it through nlohmann's parser.
class OnceThroughBuffer : public std::streambuf {
 public:
  explicit OnceThroughBuffer(const std::string& text) : text_(text) {
    char* begin = text_.data();
    setg(begin, begin, begin + text_.size());
  }

 private:
  std::string text_;
};

// Everything a reading hands on, in order: each tool with its place, its line, where each of its
// values starts and the members it repeats; then the summary, or the error.
// `recycled`, if given: each tool's tree is given back to be built into (read_catalog's
// spare_trees), and the tools built into one are counted. `threads`, if given: read by
// read_catalog_in_parallel on that many threads, each tool handed back as it was read. `recorded`:
// a stream that cannot be read again, read through a RecordedInput (as a command reads a pipe).
std::string everything_read(const std::string& text, bool seekable, InputLimits limits = {}, bool* read_fast = nullptr,
                            std::size_t* recycled = nullptr, std::size_t threads = 0, bool recorded = false) {
  std::string out;
  std::vector<nlohmann::json> spare_trees;
  const auto positions_of = [&](const CatalogTool& t) {
    // Every value's pointer, walked from the tool.
    std::vector<std::string> pointers = {""};
    for (std::size_t i = 0; i < pointers.size(); ++i) {
      const auto& value = t.tool.at(nlohmann::json::json_pointer(pointers[i]));
      if (value.is_object())
        for (const auto& [name, member] : value.items())
          pointers.push_back(pointers[i] + "/" + mcp_hints::escape_pointer_token(name));
      else if (value.is_array())
        for (std::size_t e = 0; e < value.size(); ++e) pointers.push_back(pointers[i] + "/" + std::to_string(e));
    }
    std::string said;
    for (const auto& pointer : pointers) {
      const auto at = t.positions.at(pointer);
      said += " " + pointer + "@" + std::to_string(at.line) + ":" + std::to_string(at.column);
    }
    return said;
  };
  const auto keep = [&](CatalogTool&& t) {
    out += t.pointer + " #" + std::to_string(t.index) + " line " + std::to_string(t.line) + " " +
           json_samples::typed(t.tool) + positions_of(t) + "\n";
    for (const auto& d : t.duplicates)
      out += "  repeated " + d.pointer + " " + json_samples::typed(d.earlier) + " " +
             std::to_string(d.earlier_at.line) + ":" + std::to_string(d.earlier_at.column) + " " +
             std::to_string(d.later_at.line) + ":" + std::to_string(d.later_at.column) + "\n";
    if (recycled) {
      *recycled += spare_trees.empty() && t.index > 0;  // the last one given back was taken
      spare_trees.assign(1, std::move(t.tool));
    }
  };
  auto* spare = recycled ? &spare_trees : nullptr;
  try {
    mcp_hints::CatalogSummary summary;
    if (recorded) {
      OnceThroughBuffer buffer(text);
      std::istream once(&buffer);
      std::unique_ptr<mcp_hints::RecordedStream> holder;
      std::istream& in = mcp_hints::seekable(once, holder);
      if (!holder) throw std::logic_error("the stream was not recorded");
      const std::function<CatalogTool(CatalogTool &&)> as_read = [](CatalogTool&& t) { return std::move(t); };
      const std::function<void(CatalogTool &&)> kept = keep;
      summary = threads > 0 ? mcp_hints::read_catalog_in_parallel(in, limits, threads, as_read, kept)
                            : mcp_hints::read_catalog(in, limits, keep, spare);
    } else if (threads > 0) {
      std::istringstream in(text);
      const std::function<CatalogTool(CatalogTool &&)> as_read = [](CatalogTool&& t) { return std::move(t); };
      const std::function<void(CatalogTool &&)> kept = keep;
      summary = mcp_hints::read_catalog_in_parallel(in, limits, threads, as_read, kept);
    } else if (seekable) {
      std::istringstream in(text);
      summary = mcp_hints::read_catalog(in, limits, keep, spare);
    } else {
      OnceThroughBuffer buffer(text);
      std::istream in(&buffer);
      summary = mcp_hints::read_catalog(in, limits, keep, spare);
    }
    out += "read " + std::to_string(summary.tool_count) + " tools, shape " +
           std::to_string(static_cast<int>(summary.shape));
    if (read_fast) *read_fast = summary.read_fast;
  } catch (const InputError& e) {
    out +=
        std::string("error: ") + e.what() + " @" + e.pointer() + " line " + std::to_string(e.line()) + " " + e.limit();
  }
  return out;
}

}  // namespace

// A catalog read from a file (the fast reader first, nlohmann's parser where it gives up, the tools
// it handed on passed over) gives what the same catalog gives through a pipe (nlohmann's parser
// alone): every tool with its line and every value's position, every repeated member, then the
// same summary or the same error. Over generated catalogs and every kind of damage to them.
TEST(CatalogReader, AFileIsReadAsAPipeIs) {
  MCP_HINTS_SKIP_ONE_THREAD_SWEEP_UNDER_THREAD_SANITIZER("(the catalog reader has no threads)");
  json_samples::Documents documents(5);
  std::mt19937 random(6);
  int read_fast = 0;
  for (int i = 0; i < 1500; ++i) {
    std::string text = documents.catalog(1 + i % 7);
    if (i % 3 != 0)
      for (int changes = 1 + static_cast<int>(random() % 2); changes > 0; --changes)
        text = json_samples::damaged(text, random);
    bool fast = false, fast_texts = false;
    const std::string piped = everything_read(text, false);
    ASSERT_EQ(everything_read(text, true, {}, &fast), piped) << nlohmann::json(text).dump();
    // Each tool's text found by following only its strings and brackets, then read on its own.
    ASSERT_EQ(everything_read(text, true, {}, &fast_texts, nullptr, 2), piped) << nlohmann::json(text).dump();
    // A pipe recorded as it is read (one catalog in four, whole and damaged: each recording makes a
    // file): the fast reader reads it, and goes back to its start to hand it to nlohmann's parser
    // where it gives up.
    bool fast_recorded = true, fast_recorded_texts = true;
    if (i % 4 == 0) {
      ASSERT_EQ(everything_read(text, false, {}, &fast_recorded, nullptr, 0, true), piped)
          << nlohmann::json(text).dump();
      ASSERT_EQ(everything_read(text, false, {}, &fast_recorded_texts, nullptr, 2, true), piped)
          << nlohmann::json(text).dump();
    }
    if (i % 3 == 0) {
      EXPECT_TRUE(fast) << nlohmann::json(text).dump();  // undamaged: the fast reader's alone
      EXPECT_TRUE(fast_texts) << nlohmann::json(text).dump();
      EXPECT_TRUE(fast_recorded) << nlohmann::json(text).dump();
      EXPECT_TRUE(fast_recorded_texts) << nlohmann::json(text).dump();
    }
    read_fast += fast;
  }
  EXPECT_GT(read_fast, 450);
  InputLimits tight;
  tight.max_depth = 4;
  tight.max_string = 12;
  tight.max_bytes = 300;
  for (int i = 0; i < 500; ++i) {
    const std::string text = documents.catalog(1 + i % 5);
    const std::string piped = everything_read(text, false, tight);
    ASSERT_EQ(everything_read(text, true, tight), piped) << nlohmann::json(text).dump();
    ASSERT_EQ(everything_read(text, true, tight, nullptr, nullptr, 2), piped) << nlohmann::json(text).dump();
    if (i % 4 != 0) continue;
    ASSERT_EQ(everything_read(text, false, tight, nullptr, nullptr, 0, true), piped) << nlohmann::json(text).dump();
    ASSERT_EQ(everything_read(text, false, tight, nullptr, nullptr, 2, true), piped) << nlohmann::json(text).dump();
  }
}

// Each tool built into the tree of the one before (read_catalog's spare_trees), its members'
// nodes, containers and strings used again, is the tool read, with the same positions and repeated
// members: over catalogs whose objects share most member names (so that nodes are taken over, left
// over, and changed in kind), read from a file and through a pipe, whole and damaged.
TEST(CatalogReader, ToolsBuiltIntoRecycledTreesAreTheToolsRead) {
  MCP_HINTS_SKIP_ONE_THREAD_SWEEP_UNDER_THREAD_SANITIZER("(the catalog reader has no threads)");
  json_samples::Documents documents(11, true);
  std::mt19937 random(12);
  std::size_t recycled = 0;
  for (int i = 0; i < 1200; ++i) {
    std::string text = documents.catalog(2 + i % 9);
    if (i % 4 == 3) text = json_samples::damaged(text, random);
    const std::string expected = everything_read(text, false);
    ASSERT_EQ(everything_read(text, true, {}, nullptr, &recycled), expected) << nlohmann::json(text).dump();
    ASSERT_EQ(everything_read(text, false, {}, nullptr, &recycled), expected) << nlohmann::json(text).dump();
  }
  EXPECT_GT(recycled, std::size_t{10000});
}

// The fast reader reads a stream a megabyte at a time: a catalog of several, shifted so that every
// kind of token falls across the edge of a read, and with a string longer than a read, is read as
// through a pipe, and by the fast reader alone.
TEST(CatalogReader, ReadsTokensThatFallAcrossTheEdgeOfARead) {
  MCP_HINTS_SKIP_ONE_THREAD_SWEEP_UNDER_THREAD_SANITIZER("(the catalog reader has no threads)");
  json_samples::Documents documents(7);
  std::string catalog = documents.catalog(16000);
  // And one string longer than a read, of characters of every length, ending in an escape.
  std::string long_string;
  while (long_string.size() < (std::size_t{3} << 19))
    long_string += "ab\\u00e9\\n\\ud83d\\ude00\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
  catalog.insert(catalog.size() - 2, ",{\"description\":\"" + long_string + "\\\"\"}");
  ASSERT_GT(catalog.size(), std::size_t{3} << 20);
  const std::string expected = everything_read(catalog, false);
  ASSERT_EQ(expected.find("error"), std::string::npos) << expected.substr(expected.size() - 300);
  // Under the sanitizers, which make each pass of 3 MiB take seconds, a third of the shifts: every
  // shift that reads a recorded pipe, and the smallest (make test takes them all).
  const std::vector<std::size_t> shifts =
      test_support::kUnderSanitizers
          ? std::vector<std::size_t>{0, 1, 2, 3, 89, 987}
          : std::vector<std::size_t>{0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987};
  for (const std::size_t shift : shifts) {
    const std::string padding(shift, ' ');
    bool fast = false, fast_texts = false;
    const std::string piped = everything_read(padding + catalog, false);
    ASSERT_EQ(everything_read(padding + catalog, true, {}, &fast), piped) << shift;
    EXPECT_TRUE(fast) << shift;
    ASSERT_EQ(everything_read(padding + catalog, true, {}, &fast_texts, nullptr, 2), piped) << shift;
    EXPECT_TRUE(fast_texts) << shift;
    if (shift != 1 && shift != 89 && shift != 987) continue;  // a recorded pipe at a few of them
    bool fast_recorded = false;
    ASSERT_EQ(everything_read(padding + catalog, false, {}, &fast_recorded, nullptr, 0, true), piped) << shift;
    EXPECT_TRUE(fast_recorded) << shift;
  }
  // Broken past the first reads: a pipe recorded as it is read goes back from there to its start,
  // read again from the file that kept it, to say what is wrong as nlohmann's parser says it.
  for (const std::size_t from_end : {std::size_t{3}, catalog.size() / 2}) {
    std::string broken = catalog;
    broken[broken.size() - from_end] = '\x01';
    const std::string piped = everything_read(broken, false);
    ASSERT_NE(piped.find("error"), std::string::npos) << from_end;
    ASSERT_EQ(everything_read(broken, false, {}, nullptr, nullptr, 0, true), piped) << from_end;
    ASSERT_EQ(everything_read(broken, false, {}, nullptr, nullptr, 2, true), piped) << from_end;
  }
}

// A tool's text is found 64 bytes at a time by following its strings and brackets alone: with
// every byte of escapes (backslashes in runs of one to four before a quote), brackets within
// strings, characters of two to four bytes and line breaks falling on the edge of such a block in
// turn, each tool, its line and every value's position are those read as through a pipe.
TEST(CatalogReader, AToolsTextEndsAtItsClosingBracketWhateverFallsOnTheEdgeOfABlock) {
  MCP_HINTS_SKIP_ONE_THREAD_SWEEP_UNDER_THREAD_SANITIZER("(the catalog reader has no threads)");
  const std::string tricky = R"("d":"\\\\\"}]\\\\","e":"\\\\\\\\","f":["]","\\"],"g":{"\\\"{":"x\\\\"},)"
                             "\"h\":\"\xf0\x9f\x98\x80\xc3\xa9\xe2\x82\xac\\\"[\",\r\n\t\"i\":[[{}],{\"j\":\"]]\"}]";
  for (std::size_t inside = 0; inside < 140; ++inside) {
    std::string text = "{\"tools\":[\n";
    for (int tool = 0; tool < 3; ++tool) {
      if (tool > 0) text += ",\n";
      text += "{" + std::string(inside, ' ') + tricky + "}";
      text += ", {" + std::string(inside % 7, '\n') + tricky + "," + std::string(inside, ' ') + "\"k\":1}";
    }
    text += "\n]}";
    const std::string piped = everything_read(text, false);
    ASSERT_EQ(piped.find("error"), std::string::npos) << piped;
    bool fast_texts = false;
    ASSERT_EQ(everything_read(text, true, {}, &fast_texts, nullptr, 2), piped) << inside;
    EXPECT_TRUE(fast_texts) << inside;
  }
}

// A tool that is no object (a literal, a number, a string) is read whole before the reader knows
// it is a tool, and may fall across the edge of a read: with every byte of each kind of scalar at
// the edge in turn, and a string longer than a read, each is read as through a pipe.
TEST(CatalogReader, AScalarToolAcrossTheEdgeOfAReadIsReadWhole) {
  MCP_HINTS_SKIP_ONE_THREAD_SWEEP_UNDER_THREAD_SANITIZER("(the catalog reader has no threads)");
  constexpr std::size_t kRead = std::size_t{1} << 20;  // the fast reader's first read
  const std::string head = R"([{"description":")";
  for (const std::string scalar : {"true", "false", "null", "12345", "-1.5e3", "\"a\\u00e9 string\""}) {
    for (std::size_t before = 0; before <= scalar.size(); ++before) {
      // The scalar's first `before` bytes end the first read.
      const std::size_t filler = kRead - head.size() - std::string(R"("},)").size() - before;
      const std::string text = head + std::string(filler, 'a') + R"("},)" + scalar + "]";
      ASSERT_EQ(text.find(scalar), kRead - before);
      bool fast = false;
      ASSERT_EQ(everything_read(text, true, {}, &fast), everything_read(text, false)) << scalar << " " << before;
      EXPECT_TRUE(fast) << scalar << " " << before;
    }
  }
  const std::string long_string = "\"" + std::string(kRead + 10, 'b') + "\"";
  const std::string text = R"([{"name":"a"},)" + long_string + "]";
  ASSERT_EQ(everything_read(text, true), everything_read(text, false));
}

// Space (a line break and an indent, a run of spaces, tabs and returns) and a string of one plain
// run, with every byte of each at the edge of the fast reader's first read in turn: each is read
// as through a pipe, and by the fast reader itself.
TEST(CatalogReader, SpaceAndPlainStringsAcrossTheEdgeOfAReadAreReadFast) {
  MCP_HINTS_SKIP_ONE_THREAD_SWEEP_UNDER_THREAD_SANITIZER("(the catalog reader has no threads)");
  constexpr std::size_t kRead = std::size_t{1} << 20;  // the fast reader's first read
  const std::string head = R"([{"description":")";
  const std::string spaces(20, ' ');
  for (const std::string& middle :
       {"\n" + spaces + R"("name":"x")", spaces + R"("name" :)" + spaces + R"("x")",
        std::string("\n \t\r\n   \"name\":\"x\""), R"("name":")" + std::string(40, 'x') + R"(")"}) {
    for (std::size_t before = 0; before <= middle.size(); ++before) {
      // The first `before` bytes of the middle end the first read.
      const std::size_t filler = kRead - head.size() - std::string(R"(",)").size() - before;
      const std::string text = head + std::string(filler, 'a') + R"(",)" + middle + "}]";
      ASSERT_EQ(text.find(middle), kRead - before);
      bool fast = false;
      ASSERT_EQ(everything_read(text, true, {}, &fast), everything_read(text, false)) << middle << " " << before;
      EXPECT_TRUE(fast) << middle << " " << before;
    }
  }
}

// What the caller throws while a file is read goes through at once: no tool is handed on twice,
// and nothing is read again.
TEST(CatalogReader, WhatTheCallerThrowsGoesThrough) {
  std::istringstream in(R"({"tools": [{"name": "a"}, {"name": "b"}, {"name": "c"}]})");
  std::vector<std::string> seen;
  EXPECT_THROW(mcp_hints::read_catalog(in, {},
                                       [&](CatalogTool&& t) {
                                         seen.push_back(t.tool["name"]);
                                         if (seen.size() == 2) throw InputError("the caller's");
                                       }),
               InputError);
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b"}));
}
