// The mock's prompts and resources (served_content.cpp): listed, got and read as the scenario
// gives them, in both eras, each answer valid under its revision's schema, each refusal as the
// pages say.
#include <gtest/gtest.h>

#include "mcp_hints/mock/mock_server.hpp"
#include "mcp_hints/mock/scenario.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/protocol.hpp"
#include "mcp_hints/wire/protocol_schema.hpp"
#include "mock_support.hpp"

using json = nlohmann::json;
namespace rpc = mcp_hints::jsonrpc;
using mcp_hints::mock::MockServer;

namespace {

json text_message(const std::string& text) {
  return {{"role", "user"}, {"content", {{"type", "text"}, {"text", text}}}};
}

// A scenario document with one server, `main`, serving the members given beside one tool.
json scenario_with(const json& members) {
  json server = {{"tools", json::array({{{"name", "t"}, {"inputSchema", {{"type", "object"}}}}})}};
  server.update(members);
  return {{"id", "mock.served-content"},
          {"title", "t"},
          {"checks", "c"},
          {"proposals", json::array({{{"proposal", "MCP specification"}, {"section", "s"}}})},
          {"level", "MUST"},
          {"servers", {{"main", server}}}};
}

const json kContent = {
    {"prompts", json::array({{{"prompt",
                               {{"name", "greet"},
                                {"description", "Greets"},
                                {"arguments", json::array({{{"name", "who"}, {"required", true}},
                                                           {{"name", "mood"}, {"required", false}}})}}},
                              {"messages", json::array({text_message("Hello {{who}}, {{mood}} {{unknown}} {{"),
                                                        text_message("x}} {{a {{who}}")})}},
                             {{"prompt", {{"name", "bare"}}}, {"messages", json::array({text_message("bare")})}}})},
    {"resources",
     json::array({{{"resource", {{"uri", "test://a"}, {"name", "a"}}},
                   {"contents", json::array({{{"uri", "test://a"}, {"mimeType", "text/plain"}, {"text", "A"}}})}},
                  {{"resource", {{"uri", "test://b"}, {"name", "b"}}},
                   {"contents", json::array({{{"uri", "test://b"}, {"blob", "Qg=="}}})}}})},
    {"resourceTemplates",
     json::array({{{"resourceTemplate", {{"uriTemplate", "test://item/{id}/part/{part}"}, {"name", "item"}}},
                   {"contents", json::array({{{"uri", "{{uri}}"}, {"text", "item {{id}} part {{part}}"}}})}},
                  {{"resourceTemplate",
                    {{"uriTemplate", "test://query{?q}"}, {"name", "query"}}},  // an operator: never matched
                   {"contents", json::array({{{"uri", "{{uri}}"}, {"text", "q"}}})}},
                  {{"resourceTemplate", {{"uriTemplate", "test://tail/{user.id}ab"}, {"name", "tail"}}},
                   {"contents", json::array({{{"uri", "{{uri}}"}, {"text", "{{user.id}}"}}})}},
                  {{"resourceTemplate", {{"uriTemplate", "test://pair/{a}{b}"}, {"name", "pair"}}},  // never matched
                   {"contents", json::array({{{"uri", "{{uri}}"}, {"text", "{{a}}"}}})}}})},
    {"pageSize", 1}};

MockServer server_serving(const json& members) {
  return MockServer(mcp_hints::mock::parse_scenario(scenario_with(members), "served.json").servers.at("main"));
}

const json kStatelessMeta = {
    {"_meta", {{mcp_hints::kProtocolVersionMeta, "2026-07-28"}, {mcp_hints::kClientCapabilitiesMeta, json::object()}}}};

// The one answer to a request, in the session era (after initialize) or the stateless one.
json answer(MockServer& server, const std::string& method, json params, bool stateless) {
  if (stateless && !params.contains("_meta")) params.update(kStatelessMeta);
  const auto out = server.handle(rpc::request(9, method, params));
  EXPECT_EQ(out.size(), 1u) << method;
  return out.empty() ? json() : out.front().message();
}

}  // namespace

// Given prompts, resources and templates, the server declares both capabilities (neither
// listChanged nor subscribe: nothing changes, nothing is watched) and answers every method, each
// answer valid under the schema of the revision spoken; every listing pages as tools/list does.
TEST(ServedContent, EveryMethodAnswersValidlyInBothEras) {
  mcp_hints::ProtocolSchemas schemas;
  for (const bool stateless : {false, true}) {
    SCOPED_TRACE(stateless ? "2026-07-28" : "2025-11-25");
    auto server = server_serving(kContent);
    const std::string revision = stateless ? "2026-07-28" : "2025-11-25";
    const json opened = stateless ? answer(server, "server/discover", json::object(), true)
                                  : server.handle(test_support::initialize_request()).front().message();
    EXPECT_EQ(opened["result"]["capabilities"]["prompts"], json({{"listChanged", false}})) << opened;
    EXPECT_EQ(opened["result"]["capabilities"]["resources"], json({{"listChanged", false}, {"subscribe", false}}));
    auto valid = [&](const json& message, const std::string& method) {
      for (const auto& v : schemas.validate_message(revision, message, mcp_hints::Direction::server_to_client, method))
        ADD_FAILURE() << method << ": " << v.definition << " " << v.pointer << " " << v.message << "\n" << message;
      return message;
    };
    valid(opened, stateless ? "server/discover" : "initialize");

    // Pages of one item each, the cursor the one before gave; stateless listings carry ttlMs and cacheScope.
    for (const auto& [method, key, count] :
         {std::tuple{"prompts/list", "prompts", 2}, std::tuple{"resources/list", "resources", 2},
          std::tuple{"resources/templates/list", "resourceTemplates", 4}}) {
      json params = json::object();
      std::vector<json> seen;
      for (int page = 0; page < 5; ++page) {
        const json listed = valid(answer(server, method, params, stateless), method);
        ASSERT_TRUE(listed.contains("result")) << listed;
        for (const auto& item : listed["result"][key]) seen.push_back(item);
        EXPECT_EQ(listed["result"].contains("ttlMs"), stateless) << listed;
        EXPECT_EQ(listed["result"].contains("cacheScope"), stateless) << listed;
        if (!listed["result"].contains("nextCursor")) break;
        params = {{"cursor", listed["result"]["nextCursor"]}};
      }
      ASSERT_EQ(seen.size(), static_cast<std::size_t>(count)) << method;
    }
    EXPECT_EQ(answer(server, "prompts/list", json::object(), stateless)["result"]["prompts"][0],
              kContent["prompts"][0]["prompt"]);
    EXPECT_EQ(answer(server, "prompts/list", {{"cursor", "page-9"}}, stateless)["error"]["code"], -32602);

    // prompts/get: {{NAME}} replaced by the argument's value (the innermost braces before "}}"), an
    // unknown name, a lone "{{" or "}}" kept as written.
    const json got = valid(answer(server, "prompts/get",
                                  {{"name", "greet"}, {"arguments", {{"who", "Ada"}, {"mood", "glad"}}}}, stateless),
                           "prompts/get");
    EXPECT_EQ(got["result"]["messages"][0]["content"]["text"], "Hello Ada, glad {{unknown}} {{") << got;
    EXPECT_EQ(got["result"]["messages"][1], text_message("x}} {{a Ada"));
    EXPECT_EQ(got["result"]["description"], "Greets");
    EXPECT_EQ(got["result"].contains("resultType"), stateless);
    EXPECT_FALSE(answer(server, "prompts/get", {{"name", "bare"}}, stateless)["result"].contains("description"));

    // resources/read: a resource by its uri; a template's match with its variables and the uri.
    const json read = valid(answer(server, "resources/read", {{"uri", "test://b"}}, stateless), "resources/read");
    EXPECT_EQ(read["result"]["contents"], kContent["resources"][1]["contents"]) << read;
    EXPECT_EQ(read["result"].contains("ttlMs"), stateless) << read;
    const json matched =
        valid(answer(server, "resources/read", {{"uri", "test://item/7/part/x.y"}}, stateless), "resources/read");
    EXPECT_EQ(matched["result"]["contents"],
              json::array({{{"uri", "test://item/7/part/x.y"}, {"text", "item 7 part x.y"}}}))
        << matched;
    // A value is never empty: "{user.id}ab" against "abab" is "ab", not "" (a dotted name is a name).
    const json tail = answer(server, "resources/read", {{"uri", "test://tail/abab"}}, stateless);
    EXPECT_EQ(tail["result"]["contents"], json::array({{{"uri", "test://tail/abab"}, {"text", "ab"}}})) << tail;
  }
}

// Each wrong request is refused with -32602 and says why (prompts: "Invalid prompt name" and
// "Missing required arguments" are -32602); a URI served neither as a resource nor by a template
// is an error, never empty contents: -32002 in the session era, -32602 with data.uri in the
// stateless one (2026-07-28, resources: "servers MUST return a JSON-RPC error with code -32602").
TEST(ServedContent, WrongRequestsAndUnknownNamesAreRefusedAsEachEraSays) {
  for (const bool stateless : {false, true}) {
    SCOPED_TRACE(stateless ? "2026-07-28" : "2025-11-25");
    auto server = server_serving(kContent);
    auto refusal = [&](const std::string& method, const json& params) {
      const json got = answer(server, method, params, stateless);
      EXPECT_FALSE(got.contains("result")) << method << " " << params << ": " << got;
      return got.value("error", json::object());
    };
    const std::pair<json, std::string> wrong_gets[] = {
        {json{{"name", 3}}, "name must be a string"},
        {json::object(), "name must be a string"},
        {json{{"name", "nope"}}, "unknown prompt: nope"},
        {json{{"name", "greet"}}, "missing required argument 'who'"},
        {json{{"name", "greet"}, {"arguments", {{"mood", "x"}}}}, "missing required argument 'who'"},
        {json{{"name", "greet"}, {"arguments", json::array()}}, "arguments must be an object"},
        {json{{"name", "greet"}, {"arguments", {{"who", 1}}}}, "argument 'who' must be a string"},
    };
    for (const auto& [params, why] : wrong_gets) {
      const json error = refusal("prompts/get", params);
      EXPECT_EQ(error.value("code", 0), -32602) << params;
      EXPECT_NE(error.value("message", "").find(why), std::string::npos) << params << ": " << error;
    }
    EXPECT_EQ(refusal("resources/read", {{"uri", 5}}).value("code", 0), -32602);
    // Not found: an unknown URI; a template's variable that would be empty or hold a '/'; a
    // literal part that differs or a URI that runs on; a template with an operator.
    for (const std::string uri : {"test://c", "test://item//part/x", "test://item/1/2/part/x", "test://item/1/part/",
                                  "test://item/1/parts/x", "test://item/1/part/x/y", "test://query?q=1", "test://a/",
                                  "test://pair/xy", "test://tail/ab", "test://tail/a/bab"}) {
      const json error = refusal("resources/read", {{"uri", uri}});
      EXPECT_EQ(error.value("code", 0), stateless ? -32602 : -32002) << uri << ": " << error;
      EXPECT_EQ(error["data"]["uri"], uri) << error;
    }
  }
}

// A prompt that asks for input (SEP-2322) asks every stateless prompts/get that does not answer
// all of it ("the server SHOULD respond with a new InputRequiredResult requesting the missing
// information again, rather than returning an error"), refuses a malformed answer or another
// requestState (-32602), ignores answers to what it did not ask, and gives its messages to one that
// answers in full; it never asks a client that does not declare the capability a request needs
// ("Servers MUST NOT send an inputRequests that the client has not declared support for": -32021);
// the session era, which has no such result, gets -32603.
TEST(ServedContent, APromptThatAsksForInputAsksUntilAnsweredInFull) {
  const json asked = {
      {"inputRequests",
       {{"context",
         {{"method", "elicitation/create"},
          {"params",
           {{"mode", "form"},
            {"message", "Which context?"},
            {"requestedSchema", {{"type", "object"}, {"properties", {{"c", {{"type", "string"}}}}}}}}}}},
        {"roots", {{"method", "roots/list"}, {"params", json::object()}}}}},
      {"requestState", "c3RhdGU"}};
  json members = kContent;
  members["prompts"][1]["inputRequired"] = asked;
  auto server = server_serving(members);
  mcp_hints::ProtocolSchemas schemas;
  const auto meta = [](const json& capabilities) {
    return json{{mcp_hints::kProtocolVersionMeta, "2026-07-28"}, {mcp_hints::kClientCapabilitiesMeta, capabilities}};
  };
  const json able = meta({{"elicitation", {{"form", json::object()}}}, {"roots", json::object()}});
  const json accepted = {{"action", "accept"}, {"content", {{"c", "x"}}}};
  const json roots = {{"roots", json::array()}};
  auto get = [&](json params) {
    params["name"] = "bare";
    if (!params.contains("_meta")) params["_meta"] = able;
    return answer(server, "prompts/get", params, true);
  };
  // Asked again for every answer that lacks one: none, none but the state, one of two.
  for (const json& params : {json::object(), json{{"requestState", "c3RhdGU"}},
                             json{{"inputResponses", {{"context", accepted}}}, {"requestState", "c3RhdGU"}},
                             json{{"inputResponses", {{"roots", roots}, {"extra", 1}}}, {"requestState", "c3RhdGU"}}}) {
    const json got = get(params);
    EXPECT_EQ(got["result"]["resultType"], "input_required") << params << ": " << got;
    EXPECT_EQ(got["result"]["inputRequests"], asked["inputRequests"]) << got;
    EXPECT_EQ(got["result"]["requestState"], "c3RhdGU");
    for (const auto& v :
         schemas.validate_message("2026-07-28", got, mcp_hints::Direction::server_to_client, "prompts/get"))
      ADD_FAILURE() << v.definition << " " << v.pointer << " " << v.message;
  }
  const std::pair<json, std::string> wrong[] = {
      {{{"inputResponses", {{"context", accepted}, {"roots", roots}}}}, "requestState"},
      {{{"inputResponses", {{"context", accepted}, {"roots", roots}}}, {"requestState", "other"}}, "requestState"},
      {{{"inputResponses", json::array()}, {"requestState", "c3RhdGU"}}, "not an object"},
      {{{"inputResponses", {{"context", "yes"}, {"roots", roots}}}, {"requestState", "c3RhdGU"}},
       "inputResponses['context'] is not an object"},
  };
  for (const auto& [params, why] : wrong) {
    const json got = get(params);
    EXPECT_EQ(got["error"]["code"], -32602) << params << ": " << got;
    EXPECT_NE(got["error"].value("message", "").find(why), std::string::npos) << got;
  }
  // A client that declares neither elicitation nor roots, or only one, is not asked.
  for (const auto& [declared, lacking] :
       {std::pair{json::object(), json{{"elicitation", {{"form", json::object()}}}, {"roots", json::object()}}},
        std::pair{json{{"elicitation", json::object()}}, json{{"roots", json::object()}}}}) {
    const json got = get({{"_meta", meta(declared)}});
    EXPECT_EQ(got["error"]["code"], -32021) << declared << ": " << got;
    EXPECT_EQ(got["error"]["data"]["requiredCapabilities"], lacking) << got;
  }
  const json answered = get({{"inputResponses", {{"context", accepted}, {"roots", roots}, {"extra", "ignored"}}},
                             {"requestState", "c3RhdGU"}});
  EXPECT_EQ(answered["result"]["resultType"], "complete") << answered;
  EXPECT_EQ(answered["result"]["messages"], json::array({text_message("bare")}));
  EXPECT_EQ(answer(server, "prompts/get", {{"name", "bare"}}, false)["error"]["code"], -32603);
  // A prompt that asks for nothing is got in either era without an answer.
  EXPECT_TRUE(
      answer(server, "prompts/get", {{"name", "greet"}, {"arguments", {{"who", "x"}}}}, false).contains("result"));
}

// A scenario that gives no prompts declares no prompts capability, and prompts/get is not found;
// one that gives resources but no templates lists none, and an empty list still declares.
TEST(ServedContent, OnlyWhatTheScenarioGivesIsDeclaredAndServed) {
  auto tools_only = server_serving(json::object());
  const json opened = tools_only.handle(test_support::initialize_request()).front().message();
  EXPECT_EQ(opened["result"]["capabilities"], json({{"tools", {{"listChanged", true}}}})) << opened;
  for (const std::string method : {"prompts/list", "prompts/get", "resources/list", "resources/templates/list",
                                   "resources/read", "resources/subscribe"})
    EXPECT_EQ(answer(tools_only, method, {{"name", "x"}, {"uri", "x"}}, false)["error"]["code"], -32601) << method;
  EXPECT_EQ(answer(tools_only, "prompts/list", json::object(), true)["error"]["code"], -32601);

  auto empty = server_serving({{"prompts", json::array()}, {"resources", json::array()}});
  const json discovered = answer(empty, "server/discover", json::object(), true);
  EXPECT_TRUE(discovered["result"]["capabilities"].contains("prompts")) << discovered;
  EXPECT_TRUE(discovered["result"]["capabilities"].contains("resources")) << discovered;
  EXPECT_EQ(answer(empty, "prompts/list", json::object(), true)["result"]["prompts"], json::array());
  EXPECT_EQ(answer(empty, "resources/templates/list", json::object(), false)["result"]["resourceTemplates"],
            json::array());
  EXPECT_EQ(answer(empty, "resources/subscribe", {{"uri", "x"}}, false)["error"]["code"], -32601);
}

// The scenario schema holds the entries to their shape: a prompt without messages, a resource
// without contents, a content with neither text nor blob, a template without its uriTemplate.
TEST(ServedContent, TheScenarioSchemaRefusesMalformedEntries) {
  EXPECT_NO_THROW(mcp_hints::mock::parse_scenario(scenario_with(kContent), "served.json"));
  const std::pair<std::string, json> broken[] = {
      {"/prompts/0/messages", nullptr},
      {"/prompts/0/prompt/name", ""},
      {"/resources/0/contents/0/text", nullptr},
      {"/resources/1/resource/uri", 7},
      {"/resourceTemplates/0/resourceTemplate/uriTemplate", nullptr},
      {"/resources/0/extra", true},
      {"/prompts/1/inputRequired", json::object()},
      {"/prompts/1/inputRequired", {{"inputRequests", {{"k", {{"method", "tools/call"}}}}}}},
  };
  for (const auto& [pointer, value] : broken) {
    json members = kContent;
    const json::json_pointer at(pointer);
    if (value.is_null())
      members[at.parent_pointer()].erase(at.back());
    else
      members[at] = value;
    EXPECT_THROW(mcp_hints::mock::parse_scenario(scenario_with(members), "served.json"), mcp_hints::mock::ScenarioError)
        << pointer;
  }
}
