// The mock server: its engine step by step, and its stdio and HTTP fronts driven as a client
// drives them (through the library's own transports).
#include "mcp_hints/mock/mock_server.hpp"

#include <gtest/gtest.h>

#include <signal.h>

#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "mcp_hints/json/text.hpp"
#include "mcp_hints/live/check_server.hpp"
#include "mcp_hints/mock/scenario.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/mcp_client.hpp"
#include "mcp_hints/wire/protocol.hpp"
#include "mcp_hints/wire/transport.hpp"
#include "mock_support.hpp"
#include "schema_check.hpp"
#include "test_support.hpp"
#include "time_bounds.hpp"

using json = nlohmann::json;
namespace rpc = mcp_hints::jsonrpc;
using mcp_hints::Clock;
using test_support::http_mock;
using test_support::initialize_request;
using test_support::server_of;

namespace {

json call(const std::string& tool, int id) {
  return rpc::request(id, "tools/call", json{{"name", tool}, {"arguments", json::object()}});
}

auto soon() { return Clock::now() + std::chrono::seconds(5); }

// `mcp-hints mock` as a child process, spoken to over stdio.
std::unique_ptr<mcp_hints::StdioTransport> mock_stdio(const std::string& scenario,
                                                      const std::vector<std::string>& extra = {}) {
  mcp_hints::ProcessOptions o;
  o.argv = {MCP_HINTS_BIN, "mock", "--scenario", scenario};
  o.argv.insert(o.argv.end(), extra.begin(), extra.end());
  return std::make_unique<mcp_hints::StdioTransport>(o);
}

test_support::RunResult curl(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5"};
  argv.insert(argv.end(), args.begin(), args.end());
  return test_support::run_command(argv);
}

}  // namespace

TEST(MockServer, AnswersEachCallWithItsStepInOrder) {
  auto server = server_of("mock.script-steps");
  auto first = server.handle(call("fetch_record", 1));
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].message()["error"]["code"], -32603);
  EXPECT_EQ(first[0].message()["error"]["data"]["transient"], true);
  auto second = server.handle(call("fetch_record", 2));
  EXPECT_EQ(second[0].delay.count(), 100);
  EXPECT_EQ(second[0].message()["result"]["_meta"]["annotations"]["sensitiveHint"], "high");
  EXPECT_EQ(second[0].answers, 2);
  auto third = server.handle(call("fetch_record", 3));
  EXPECT_EQ(third[0].message()["error"]["message"], "record locked");
  auto fourth = server.handle(call("fetch_record", 4));
  ASSERT_EQ(fourth.size(), 2u);
  // list_changed first, so the client knows before it makes its next call.
  EXPECT_EQ(fourth[0].message()["method"], "notifications/tools/list_changed");
  EXPECT_EQ(fourth[1].message()["result"]["content"][0]["text"], "changed");
  // The catalog changed: the rug pull is served from now on.
  auto listed = server.handle(rpc::request(5, "tools/list"));
  EXPECT_EQ(listed[0].message()["result"]["tools"][0]["annotations"]["destructiveHint"], true);
  // Past its script, a tool gets the default result.
  EXPECT_EQ(server.handle(call("fetch_record", 6))[0].message()["result"]["content"][0]["text"], "default");
  auto close = server.handle(call("hang_up", 7));
  EXPECT_TRUE(close[0].close);
  EXPECT_TRUE(close[0].message().is_null());
}

// Lines that repeat the one before but for their ids (as a client's calls do) are answered as the
// same lines are when each is read whole: every step of a script in turn, to the id, whichever
// member the id is written as (first, last, a string), with the reader taking each repeat.
TEST(MockServer, AnswersRequestsThatRepeatButForTheirIdsAsItAnswersEachReadWhole) {
  auto repeats = server_of("mock.script-steps");
  auto whole = server_of("mock.script-steps");
  auto reader = mcp_hints::mock::MockServer::request_reader();
  const std::string first =
      R"({"id":1,"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{},"name":"fetch_record"}})";
  const std::string last =
      R"({"method":"tools/call","params":{"name":"fetch_record","arguments":{}},"jsonrpc":"2.0","id":1})";
  const auto with_id = [](std::string text, const std::string& id) {
    const auto span = *mcp_hints::member_value_span(text, "id");
    return text.replace(span.first, span.second - span.first, id);
  };
  const std::vector<std::pair<std::string, bool>> lines = {{with_id(first, "1"), false},
                                                           {with_id(first, "2"), true},
                                                           {with_id(first, "\"c\""), false},
                                                           {with_id(first, "\"d\""), true},
                                                           {with_id(last, "5"), false},
                                                           {with_id(last, "6"), true},
                                                           {with_id(last, "7"), true},
                                                           {with_id(last, "{}"), false},
                                                           {with_id(last, "8"), false},
                                                           {R"({"jsonrpc":"2.0","id":9,"method":"ping"})", false},
                                                           {R"({"jsonrpc":"2.0","id":10,"method":"ping"})", true}};
  for (const auto& [line, repeated] : lines) {
    const auto answers = repeats.handle_text(line, &reader);
    EXPECT_EQ(reader.repeated(), repeated) << line;
    EXPECT_EQ(reader.message(), json::parse(line)) << line;
    const auto expected = whole.handle_text(line);
    ASSERT_EQ(answers.size(), expected.size()) << line;
    for (std::size_t i = 0; i < answers.size(); ++i) {
      std::string text, expected_text;
      answers[i].append_text(text);
      expected[i].append_text(expected_text);
      EXPECT_EQ(text, expected_text) << line;
      EXPECT_EQ(answers[i].delay, expected[i].delay) << line;
    }
  }
}

TEST(MockServer, SendsProgressOnlyToACallerThatAskedForIt) {
  auto server = server_of("progress.long-running");
  json with_token = call("research_topic", 1);
  with_token["params"]["_meta"] = {{"progressToken", "p-1"}};
  const auto out = server.handle(with_token);
  ASSERT_EQ(out.size(), 4u);  // three progress notifications, then the answer
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out[i].message()["method"], "notifications/progress");
    EXPECT_EQ(out[i].message()["params"]["progressToken"], "p-1");
    EXPECT_EQ(out[i].message()["params"]["progress"], i + 1);
    EXPECT_EQ(out[i].answers, 1);  // cancelled with the call
    EXPECT_LT(out[i].delay, out[3].delay);
  }
  EXPECT_EQ(out[3].message()["result"]["content"][0]["text"], "findings");
  auto plain = server_of("progress.long-running").handle(call("research_topic", 2));
  ASSERT_EQ(plain.size(), 1u);  // no token, no progress
}

TEST(MockServer, NegotiatesTheLegacyEraAndAnswersBadInputWithTheStandardErrors) {
  auto server = server_of("mock.basic");
  for (const char* v : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
    auto r = server.handle(rpc::request(1, "initialize", json{{"protocolVersion", v}}));
    EXPECT_EQ(r[0].message()["result"]["protocolVersion"], v);
  }
  EXPECT_EQ(server.handle(rpc::request(1, "initialize", json{{"protocolVersion", "2026-07-28"}}))[0]
                .message()["result"]["protocolVersion"],
            "2025-11-25");
  EXPECT_EQ(server.handle(rpc::request(1, "initialize", json{{"protocolVersion", 7}}))[0].message()["error"]["code"],
            -32602);
  EXPECT_EQ(server.handle_text("{oops")[0].message()["error"]["code"], -32700);
  EXPECT_EQ(server.handle(json::array({rpc::request(1, "ping")}))[0].message()["error"]["code"], -32600);
  EXPECT_EQ(server.handle(json("hello"))[0].message()["error"]["code"], -32600);
  EXPECT_EQ(server.handle(json{{"jsonrpc", "2.0"}, {"id", 3}})[0].message()["id"], 3);
  // A server of both eras (the default) asks a server/discover for its version; one of the session
  // era alone does not know the method.
  EXPECT_EQ(server.handle(rpc::request(1, "server/discover"))[0].message()["error"]["code"], -32602);
  auto legacy = mcp_hints::mock::MockServer(
      mcp_hints::mock::pinned_to(mcp_hints::mock::load_scenario("mock.basic"), "2025-11-25").servers.at("main"));
  EXPECT_EQ(legacy.handle(rpc::request(1, "server/discover"))[0].message()["error"]["code"], -32601);
  EXPECT_EQ(server.handle(rpc::request(1, "resources/list"))[0].message()["error"]["code"], -32601);
  EXPECT_EQ(server.handle(rpc::request(1, "ping"))[0].message()["result"], json::object());
  EXPECT_EQ(server.handle(rpc::request(1, "tools/call", json{{"name", 3}}))[0].message()["error"]["code"], -32602);
  EXPECT_EQ(server.handle(rpc::request(1, "tools/call", json{{"name", "nonesuch"}}))[0].message()["error"]["code"],
            -32602);
  EXPECT_EQ(server.handle(rpc::request(1, "tools/call", json{{"name", "read_file"}, {"arguments", 1}}))[0]
                .message()["error"]["code"],
            -32602);
  EXPECT_EQ(server.handle(rpc::request(1, "tools/list", json{{"cursor", "page-99"}}))[0].message()["error"]["code"],
            -32602);
  EXPECT_EQ(server.handle(rpc::request(1, "tools/list", json{{"cursor", 2}}))[0].message()["error"]["code"], -32602);
  EXPECT_TRUE(server.handle(rpc::notification("notifications/initialized")).empty());
}

// A server pinned to older revisions answers with the client's revision when it speaks it, else
// with its newest; the schema's list of revisions is the wire's.
TEST(MockServer, AServerPinnedToOlderRevisionsNegotiatesOnlyThose) {
  auto spec = mcp_hints::mock::load_scenario("mock.basic").servers.at("main");
  spec.protocol_versions = {"2025-03-26", "2024-11-05"};
  mcp_hints::mock::MockServer server(spec);
  const auto answer = [&](const char* asked) {
    return server.handle(rpc::request(1, "initialize", json{{"protocolVersion", asked}}))[0]
        .message()["result"]["protocolVersion"];
  };
  EXPECT_EQ(answer("2024-11-05"), "2024-11-05");
  EXPECT_EQ(answer("2025-03-26"), "2025-03-26");
  EXPECT_EQ(answer("2025-11-25"), "2025-03-26");
  EXPECT_EQ(answer("2025-06-18"), "2025-03-26");

  const json schema = json::parse(test_support::read_file(test_support::source_dir() / "schemas/scenario.schema.json"));
  const json listed = schema["definitions"]["Server"]["properties"]["protocolVersions"]["items"]["enum"];
  EXPECT_EQ(listed.get<std::vector<std::string>>(), mcp_hints::all_protocol_versions());

  json document = mcp_hints::mock::load_scenario("mock.basic").document;
  document["servers"]["main"]["protocolVersions"] = {"2026-07-29"};
  EXPECT_THROW(mcp_hints::mock::parse_scenario(document, "pinned"), mcp_hints::mock::ScenarioError);
}

namespace {

// mock.script-steps (a catalog a script changes) served in the eras given.
mcp_hints::mock::MockServer pinned_server(const std::vector<std::string>& versions) {
  auto spec = mcp_hints::mock::load_scenario("mock.script-steps").servers.at("main");
  spec.protocol_versions = versions;
  return mcp_hints::mock::MockServer(spec);
}

json envelope(const std::string& version = "2026-07-28") {
  return {{"io.modelcontextprotocol/protocolVersion", version},
          {"io.modelcontextprotocol/clientCapabilities", json::object()}};
}

json stateless(int id, const std::string& method, json params = json::object(),
               const std::string& version = "2026-07-28") {
  params["_meta"] = envelope(version);
  return rpc::request(id, method, params);
}

}  // namespace

namespace {

// Scripted results of every kind of text and number, in steps of tool "t", and a default result.
const std::vector<json>& scripted_results() {
  static const std::vector<json> results = {
      json::parse(R"({"content":[{"type":"text","text":"q\"uo\\te\n\u0001 ünï 🙂"}],"isError":false})"),
      json::parse(R"({"content":[{"type":"text","text":"x"}],"structuredContent":{}})"),
      json::parse(R"({"content":[],"structuredContent":{"b":[1,-2,3.5,1e300,null,true],"a":{"z":{},"y":[]}}})"),
      json::parse(R"({"_meta":{"io.modelcontextprotocol/related":"x"},"content":[{"type":"text","text":""}]})")};
  return results;
}
const json kDefaultResult = json::parse(R"({"content":[{"type":"text","text":"défaut"}]})");

mcp_hints::mock::ServerSpec scripted_spec(std::vector<std::string> protocol_versions) {
  mcp_hints::mock::ServerSpec spec;
  spec.name = "main";
  spec.protocol_versions = std::move(protocol_versions);
  spec.tools = {json{{"name", "t"}, {"inputSchema", {{"type", "object"}}}}};
  for (const auto& result : scripted_results()) {
    mcp_hints::mock::Step step;
    step.payload = result;
    spec.scripts["t"].push_back(step);
  }
  spec.default_result = kDefaultResult;
  return spec;
}

// The result the n-th call of "t" (from 0) gets.
const json& scripted_result(std::size_t n) {
  return n < scripted_results().size() ? scripted_results()[n] : kDefaultResult;
}

}  // namespace

// A scripted result is kept as the scenario holds it and sent from its text: the bytes sent are
// those of its message (rpc::result to the request's id) written by json_text, for every kind of
// id and of result, in both eras (the stateless one adds resultType), step by step and past the
// script (the default result).
TEST(MockServer, SendsAScriptedResultAsTheBytesOfItsMessage) {
  const auto spec = scripted_spec({"2026-07-28", "2025-11-25"});
  const std::vector<json> ids = {0,
                                 1,
                                 -7,
                                 json(std::numeric_limits<std::int64_t>::min()),
                                 json(std::numeric_limits<std::uint64_t>::max()),
                                 "",
                                 "a",
                                 "q\"uo\\te\n\u0001",
                                 "ünï"};
  for (const bool stateless_era : {false, true}) {
    for (const auto& id : ids) {
      mcp_hints::mock::MockServer server(spec);
      json params = {{"name", "t"}, {"arguments", json::object()}};
      if (stateless_era) params["_meta"] = envelope("2026-07-28");
      for (std::size_t i = 0; i <= scripted_results().size(); ++i) {
        const auto out = server.handle(rpc::request(id, "tools/call", params));
        ASSERT_EQ(out.size(), 1u);
        json expected = rpc::result(id, scripted_result(i));
        if (stateless_era) expected["result"]["resultType"] = "complete";
        std::string sent;
        out[0].append_text(sent);
        EXPECT_EQ(sent, mcp_hints::json_text(expected)) << "id " << id.dump() << ", step " << i;
        EXPECT_EQ(out[0].message(), expected);
        EXPECT_EQ(out[0].answers, id);
        std::string again;  // and the same once the message was made
        out[0].append_text(again);
        EXPECT_EQ(again, sent);
      }
    }
  }
}

// In a batch (2025-03-26) the scripted results are made messages, and the batch is sent as the
// bytes of their array.
TEST(MockServer, SendsScriptedResultsInABatchAsTheBytesOfTheirArray) {
  mcp_hints::mock::MockServer server(scripted_spec({"2025-03-26"}));
  const json t = {{"name", "t"}};
  const std::vector<json> ids = {1, "b", -3, 4, "five"};
  json batch = json::array();
  json expected = json::array();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    batch.push_back(rpc::request(ids[i], "tools/call", t));
    expected.push_back(rpc::result(ids[i], scripted_result(i)));
    if (i == 1) batch.push_back(rpc::notification("notifications/initialized"));  // answered by nothing
  }
  const auto out = server.handle(batch, {}, true);
  ASSERT_EQ(out.size(), 1u);
  std::string sent;
  out[0].append_text(sent);
  EXPECT_EQ(sent, mcp_hints::json_text(expected));
  EXPECT_EQ(out[0].message(), expected);
}

// The stdio front sends a scripted result's bytes alike with and without a record (which reads
// each message sent), alone and in a batch, and records what it sends.
TEST(MockStdio, SendsScriptedResultsAlikeWithAndWithoutARecord) {
  test_support::TempDir dir;
  json steps = json::array();
  for (const auto& result : scripted_results()) steps.push_back({{"result", result}});
  const json scenario = {{"id", "test.scripted-text"},
                         {"title", "Scripted results of every kind"},
                         {"checks", "Nothing: the mock's answers."},
                         {"proposals", {{{"proposal", "MCP specification"}, {"section", "Tools"}}}},
                         {"level", "MAY"},
                         {"servers",
                          {{"main",
                            {{"protocolVersions", {"2025-03-26"}},
                             {"tools", {{{"name", "t"}, {"description", "t"}, {"inputSchema", {{"type", "object"}}}}}},
                             {"scripts", {{"t", steps}}},
                             {"defaultResult", kDefaultResult}}}}}};
  const auto scenario_file = dir.write("scenario.json", scenario.dump());
  const json t = {{"name", "t"}, {"arguments", json::object()}};
  std::string input = mcp_hints::json_text(rpc::request(0, "initialize",
                                                        json{{"protocolVersion", "2025-03-26"},
                                                             {"capabilities", json::object()},
                                                             {"clientInfo", {{"name", "t"}, {"version", "1"}}}})) +
                      "\n" + mcp_hints::json_text(rpc::notification("notifications/initialized")) + "\n";
  std::vector<std::string> expected_lines;  // the answers to the calls, as they are sent
  std::size_t n = 0;
  for (const json& id : {json(1), json("b")}) {
    input += mcp_hints::json_text(rpc::request(id, "tools/call", t)) + "\n";
    expected_lines.push_back(mcp_hints::json_text(rpc::result(id, scripted_result(n++))));
  }
  json batch = json::array();
  json answered = json::array();
  for (const json& id : {json(-3), json("four"), json(5)}) {
    batch.push_back(rpc::request(id, "tools/call", t));
    answered.push_back(rpc::result(id, scripted_result(n++)));
  }
  input += mcp_hints::json_text(batch) + "\n";
  expected_lines.push_back(mcp_hints::json_text(answered));
  input += mcp_hints::json_text(rpc::request(6, "tools/call", t)) + "\n";
  expected_lines.push_back(mcp_hints::json_text(rpc::result(6, scripted_result(n++))));
  const auto input_file = dir.write("in.jsonl", input);
  const auto record = dir.path() / "record.jsonl";
  const auto plain = test_support::run_cli({"mock", "--scenario", scenario_file.string()}, input_file.string());
  const auto recorded = test_support::run_cli(
      {"mock", "--scenario", scenario_file.string(), "--record", record.string()}, input_file.string());
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
  EXPECT_EQ(recorded.out, plain.out);
  std::vector<std::string> lines;
  std::istringstream sent(plain.out);
  for (std::string line; std::getline(sent, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), expected_lines.size() + 1) << plain.out;  // the initialize answer first
  for (std::size_t i = 0; i < expected_lines.size(); ++i) EXPECT_EQ(lines[i + 1], expected_lines[i]);
  // The record holds each message sent, a batch's one by one.
  std::vector<json> sent_messages;
  for (const auto& line : lines) {
    const json message = json::parse(line);
    if (message.is_array())
      sent_messages.insert(sent_messages.end(), message.begin(), message.end());
    else
      sent_messages.push_back(message);
  }
  std::vector<json> recorded_out;
  std::ifstream record_in(record);
  for (std::string line; std::getline(record_in, line);)
    if (const json entry = json::parse(line); entry.value("direction", "") == "out")
      recorded_out.push_back(entry["message"]);
  EXPECT_EQ(recorded_out, sent_messages);
}

TEST(MockServer, SpeaksTheStatelessEraToEnvelopedRequests) {
  auto server = pinned_server({"2026-07-28"});
  const json discover = server.handle(stateless(1, "server/discover"))[0].message()["result"];
  EXPECT_EQ(discover["resultType"], "complete");
  EXPECT_EQ(discover["supportedVersions"], json({"2026-07-28"}));
  EXPECT_TRUE(discover["capabilities"].contains("tools"));
  EXPECT_EQ(discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "main");
  EXPECT_EQ(discover["cacheScope"], "private");
  // A script changes this catalog: its listings are never fresh.
  EXPECT_EQ(discover["ttlMs"], 0);
  const json listing = server.handle(stateless(2, "tools/list"))[0].message()["result"];
  EXPECT_EQ(listing["resultType"], "complete");
  EXPECT_EQ(listing["ttlMs"], 0);
  EXPECT_EQ(listing["cacheScope"], "private");
  // The script's first step fails (an error carries no resultType), its second answers.
  auto failed = server.handle(stateless(3, "tools/call", {{"name", "fetch_record"}}));
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_FALSE(failed[0].message().contains("result"));
  auto answered = server.handle(stateless(3, "tools/call", {{"name", "fetch_record"}}));
  ASSERT_EQ(answered.size(), 1u);
  EXPECT_EQ(answered[0].message()["result"]["resultType"], "complete");
  // The refusals of the era, each with its HTTP status.
  auto refused = [&](const json& request) {
    const auto out = server.handle(request);
    EXPECT_EQ(out.size(), 1u);
    return std::make_pair(out[0].message()["error"], out[0].http_status);
  };
  auto [version, version_status] = refused(stateless(4, "tools/list", json::object(), "1999-01-01"));
  EXPECT_EQ(version["code"], -32022);
  EXPECT_EQ(version["data"], json({{"requested", "1999-01-01"}, {"supported", {"2026-07-28"}}}));
  EXPECT_EQ(version_status, 400);
  auto [init, init_status] = refused(initialize_request());
  EXPECT_EQ(init["code"], -32022);
  EXPECT_EQ(init["data"]["requested"], "2025-11-25");
  EXPECT_EQ(init_status, 400);
  auto [bare, bare_status] = refused(rpc::request(5, "tools/list", json::object()));
  EXPECT_EQ(bare["code"], -32602);
  EXPECT_NE(bare["message"].get<std::string>().find("io.modelcontextprotocol/protocolVersion"), std::string::npos);
  EXPECT_EQ(bare_status, 400);
  json no_capabilities = stateless(6, "tools/list");
  no_capabilities["params"]["_meta"].erase("io.modelcontextprotocol/clientCapabilities");
  EXPECT_EQ(refused(no_capabilities).first["code"], -32602);
  auto [unknown, unknown_status] = refused(stateless(7, "logging/setLevel"));
  EXPECT_EQ(unknown["code"], -32601);
  EXPECT_EQ(unknown_status, 404);
  // ping is gone from the era too (the official suite's sep-2575-http-server-method-not-found-404-ping).
  auto [ping, ping_status] = refused(stateless(8, "ping"));
  EXPECT_EQ(ping["code"], -32601);
  EXPECT_EQ(ping_status, 404);
}

// 2026-07-28, basic: "If processing a request requires a capability the client did not include in
// io.modelcontextprotocol/clientCapabilities, the server MUST return a
// MissingRequiredClientCapabilityError (-32021) whose data.requiredCapabilities lists the missing
// capabilities. On HTTP, the response status MUST be 400 Bad Request."
TEST(MockServer, RefusesAStepThatNeedsACapabilityTheRequestDoesNotDeclare) {
  json doc = test_support::read_json(test_support::source_dir() / "scenarios" / "mock.basic.json");
  doc["servers"]["main"]["scripts"] = {
      {"read_file",
       json::array({{{"requiresClientCapabilities", {{"sampling", json::object()}, {"elicitation", json::object()}}},
                     {"result", {{"content", json::array({{{"type", "text"}, {"text", "sampled"}}})}}}}})}};
  auto spec = mcp_hints::mock::parse_scenario(doc, "s.json").servers.at("main");
  spec.protocol_versions = {"2026-07-28", "2025-11-25"};
  mcp_hints::mock::MockServer server(spec);
  auto call_declaring = [&](int id, const json& capabilities) {
    json request = stateless(id, "tools/call", {{"name", "read_file"}, {"arguments", json::object()}});
    request["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = capabilities;
    auto out = server.handle(request);
    EXPECT_EQ(out.size(), 1u);
    return out.at(0);
  };
  const auto none = call_declaring(1, json::object());
  EXPECT_EQ(none.message()["id"], 1);
  EXPECT_EQ(none.message()["error"]["code"], -32021);
  EXPECT_EQ(none.message()["error"]["data"],
            json({{"requiredCapabilities", {{"elicitation", json::object()}, {"sampling", json::object()}}}}));
  EXPECT_EQ(none.http_status, 400);
  // Only what is missing is named; the refused calls left the step where it was.
  const auto half = call_declaring(2, {{"elicitation", {{"form", json::object()}}}});
  EXPECT_EQ(half.message()["error"]["data"], json({{"requiredCapabilities", {{"sampling", json::object()}}}}));
  const auto both = call_declaring(3, {{"sampling", json::object()}, {"elicitation", json::object()}});
  EXPECT_EQ(both.message()["result"]["content"][0]["text"], "sampled") << both.message();
  EXPECT_NE(both.http_status, 400);
  // The step is spent: the next call gets the default result, whatever it declares.
  EXPECT_TRUE(call_declaring(4, json::object()).message().contains("result"));
  // The legacy era declares capabilities once, at initialize, and has no such error: the step is played.
  mcp_hints::mock::MockServer legacy(spec);
  EXPECT_EQ(legacy.handle(call("read_file", 5))[0].message()["result"]["content"][0]["text"], "sampled");
  // A step that names elicitation and asks for it in url mode needs both: a form-only client is
  // not asked ("Servers MUST NOT send elicitation requests with modes that are not supported").
  json url_doc = doc;
  url_doc["servers"]["main"]["scripts"]["read_file"] = json::array(
      {{{"requiresClientCapabilities", {{"elicitation", json::object()}}},
        {"inputRequired",
         {{"inputRequests",
           {{"link",
             {{"method", "elicitation/create"},
              {"params",
               {{"mode", "url"}, {"message", "m"}, {"url", "https://example.com/x"}, {"elicitationId", "e1"}}}}}}}}}}});
  auto url_spec = mcp_hints::mock::parse_scenario(url_doc, "s.json").servers.at("main");
  EXPECT_EQ(url_spec.scripts.at("read_file")[0].required_capabilities,
            json({{"elicitation", {{"url", json::object()}}}}));
  // A requirement names at least one capability, each a ClientCapabilities member (an object).
  for (const json& wrong : {json::object(), json({{"sampling", true}}), json::array({"sampling"})}) {
    doc["servers"]["main"]["scripts"]["read_file"][0]["requiresClientCapabilities"] = wrong;
    EXPECT_THROW(mcp_hints::mock::parse_scenario(doc, "s.json"), mcp_hints::mock::ScenarioError) << wrong;
  }
}

TEST(MockServer, EachEraOnlyWhereTheServerSpeaksIt) {
  auto legacy = pinned_server({});
  EXPECT_EQ(legacy.handle(stateless(1, "server/discover"))[0].message()["error"]["code"], -32022);
  EXPECT_EQ(legacy.handle(rpc::request(2, "server/discover", json::object()))[0].message()["error"]["code"], -32601);
  auto both = pinned_server({"2026-07-28", "2025-11-25"});
  EXPECT_EQ(both.handle(initialize_request())[0].message()["result"]["protocolVersion"], "2025-11-25");
  EXPECT_EQ(both.handle(stateless(3, "server/discover"))[0].message()["result"]["supportedVersions"],
            json({"2026-07-28", "2025-11-25"}));
  // A legacy-era result carries nothing of the stateless era.
  const json listing = both.handle(rpc::request(4, "tools/list", json::object()))[0].message()["result"];
  EXPECT_FALSE(listing.contains("resultType") || listing.contains("ttlMs") || listing.contains("cacheScope"));
}

TEST(MockServer, TheStatelessEraChangesTheCatalogWithoutAListChangedNotification) {
  // mock.script-steps: the fourth call of fetch_record changes the catalog.
  for (const bool stateless_era : {false, true}) {
    auto server = pinned_server({"2026-07-28", "2025-11-25"});
    const json before = server.handle(stateless(8, "tools/list"))[0].message()["result"]["tools"];
    std::vector<mcp_hints::mock::Outgoing> fourth;
    for (int i = 1; i <= 4; ++i)
      fourth = server.handle(stateless_era ? stateless(i, "tools/call", {{"name", "fetch_record"}})
                                           : call("fetch_record", i));
    std::size_t notices = 0;
    std::size_t notes = 0;
    for (const auto& o : fourth) {
      notices += o.message().is_object() && o.message().value("method", "") == "notifications/tools/list_changed";
      notes += o.note == mcp_hints::mock::kCatalogChangedEvent;  // for the record: the change came unannounced
    }
    EXPECT_EQ(notices, stateless_era ? 0u : 1u);
    EXPECT_EQ(notes, stateless_era ? 1u : 0u);
    const json after = server.handle(stateless(9, "tools/list"))[0].message()["result"]["tools"];
    ASSERT_TRUE(before.is_array() && after.is_array());
    EXPECT_NE(before, after);
  }
}

// subscriptions/listen (2026-07-28): "The server MUST send notifications/subscriptions/acknowledged
// as the first message carrying the subscription's ID", its filter "the subset the server agreed to
// honor", and "MUST NOT send notification types the client has not explicitly requested".
TEST(MockServer, AcknowledgesASubscriptionAndDeliversTheCatalogChangeOnlyWhereAsked) {
  auto spec = mcp_hints::mock::load_scenario("mock.script-steps").servers.at("main");
  spec.protocol_versions = {"2026-07-28", "2025-11-25"};
  spec.authorizations = {{"alice", "a"}, {"bob", "b"}};
  spec.tools_by_authorization["bob"] = spec.tools;  // bob's catalog is his own: the change is not his
  mcp_hints::mock::MockServer server(spec);
  auto listen = [&](const json& id, const json& filter, const std::string& context = "alice") {
    auto outs = server.handle(
        rpc::request(id, "subscriptions/listen", json{{"_meta", envelope()}, {"notifications", filter}}), context);
    EXPECT_EQ(outs.size(), 1u);
    return outs;
  };
  auto tools =
      listen("t", {{"toolsListChanged", true}, {"promptsListChanged", true}, {"resourceSubscriptions", {"x"}}});
  ASSERT_NE(tools[0].subscription, 0u);
  EXPECT_EQ(tools[0].message(), rpc::notification("notifications/subscriptions/acknowledged",
                                                  json{{"_meta", {{"io.modelcontextprotocol/subscriptionId", "t"}}},
                                                       {"notifications", {{"toolsListChanged", true}}}}));
  auto prompts = listen(2, {{"promptsListChanged", true}, {"toolsListChanged", false}});
  EXPECT_EQ(prompts[0].message()["params"]["notifications"], json::object());
  auto bobs = listen(3, {{"toolsListChanged", true}}, "bob");
  auto ended = listen(4, {{"toolsListChanged", true}});
  server.end_subscription(ended[0].subscription);
  // The fourth call of fetch_record changes the catalog: announced, so no unannounced change is noted.
  std::vector<mcp_hints::mock::Outgoing> fourth;
  for (int i = 1; i <= 4; ++i) fourth = server.handle(stateless(i, "tools/call", {{"name", "fetch_record"}}), "alice");
  for (const auto& o : fourth) EXPECT_NE(o.note, mcp_hints::mock::kCatalogChangedEvent);
  const auto delivered = server.take_deliveries(tools[0].subscription);
  ASSERT_EQ(delivered.size(), 1u);
  EXPECT_EQ(delivered[0].message,
            rpc::notification("notifications/tools/list_changed",
                              json{{"_meta", {{"io.modelcontextprotocol/subscriptionId", "t"}}}}));
  EXPECT_LE(delivered[0].due, Clock::now());
  EXPECT_TRUE(server.take_deliveries(tools[0].subscription).empty());  // taken once
  for (const auto* other : {&prompts, &bobs, &ended})
    EXPECT_TRUE(server.take_deliveries((*other)[0].subscription, std::chrono::milliseconds(20)).empty());
  // A filter that is not the schema's is refused (HTTP 400); the legacy era has no subscriptions.
  for (const json& params : {json{{"_meta", envelope()}}, json{{"_meta", envelope()}, {"notifications", true}},
                             json{{"_meta", envelope()}, {"notifications", {{"toolsListChanged", "yes"}}}},
                             json{{"_meta", envelope()}, {"notifications", {{"resourceSubscriptions", {1}}}}}}) {
    const auto refused = server.handle(rpc::request(9, "subscriptions/listen", params), "alice");
    ASSERT_EQ(refused.size(), 1u) << params;
    EXPECT_EQ(refused[0].message()["error"]["code"], -32602) << params;
    EXPECT_EQ(refused[0].http_status, 400) << params;
    EXPECT_EQ(refused[0].subscription, 0u);
  }
  EXPECT_EQ(server.handle(rpc::request(10, "subscriptions/listen", json{{"notifications", json::object()}}), "alice")[0]
                .message()["error"]["code"],
            -32601);
}

TEST(MockServer, OpensNoMoreSubscriptionsThanItsBound) {
  auto server = pinned_server({"2026-07-28"});
  const json params = {{"_meta", envelope()}, {"notifications", {{"toolsListChanged", true}}}};
  for (std::size_t i = 0; i < mcp_hints::mock::MockServer::kMaxSubscriptions; ++i)
    ASSERT_NE(server.handle(rpc::request(static_cast<int>(i), "subscriptions/listen", params))[0].subscription, 0u);
  const auto refused = server.handle(rpc::request(-1, "subscriptions/listen", params));
  EXPECT_EQ(refused[0].subscription, 0u);
  EXPECT_EQ(refused[0].message()["error"]["code"], -32603);
}

// Over stdio every subscription shares the channel: the change goes out before the call's answer,
// and a notifications/cancelled naming the listen request ends the subscription.
TEST(MockStdio, DeliversOnASubscriptionUntilTheClientCancelsIt) {
  test_support::TempDir dir;
  const auto record = (dir.path() / "record.jsonl").string();
  auto t = mock_stdio("mock.script-steps", {"--record", record});
  mcp_hints::ClientOptions options;
  options.protocol = {mcp_hints::EraChoice::stateless, ""};
  mcp_hints::McpClientSession session(*t, options);
  session.connect();
  // A subscription opened beside it: its acknowledgment shares the channel, and is not the window's.
  t->send(rpc::request("other", "subscriptions/listen",
                       json{{"_meta", session.protocol_meta()}, {"notifications", {{"toolsListChanged", true}}}}),
          soon());
  const auto window = session.listen({{"toolsListChanged", true}}, test_support::bound(std::chrono::milliseconds(400)));
  ASSERT_FALSE(window.answer);
  ASSERT_EQ(window.messages.size(), 1u);
  EXPECT_EQ(window.messages[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], window.id);
  EXPECT_EQ(window.messages[0]["method"], "notifications/subscriptions/acknowledged");
  // The listen above was cancelled: a second one hears the change.
  t->send(rpc::request("s", "subscriptions/listen",
                       json{{"_meta", session.protocol_meta()}, {"notifications", {{"toolsListChanged", true}}}}),
          soon());
  EXPECT_EQ((*t->receive(soon()))["method"], "notifications/subscriptions/acknowledged");
  for (int i = 1; i <= 4; ++i) t->send(stateless(100 + i, "tools/call", {{"name", "fetch_record"}}), soon());
  std::vector<json> got;
  while (got.size() < 5)
    if (auto m = t->receive(soon()))
      got.push_back(*m);
    else
      break;
  ASSERT_EQ(got.size(), 5u);
  std::size_t changed = got.size(), answered = got.size();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i].value("method", "") == "notifications/tools/list_changed") changed = i;
    if (got[i].value("id", json()) == 104) answered = i;
  }
  ASSERT_LT(changed, got.size());
  EXPECT_LT(changed, answered);
  EXPECT_EQ(got[changed]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "s");
  t->send(rpc::notification("notifications/cancelled", json{{"requestId", "s"}}), soon());
  // The mock reads in order: once a later request is answered, the cancellation is recorded.
  t->send(stateless(200, "tools/list"), soon());
  for (auto m = t->receive(soon()); m && m->value("id", json()) != 200; m = t->receive(soon())) {
  }
  t->close();
  std::ifstream in(record);
  std::vector<std::string> events;
  for (std::string line; std::getline(in, line);)
    if (const json l = json::parse(line); l.contains("event")) events.push_back(l["event"]);
  EXPECT_NE(
      std::find(events.begin(), events.end(), "subscription " + window.id.dump() + " ended (cancelled by the client)"),
      events.end());
  EXPECT_EQ(std::count(events.begin(), events.end(), "subscription \"other\" ended (cancelled by the client)"), 0);
  EXPECT_NE(std::find(events.begin(), events.end(), "subscription \"s\" ended (cancelled by the client)"),
            events.end());
}

// Over HTTP the stream is held open: what a call on another connection changes is delivered on it,
// recorded as the stateless era's, and the subscription ends when the client closes the stream.
TEST(MockServer, HttpHoldsASubscriptionStreamOpenUntilTheClientClosesIt) {
  test_support::TempDir dir;
  const auto record = (dir.path() / "record.jsonl").string();
  const auto mock = http_mock({"--scenario", "mock.script-steps", "--record", record});
  mcp_hints::ClientOptions options;
  options.protocol = {mcp_hints::EraChoice::stateless, ""};
  auto listener_transport = mcp_hints::connect({{}, mock.url, {}, {}}, {});
  mcp_hints::McpClientSession listener(*listener_transport, options);
  const auto hello = listener.connect();
  EXPECT_EQ(hello.capabilities["tools"]["listChanged"], true);
  std::thread caller([&] {
    // Once the stream is open: the mock records its acknowledgment when the subscription is held.
    for (const auto until = Clock::now() + std::chrono::seconds(10); Clock::now() < until;) {
      if (test_support::read_file(record).find("notifications/subscriptions/acknowledged") != std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    auto t = mcp_hints::connect({{}, mock.url, {}, {}}, {});
    mcp_hints::McpClientSession session(*t, options);
    session.connect();
    for (int i = 1; i <= 4; ++i) try {
        session.call_tool("fetch_record", json::object());
      } catch (const mcp_hints::ProtocolError&) {
        // the script's first and third steps are errors
      }
  });
  const auto window =
      listener.listen({{"toolsListChanged", true}}, test_support::bound(std::chrono::milliseconds(1500)));
  caller.join();
  EXPECT_FALSE(window.answer);
  ASSERT_EQ(window.messages.size(), 2u);
  EXPECT_EQ(window.messages[0]["method"], "notifications/subscriptions/acknowledged");
  EXPECT_EQ(window.messages[1]["method"], "notifications/tools/list_changed");
  EXPECT_EQ(window.messages[1]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], window.id);
  EXPECT_EQ(listener.notification_count("notifications/tools/list_changed"), 1u);
  // The stream closed at the window's end ends the subscription (the server notices within moments).
  const std::string ended = "subscription " + window.id.dump() + " ended (its stream closed)";
  bool seen = false;
  for (const auto until = Clock::now() + std::chrono::seconds(5); !seen && Clock::now() < until;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream in(record);
    for (std::string line; std::getline(in, line);)
      if (const json l = json::parse(line); l.value("event", "") == ended) seen = l["connection"] == "http:stateless";
  }
  EXPECT_TRUE(seen) << ended;
}

// A held subscription (McpClientSession::hold_subscription), as a client keeps one beside its calls:
// the fourth call of fetch_record changes the catalog, and the change reaches the session that
// made the call, before its answer over stdio (one channel) and on the held stream over HTTP.
void expect_a_held_subscription_brings_the_change(bool over_http) {
  test_support::TempDir dir;
  const auto record = (dir.path() / "record.jsonl").string();
  std::optional<test_support::ListeningChild> mock;
  std::unique_ptr<mcp_hints::Transport> t;
  if (over_http) {
    mock.emplace(http_mock({"--scenario", "mock.script-steps", "--record", record}));
    t = mcp_hints::connect({{}, mock->url, {}, {}}, {});
  } else {
    t = mock_stdio("mock.script-steps", {"--record", record});
  }
  mcp_hints::ClientOptions options;
  options.protocol = {mcp_hints::EraChoice::stateless, ""};
  mcp_hints::McpClientSession session(*t, options);
  session.connect();
  const json id = session.hold_subscription({{"toolsListChanged", true}});
  for (int i = 1; i <= 3; ++i) try {
      session.call_tool("fetch_record", json::object());
    } catch (const mcp_hints::ProtocolError&) {
      // the script's first and third steps are errors
    }
  EXPECT_EQ(session.notification_count("notifications/tools/list_changed"), 0u);
  EXPECT_TRUE(session.holding_subscription());
  session.call_tool("fetch_record", json::object());
  // stdio: before the answer; HTTP: on the other stream, within moments.
  for (const auto until = Clock::now() + std::chrono::seconds(5);
       session.notification_count("notifications/tools/list_changed") == 0 && Clock::now() < until;) {
    ASSERT_TRUE(over_http) << "over stdio the change comes before the call's answer";
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    session.poll();
  }
  ASSERT_EQ(session.notification_count("notifications/tools/list_changed"), 1u);
  EXPECT_EQ(session.notification_count("notifications/subscriptions/acknowledged"), 1u);
  for (const auto& n : session.notifications())
    EXPECT_EQ(n["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], id) << n;
  EXPECT_TRUE(session.holding_subscription());
  session.release_subscription();
  EXPECT_FALSE(session.holding_subscription());
  session.list_tools();  // stdio: read in order, so the cancellation is recorded by now
  const std::string ended =
      "subscription " + id.dump() + (over_http ? " ended (its stream closed)" : " ended (cancelled by the client)");
  bool seen = false;
  for (const auto until = Clock::now() + std::chrono::seconds(5); !seen && Clock::now() < until;) {
    std::ifstream in(record);
    for (std::string line; std::getline(in, line);) seen = seen || json::parse(line).value("event", "") == ended;
    if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(seen) << ended;
  t->close();
}

TEST(MockStdio, AHeldSubscriptionBringsAChangeBeforeTheCallsAnswer) {
  expect_a_held_subscription_brings_the_change(false);
}

TEST(MockServer, AHeldSubscriptionStreamBringsAChangeBesideTheCalls) {
  expect_a_held_subscription_brings_the_change(true);
}

// A subscription the server refuses (a filter that is not the schema's: HTTP 400 and -32602) is not
// held: its refusal ends it.
TEST(MockServer, ARefusedSubscriptionIsNotHeld) {
  for (const bool over_http : {false, true}) {
    std::optional<test_support::ListeningChild> mock;
    std::unique_ptr<mcp_hints::Transport> t;
    if (over_http) {
      mock.emplace(http_mock({"--scenario", "mock.script-steps"}));
      t = mcp_hints::connect({{}, mock->url, {}, {}}, {});
    } else {
      t = mock_stdio("mock.script-steps");
    }
    mcp_hints::ClientOptions options;
    options.protocol = {mcp_hints::EraChoice::stateless, ""};
    mcp_hints::McpClientSession session(*t, options);
    session.connect();
    session.hold_subscription({{"toolsListChanged", "yes"}});
    for (const auto until = Clock::now() + std::chrono::seconds(5);
         session.holding_subscription() && Clock::now() < until;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      session.poll();
    }
    EXPECT_FALSE(session.holding_subscription()) << (over_http ? "http" : "stdio");
    EXPECT_EQ(session.notification_count("notifications/subscriptions/acknowledged"), 0u);
    t->close();
  }
}

// confirm.input-required: the first call is answered with an InputRequiredResult; the server stays
// open on it until a call answers every input request and returns the requestState.
TEST(MockServer, ScriptsAnInputRequiredResultAndTakesTheRetryThatAnswersIt) {
  const auto scenario = mcp_hints::mock::load_scenario("confirm.input-required");
  auto spec = scenario.servers.at("main");
  // A scenario of the stateless era alone is served in it.
  EXPECT_EQ(spec.protocol_versions, mcp_hints::stateless_protocol_versions());
  mcp_hints::mock::MockServer server(spec);
  auto result_of = [&](const json& params, const json& capabilities = {{"elicitation", json::object()}}) {
    json request = stateless(1, "tools/call", params);
    request["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"] = capabilities;
    const auto out = server.handle(request);
    EXPECT_EQ(out.size(), 1u);
    return out.at(0).message();
  };
  const json archive = {{"name", "archive_project"}, {"arguments", {{"id", "apollo"}}}};
  // Never asked of a client that did not declare elicitation ("Servers MUST NOT send an
  // inputRequests that the client has not declared support for", SEP-2322): -32021, and the step
  // waits for the next call.
  const json undeclared = result_of(archive, json::object());
  EXPECT_EQ(undeclared["error"]["code"], -32021) << undeclared;
  EXPECT_EQ(undeclared["error"]["data"]["requiredCapabilities"], json({{"elicitation", {{"form", json::object()}}}}));
  EXPECT_EQ(result_of(archive, {{"sampling", json::object()}})["error"]["code"], -32021);
  // Its mode too: "Servers MUST NOT send elicitation requests with modes that are not supported by
  // the client"; an empty object declares form.
  EXPECT_EQ(result_of(archive, {{"elicitation", {{"url", json::object()}}}})["error"]["data"]["requiredCapabilities"],
            json({{"elicitation", {{"form", json::object()}}}}));
  EXPECT_EQ(result_of(archive, {{"elicitation", true}})["error"]["code"], -32021);
  EXPECT_EQ(result_of(archive, {{"elicitation", {{"form", json::object()}}}})["result"]["resultType"],
            "input_required");
  const json asked = result_of(archive)["result"];
  // Nor is it asked again of a call that no longer declares it.
  EXPECT_EQ(result_of(archive, json::object())["error"]["code"], -32021);
  EXPECT_EQ(asked["resultType"], "input_required");
  ASSERT_TRUE(asked["inputRequests"].contains("confirm_archive"));
  EXPECT_EQ(asked["inputRequests"]["confirm_archive"]["method"], "elicitation/create");
  const std::string state = asked["requestState"];
  // A call that answers nothing, or not all that was asked, is asked again (SEP-2322: "rather
  // than returning an error"); a malformed answer or a wrong state is refused.
  EXPECT_EQ(result_of(archive)["result"], asked);
  json partial = archive;
  partial["inputResponses"] = {{"other", "ignored"}};
  partial["requestState"] = state;
  EXPECT_EQ(result_of(partial)["result"], asked);
  json malformed = partial;
  malformed["inputResponses"] = {{"confirm_archive", true}};
  EXPECT_NE(result_of(malformed)["error"]["message"].get<std::string>().find(
                "inputResponses['confirm_archive'] is not an object"),
            std::string::npos);
  json answered = archive;
  answered["inputResponses"] = {{"confirm_archive", {{"action", "accept"}, {"content", {{"confirm", true}}}}}};
  json wrong_state = answered;
  wrong_state["requestState"] = "forged";
  EXPECT_EQ(result_of(wrong_state)["error"]["code"], -32602);
  answered["requestState"] = state;
  const json done = result_of(answered)["result"];
  EXPECT_EQ(done["resultType"], "complete");
  EXPECT_EQ(done["content"][0]["text"], "apollo archived");
  // The script goes on: the next call asks again, with its own state.
  const json again = result_of(archive)["result"];
  EXPECT_EQ(again["resultType"], "input_required");
  EXPECT_NE(again["requestState"], state);
  // The legacy era has no such result: the step is answered with an error.
  spec.protocol_versions = {"2025-11-25"};
  mcp_hints::mock::MockServer legacy(spec);
  const auto refused = legacy.handle(call("archive_project", 2));
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].message()["error"]["code"], -32603);
}

// The capabilities an InputRequiredResult asks for, by method, mode and tools.
TEST(MockServer, AnInputRequestNeedsTheCapabilityItsMethodAndModeName) {
  using mcp_hints::mock::capabilities_asked_by;
  const json asked = capabilities_asked_by(
      {{"inputRequests",
        {{"a", {{"method", "elicitation/create"}, {"params", {{"message", "m"}}}}},
         {"b", {{"method", "elicitation/create"}, {"params", {{"mode", "url"}, {"url", "https://x"}}}}},
         {"c", {{"method", "sampling/createMessage"}, {"params", {{"tools", json::array()}}}}},
         {"d", {{"method", "sampling/createMessage"}, {"params", json::object()}}},
         {"e", {{"method", "roots/list"}}},
         {"f", {{"method", "made/up"}}},
         {"g", "not an object"}}}});
  EXPECT_EQ(asked, json({{"elicitation", {{"form", json::object()}, {"url", json::object()}}},
                         {"sampling", {{"tools", json::object()}}},
                         {"roots", json::object()}}));
  EXPECT_EQ(capabilities_asked_by({{"inputRequests", json::array()}}), json::object());
  EXPECT_EQ(capabilities_asked_by({{"requestState", "s"}}), json::object());
}

TEST(MockServer, PagesTheCatalog) {
  auto server = server_of("mock.basic");
  std::vector<std::string> names;
  json cursor;
  for (int i = 0; i < 10; ++i) {
    json params = json::object();
    if (!cursor.is_null()) params["cursor"] = cursor;
    auto r = server.handle(rpc::request(i, "tools/list", params))[0].message()["result"];
    for (const auto& t : r["tools"]) names.push_back(t["name"]);
    if (!r.contains("nextCursor")) break;
    cursor = r["nextCursor"];
  }
  EXPECT_EQ(names, (std::vector<std::string>{"read_file", "delete_file", "send_email", "plan_trip", "no_hints"}));
}

// A delayed step holds no other answer back, and a cancelled one is never sent. Judged by the
// order of the answers, not by a clock: with its delay at 1.5 seconds, the ping answered first
// was answered while the call waited, however busy the machine.
TEST(MockServer, StdioDelaysWithoutBlockingAndHonoursCancellation) {
  test_support::TempDir dir;
  std::ifstream in(test_support::source_dir() / "scenarios" / "mock.script-steps.json");
  json scenario = json::parse(in);
  json& delayed = scenario["servers"]["main"]["scripts"]["fetch_record"][1];
  ASSERT_TRUE(delayed.contains("delayMs"));
  delayed["delayMs"] = 1500;
  auto t = mock_stdio(dir.write("scenario.json", scenario.dump()).string());
  t->send(initialize_request(), soon());
  ASSERT_TRUE(t->receive(soon()));
  t->send(call("fetch_record", 1), soon());  // transient failure
  EXPECT_EQ((*t->receive(soon()))["error"]["code"], -32603);
  const auto delay_ends = Clock::now() + std::chrono::milliseconds(1500);
  t->send(call("fetch_record", 2), soon());  // delayed 1.5 s ...
  t->send(rpc::request(3, "ping"), soon());  // ... and the ping answered before it
  auto pong = t->receive(soon());
  ASSERT_TRUE(pong);
  EXPECT_EQ((*pong)["id"], 3) << pong->dump();
  t->send(rpc::notification("notifications/cancelled", json{{"requestId", 2}}), soon());  // ... then cancelled
  // Past the delay's end, nothing came: the cancelled answer is never sent. (A machine so busy that
  // the cancellation left after the delay's end leaves nothing to judge.)
  if (Clock::now() < delay_ends) {
    EXPECT_FALSE(t->receive(delay_ends + test_support::bound(std::chrono::milliseconds(500))));
  }
}

TEST(MockServer, StdioCloseStepEndsTheServer) {
  auto t = mock_stdio("mock.script-steps");
  t->send(call("hang_up", 1), soon());
  try {
    while (t->receive(soon())) {
    }
    FAIL() << "no close";
  } catch (const mcp_hints::TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("exited with status 0"), std::string::npos) << e.what();
  }
}

TEST(MockServer, ALineOverTheLimitGetsAnErrorThenTheConnectionCloses) {
  auto t = mock_stdio("mock.basic", {"--max-message", "1000"});
  t->send(json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}, {"params", {{"pad", std::string(5000, 'x')}}}},
          soon());
  auto error = t->receive(soon());
  ASSERT_TRUE(error);
  EXPECT_EQ((*error)["error"]["code"], -32600);
  EXPECT_NE((*error)["error"]["message"].get<std::string>().find("longer than 1000 bytes"), std::string::npos);
  EXPECT_THROW(t->receive(soon()), mcp_hints::TransportError);
}

TEST(MockServer, TheRecorderKeepsEveryLineThroughSigkill) {
  test_support::TempDir dir;
  const auto record = (dir.path() / "record.jsonl").string();
  mcp_hints::ProcessOptions o;
  o.argv = {MCP_HINTS_BIN, "mock", "--scenario", "mock.basic", "--record", record};
  mcp_hints::StdioTransport t(o);
  t.send(initialize_request(), soon());
  ASSERT_TRUE(t.receive(soon()));
  t.send(rpc::request(1, "tools/list"), soon());
  ASSERT_TRUE(t.receive(soon()));
  ::kill(t.pid(), SIGKILL);  // no chance to flush anything
  t.close();
  std::ifstream in(record);
  std::vector<json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 5u);  // open, in, out, in, out
  EXPECT_EQ(lines[0]["event"], "open");
  EXPECT_EQ(lines[1]["direction"], "in");
  EXPECT_EQ(lines[1]["message"]["method"], "initialize");
  EXPECT_EQ(lines[4]["direction"], "out");
  EXPECT_EQ(lines[4]["message"]["id"], 1);
  for (const auto& l : lines) {
    EXPECT_TRUE(l["connection"].get<std::string>().starts_with("stdio:")) << l;
    EXPECT_TRUE(l["time"].is_number());
  }
}

// Every kind of line the record holds (an event, a message in and out, input that was not JSON)
// matches schemas/mock-record.schema.json; a line of two kinds, or an unknown direction, does not.
TEST(MockServer, EveryLineOfTheRecordMatchesItsPublishedSchema) {
  test_support::TempDir dir;
  const auto record = (dir.path() / "record.jsonl").string();
  const auto input = dir.write(
      "in.jsonl", "not json\n" + initialize_request().dump() + "\n" + rpc::request(1, "tools/list").dump() + "\n");
  const auto r = test_support::run_cli({"mock", "--scenario", "mock.basic", "--record", record}, input.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(record);
  std::map<std::string, json> kinds;  // the first line of each kind
  for (std::string line; std::getline(in, line);) {
    const json parsed = test_support::expect_matches_schema("mock-record.schema.json", line);
    for (const char* kind : {"event", "raw", "message"})
      if (parsed.contains(kind)) kinds.emplace(kind, parsed);
  }
  ASSERT_EQ(kinds.size(), 3u) << "every kind of line";
  EXPECT_EQ(kinds["raw"]["raw"], "not json");
  test_support::expect_schema_refuses("mock-record.schema.json", kinds["message"], "/direction", "sideways");
  test_support::expect_schema_refuses("mock-record.schema.json", kinds["event"], "/message", json::object());
  test_support::expect_schema_refuses("mock-record.schema.json", kinds["raw"], "/direction", "out");
  test_support::expect_schema_refuses("mock-record.schema.json", kinds["message"], "/time", "now");
}

TEST(MockServer, HttpSessionsOriginsAndStreams) {
  test_support::TempDir dir;
  const auto record = (dir.path() / "record.jsonl").string();
  const auto mock = http_mock({"--scenario", "mock.script-steps", "--record", record});
  ASSERT_TRUE(mock.url.starts_with("http://127.0.0.1:")) << mock.url;
  auto t = mcp_hints::connect({{}, mock.url, {}, {}}, {});
  t->send(initialize_request(), soon());
  ASSERT_EQ((*t->receive(soon()))["result"]["protocolVersion"], "2025-11-25");
  for (int i = 1; i <= 3; ++i) {
    t->send(call("fetch_record", i), soon());
    ASSERT_TRUE(t->receive(soon()));
  }
  t->send(call("fetch_record", 4), soon());  // list_changed, then the result, on the same SSE stream
  auto notice = t->receive(soon());
  auto result = t->receive(soon());
  ASSERT_TRUE(result && notice);
  EXPECT_EQ((*result)["result"]["content"][0]["text"], "changed");
  EXPECT_EQ((*notice)["method"], "notifications/tools/list_changed");
  // Bad requests at the HTTP level.
  const std::string body = R"({"jsonrpc":"2.0","id":9,"method":"ping"})";
  EXPECT_EQ(curl({"-X", "POST", "-H", "Content-Type: application/json", "-H", "Origin: https://evil.example", "-d",
                  body, mock.url})
                .out,
            "403");
  EXPECT_EQ(
      curl({"-X", "POST", "-H", "Content-Type: application/json", "-H", "Mcp-Session-Id: nope", "-d", body, mock.url})
          .out,
      "404");
  EXPECT_EQ(curl({"-X", "POST", "-H", "Content-Type: application/json", "-d", body, mock.url}).out, "400");
  EXPECT_EQ(curl({"-X", "POST", "-H", "Content-Type: application/json", "-H", "Origin: http://localhost:3000", "-d",
                  initialize_request().dump(), mock.url})
                .out,
            "200");
  // The scripted close ends the session: the request gets 404, and so does every later one.
  try {
    t->send(call("hang_up", 10), soon());
    FAIL() << "no close";
  } catch (const mcp_hints::TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("HTTP 404: Not Found: the session was closed"), std::string::npos) << e.what();
  }
  EXPECT_THROW(t->send(rpc::request(11, "ping"), soon()), mcp_hints::TransportError);
  std::ifstream in(record);
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line); ++lines) EXPECT_TRUE(json::accept(line)) << line;
  EXPECT_GE(lines, 12u);
}

// A request refused at the HTTP level (no session, an unknown one) is in the record with why, and
// never uses up a scripted step: the script stays in step with the calls the server answered.
TEST(MockServer, HttpRecordsRefusedRequestsAndKeepsTheScriptInStep) {
  test_support::TempDir dir;
  const auto record = (dir.path() / "record.jsonl").string();
  const auto mock = http_mock({"--scenario", "mock.script-steps", "--record", record});
  auto t = mcp_hints::connect({{}, mock.url, {}, {}}, {});
  t->send(initialize_request(), soon());
  ASSERT_TRUE(t->receive(soon()));
  const std::string refused = call("fetch_record", 77).dump();
  EXPECT_EQ(curl({"-X", "POST", "-H", "Content-Type: application/json", "-d", refused, mock.url}).out, "400");
  EXPECT_EQ(curl({"-X", "POST", "-H", "Content-Type: application/json", "-H", "Mcp-Session-Id: nope", "-d", refused,
                  mock.url})
                .out,
            "404");
  for (int i = 1; i <= 3; ++i) {
    t->send(call("fetch_record", i), soon());
    ASSERT_TRUE(t->receive(soon()));
  }
  t->send(call("fetch_record", 4), soon());  // the fourth step still comes fourth
  auto notice = t->receive(soon());
  auto result = t->receive(soon());
  ASSERT_TRUE(result && notice);
  EXPECT_EQ((*result)["result"]["content"][0]["text"], "changed");
  std::ifstream in(record);
  std::vector<json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  std::vector<std::string> refusals;
  for (std::size_t i = 1; i < lines.size(); ++i)
    if (lines[i].value("event", "").starts_with("refused: ")) {
      EXPECT_EQ(lines[i - 1]["message"]["id"], 77) << lines[i - 1];
      EXPECT_EQ(lines[i - 1]["connection"], lines[i]["connection"]);
      refusals.push_back(lines[i]["connection"].get<std::string>() + " " + lines[i]["event"].get<std::string>());
    }
  EXPECT_EQ(refusals,
            (std::vector<std::string>{
                "http:- refused: HTTP 400 Bad Request: Mcp-Session-Id missing (and no protocol version in _meta)",
                "http:nope refused: HTTP 404 Not Found: unknown session"}));
}

TEST(MockServer, TwoServersOfOneScenarioRunAtOnce) {
  const auto a = http_mock({"--scenario", "mock.two-servers", "--server", "a"});
  const auto b = http_mock({"--scenario", "mock.two-servers", "--server", "b"});
  ASSERT_NE(a.url, b.url);
  for (const auto* m : {&a, &b}) {
    auto t = mcp_hints::connect({{}, m->url, {}, {}}, {});
    t->send(initialize_request(), soon());
    ASSERT_TRUE(t->receive(soon()));
    t->send(rpc::request(1, "tools/list"), soon());
    const auto tools = (*t->receive(soon()))["result"]["tools"];
    EXPECT_EQ(tools[0]["name"], m == &a ? "read_secrets" : "post_message");
  }
}

TEST(MockServer, TheCommandRefusesWhatItCannotServe) {
  auto several = test_support::run_cli({"mock", "--scenario", "mock.two-servers"});
  EXPECT_EQ(several.exit_code, 2);
  EXPECT_NE(several.err.find("has several servers (a, b): choose one with --server"), std::string::npos) << several.err;
  EXPECT_EQ(test_support::run_cli({"mock", "--scenario", "mock.basic", "--server", "z"}).exit_code, 2);
  EXPECT_EQ(test_support::run_cli({"mock"}).exit_code, 2);
  EXPECT_EQ(test_support::run_cli({"mock", "--scenario", "nonesuch"}).exit_code, 2);
  EXPECT_EQ(test_support::run_cli({"mock", "--scenario", "mock.basic", "--transport", "tcp"}).exit_code, 2);
  // An option with no effect in the chosen mode is refused, not ignored.
  test_support::expect_usage_error({"mock", "--scenario", "mock.basic", "--transport", "stdio", "--port", "8080"},
                                   "--port has no effect over stdio");
  test_support::expect_usage_error({"mock", "--scenario", "mock.basic", "--port", "8080"},
                                   "--port has no effect over stdio");
  EXPECT_EQ(test_support::run_cli({"mock", "--scenario", "mock.basic", "--record", "/nonexistent/dir/r"}).exit_code, 3);
  auto list = test_support::run_cli({"mock", "--list"});
  EXPECT_NE(list.out.find("mock.script-steps"), std::string::npos);
  // A client that goes away mid-request: the server ends at once, exit 0.
  test_support::TempDir dir;
  const auto in = dir.write("in.jsonl", call("fetch_record", 1).dump() + "\n" + call("fetch_record", 2).dump() + "\n");
  auto gone = test_support::run_cli({"mock", "--scenario", "mock.script-steps"}, in.string());
  EXPECT_EQ(gone.exit_code, 0);
  EXPECT_EQ(test_support::count_lines(gone.out), 1u);  // the transient failure; the delayed answer is dropped
}

TEST(MockServer, CheckServerPassesTheMockServer) {
  auto r = test_support::run_cli({"check-server", "--format", "json", "--observe", "100ms", "--", MCP_HINTS_BIN, "mock",
                                  "--scenario", "mock.two-servers", "--server", "b"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["toolCount"], 1);
}

TEST(MockServer, ASlowClientLosesNothing) {
  // Many requests before reading any answer, then a pause: the server waits on the pipe and
  // every answer arrives, in order.
  auto t = mock_stdio("mock.basic");
  for (int i = 0; i < 300; ++i) t->send(rpc::request(i, "tools/list"), soon());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  for (int i = 0; i < 300; ++i) {
    auto answer = t->receive(soon());
    ASSERT_TRUE(answer) << i;
    EXPECT_EQ((*answer)["id"], i);
  }
}

// Over HTTP the stateless era has no session: the library's client speaks it to a pinned mock, and
// requests whose mirrored headers disagree with their body are refused with -32020 and recorded.
TEST(MockServer, HttpServesTheStatelessEraWithoutSessionsAndChecksTheMirroredHeaders) {
  test_support::TempDir dir;
  json document = mcp_hints::mock::load_scenario("mock.basic").document;
  document["servers"]["main"]["protocolVersions"] = {"2026-07-28"};
  const auto scenario = dir.write("stateless.json", document.dump());
  const auto record = (dir.path() / "record.jsonl").string();
  const auto mock = http_mock({"--scenario", scenario.string(), "--record", record});
  auto t = mcp_hints::connect({{}, mock.url, {}, {}}, {});
  mcp_hints::McpClientSession session(*t);
  const auto hello = session.connect();
  EXPECT_EQ(hello.era, mcp_hints::ProtocolEra::stateless);
  const auto listing = session.list_tools();
  EXPECT_EQ(listing.tools.size(), document["servers"]["main"]["tools"].size());
  EXPECT_GT(listing.pages.size(), 1u);
  for (const auto& page : listing.pages) EXPECT_EQ(page["resultType"], "complete");
  EXPECT_EQ(session.call_tool("read_file", json::object())["resultType"], "complete");
  const std::string body = stateless(9, "tools/call", {{"name", "read_file"}}).dump();
  const std::vector<std::string> json_post = {"-X", "POST", "-H", "Content-Type: application/json"};
  auto post = [&](std::vector<std::string> headers) {
    std::vector<std::string> args = json_post;
    for (auto& h : headers) args.insert(args.end(), {"-H", h});
    args.insert(args.end(), {"-d", body, mock.url});
    return curl(args).out;
  };
  EXPECT_EQ(post({"MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/call", "Mcp-Name: read_file"}), "200");
  EXPECT_EQ(post({"MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/call"}), "400");
  EXPECT_EQ(post({"MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/list", "Mcp-Name: read_file"}), "400");
  EXPECT_EQ(post({"MCP-Protocol-Version: 2025-11-25", "Mcp-Method: tools/call", "Mcp-Name: read_file"}), "400");
  EXPECT_EQ(post({"Mcp-Method: tools/call", "Mcp-Name: read_file"}), "400");
  std::ifstream in(record);
  std::vector<std::string> refusals;
  std::set<std::string> connections;
  for (std::string line; std::getline(in, line);) {
    const json l = json::parse(line);
    connections.insert(l["connection"].get<std::string>());
    if (l.value("event", "").starts_with("refused: ")) refusals.push_back(l["event"]);
  }
  EXPECT_EQ(connections, std::set<std::string>{"http:stateless"});
  EXPECT_EQ(refusals,
            (std::vector<std::string>{
                "refused: HTTP 400 header mismatch (-32020): Mcp-Name header missing (the body says \"read_file\")",
                "refused: HTTP 400 header mismatch (-32020): Mcp-Method header \"tools/list\" does not match the "
                "body's \"tools/call\"",
                "refused: HTTP 400 header mismatch (-32020): MCP-Protocol-Version header \"2025-11-25\" does not match "
                "the body's \"2026-07-28\"",
                "refused: HTTP 400 header mismatch (-32020): MCP-Protocol-Version header missing (the body says "
                "\"2026-07-28\")"}));
}

// SEP-2243 as a server: "Any server that processes the message body MUST validate that encoded
// header values, after decoding if Base64-encoded, match the corresponding values in the request
// body" (transports, 2026-07-28). A client that mirrors (the library's session) is served, a Base64
// Mcp-Name and Mcp-Param decoded; a header missing, wrong, malformed or undecodable is refused with
// -32020, and an integer may be written as a number.
TEST(MockServer, HttpDecodesAndChecksTheMcpParamHeadersOfATool) {
  test_support::TempDir dir;
  json document = mcp_hints::mock::load_scenario("mock.basic").document;
  document["servers"]["main"]["protocolVersions"] = {"2026-07-28"};
  document["servers"]["main"]["tools"].push_back({{"name", "wetter_\xC3\xA4"},
                                                  {"description", "weather"},
                                                  {"inputSchema",
                                                   {{"type", "object"},
                                                    {"properties",
                                                     {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                                                      {"days", {{"type", "integer"}, {"x-mcp-header", "Days"}}},
                                                      {"note", {{"type", "string"}}}}}}}});
  const auto scenario = dir.write("headers.json", document.dump());
  const auto record = (dir.path() / "record.jsonl").string();
  const auto mock = http_mock({"--scenario", scenario.string(), "--record", record});
  auto t = mcp_hints::connect({{}, mock.url, {}, {}}, {});
  mcp_hints::McpClientSession session(*t);
  session.connect();
  session.list_tools();
  const json arguments = {{"region", "Z\xC3\xBCrich"}, {"days", 3}, {"note", "x"}};
  EXPECT_EQ(session.call_tool("wetter_\xC3\xA4", arguments)["resultType"], "complete");
  const std::string body = stateless(9, "tools/call", {{"name", "wetter_\xC3\xA4"}, {"arguments", arguments}}).dump();
  auto post = [&](std::vector<std::string> params) {
    std::vector<std::string> args = {"-X", "POST",
                                     "-H", "Content-Type: application/json",
                                     "-H", "MCP-Protocol-Version: 2026-07-28",
                                     "-H", "Mcp-Method: tools/call",
                                     "-H", "Mcp-Name: =?base64?d2V0dGVyX8Ok?="};
    for (auto& h : params) args.insert(args.end(), {"-H", h});
    args.insert(args.end(), {"-d", body, mock.url});
    return curl(args).out;
  };
  EXPECT_EQ(post({"Mcp-Param-Region: =?base64?WsO8cmljaA==?=", "Mcp-Param-Days: 3"}), "200");
  EXPECT_EQ(post({"mcp-param-region: =?base64?WsO8cmljaA==?=", "MCP-PARAM-DAYS: 3.0"}), "200");
  EXPECT_EQ(post({"Mcp-Param-Days: 3"}), "400");
  EXPECT_EQ(post({"Mcp-Param-Region: =?base64?WsO8cmljaA?=", "Mcp-Param-Days: 3"}), "400");
  EXPECT_EQ(post({"Mcp-Param-Region: =?base64?WsO8cmljaA==?=", "Mcp-Param-Days: 4"}), "400");
  std::ifstream in(record);
  std::vector<std::string> refusals;
  for (std::string line; std::getline(in, line);) {
    const json l = json::parse(line);
    if (l.value("event", "").starts_with("refused: ")) refusals.push_back(l["event"]);
  }
  EXPECT_EQ(refusals, (std::vector<std::string>{"refused: HTTP 400 header mismatch (-32020): Mcp-Param-Region header "
                                                "missing (the body says \"Z\xC3\xBCrich\")",
                                                "refused: HTTP 400 header mismatch (-32020): Mcp-Param-Region header "
                                                "\"=?base64?WsO8cmljaA?=\" has invalid characters or Base64",
                                                "refused: HTTP 400 header mismatch (-32020): Mcp-Param-Days header "
                                                "value \"4\" does not match the body's \"3\""}));
}

// check-server speaks whichever era the server does (automatic), or the one it is told to.
TEST(MockServer, CheckServerSpeaksEachEraTheMockSpeaks) {
  test_support::TempDir dir;
  auto pinned = [&](const std::string& name, const json& versions) {
    json document = mcp_hints::mock::load_scenario("mock.two-servers").document;
    document["servers"]["b"]["protocolVersions"] = versions;
    return dir.write(name, document.dump()).string();
  };
  const std::string stateless_only = pinned("stateless.json", {"2026-07-28"});
  const std::string both = pinned("both.json", {"2026-07-28", "2025-11-25"});
  const std::string legacy_only = pinned("legacy.json", {"2025-11-25"});
  struct Case {
    std::string scenario, protocol, version;
    int exit_code;
  };
  const std::vector<Case> cases = {{stateless_only, "auto", "2026-07-28", 0}, {both, "auto", "2026-07-28", 0},
                                   {legacy_only, "auto", "2025-11-25", 0},    {both, "legacy", "2025-11-25", 0},
                                   {both, "2026-07-28", "2026-07-28", 0},     {legacy_only, "stateless", "", 3},
                                   {stateless_only, "legacy", "", 3}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.scenario + " --protocol " + c.protocol);
    const std::vector<std::string> serve = {MCP_HINTS_BIN, "mock", "--scenario", c.scenario, "--server", "b"};
    std::vector<std::string> args = {"check-server", "--format", "json", "--observe", "50ms", "--protocol", c.protocol};
    auto stdio_args = args;
    stdio_args.push_back("--");
    stdio_args.insert(stdio_args.end(), serve.begin(), serve.end());
    auto stdio = test_support::run_cli(stdio_args);
    std::vector<std::string> http_serve(serve.begin() + 1, serve.end());
    http_serve.insert(http_serve.begin() + 1, {"--transport", "http"});
    mcp_hints::ProcessOptions o;
    o.argv = {MCP_HINTS_BIN};
    o.argv.insert(o.argv.end(), http_serve.begin(), http_serve.end());
    const auto mock = test_support::start_listening(o);
    args.insert(args.end(), {"--url", mock.url});
    auto http = test_support::run_cli(args);
    for (const auto* r : {&stdio, &http}) {
      EXPECT_EQ(r->exit_code, c.exit_code) << r->out << r->err;
      const json report = json::parse(r->out);
      if (c.exit_code == 0) {
        EXPECT_EQ(report["protocol"]["version"], c.version);
        EXPECT_EQ(report["protocol"]["era"], c.version == "2026-07-28" ? "stateless" : "legacy");
        EXPECT_EQ(report["toolCount"], 1);
      } else {
        ASSERT_FALSE(report["findings"].empty());
        EXPECT_EQ(report["findings"][0]["check"], "server.protocol-version") << report["findings"][0];
      }
    }
  }
}

// Authorization contexts: each request's credential picks its catalog and is recorded by name;
// over HTTP it is the Authorization header (none: 401), over stdio the server process's
// environment (none: the process refuses to start serving).
TEST(MockServer, ServesEachAuthorizationContextItsOwnCatalogAndRecordsIt) {
  auto engine = server_of("gateway.cache-scope-per-context", "workspace");
  EXPECT_EQ(engine.authorization_context("Bearer alice-7f3a9c"), "alice");
  EXPECT_EQ(engine.authorization_context("bearer bob-c91e04"), "bob");
  EXPECT_EQ(engine.authorization_context("Bearer nobody"), "");
  EXPECT_EQ(engine.authorization_context("bob-c91e04"), "");
  const auto hints = [&](const std::string& context) {
    return engine.handle(stateless(1, "tools/list"), context)[0].message()["result"]["tools"][0]["annotations"];
  };
  EXPECT_EQ(hints("alice")["readOnlyHint"], true);
  EXPECT_EQ(hints("bob")["destructiveHint"], true);

  test_support::TempDir dir;
  const auto record = (dir.path() / "record.jsonl").string();
  const auto mock =
      http_mock({"--scenario", "gateway.cache-scope-per-context", "--server", "workspace", "--record", record});
  auto bob = mcp_hints::make_http_transport(mock.url, {}, {{"Authorization", "Bearer bob-c91e04"}});
  mcp_hints::McpClientSession session(*bob);
  session.connect();
  const auto listing = session.list_tools();
  ASSERT_EQ(listing.tools.size(), 1u);
  EXPECT_EQ(listing.tools[0]["annotations"]["destructiveHint"], true);
  EXPECT_EQ(listing.pages.at(0)["cacheScope"], "private");
  const std::string body = stateless(9, "tools/list").dump();
  EXPECT_EQ(curl({"-X", "POST", "-H", "Content-Type: application/json", "-H", "MCP-Protocol-Version: 2026-07-28", "-H",
                  "Mcp-Method: tools/list", "-d", body, mock.url})
                .out,
            "401");
  std::ifstream in(record);
  std::set<std::string> contexts;
  std::vector<std::string> refusals;
  for (std::string line; std::getline(in, line);) {
    const json l = json::parse(line);
    if (l.contains("message")) contexts.insert(l.value("authorization", "(none)"));
    if (l.value("event", "").starts_with("refused: ")) refusals.push_back(l["event"]);
  }
  EXPECT_EQ(contexts, (std::set<std::string>{"bob", "(none)"}));
  EXPECT_EQ(refusals,
            std::vector<std::string>{"refused: HTTP 401 Unauthorized: no Authorization header (Bearer TOKEN)"});

  mcp_hints::ProcessOptions o;
  o.argv = {MCP_HINTS_BIN, "mock", "--scenario", "gateway.cache-scope-per-context", "--server", "workspace"};
  o.env = {{"MCP_HINTS_AUTHORIZATION", "Bearer alice-7f3a9c"}};
  mcp_hints::StdioTransport alice(o);
  mcp_hints::McpClientSession over_stdio(alice);
  over_stdio.connect();
  EXPECT_EQ(over_stdio.list_tools().tools.at(0)["annotations"]["readOnlyHint"], true);
  o.env = {{"MCP_HINTS_AUTHORIZATION", "Bearer nobody"}};
  mcp_hints::StdioTransport stranger(o);
  mcp_hints::McpClientSession refused(stranger);
  EXPECT_THROW(refused.connect(), mcp_hints::Error);
  EXPECT_NE(stranger.diagnostics().find("is none of the scenario's authorization contexts"), std::string::npos)
      << stranger.diagnostics();
}

// Over stdio one process is one session: after initialize agreed on 2025-03-26 a batch line is
// answered with one array line; a process that agreed on another revision refuses the same line.
TEST(MockServer, AStdioSessionOf20250326TakesABatchLineAndOthersRefuseIt) {
  const json batch = json::array({rpc::request(2, "tools/list", json::object()), rpc::request(3, "ping"),
                                  rpc::notification("notifications/initialized")});
  for (const std::string version : {"2025-03-26", "2025-06-18"}) {
    test_support::TempDir dir;
    const auto input = dir.path() / "in.jsonl";
    json hello = initialize_request();
    hello["params"]["protocolVersion"] = version;
    std::ofstream(input) << hello.dump() << "\n" << batch.dump() << "\n";
    const auto run = test_support::run_cli({"mock", "--scenario", "mock.basic"}, input.string());
    ASSERT_EQ(run.exit_code, 0) << run.err;
    std::istringstream lines(run.out);
    std::string first, second;
    ASSERT_TRUE(std::getline(lines, first) && std::getline(lines, second)) << run.out;
    EXPECT_EQ(json::parse(first)["result"]["protocolVersion"], version);
    const json answer = json::parse(second);
    if (version == "2025-03-26") {
      ASSERT_TRUE(answer.is_array()) << answer;
      ASSERT_EQ(answer.size(), 2u);
      EXPECT_EQ(answer[0]["id"], 2);
      EXPECT_EQ(answer[1]["id"], 3);
    } else {
      EXPECT_EQ(answer["error"]["code"], rpc::invalid_request) << answer;
      EXPECT_TRUE(answer["id"].is_null());
    }
  }
}

// The revision a session agreed on comes from the answer to its initialize request, and only
// from that: a result of another request that looks like one, or a refused initialize, agrees on
// nothing.
TEST(MockServer, TheAgreedRevisionIsTheInitializeAnswers) {
  using mcp_hints::mock::MockServer;
  using mcp_hints::mock::Outgoing;
  const json initialize = {{"jsonrpc", "2.0"}, {"id", 7}, {"method", "initialize"}, {"params", json::object()}};
  const json answer = {
      {"jsonrpc", "2.0"}, {"id", 7}, {"result", {{"protocolVersion", "2025-03-26"}, {"serverInfo", {{"name", "m"}}}}}};
  EXPECT_EQ(MockServer::agreed_version(initialize, {Outgoing{answer}}), "2025-03-26");
  json other = initialize;
  other["method"] = "tools/call";
  EXPECT_EQ(MockServer::agreed_version(other, {Outgoing{answer}}), "");
  json elsewhere = answer;
  elsewhere["id"] = 8;
  EXPECT_EQ(MockServer::agreed_version(initialize, {Outgoing{elsewhere}}), "");
  const json refused = {{"jsonrpc", "2.0"}, {"id", 7}, {"error", {{"code", -32602}, {"message", "no"}}}};
  EXPECT_EQ(MockServer::agreed_version(initialize, {Outgoing{refused}}), "");
  EXPECT_EQ(MockServer::agreed_version(json(), {Outgoing{answer}}), "");
}

// Like a current server, the mock speaks both eras unless told otherwise: a 2026-07-28 client's
// server/discover and a 2025-11-25 client's initialize are both answered; --protocol pins one
// revision, and a pin the scenario cannot take is a usage error.
TEST(MockServer, TheCommandServesBothErasByDefaultAndPinsOneOnRequest) {
  const json discover = rpc::request(
      1, "server/discover",
      json{{"_meta",
            {{mcp_hints::kProtocolVersionMeta, "2026-07-28"}, {mcp_hints::kClientCapabilitiesMeta, json::object()}}}});
  test_support::TempDir dir;
  const auto stateless_input = dir.path() / "stateless.jsonl";
  std::ofstream(stateless_input) << discover.dump() << "\n";
  const auto session_input = dir.path() / "session.jsonl";
  std::ofstream(session_input) << initialize_request().dump() << "\n";
  auto first_answer = [](const std::string& out) { return json::parse(out.substr(0, out.find('\n'))); };

  auto run = test_support::run_cli({"mock", "--scenario", "mock.basic"}, stateless_input.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json found = first_answer(run.out);
  ASSERT_TRUE(found.contains("result")) << found;
  const auto versions = found["result"]["supportedVersions"];
  EXPECT_NE(std::find(versions.begin(), versions.end(), "2026-07-28"), versions.end()) << versions;
  EXPECT_NE(std::find(versions.begin(), versions.end(), "2025-11-25"), versions.end()) << versions;
  run = test_support::run_cli({"mock", "--scenario", "mock.basic"}, session_input.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(first_answer(run.out)["result"]["protocolVersion"], "2025-11-25");

  // Pinned to the session era: server/discover is refused as a server of that era refuses it.
  run =
      test_support::run_cli({"mock", "--scenario", "mock.basic", "--protocol", "2025-11-25"}, stateless_input.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(first_answer(run.out)["error"]["code"], -32022);
  run = test_support::run_cli({"mock", "--scenario", "mock.basic", "--protocol", "2026-07-28"}, session_input.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(first_answer(run.out).contains("error")) << run.out;

  test_support::expect_usage_error({"mock", "--scenario", "mock.basic", "--protocol", "2027-01-01"},
                                   "unknown --protocol '2027-01-01'");
  test_support::expect_usage_error({"mock", "--scenario", "confirm.input-required", "--protocol", "2025-11-25"},
                                   "scenario confirm.input-required does not apply to the era of 2025-11-25");
}
