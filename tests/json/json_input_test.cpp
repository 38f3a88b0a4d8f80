#include "mcp_hints/json/input.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "json_samples.hpp"

using mcp_hints::InputError;
using mcp_hints::InputLimits;
using mcp_hints::parse_json;

TEST(JsonInput, ParsesAWellFormedDocument) {
  auto v = parse_json(R"({"a": [1, 2, {"b": null}]})");
  EXPECT_EQ(v["a"][2].contains("b"), true);
  EXPECT_EQ(v["a"][0], 1);
}

TEST(JsonInput, RejectsTextThatIsNotJsonWithLineAndColumn) {
  try {
    parse_json("{\n  \"a\": tru}");
    FAIL() << "no error";
  } catch (const InputError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("not valid JSON"), std::string::npos) << what;
    EXPECT_NE(what.find("line 2"), std::string::npos) << what;
  }
}

// A NUL byte is no end of a document (nlohmann's parser would take it for one): after a whole
// value, between members, before anything; in a string it is a control character. Each reader
// says so, where it stands.
TEST(JsonInput, RejectsANulByteWhereverItStands) {
  using namespace std::string_literals;
  const auto error_of = [](const std::string& text, mcp_hints::JsonReader reader) -> std::string {
    try {
      mcp_hints::parse_json_document(text, {}, reader);
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  };
  for (const auto reader : {mcp_hints::JsonReader::fastest, mcp_hints::JsonReader::nlohmann_only}) {
    EXPECT_EQ(error_of("{\"a\":1}\0garbage"s, reader),
              "not valid JSON: a NUL byte at line 1, column 8 (JSON has none outside a string)");
    EXPECT_EQ(error_of("{\"a\":1}\n\0"s, reader),
              "not valid JSON: a NUL byte at line 2, column 1 (JSON has none outside a string)");
    EXPECT_EQ(error_of("{\"a\":1,\0\"b\":2}"s, reader),
              "not valid JSON: a NUL byte at line 1, column 8 (JSON has none outside a string)");
    EXPECT_EQ(error_of("\0{}"s, reader),
              "not valid JSON: a NUL byte at line 1, column 1 (JSON has none outside a string)");
    EXPECT_NE(error_of("{\"a\":\"x\0\"}"s, reader).find("control character U+0000"), std::string::npos);
    EXPECT_EQ(error_of("{\"a\":\"\\u0000\"}"s, reader), "no error");
  }
  EXPECT_THROW(parse_json("[1]\0"s), InputError);
}

TEST(JsonInput, StopsNestingDeeperThanTheLimitWithoutCrashing) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  try {
    parse_json(deep);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nesting deeper than 256"), std::string::npos) << e.what();
  }
  InputLimits shallow;
  shallow.max_depth = 3;
  EXPECT_NO_THROW(parse_json("[[[1]]]", shallow));
  EXPECT_THROW(parse_json("[[[[1]]]]", shallow), InputError);
}

TEST(JsonInput, RejectsADocumentOverTheByteLimit) {
  InputLimits small;
  small.max_bytes = 10;
  EXPECT_NO_THROW(parse_json("[1,2,3]", small));
  try {
    parse_json("[1,2,3,4,5,6,7]", small);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "input is larger than the limit of 10 bytes");
    EXPECT_EQ(e.limit(), "max_bytes");
  }
}

// The string limit of the bounded reader holds in parse_json too (scenarios, mock lines, HTTP
// bodies, vocab drafts): a value or a member name one byte over it is refused, at it is read.
TEST(JsonInput, RejectsAStringOrAMemberNameOverTheStringLimit) {
  InputLimits limits;
  limits.max_string = 8;
  EXPECT_EQ(parse_json(R"({"12345678": "abcdefgh"})", limits)["12345678"], "abcdefgh");
  for (const char* text : {R"({"a": ["abcdefghi"]})", R"({"a": {"123456789": 1}})"}) {
    try {
      parse_json(text, limits);
      ADD_FAILURE() << "no error for " << text;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), "a string longer than the limit of 8 bytes") << text;
      EXPECT_EQ(e.limit(), "max_string");
      EXPECT_EQ(e.pointer(), "/a") << text;
    }
  }
  // The default limit: 16 MiB, whatever the document's own limit.
  const std::string huge = "[\"" + std::string((std::size_t{16} << 20) + 1, 'x') + "\"]";
  EXPECT_THROW(parse_json(huge), InputError);
  EXPECT_NO_THROW(parse_json("[\"" + std::string(std::size_t{16} << 20, 'x') + "\"]"));
}

TEST(JsonInput, EveryLimitNamesItsMember) {
  InputLimits shallow;
  shallow.max_depth = 1;
  try {
    parse_json(R"({"a": {"b": 1}})", shallow);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "nesting deeper than 1 levels");
    EXPECT_EQ(e.limit(), "max_depth");
    EXPECT_EQ(e.pointer(), "");
  }
  try {
    parse_json("{");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.limit(), "");  // not a limit: nothing raises it
  }
}

// RFC 8259: names SHOULD be unique; which of two values counts is a guess. Input this suite acts
// on refuses it, on one line with both values, the pointer and where each value starts.
TEST(JsonInput, ARepeatedMemberIsRefusedWithBothValuesAndWhere) {
  const std::string text = "{\"tools\": [{\"annotations\": {\n  \"readOnlyHint\": true,\n  \"readOnlyHint\": false}}]}";
  try {
    parse_json(text);
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find("member \"readOnlyHint\" given twice in the object at /tools/0/annotations: first true, "
                        "then false (line 3, column 19)"),
              std::string::npos)
        << what;
    EXPECT_EQ(e.pointer(), "/tools/0/annotations/readOnlyHint");
    EXPECT_EQ(e.line(), 3u);
  }
  // At the top level, and a container given twice.
  EXPECT_THROW(parse_json(R"({"a": 1, "a": 1})"), InputError);
  EXPECT_THROW(parse_json(R"({"a": {"x": 1}, "b": 2, "a": [2]})"), InputError);
}

// The value said to come after the first is the one that took its place there: the second of a
// name given three times, and one inside an object that was itself given again (no longer in the
// document kept).
TEST(JsonInput, TheValueGivenAfterTheFirstIsTheOneThatReplacedIt) {
  const auto said = [](const std::string& text) {
    try {
      parse_json(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(said(R"({"b": 1, "b": 2, "b": 3})").find("first 1, then 2 (line 1, column 15)"), std::string::npos)
      << said(R"({"b": 1, "b": 2, "b": 3})");
  const std::string nested = R"({"s": {"a": {}, "a": {"t": 1}}, "s": {"x": 1}})";
  EXPECT_NE(
      said(nested).find("member \"a\" given twice in the object at /s: first {}, then {\"t\":1} (line 1, column 22)"),
      std::string::npos)
      << said(nested);
  // Each listed member, in the document read.
  const auto document = mcp_hints::parse_json_document(
      R"({"s": {"a": {"p": {"q": 1, "q": 2}}, "a": 3, "s2": [{"k": true, "k": false}]}, "s": {"a": {"q": 4}}, "z": 5, "z": 6})");
  const auto& d = document.duplicates;
  ASSERT_EQ(d.size(), 5u);
  std::vector<std::string> after;
  for (std::size_t i = 0; i < d.size(); ++i)
    after.push_back(d[i].pointer + "=" + mcp_hints::given_after(document.value, d, i).dump());
  EXPECT_EQ(after,
            (std::vector<std::string>{"/s/a/p/q=2", "/s/a=3", "/s/s2/0/k=false", "/s={\"a\":{\"q\":4}}", "/z=6"}));
}

TEST(JsonInput, TheSameNameInSiblingObjectsIsNoRepetition) {
  EXPECT_NO_THROW(parse_json(R"({"a": {"n": 1}, "b": {"n": 2}, "c": [{"n": 3}, {"n": 4}], "n": {"n": {"n": 5}}})"));
}

// A peer's message is read, not refused: the last value is kept, as most parsers keep, and each
// repetition is listed (pointer, both values) for a judge to report.
TEST(JsonInput, ADocumentKeepsTheLastValueAndListsEachRepetition) {
  const auto document = mcp_hints::parse_json_document(
      R"({"result": {"tools": [{"annotations": {"readOnlyHint": true, "readOnlyHint": false}}], "x": 1, "x": 2}})");
  EXPECT_EQ(document.value["result"]["tools"][0]["annotations"]["readOnlyHint"], false);
  EXPECT_EQ(document.value["result"]["x"], 2);
  ASSERT_EQ(document.duplicates.size(), 2u);
  EXPECT_EQ(document.duplicates[0].pointer, "/result/tools/0/annotations/readOnlyHint");
  EXPECT_EQ(document.duplicates[0].earlier, true);
  EXPECT_EQ(document.duplicates[0].name(), "readOnlyHint");
  EXPECT_EQ(document.duplicates[0].later_at.line, 1u);
  EXPECT_EQ(document.duplicates[1].pointer, "/result/x");
  EXPECT_EQ(document.duplicates[1].earlier, 1);
  const mcp_hints::DuplicateMember odd{"/a~1b~0c", 1, {}, {}};
  EXPECT_EQ(odd.name(), "a/b~c");
  EXPECT_TRUE(mcp_hints::parse_json_document(R"({"a": {"n": 1}, "b": {"n": 2}})").duplicates.empty());
}

TEST(JsonInput, EscapesPointerTokens) {
  EXPECT_EQ(mcp_hints::escape_pointer_token("mcp.dev/effect"), "mcp.dev~1effect");
  EXPECT_EQ(mcp_hints::escape_pointer_token("a~b"), "a~0b");
  EXPECT_EQ(mcp_hints::escape_pointer_token("~/"), "~0~1");
  EXPECT_EQ(mcp_hints::escape_pointer_token(""), "");
}

// A stream is read no further than one byte past the size limit: enough for parse_json to refuse
// it by its size, while a 1 GiB file is never held whole.
TEST(JsonInput, ReadTextStopsOneBytePastTheLimit) {
  mcp_hints::InputLimits limits;
  limits.max_bytes = 100000;
  std::istringstream huge(std::string(300000, ' ') + "1");
  const std::string text = mcp_hints::read_text(huge, limits);
  EXPECT_EQ(text.size(), limits.max_bytes + 1);
  EXPECT_THROW(mcp_hints::parse_json(text, limits), mcp_hints::InputError);
  std::istringstream small("{\"a\": 1}");
  EXPECT_EQ(mcp_hints::read_text(small, limits), "{\"a\": 1}");
  std::istringstream exact(std::string(limits.max_bytes, ' '));
  EXPECT_EQ(mcp_hints::read_text(exact, limits).size(), limits.max_bytes);
}

// The span of a member's value: found behind members of every kind, with any space, and the
// object's own member only (not one of that name deeper in); not under a name written with an
// escape, nor in a text that breaks off first.
TEST(JsonInput, AMemberValueIsFoundBehindMembersOfEveryKind) {
  const auto value_of = [](std::string_view text, std::string_view name) -> std::string {
    const auto span = mcp_hints::member_value_span(text, name);
    return span ? std::string(text.substr(span->first, span->second - span->first)) : "(none)";
  };
  EXPECT_EQ(value_of(R"({"jsonrpc":"2.0","id":12,"result":{"tools":[]}})", "id"), "12");
  EXPECT_EQ(value_of(R"({"id":"a\"b","result":{}})", "id"), R"("a\"b")");
  EXPECT_EQ(value_of(" {\n \"a\" : true , \"b\":null,\"c\":-1.5e3,\t\"d\":\"x\\\\\",\"id\" : 7 }", "id"), "7");
  EXPECT_EQ(value_of(R"({"id":7})", "id"), "7");
  EXPECT_EQ(value_of(R"({"jsonrpc":"2.0","id":null})", "id"), "null");
  EXPECT_EQ(value_of(R"({"id":{"x":[1,{}]},"y":2})", "id"), R"({"x":[1,{}]})");    // a container
  EXPECT_EQ(value_of(R"({"result":{},"id":1})", "id"), "1");                       // behind a container
  EXPECT_EQ(value_of(R"({"result":{"id":0,"s":"}]\"{[\\"},"id":1})", "id"), "1");  // not the one deeper in
  EXPECT_EQ(value_of(R"({"r":[[],{"a":[{}]}],"k":"[","id" : 2 })", "id"), "2");
  EXPECT_EQ(value_of(R"({"r":[{"id":3}]})", "id"), "(none)");
  EXPECT_EQ(value_of(R"({"\u0069d":1,"id":2})", "id"), "2");  // a name with an escape is not taken
  EXPECT_EQ(value_of(R"({"\u0069d":1})", "id"), "(none)");
  EXPECT_EQ(value_of(R"({"i\"d":1,"id":2})", "id"), "2");
  EXPECT_EQ(value_of(R"({"idx":1,"i":2,"id":3})", "id"), "3");  // only the name itself
  EXPECT_EQ(value_of(R"({"jsonrpc":"2.0"})", "id"), "(none)");
  EXPECT_EQ(value_of(R"({"jsonrpc":"2.0" "id":1})", "id"), "(none)");  // no comma
  EXPECT_EQ(value_of(R"({"id":)", "id"), "(none)");                    // broken off
  EXPECT_EQ(value_of(R"({"a":"unterminated,"id":1)", "id"), "(none)");
  EXPECT_EQ(value_of(R"({"a":{"b":[1,2},"id":1)", "id"), "(none)");  // a bracket short
  EXPECT_EQ(value_of(R"({"a":"x\)", "id"), "(none)");
  EXPECT_EQ(value_of(R"({"id":"x\)", "id"), "(none)");
  EXPECT_EQ(value_of(R"([{"id":1}])", "id"), "(none)");
  EXPECT_EQ(value_of("{}", "id"), "(none)");
  EXPECT_EQ(value_of("", "id"), "(none)");
}

// A reader's message is the tree its text reads as, whether the text repeats the one before but
// for its id or not: every id that can stand in place of another (all JSON kinds, numbers at the
// edges of what nlohmann reads as unsigned, strings with escapes), and every one that cannot (not
// one value, not JSON, over a limit), in messages whose id stands first, last, behind containers
// or beside one of its name deeper in. The repeat is taken exactly where the id reads alone as a
// value of the same type, and never after a message that gave a member twice or named its id with an escape.
TEST(MessageReader, ReadsARepeatAsItsTextReadsWhole) {
  struct Base {
    std::string text;
    bool repeatable;
  };
  const std::vector<Base> bases = {
      {R"({"id":7,"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{},"name":"echo"}})", true},
      {R"({"method":"tools/call","params":{"name":"a","x":[1,{"id":5}]},"jsonrpc":"2.0","id":7})", true},
      {R"({ "jsonrpc" : "2.0" , "id" : "abc" , "method" : "x" })", true},
      {R"({"params":{"s":"}]\"{["},"id":-3,"method":"m"})", true},
      {R"({"id":null,"method":"m"})", true},
      {R"({"id":1.5,"method":"m"})", true},
      {R"({"id":{"a":[1]},"method":"m"})", true},
      {R"({"id":1,"id":2,"method":"m"})", false},
      {R"({"\u0069d":4,"method":"m","id":5})", false},
  };
  std::vector<std::string> ids = {"0",
                                  "1",
                                  "7",
                                  "42",
                                  "1234567",
                                  "007",
                                  "01",
                                  "-1",
                                  "-0",
                                  "18446744073709551615",
                                  "18446744073709551616",
                                  "99999999999999999999999",
                                  "1e2",
                                  "1.0",
                                  "-1.5",
                                  "\"x\"",
                                  "\"\"",
                                  "\"a\\\"b\"",
                                  "\"\\u00e9\"",
                                  "\"bad\\x\"",
                                  "\"\xff\"",
                                  "\"123456789012\"",
                                  "null",
                                  "true",
                                  "false",
                                  "[]",
                                  "{}",
                                  "{\"a\":[1]}",
                                  "",
                                  " 5",
                                  "5 ",
                                  "\t\"y\"\n",
                                  "5,\"k\":1",
                                  "\"7",
                                  "7x",
                                  "nul",
                                  "+1",
                                  "0x10",
                                  "[1,"};
  // Read alone, a value is read as no member's is: past a byte order mark, a level shallower. None
  // of these is a repeat; nor is a NUL byte, in no place JSON.
  ids.push_back(std::string("8\0 garbage ]]}{", 15));
  ids.push_back(std::string("\"b\"\0xx", 6));
  ids.push_back(
      "\xEF\xBB\xBF"
      "8");
  ids.push_back("\xEF\xBB\xBF\"s\"");
  ids.push_back("{\"a\":1,\"a\":2}");                // a member given twice inside the id
  for (const std::size_t depth : {254, 255, 256}) {  // the id's own nesting: the message's is one more
    std::string nested;
    for (std::size_t i = 0; i < depth; ++i) nested += "{\"a\":";
    ids.push_back(nested + "1" + std::string(depth, '}'));
  }
  for (const bool tight : {false, true}) {
    for (const auto& base : bases) {
      InputLimits limits;
      if (tight) {
        limits.max_string = 10;                   // the bases' longest string; the id "123456789012" passes it
        limits.max_bytes = base.text.size() + 4;  // a longer id passes it
      }
      const auto span = mcp_hints::member_value_span(base.text, "id");
      ASSERT_TRUE(span) << base.text;
      const nlohmann::json base_id = mcp_hints::parse_json_document(base.text).value["id"];
      for (const auto& id : ids) {
        const std::string other = base.text.substr(0, span->first) + id + base.text.substr(span->second);
        mcp_hints::MessageReader reader("id", limits);
        ASSERT_EQ(reader.read(base.text), mcp_hints::parse_json_document(base.text, limits).value) << base.text;
        EXPECT_FALSE(reader.repeated());
        std::optional<nlohmann::json> whole;
        try {
          whole = mcp_hints::parse_json_document(other, limits).value;
        } catch (const InputError&) {
        }
        if (!whole) {
          EXPECT_THROW(reader.read(other), InputError) << other;
          EXPECT_TRUE(reader.message().is_null());
          continue;
        }
        EXPECT_EQ(reader.read(other), *whole) << other;
        EXPECT_EQ(reader.message(), *whole) << other;
        bool alone_of_its_kind = false;  // the id read alone as a member's value, as the repeat reads it
        try {
          InputLimits member_limits = limits;
          --member_limits.max_depth;
          const auto alone = mcp_hints::parse_json_document(id, member_limits);
          alone_of_its_kind = alone.value.type() == base_id.type() && alone.duplicates.empty();
        } catch (const InputError&) {
        }
        EXPECT_EQ(reader.repeated(), base.repeatable && alone_of_its_kind) << other;
      }
    }
  }
}

// A reader takes repeats of the last text it read whole, one after another; after a text that
// does not read, nothing is a repeat until one reads again.
TEST(MessageReader, TakesRepeatsOfTheLastTextReadWholeOnly) {
  mcp_hints::MessageReader reader("id");
  const auto with_id = [](const std::string& id) { return R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":"ping"})"; };
  const auto read = [&](const std::string& text) {
    const nlohmann::json message = reader.read(text);
    EXPECT_EQ(message, mcp_hints::parse_json_document(text).value) << text;
    return reader.repeated();
  };
  EXPECT_FALSE(read(with_id("1")));
  EXPECT_TRUE(read(with_id("2")));
  EXPECT_TRUE(read(with_id("3")));
  EXPECT_FALSE(read(with_id("\"s\"")));  // another type: read whole, and the new reference
  EXPECT_TRUE(read(with_id("\"t\"")));
  EXPECT_FALSE(read(R"({"jsonrpc":"2.0","id":"t","method":"pong"})"));
  EXPECT_THROW(reader.read(with_id("4x")), InputError);
  EXPECT_TRUE(reader.message().is_null());
  EXPECT_FALSE(read(R"({"jsonrpc":"2.0","id":"u","method":"pong"})"));  // read whole: the last one did not read
  EXPECT_TRUE(read(R"({"jsonrpc":"2.0","id":"v","method":"pong"})"));
  EXPECT_FALSE(read("[1,2]"));  // not an object: no member to take again
  EXPECT_FALSE(read("[1,3]"));
}

namespace {

// Drives a JsonBuilder with the events of a document, as the readers do; the value built, and
// each member given twice (its pointer and the value given first).
struct BuiltValue {
  nlohmann::json value;
  std::string repeated;
};

BuiltValue build(mcp_hints::JsonBuilder& builder, const std::string& text) {
  struct Events : nlohmann::json_sax<nlohmann::json> {
    mcp_hints::JsonBuilder& b;
    explicit Events(mcp_hints::JsonBuilder& builder) : b(builder) {}
    bool null() override { return b.value(nullptr), true; }
    bool boolean(bool v) override { return b.value(v), true; }
    bool number_integer(number_integer_t v) override { return b.value(v), true; }
    bool number_unsigned(number_unsigned_t v) override { return b.value(v), true; }
    bool number_float(number_float_t v, const string_t&) override { return b.value(v), true; }
    bool string(string_t& v) override { return b.string(v), true; }
    bool binary(binary_t&) override { return false; }
    bool start_object(std::size_t) override { return b.open(false), true; }
    bool start_array(std::size_t) override { return b.open(true), true; }
    bool key(string_t& k) override { return b.key(k), true; }
    bool end_object() override { return b.close(), true; }
    bool end_array() override { return b.close(), true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
  } events(builder);
  EXPECT_TRUE(nlohmann::json::sax_parse(text, &events)) << text;
  BuiltValue built{builder.take(), {}};
  for (const auto& d : builder.take_duplicates())
    built.repeated += d.pointer + "=" + json_samples::typed(d.earlier) + " ";
  return built;
}

}  // namespace

// A name or a string given as a view of the text it is copied into (the builder's own name, a
// recycled string) is copied whole, as from anywhere else.
TEST(JsonBuilder, TextGivenFromItsOwnPlaceIsCopiedWhole) {
  nlohmann::json old = {{"name", "a string long enough to own its room"}};
  const auto* held = old["name"].get_ptr<const std::string*>();
  mcp_hints::JsonBuilder builder;
  builder.recycle(std::move(old));
  builder.open(false);
  builder.key(std::string_view("name"));
  builder.key(builder.next_key());
  builder.string(std::string_view(*held).substr(0, 8));
  builder.close();
  EXPECT_EQ(builder.take(), (nlohmann::json{{"name", "a string"}}));
}

// A value built into a recycled one is the value read: what the old value had and the new one
// has not is gone, what both have is the new one's, a member given twice is listed with the value
// given first. Sibling objects and arrays with members and elements left over, kinds changed,
// then a chain of documents whose objects share most member names, each built into the last.
TEST(JsonBuilder, AValueBuiltIntoARecycledOneIsTheValueRead) {
  std::vector<std::pair<std::string, std::string>> pairs = {
      {R"({"a":{"x":1,"y":2},"b":{"z":3}})", R"({"a":{"x":1},"b":{"w":4}})"},
      {R"({"a":[1,[2,3],{"k":4}],"b":[5,6]})", R"({"a":[7],"b":[[8],9,10]})"},
      {R"({"a":"long enough to own its room","b":{"c":"x"}})", R"({"a":{"c":"y"},"b":"a string again, long"})"},
      {R"([{"a":1,"b":2},{"c":3}])", R"([{"b":1},{"a":2,"c":3,"a":4}])"},
      {R"({"a":{"b":{"c":{}}}})", R"({"a":{"b":{"c":{"d":[]}},"e":null}})"},
      {R"({"a":1})", R"("a scalar root")"},
      {R"("a scalar root")", R"({"a":1})"},
  };
  // Objects past the most members told apart by a list (32) are not recycled, at it they are.
  const auto members = [](std::size_t from, std::size_t to, const std::string& value) {
    std::string out;
    for (std::size_t i = from; i < to; ++i) out += (out.empty() ? "\"m" : ",\"m") + std::to_string(i) + "\":" + value;
    return out;
  };
  for (const std::size_t count : {32, 33, 40}) {
    pairs.emplace_back(
        "{\"o\":{" + members(0, count, "[1,{}]") + "}}",
        "{\"o\":{" + members(count / 2, count + 3, "\"s\"") + "," + members(count - 2, count, "2") + "}}");
  }
  for (const auto& [before, after] : pairs) {
    mcp_hints::JsonBuilder fresh, recycling;
    const BuiltValue expected = build(fresh, after);
    recycling.recycle(build(recycling, before).value);
    const BuiltValue got = build(recycling, after);
    EXPECT_EQ(json_samples::typed(got.value), json_samples::typed(expected.value)) << before << " then " << after;
    EXPECT_EQ(got.repeated, expected.repeated) << before << " then " << after;
  }
  // A value left unfinished, then one built into a recycled value: the builder starts clean.
  {
    mcp_hints::JsonBuilder fresh, recycling;
    recycling.recycle(build(recycling, R"({"a":{"x":1,"y":{"z":[1,2]}},"b":2})").value);
    std::string a = "a", y = "y";
    recycling.open(false);
    recycling.key(a);
    recycling.open(false);
    recycling.key(y);
    recycling.open(false);
    recycling.take();
    const std::string text = R"({"a":{"y":{"q":3}},"c":[{"y":1}]})";
    recycling.recycle(build(recycling, R"({"a":{"x":1,"y":{"z":[1,2]}},"c":[{"x":0,"y":2}]})").value);
    EXPECT_EQ(json_samples::typed(build(recycling, text).value), json_samples::typed(build(fresh, text).value));
  }
  json_samples::Documents documents(21, true);
  mcp_hints::JsonBuilder fresh, recycling;
  nlohmann::json last;
  for (int i = 0; i < 4000; ++i) {
    const std::string text = documents.next();
    const BuiltValue expected = build(fresh, text);
    recycling.recycle(std::move(last));
    BuiltValue got = build(recycling, text);
    ASSERT_EQ(json_samples::typed(got.value), json_samples::typed(expected.value)) << text;
    ASSERT_EQ(got.repeated, expected.repeated) << text;
    last = std::move(got.value);
  }
}
