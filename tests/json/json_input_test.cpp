#include "mcp_hints/json/input.hpp"

#include <gtest/gtest.h>

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
    EXPECT_NE(std::string(e.what()).find("over the limit of 10"), std::string::npos) << e.what();
  }
}

TEST(JsonInput, EscapesPointerTokens) {
  EXPECT_EQ(mcp_hints::escape_pointer_token("mcp.dev/effect"), "mcp.dev~1effect");
  EXPECT_EQ(mcp_hints::escape_pointer_token("a~b"), "a~0b");
  EXPECT_EQ(mcp_hints::escape_pointer_token("~/"), "~0~1");
  EXPECT_EQ(mcp_hints::escape_pointer_token(""), "");
}
