#include "mcp_hints/wire/protocol_schema.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "test_support.hpp"

using json = nlohmann::json;
using mcp_hints::Direction;
using mcp_hints::ProtocolSchemas;
using mcp_hints::ProtocolViolation;
namespace check = mcp_hints::protocol_check;

namespace {

constexpr Direction kToServer = Direction::client_to_server;
constexpr Direction kToClient = Direction::server_to_client;
const std::string kLatest = "2026-07-28";

bool is_stateless(const std::string& revision) { return revision >= kLatest; }

// What every request of the stateless era carries.
json request_meta(const std::string& revision) {
  return {{"io.modelcontextprotocol/protocolVersion", revision},
          {"io.modelcontextprotocol/clientInfo", {{"name", "t"}, {"version", "1"}}},
          {"io.modelcontextprotocol/clientCapabilities", json::object()}};
}

json request(const std::string& revision, int id, const std::string& method, json params = json::object()) {
  if (is_stateless(revision)) params["_meta"] = request_meta(revision);
  json m = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.empty()) m["params"] = params;
  return m;
}

json response(int id, json result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}; }

json tools_list_result(const std::string& revision) {
  json result = {{"tools", json::array({{{"name", "echo"}, {"inputSchema", {{"type", "object"}}}}})}};
  if (is_stateless(revision)) {
    result["resultType"] = "complete";
    result["ttlMs"] = 60000;
    result["cacheScope"] = "public";
  }
  return result;
}

json tools_call_result(const std::string& revision) {
  json result = {{"content", json::array({{{"type", "text"}, {"text", "hi"}}})}};
  if (is_stateless(revision)) result["resultType"] = "complete";
  return result;
}

struct Sent {
  json message;
  Direction direction;
  std::string answered_method;  // for a response
};

// A correct handshake, tools/list and tools/call of a revision, as each side sends them.
std::vector<Sent> exchange(const std::string& revision) {
  std::vector<Sent> out;
  if (is_stateless(revision)) {
    out.push_back({request(revision, 1, "server/discover"), kToServer, ""});
    out.push_back({response(1, {{"resultType", "complete"},
                                {"supportedVersions", {revision}},
                                {"capabilities", {{"tools", json::object()}}},
                                {"_meta", {{"io.modelcontextprotocol/serverInfo", {{"name", "s"}, {"version", "1"}}}}},
                                {"ttlMs", 60000},
                                {"cacheScope", "public"}}),
                   kToClient, "server/discover"});
  } else {
    out.push_back({request(revision, 1, "initialize",
                           {{"protocolVersion", revision},
                            {"capabilities", json::object()},
                            {"clientInfo", {{"name", "t"}, {"version", "1"}}}}),
                   kToServer, ""});
    out.push_back({response(1, {{"protocolVersion", revision},
                                {"capabilities", {{"tools", json::object()}}},
                                {"serverInfo", {{"name", "s"}, {"version", "1"}}}}),
                   kToClient, "initialize"});
    out.push_back({{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, kToServer, ""});
  }
  out.push_back({request(revision, 2, "tools/list"), kToServer, ""});
  out.push_back({response(2, tools_list_result(revision)), kToClient, "tools/list"});
  out.push_back(
      {request(revision, 3, "tools/call", {{"name", "echo"}, {"arguments", {{"text", "hi"}}}}), kToServer, ""});
  out.push_back({response(3, tools_call_result(revision)), kToClient, "tools/call"});
  return out;
}

std::string shown(const std::vector<ProtocolViolation>& violations) {
  std::string out;
  for (const auto& v : violations)
    out += std::string(v.check_id) + " " + std::string(to_string(v.direction)) + " " + v.method + " " + v.definition +
           " " + v.pointer + ": " + v.message + "\n";
  return out;
}

bool has_violation(const std::vector<ProtocolViolation>& violations, std::string_view check_id,
                   const std::string& pointer, const std::string& message_part = {}) {
  return std::any_of(violations.begin(), violations.end(), [&](const ProtocolViolation& v) {
    return v.check_id == check_id && v.pointer == pointer && v.message.find(message_part) != std::string::npos;
  });
}

const std::vector<std::string> kRevisions = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"};

}  // namespace

TEST(ProtocolSchema, BundlesTheSpecificationsSchemaOfEveryRevisionUnchanged) {
  const auto bundled = mcp_hints::bundled_protocol_revisions();
  ASSERT_EQ(std::vector<std::string>(bundled.begin(), bundled.end()), kRevisions);
  for (const auto& revision : kRevisions) {
    const auto spec = test_support::shared_dir() / "reference" / "mcp-schema" / revision / "schema.json";
    const auto ours = test_support::source_dir() / "schemas" / "protocol" / (revision + ".schema.json");
    // The specification's copy is test material beside the project; without it, only our guard.
    if (std::filesystem::exists(spec)) {
      EXPECT_EQ(test_support::read_file(ours), test_support::read_file(spec)) << revision;
    }
    EXPECT_EQ(mcp_hints::keywords_valijson_misreads(test_support::read_json(ours)), std::vector<std::string>())
        << revision;
  }
}

// The notifications a session always counts apart are those the bundled schemas define, no more.
TEST(ProtocolSchema, TheSpecNotificationMethodsAreThoseOfTheBundledSchemas) {
  std::set<std::string> defined;
  for (const auto& revision : kRevisions) {
    const json schema =
        test_support::read_json(test_support::source_dir() / "schemas" / "protocol" / (revision + ".schema.json"));
    const json definitions = schema.value("$defs", schema.value("definitions", json::object()));
    for (const auto& [name, definition] : definitions.items())
      if (const json method = definition.value("/properties/method/const"_json_pointer, json());
          method.is_string() && method.get<std::string>().rfind("notifications/", 0) == 0)
        defined.insert(method.get<std::string>());
  }
  const std::set<std::string> listed(std::begin(mcp_hints::kSpecNotificationMethods),
                                     std::end(mcp_hints::kSpecNotificationMethods));
  EXPECT_EQ(listed, defined);
}

TEST(ProtocolSchema, FindsWhatValijsonWouldMisreadInA2020_12Schema) {
  const json misread = json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
      "A": {"type": "object", "unevaluatedProperties": false},
      "B": {"type": "array", "prefixItems": [{"type": "string"}], "items": [{"type": "string"}]},
      "C": {"$ref": "#/$defs/A", "required": ["x"], "description": "fine"},
      "D": {"$dynamicRef": "#meta", "properties": {"when": {"type": "string", "format": "date-time"}}},
      "E": {"$ref": "https://example.com/other.json"}
    }})");
  const auto found = mcp_hints::keywords_valijson_misreads(misread);
  for (const char* expected : {"/$defs/A: unevaluatedProperties", "/$defs/B: prefixItems", "/$defs/B: items",
                               "/$defs/C: required (beside $ref", "/$defs/D: $dynamicRef",
                               "/$defs/D/properties/when: format", "/$defs/E: $ref"})
    EXPECT_TRUE(std::any_of(found.begin(), found.end(), [&](const std::string& f) {
      return f.rfind(expected, 0) == 0;
    })) << expected;
  EXPECT_EQ(found.size(), 7u);
  // Draft-07 ignores what sits beside $ref, as valijson does; and a schema of no known dialect is refused.
  EXPECT_TRUE(
      mcp_hints::keywords_valijson_misreads(json::parse(R"({"$schema": "http://json-schema.org/draft-07/schema#",
                                  "definitions": {"C": {"$ref": "#/definitions/C", "required": ["x"]}}})"))
          .empty());
  EXPECT_EQ(mcp_hints::keywords_valijson_misreads(json::object()).size(), 1u);
}

TEST(ProtocolSchema, EverySpecificationExampleOfTheLatestRevisionIsValid) {
  ProtocolSchemas schemas;
  const auto examples = test_support::shared_dir() / "reference" / "mcp-examples" / kLatest;
  if (!std::filesystem::exists(examples)) GTEST_SKIP() << "no " << examples << " beside the project";
  std::size_t checked = 0;
  for (const auto& folder : std::filesystem::directory_iterator(examples)) {
    const std::string definition = folder.path().filename().string();
    for (const auto& file : std::filesystem::directory_iterator(folder.path())) {
      const auto violations = schemas.validate_definition(kLatest, definition, test_support::read_json(file.path()));
      EXPECT_TRUE(violations.empty()) << file.path() << ": " << violations.front().pointer << " "
                                      << violations.front().message;
      ++checked;
    }
  }
  EXPECT_GT(checked, 90u);
  // The same check fails where it should: a Tool without its name.
  json tool = test_support::read_json(examples / "Tool" /
                                      std::filesystem::directory_iterator(examples / "Tool")->path().filename());
  tool.erase("name");
  EXPECT_FALSE(schemas.validate_definition(kLatest, "Tool", tool).empty());
  EXPECT_THROW(schemas.validate_definition(kLatest, "NoSuchDefinition", tool), mcp_hints::UnknownProtocolSchema);
}

TEST(ProtocolSchema, ACorrectExchangeOfEveryRevisionIsClean) {
  ProtocolSchemas schemas;
  for (const auto& revision : kRevisions)
    for (const auto& sent : exchange(revision)) {
      const auto violations = schemas.validate_message(revision, sent.message, sent.direction, sent.answered_method);
      EXPECT_TRUE(violations.empty()) << revision << " " << sent.message.dump() << "\n" << shown(violations);
    }
}

TEST(ProtocolSchema, CatchesABrokenMessageOfEveryRevisionAtItsPointer) {
  ProtocolSchemas schemas;
  for (const auto& revision : kRevisions) {
    SCOPED_TRACE(revision);
    // A missing required member: a tool without inputSchema.
    json listed = response(2, tools_list_result(revision));
    listed["result"]["tools"][0].erase("inputSchema");
    auto found = schemas.validate_message(revision, listed, kToClient, "tools/list");
    EXPECT_TRUE(has_violation(found, check::result, "/result/tools/0", "inputSchema")) << shown(found);
    ASSERT_FALSE(found.empty());
    EXPECT_EQ(found.front().method, "tools/list");
    EXPECT_EQ(found.front().definition, "ListToolsResult");
    EXPECT_EQ(found.front().direction, kToClient);

    // A wrong type: content that is not an array.
    json called = response(3, tools_call_result(revision));
    called["result"]["content"] = "hi";
    found = schemas.validate_message(revision, called, kToClient, "tools/call");
    EXPECT_TRUE(has_violation(found, check::result, "/result/content", "array")) << shown(found);

    // A request whose params break their definition: tools/call without the tool's name.
    json call = request(revision, 3, "tools/call", {{"arguments", json::object()}});
    found = schemas.validate_message(revision, call, kToServer);
    EXPECT_TRUE(has_violation(found, check::request, "/params", "name")) << shown(found);

    // The JSON-RPC envelope: a response without jsonrpc.
    json bare = response(2, tools_list_result(revision));
    bare.erase("jsonrpc");
    found = schemas.validate_message(revision, bare, kToClient, "tools/list");
    EXPECT_TRUE(has_violation(found, check::result, "", "jsonrpc")) << shown(found);

    // An error without its message.
    found = schemas.validate_message(revision, json::parse(R"({"jsonrpc":"2.0","id":4,"error":{"code":-32601}})"),
                                     kToClient, "tools/call");
    EXPECT_TRUE(has_violation(found, check::error, "/error", "message")) << shown(found);

    // Not a message at all.
    found = schemas.validate_message(revision, json::parse(R"({"jsonrpc":"2.0","id":5})"), kToClient);
    EXPECT_FALSE(found.empty());
    EXPECT_EQ(found.front().check_id, check::message);
  }
}

TEST(ProtocolSchema, TheLatestRevisionWantsResultTypeAndCacheHints) {
  ProtocolSchemas schemas;
  json listed = response(2, tools_list_result(kLatest));
  listed["result"].erase("ttlMs");
  auto found = schemas.validate_message(kLatest, listed, kToClient, "tools/list");
  EXPECT_TRUE(has_violation(found, check::result, "/result", "ttlMs")) << shown(found);

  json called = response(3, tools_call_result(kLatest));
  called["result"].erase("resultType");
  found = schemas.validate_message(kLatest, called, kToClient, "tools/call");
  EXPECT_TRUE(has_violation(found, check::result, "/result", "resultType")) << shown(found);

  // Every request carries its _meta.
  json list = request(kLatest, 2, "tools/list");
  list["params"].erase("_meta");
  found = schemas.validate_message(kLatest, list, kToServer);
  EXPECT_TRUE(has_violation(found, check::request, "/params", "_meta")) << shown(found);
}

TEST(ProtocolSchema, ResultTypeChoosesBetweenAFinalResultAndAnInputRequiredOne) {
  ProtocolSchemas schemas;
  const json input_required = json::parse(R"({"resultType": "input_required", "requestState": "abc"})");
  EXPECT_TRUE(schemas.validate_message(kLatest, response(3, input_required), kToClient, "tools/call").empty());
  // A final result is held to CallToolResult, though the schema's anyOf would take it for an
  // InputRequiredResult (which requires nothing but resultType).
  auto found = schemas.validate_message(kLatest, response(3, {{"resultType", "complete"}}), kToClient, "tools/call");
  EXPECT_TRUE(has_violation(found, check::result, "/result", "content")) << shown(found);
  EXPECT_EQ(found.front().definition, "CallToolResult");
  // tools/list has no input-required result: it is held to ListToolsResult.
  found = schemas.validate_message(kLatest, response(2, input_required), kToClient, "tools/list");
  EXPECT_TRUE(has_violation(found, check::result, "/result", "tools")) << shown(found);
  // An input-required result is held to its own definition.
  found = schemas.validate_message(kLatest, response(3, {{"resultType", "input_required"}, {"requestState", 7}}),
                                   kToClient, "tools/call");
  EXPECT_TRUE(has_violation(found, check::result, "/result/requestState", "string")) << shown(found);
  EXPECT_EQ(found.front().definition, "InputRequiredResult");
}

TEST(ProtocolSchema, AnErrorIsCheckedAgainstTheDefinitionItsCodeNames) {
  ProtocolSchemas schemas;
  const json unsupported = json::parse(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"no"}})");
  auto found = schemas.validate_message(kLatest, unsupported, kToClient, "tools/list");
  EXPECT_TRUE(has_violation(found, check::error, "/error", "data")) << shown(found);
  EXPECT_EQ(found.front().definition, "UnsupportedProtocolVersionError");
  json complete = unsupported;
  complete["error"]["data"] = {{"requested", "1900-01-01"}, {"supported", {kLatest}}};
  EXPECT_TRUE(schemas.validate_message(kLatest, complete, kToClient, "tools/list").empty());
  // The code means nothing special to an older revision.
  EXPECT_TRUE(schemas.validate_message("2025-06-18", unsupported, kToClient, "tools/list").empty());
}

TEST(ProtocolSchema, AMessageOfOneEraIsCaughtWhereTheOtherErasSchemaDiffers) {
  ProtocolSchemas schemas;
  // A legacy tools/list result lacks what the stateless era requires.
  auto found = schemas.validate_message(kLatest, response(2, tools_list_result("2025-06-18")), kToClient, "tools/list");
  for (const char* member : {"resultType", "ttlMs", "cacheScope"})
    EXPECT_TRUE(has_violation(found, check::result, "/result", member)) << member << "\n" << shown(found);
  // A legacy tools/list request has no _meta; the stateless era's is fine in a legacy session.
  found = schemas.validate_message(kLatest, request("2025-06-18", 2, "tools/list"), kToServer);
  EXPECT_TRUE(has_violation(found, check::request, "", "params")) << shown(found);
  EXPECT_TRUE(schemas.validate_message("2025-06-18", request(kLatest, 2, "tools/list"), kToServer).empty());
  // initialize is no method of the stateless era (no violation by itself), but its result lacks resultType.
  EXPECT_FALSE(schemas.knows_method(kLatest, "initialize"));
  EXPECT_TRUE(schemas.knows_method("2025-06-18", "initialize"));
  EXPECT_TRUE(schemas.validate_message(kLatest, exchange("2025-06-18").front().message, kToServer).empty());
  found = schemas.validate_message(kLatest, exchange("2025-06-18")[1].message, kToClient, "initialize");
  EXPECT_TRUE(has_violation(found, check::result, "/result", "resultType")) << shown(found);
  // A content block type a later revision added: resource_link (2025-06-18) is unknown to 2025-03-26.
  json linked = response(3, tools_call_result("2025-06-18"));
  linked["result"]["content"][0] = {{"type", "resource_link"}, {"uri", "file:///a"}, {"name", "a"}};
  EXPECT_TRUE(schemas.validate_message("2025-06-18", linked, kToClient, "tools/call").empty());
  found = schemas.validate_message("2025-03-26", linked, kToClient, "tools/call");
  EXPECT_FALSE(found.empty());
  EXPECT_TRUE(std::all_of(found.begin(), found.end(), [](const ProtocolViolation& v) {
    return v.pointer.rfind("/result/content/0", 0) == 0;
  })) << shown(found);
}

TEST(ProtocolSchema, AMessageSentTheWrongWayIsCaught) {
  ProtocolSchemas schemas;
  // A client does not announce a server's list change.
  const json changed = json::parse(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})");
  EXPECT_TRUE(schemas.validate_message("2025-06-18", changed, kToClient).empty());
  auto found = schemas.validate_message("2025-06-18", changed, kToServer);
  EXPECT_TRUE(has_violation(found, check::notification, "/method", "ClientNotification")) << shown(found);
  // The stateless era has no server→client request: sampling goes through an input-required result.
  const json sampling = json::parse(
      R"({"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":10}})");
  EXPECT_TRUE(schemas.validate_message("2025-06-18", sampling, kToClient).empty());
  found = schemas.validate_message(kLatest, sampling, kToClient);
  EXPECT_TRUE(has_violation(found, check::request, "/method", "no ServerRequest")) << shown(found);
}

TEST(ProtocolSchema, AnUnknownMethodIsCheckedOnlyAsJsonRpc) {
  ProtocolSchemas schemas;
  for (const auto& revision : kRevisions) {
    EXPECT_FALSE(schemas.knows_method(revision, "x-vendor/thing"));
    const json custom = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "x-vendor/thing"}, {"params", {{"a", 1}}}};
    EXPECT_TRUE(schemas.validate_message(revision, custom, kToServer).empty()) << revision;
    json broken = custom;
    broken["jsonrpc"] = "1.0";
    EXPECT_TRUE(has_violation(schemas.validate_message(revision, broken, kToServer), check::request, "/jsonrpc"))
        << revision;
  }
}

TEST(ProtocolSchema, RefusesARevisionItDoesNotBundle) {
  ProtocolSchemas schemas;
  try {
    schemas.validate_message("1999-01-01", json::object(), kToServer);
    FAIL() << "no exception";
  } catch (const mcp_hints::UnknownProtocolSchema& e) {
    EXPECT_NE(std::string(e.what()).find("2026-07-28"), std::string::npos) << e.what();
  }
}

// Preparing a revision for listings changes no verdict: a large listing with a tool that breaks
// the schema, and the same listing mended, are judged alike with and without it, in every bundled
// revision; a revision that is not bundled cannot be prepared.
TEST(ProtocolSchema, PreparingForListingsChangesNoVerdict) {
  const auto said = [](const std::vector<ProtocolViolation>& violations) {
    std::vector<std::string> out;
    for (const auto& v : violations) out.push_back(std::string(v.check_id) + " " + v.pointer + " " + v.message);
    return out;
  };
  for (const auto& revision : mcp_hints::bundled_protocol_revisions()) {
    json tools = json::array();
    for (int i = 0; i < 400; ++i)
      tools.push_back({{"name", "tool_" + std::to_string(i)}, {"inputSchema", {{"type", "object"}}}});
    json broken = tools;
    broken[250]["inputSchema"] = "not an object";
    broken[399].erase("name");
    json result = {{"tools", tools}};
    if (mcp_hints::is_stateless_revision(revision))
      result.update({{"resultType", "complete"}, {"ttlMs", 1000}, {"cacheScope", "public"}});
    json broken_result = result;
    broken_result["tools"] = broken;
    for (const bool broke : {false, true}) {
      const json message = {{"jsonrpc", "2.0"}, {"id", 7}, {"result", broke ? broken_result : result}};
      ProtocolSchemas plain, prepared;
      prepared.prepare_listing(revision);
      const auto expected = said(plain.validate_message(revision, message, Direction::server_to_client, "tools/list"));
      EXPECT_EQ(said(prepared.validate_message(revision, message, Direction::server_to_client, "tools/list")), expected)
          << revision;
      EXPECT_EQ(expected.empty(), !broke) << revision;
    }
  }
  // Small answers too, which a prepared revision judges by first looks made for the large one: a
  // three-tool listing and an error answer, each sound and broken.
  for (const auto& revision : mcp_hints::bundled_protocol_revisions()) {
    json small = {{"tools", json::array({{{"name", "a"}, {"inputSchema", {{"type", "object"}}}},
                                         {{"name", "b"}, {"inputSchema", {{"type", "object"}}}},
                                         {{"name", "c"}, {"inputSchema", {{"type", "object"}}}}})}};
    if (mcp_hints::is_stateless_revision(revision))
      small.update({{"resultType", "complete"}, {"ttlMs", 1000}, {"cacheScope", "public"}});
    json small_broken = small;
    small_broken["tools"][1]["inputSchema"] = json::array();
    const std::vector<std::pair<json, bool>> answers = {
        {{{"jsonrpc", "2.0"}, {"id", 7}, {"result", small}}, true},
        {{{"jsonrpc", "2.0"}, {"id", 7}, {"result", small_broken}}, false},
        {{{"jsonrpc", "2.0"}, {"id", 7}, {"error", {{"code", -32601}, {"message", "unknown method"}}}}, true},
        {{{"jsonrpc", "2.0"}, {"id", 7}, {"error", {{"code", "not a number"}}}}, false}};
    for (const auto& [answer, sound] : answers) {
      ProtocolSchemas plain, prepared;
      prepared.prepare_listing(revision);
      const auto expected = said(plain.validate_message(revision, answer, Direction::server_to_client, "tools/list"));
      EXPECT_EQ(said(prepared.validate_message(revision, answer, Direction::server_to_client, "tools/list")), expected)
          << revision << " " << answer.dump();
      EXPECT_EQ(expected.empty(), sound) << revision << " " << answer.dump();
    }
  }
  ProtocolSchemas schemas;
  EXPECT_THROW(schemas.prepare_listing("1999-01-01"), mcp_hints::UnknownProtocolSchema);
}
