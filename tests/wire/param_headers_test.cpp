// SEP-2243's constraints on x-mcp-header (transports, 2026-07-28): each broken one, and the valid
// shapes beside it, including every invalid tool of the official suite's http-invalid-tool-headers.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/wire/param_headers.hpp"

using json = nlohmann::json;
using mcp_hints::invalid_param_headers;

namespace {

json with_property(const json& property) { return {{"type", "object"}, {"properties", {{"p", property}}}}; }
json header(const std::string& type, const json& name) { return {{"type", type}, {"x-mcp-header", name}}; }

}  // namespace

TEST(ParamHeaders, ValidAnnotationsAndNoneAtAll) {
  EXPECT_EQ(invalid_param_headers(json{{"type", "object"}}), "");
  EXPECT_EQ(invalid_param_headers(json::object()), "");
  EXPECT_EQ(invalid_param_headers(json("not a schema")), "");
  for (const std::string type : {"string", "integer", "boolean"})
    EXPECT_EQ(invalid_param_headers(with_property(header(type, "Region"))), "") << type;
  // Every token character, and nested objects reached through properties alone.
  EXPECT_EQ(invalid_param_headers(with_property(header("string", "A-z0.9!#$%&'*+^_`|~"))), "");
  const json nested = {{"type", "object"},
                       {"properties",
                        {{"outer", {{"type", "object"}, {"properties", {{"inner", header("string", "Inner")}}}}},
                         {"top", header("integer", "Top")}}}};
  EXPECT_EQ(invalid_param_headers(nested), "");
  // A property named x-mcp-header, and the word inside an instance (default, enum), are no annotation.
  EXPECT_EQ(invalid_param_headers(json{{"properties", {{"x-mcp-header", {{"type", "string"}}}}}}), "");
  EXPECT_EQ(invalid_param_headers(with_property({{"type", "object"}, {"default", {{"x-mcp-header", ""}}}})), "");
  EXPECT_EQ(invalid_param_headers(with_property({{"enum", json::array({{{"x-mcp-header", 1}}})}})), "");
}

TEST(ParamHeaders, EachConstraintBroken) {
  const auto why = [](const json& schema) { return invalid_param_headers(schema); };
  EXPECT_NE(why(with_property(header("string", ""))).find("is empty"), std::string::npos);
  EXPECT_NE(why(with_property(header("string", 7))).find("is not a string"), std::string::npos);
  for (const std::string name : {"My Region", "Region:Primary", "R\xC3\xA9gion", "Region\t1", "a\r\nb", "a(b)"})
    EXPECT_NE(why(with_property(header("string", name))).find("character an HTTP header name"), std::string::npos)
        << name;
  for (const std::string type : {"number", "object", "array", "null"})
    EXPECT_NE(why(with_property(header(type, "X"))).find("not integer, string or boolean"), std::string::npos) << type;
  EXPECT_NE(why(with_property({{"x-mcp-header", "X"}})).find("type unstated"), std::string::npos);
  EXPECT_NE(why(with_property({{"type", json::array({"string", "null"})}, {"x-mcp-header", "X"}})).find("not integer"),
            std::string::npos);
  for (const auto& [first, second] : {std::pair{"Region", "Region"}, std::pair{"MyField", "myfield"}}) {
    const json twice = {{"properties", {{"a", header("string", first)}, {"b", header("string", second)}}}};
    EXPECT_NE(why(twice).find("repeats another, ignoring case"), std::string::npos) << first << " " << second;
  }
  // Nowhere but on a chain of properties: not the root, items, composition, conditionals, $defs.
  EXPECT_NE(why(json{{"type", "string"}, {"x-mcp-header", "Root"}}).find("the schema's root"), std::string::npos);
  for (const json& hidden : {
           json{{"items", header("string", "X")}},
           json{{"prefixItems", json::array({header("string", "X")})}},
           json{{"allOf", json::array({with_property(header("string", "X"))})}},
           json{{"anyOf", json::array({header("string", "X")})}},
           json{{"oneOf", json::array({header("string", "X")})}},
           json{{"not", header("string", "X")}},
           json{{"if", header("string", "X")}},
           json{{"then", with_property(header("string", "X"))}},
           json{{"else", header("string", "X")}},
           json{{"$defs", {{"d", header("string", "X")}}}},
           json{{"additionalProperties", header("string", "X")}},
           json{{"patternProperties", {{"^a", header("string", "X")}}}},
       }) {
    const std::string reason = why(with_property(hidden));
    EXPECT_NE(reason.find("not on a property reached through properties alone"), std::string::npos) << hidden;
  }
  // The pointer says where.
  EXPECT_NE(why(with_property(header("number", "Score"))).find("at /properties/p"), std::string::npos);
}

// The specification's table of encoding examples, and the edges beside them.
TEST(ParamHeaders, ValuesAreEncodedAsTheSpecificationShows) {
  using mcp_hints::header_value;
  EXPECT_EQ(header_value("us-west1"), "us-west1");
  EXPECT_EQ(header_value("Hello, \xE4\xB8\x96\xE7\x95\x8C"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
  EXPECT_EQ(header_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
  EXPECT_EQ(header_value("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
  EXPECT_EQ(header_value("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
  EXPECT_EQ(header_value("us west 1"), "us west 1");  // inner spaces stay plain
  EXPECT_EQ(header_value("a\tb"), "a\tb");            // so does an inner tab
  EXPECT_EQ(header_value("\tindented"), "=?base64?CWluZGVudGVk?=");
  EXPECT_EQ(header_value("trailing "), "=?base64?dHJhaWxpbmcg?=");
  EXPECT_EQ(header_value("a\x7F"), "=?base64?YX8=?=");  // DEL is a control character
  EXPECT_EQ(header_value(""), "");
  EXPECT_EQ(header_value("=?base64?"), "=?base64?");  // not the whole sentinel: plain
}

TEST(ParamHeaders, EachAnnotatedValueIsMirroredAndNothingElse) {
  using mcp_hints::param_headers;
  using Headers = std::vector<std::pair<std::string, std::string>>;
  const json schema = {{"type", "object"},
                       {"properties",
                        {{"region", header("string", "Region")},
                         {"priority", header("integer", "Priority")},
                         {"verbose", header("boolean", "Verbose")},
                         {"query", {{"type", "string"}}},
                         {"scope", {{"type", "object"}, {"properties", {{"zone", header("string", "Zone")}}}}}}}};
  EXPECT_TRUE(mcp_hints::has_param_headers(schema));
  EXPECT_FALSE(mcp_hints::has_param_headers(json{{"properties", {{"query", {{"type", "string"}}}}}}));
  EXPECT_FALSE(mcp_hints::has_param_headers(json{{"items", header("string", "X")}}));
  // nlohmann::json keeps members in name order: the headers come in that order.
  EXPECT_EQ(param_headers(schema, {{"region", "us-west1"},
                                   {"priority", -7},
                                   {"verbose", false},
                                   {"query", "SELECT 1"},
                                   {"scope", {{"zone", "b"}}}}),
            (Headers{{"Mcp-Param-Priority", "-7"},
                     {"Mcp-Param-Region", "us-west1"},
                     {"Mcp-Param-Zone", "b"},
                     {"Mcp-Param-Verbose", "false"}}));
  // Absent, null, or a value of no primitive type: no header.
  EXPECT_EQ(param_headers(schema, {{"region", nullptr}, {"priority", 1.5}, {"verbose", json::array()}}), Headers{});
  EXPECT_EQ(param_headers(schema, json::object()), Headers{});
  EXPECT_EQ(param_headers(schema, json("not arguments")), Headers{});
  EXPECT_EQ(param_headers(schema, {{"verbose", true}}), (Headers{{"Mcp-Param-Verbose", "true"}}));
  EXPECT_EQ(param_headers(schema, {{"region", "R\xC3\xA9gion"}}),
            (Headers{{"Mcp-Param-Region", "=?base64?UsOpZ2lvbg==?="}}));
}

// "Value Encoding" as a server reads it: the sentinel decoded strictly (the official suite's cases:
// bad padding and a character outside the alphabet refused; a value missing either end of the
// sentinel taken literally), and what no header may carry refused.
TEST(ParamHeaders, ValuesAreDecodedStrictlyAndTakenLiterallyWithoutTheSentinel) {
  using mcp_hints::decoded_header_value;
  EXPECT_EQ(decoded_header_value("=?base64?SGVsbG8=?="), "Hello");
  EXPECT_EQ(decoded_header_value("=?base64?SGVsbG8sIOS4lueVjA==?="), "Hello, \xE4\xB8\x96\xE7\x95\x8C");
  EXPECT_EQ(decoded_header_value("=?base64?"
                                 "?="),
            "");  // split: "??=" would be a trigraph
  EXPECT_EQ(decoded_header_value("SGVsbG8="), "SGVsbG8=");
  EXPECT_EQ(decoded_header_value("=?base64?SGVsbG8="), "=?base64?SGVsbG8=");
  EXPECT_EQ(decoded_header_value("SGVsbG8=?="), "SGVsbG8=?=");
  EXPECT_EQ(decoded_header_value("plain value\twith tab"), "plain value\twith tab");
  for (const char* bad : {"=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?=", "=?base64?SGVsbG8===?=",
                          "=?base64?SGVs bG8=?=", "=?base64?S=VsbG8=?=", "caf\xC3\xA9", "line\nbreak", "del\x7f"})
    EXPECT_EQ(decoded_header_value(bad), std::nullopt) << bad;
  // What a client encodes, a server decodes back.
  for (const char* value :
       {"Hello, \xE4\xB8\x96\xE7\x95\x8C", " padded ", "line1\nline2", "=?base64?literal?=", "plain"})
    EXPECT_EQ(decoded_header_value(mcp_hints::header_value(value)), value) << value;
}

// A server's check of a tools/call: every annotated value the arguments give has its header (any
// case), decoded equal to the body's (an integer as a number); an absent or null value, or a
// header for no annotated value, asks for nothing.
TEST(ParamHeaders, AServerFindsEachHeaderMissingOrUnequal) {
  const json schema = {{"type", "object"},
                       {"properties",
                        {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                         {"days", {{"type", "integer"}, {"x-mcp-header", "Days"}}},
                         {"loud", {{"type", "boolean"}, {"x-mcp-header", "Loud"}}},
                         {"note", {{"type", "string"}}}}}};
  using Headers = std::vector<std::pair<std::string, std::string>>;
  const json args = {{"region", "Z\xC3\xBCrich"}, {"days", 3}, {"loud", false}, {"note", "n"}};
  const Headers good = {{"Region", "=?base64?WsO8cmljaA==?="}, {"Days", "3"}, {"Loud", "false"}};
  EXPECT_EQ(mcp_hints::param_header_mismatch(schema, args, good), "");
  EXPECT_EQ(
      mcp_hints::param_header_mismatch(
          schema, args, {{"region", "=?base64?WsO8cmljaA==?="}, {"DAYS", "3.0"}, {"loud", "false"}, {"Other", "x"}}),
      "");
  EXPECT_EQ(mcp_hints::param_header_mismatch(schema, {{"region", nullptr}, {"note", "n"}}, {}), "");
  EXPECT_EQ(mcp_hints::param_header_mismatch(schema, args, {{"Days", "3"}, {"Loud", "false"}}),
            "Mcp-Param-Region header missing (the body says \"Z\xC3\xBCrich\")");
  EXPECT_EQ(
      mcp_hints::param_header_mismatch(schema, args, {{"Region", "Z\xC3\xBCrich"}, {"Days", "3"}, {"Loud", "false"}}),
      "Mcp-Param-Region header \"Z\xC3\xBCrich\" has invalid characters or Base64");
  EXPECT_EQ(mcp_hints::param_header_mismatch(
                schema, args, {{"Region", "=?base64?WsO8cmljaA==?="}, {"Days", "3.5"}, {"Loud", "false"}}),
            "Mcp-Param-Days header value \"3.5\" does not match the body's \"3\"");
  EXPECT_EQ(mcp_hints::param_header_mismatch(schema, args,
                                             {{"Region", "=?base64?WsO8cmljaA==?="}, {"Days", "3"}, {"Loud", "0"}}),
            "Mcp-Param-Loud header value \"0\" does not match the body's \"false\"");
  // Only an integer is compared as a number: a string "3" is not "3.0".
  EXPECT_EQ(mcp_hints::param_header_mismatch(schema, {{"region", "3"}}, {{"Region", "3.0"}}),
            "Mcp-Param-Region header value \"3.0\" does not match the body's \"3\"");
}

// A probe's wrong header, for every kind of value: a server that reads it as the specification
// says (decoded, an integer compared as a number) finds it differs from the body, and it is a
// valid header value (so the refusal is for the mismatch, not for its characters).
TEST(ParamHeaders, AMismatchedValueDiffersForEveryKindOfValue) {
  const json schema = {{"type", "object"},
                       {"properties",
                        {{"s", {{"type", "string"}, {"x-mcp-header", "S"}}},
                         {"i", {{"type", "integer"}, {"x-mcp-header", "I"}}},
                         {"b", {{"type", "boolean"}, {"x-mcp-header", "B"}}}}}};
  const std::vector<json> values = {json("us-west1"),
                                    json(""),
                                    json("0"),
                                    json("-12"),
                                    json("true"),
                                    json("false"),
                                    json(" padded "),
                                    json("Z\xC3\xBCrich"),
                                    json("=?base64?literal?="),
                                    json("line1\nline2"),
                                    json(0),
                                    json(-1),
                                    json(42),
                                    json(9007199254740993LL),  // 2^53 + 1: a double cannot tell it from its neighbours
                                    json(std::numeric_limits<long long>::min()),
                                    json(true),
                                    json(false)};
  for (const auto& value : values) {
    const char* key = value.is_string() ? "s" : value.is_boolean() ? "b" : "i";
    const json args = {{key, value}};
    const auto right = mcp_hints::param_headers(schema, args);
    ASSERT_EQ(right.size(), 1u) << value;
    EXPECT_EQ(mcp_hints::param_header_mismatch(schema, args, {{key, right[0].second}}), "") << value;
    const auto text = mcp_hints::decoded_header_value(right[0].second);
    ASSERT_TRUE(text) << value;
    const std::string wrong = mcp_hints::mismatched_header_value(*text);
    EXPECT_TRUE(mcp_hints::decoded_header_value(wrong)) << value << " -> " << wrong;
    const std::string why = mcp_hints::param_header_mismatch(schema, args, {{key, wrong}});
    EXPECT_NE(why.find("does not match the body's"), std::string::npos) << value << " -> " << wrong << ": " << why;
  }
}
