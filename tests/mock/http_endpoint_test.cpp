// The mock's Streamable HTTP endpoint called as a function, without a socket: what each request is
// answered, and the bound on the cancellations it remembers.
#include "mcp_hints/mock/http_endpoint.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <vector>

#include "mcp_hints/json/text.hpp"
#include "mcp_hints/mock/recorder.hpp"
#include "mcp_hints/mock/scenario.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/protocol.hpp"
#include "mock_support.hpp"
#include "test_support.hpp"

using json = nlohmann::json;
using mcp_hints::HttpReply;
using mcp_hints::HttpRequestView;
using mcp_hints::mock::CancelledRequests;
using mcp_hints::mock::HttpEndpoint;
using mcp_hints::mock::MockServer;
using test_support::server_of;

namespace {

HttpRequestView post(const json& message, const std::string& session = {}) {
  HttpRequestView req;
  req.method = "POST";
  req.session_id = session;
  req.content_type = "application/json";
  req.has_content_type = true;
  req.accept = "application/json, text/event-stream";
  req.has_accept = true;
  req.body = message.dump();
  return req;
}

json initialize(const std::string& version = "2025-06-18") {
  return mcp_hints::jsonrpc::request(1, "initialize",
                                     json{{"protocolVersion", version},
                                          {"capabilities", json::object()},
                                          {"clientInfo", {{"name", "endpoint-test"}, {"version", "1"}}}});
}

std::string header(const HttpReply& reply, const std::string& name) {
  for (const auto& [k, v] : reply.headers)
    if (k == name) return v;
  return {};
}

}  // namespace

TEST(HttpEndpoint, OpensASessionServesItAndRefusesItOnceDeleted) {
  MockServer server = server_of("mock.basic");
  HttpEndpoint endpoint(server, nullptr);
  const HttpReply opened = endpoint.handle(post(initialize()));
  ASSERT_EQ(opened.status, 200) << opened.body;
  const std::string session = header(opened, "Mcp-Session-Id");
  ASSERT_EQ(session.size(), 32u);
  EXPECT_TRUE(endpoint.session_open(session));

  const HttpReply listed = endpoint.handle(post(mcp_hints::jsonrpc::request(2, "tools/list", json::object()), session));
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_TRUE(json::parse(listed.body)["result"]["tools"].is_array());

  EXPECT_EQ(endpoint.handle(post(mcp_hints::jsonrpc::request(3, "tools/list", json::object()))).status, 400)
      << "a request without Mcp-Session-Id";
  EXPECT_EQ(endpoint.handle(post(mcp_hints::jsonrpc::request(3, "tools/list", json::object()), "0123")).status, 404)
      << "an unknown session";

  HttpRequestView remove;
  remove.method = "DELETE";
  remove.session_id = session;
  EXPECT_EQ(endpoint.handle(remove).status, 204);
  EXPECT_FALSE(endpoint.session_open(session));
  EXPECT_EQ(endpoint.handle(remove).status, 404) << "a second DELETE of the same session";
  EXPECT_EQ(endpoint.handle(post(mcp_hints::jsonrpc::request(4, "tools/list", json::object()), session)).status, 404);
}

TEST(HttpEndpoint, RefusesWhatThePostMustNotBeBeforeTheEngineSeesIt) {
  struct Case {
    const char* what;
    std::function<void(HttpRequestView&)> change;
    int status;
  };
  const std::vector<Case> cases = {
      {"a foreign Origin", [](auto& r) { r.origin = "http://example.com"; }, 403},
      {"a loopback prefix followed by more host", [](auto& r) { r.origin = "http://127.0.0.1.example.com"; }, 403},
      {"a loopback Origin with a port", [](auto& r) { r.origin = "http://localhost:8080"; }, 200},
      {"Accept without text/event-stream", [](auto& r) { r.accept = "application/json"; }, 406},
      {"no Accept", [](auto& r) { r.has_accept = false, r.accept.clear(); }, 406},
      {"Accept */*", [](auto& r) { r.accept = "*/*"; }, 200},
      {"Content-Type text/plain", [](auto& r) { r.content_type = "text/plain"; }, 415},
      {"Content-Type with case and charset", [](auto& r) { r.content_type = "Application/JSON; charset=utf-8"; }, 200},
      {"a body that is not JSON", [](auto& r) { r.body = "{not json"; }, 400},
      {"a batch", [](auto& r) { r.body = "[" + r.body + "]"; }, 400},
      {"GET", [](auto& r) { r.method = "GET"; }, 405},
  };
  for (const auto& c : cases) {
    MockServer server = server_of("mock.basic");
    HttpEndpoint endpoint(server, nullptr);
    HttpRequestView req = post(initialize());
    c.change(req);
    const HttpReply reply = endpoint.handle(req);
    EXPECT_EQ(reply.status, c.status) << c.what << ": " << reply.body;
    if (c.status == 400) {
      EXPECT_TRUE(json::parse(reply.body)["id"].is_null()) << c.what;
    }
  }
}

TEST(HttpEndpoint, TheCancelledIdsItRemembersAreBounded) {
  CancelledRequests cancelled(3);
  for (int id = 1; id <= 5; ++id) cancelled.add(id);
  EXPECT_EQ(cancelled.size(), 3u);
  EXPECT_FALSE(cancelled.contains(1));
  EXPECT_FALSE(cancelled.contains(2));
  EXPECT_TRUE(cancelled.contains(3));
  EXPECT_TRUE(cancelled.contains(5));
  EXPECT_FALSE(cancelled.contains("5")) << "a string id is not the number";
  cancelled.add(5);  // a repeated id takes a place of its own and survives the eviction of the other
  cancelled.add(6);
  EXPECT_TRUE(cancelled.contains(5));
  EXPECT_FALSE(cancelled.contains(3));

  // A client that cancels forever leaves the endpoint at its default bound.
  CancelledRequests defaults;
  for (int id = 0; id < 10000; ++id) defaults.add(id);
  EXPECT_EQ(defaults.size(), 4096u);
  EXPECT_TRUE(defaults.contains(9999));
  EXPECT_FALSE(defaults.contains(0));
}

// 2025-03-26 is the one revision with JSON-RPC batches: a server MUST accept them there, and
// initialize MUST NOT be in one; every other revision's session refuses them.
TEST(HttpEndpoint, TakesABatchOnlyInASessionThatAgreedOn20250326) {
  namespace rpc = mcp_hints::jsonrpc;
  test_support::TempDir dir;
  const std::string record = (dir.path() / "record.jsonl").string();
  MockServer server = server_of("mock.basic");
  {
    mcp_hints::mock::Recorder recorder(record);
    HttpEndpoint endpoint(server, &recorder);
    const auto session_of = [&](const std::string& version) {
      const HttpReply opened = endpoint.handle(post(initialize(version)));
      EXPECT_EQ(json::parse(opened.body)["result"]["protocolVersion"], version);
      return header(opened, "Mcp-Session-Id");
    };
    const std::string batching = session_of("2025-03-26");
    const json batch = json::array({rpc::request(2, "tools/list", json::object()), rpc::request(3, "ping"),
                                    rpc::notification("notifications/initialized")});
    const HttpReply answered = endpoint.handle(post(batch, batching));
    ASSERT_EQ(answered.status, 200) << answered.body;
    const json answers = json::parse(answered.body);
    ASSERT_TRUE(answers.is_array()) << answers;
    ASSERT_EQ(answers.size(), 2u) << "one answer per request, none for the notification";
    EXPECT_EQ(answers[0]["id"], 2);
    EXPECT_TRUE(answers[0]["result"]["tools"].is_array());
    EXPECT_EQ(answers[1]["id"], 3);

    const HttpReply notified =
        endpoint.handle(post(json::array({rpc::notification("notifications/initialized")}), batching));
    EXPECT_EQ(notified.status, 202) << "a batch of notifications only gets no body";
    const json with_initialize = json::parse(
        endpoint.handle(post(json::array({initialize("2025-03-26"), rpc::request(4, "ping")}), batching)).body);
    ASSERT_EQ(with_initialize.size(), 2u);
    EXPECT_EQ(with_initialize[0]["error"]["code"], rpc::invalid_request) << "initialize inside a batch";
    EXPECT_EQ(with_initialize[0]["id"], 1);
    EXPECT_TRUE(with_initialize[1].contains("result"));
    const HttpReply empty = endpoint.handle(post(json::array(), batching));
    EXPECT_EQ(empty.status, 400);
    EXPECT_EQ(json::parse(empty.body)["error"]["code"], rpc::invalid_request);

    for (const std::string version : {"2024-11-05", "2025-06-18", "2025-11-25"}) {
      const HttpReply refused = endpoint.handle(post(batch, session_of(version)));
      EXPECT_EQ(refused.status, 400) << version;
      EXPECT_EQ(json::parse(refused.body)["error"]["code"], rpc::invalid_request) << version;
    }
  }
  // The batch taken is recorded message by message; a refused one as it came.
  std::size_t batched_lists = 0, whole_arrays = 0;
  std::ifstream in(record);
  for (std::string line; std::getline(in, line);) {
    const json entry = json::parse(line);
    if (!entry.contains("message")) continue;
    if (entry["message"].is_array()) ++whole_arrays;
    if (entry["message"].is_object() && entry["message"].value("method", "") == "tools/list") ++batched_lists;
  }
  EXPECT_EQ(batched_lists, 1u) << "the batch taken, its tools/list recorded on its own";
  EXPECT_EQ(whole_arrays, 4u) << "the three refused batches and the empty one";
}

// A scripted result goes out as the bytes of its message, alone or after progress in an event
// stream, with and without a recorder (which reads each message sent).
TEST(HttpEndpoint, SendsAScriptedResultAsTheBytesOfItsMessage) {
  test_support::TempDir dir;
  const json result = mcp_hints::mock::load_scenario("progress.long-running")
                          .servers.at("main")
                          .scripts.at("research_topic")
                          .at(0)
                          .payload;
  std::vector<std::string> bodies;
  for (const bool recording : {false, true}) {
    MockServer server = server_of("progress.long-running");
    mcp_hints::mock::Recorder recorder((dir.path() / "record.jsonl").string());
    HttpEndpoint endpoint(server, recording ? &recorder : nullptr, false);
    const std::string session = header(endpoint.handle(post(initialize())), "Mcp-Session-Id");
    ASSERT_FALSE(session.empty());
    json call = mcp_hints::jsonrpc::request(2, "tools/call",
                                            json{{"name", "research_topic"}, {"_meta", {{"progressToken", "p-1"}}}});
    const HttpReply streamed = endpoint.handle(post(call, session));
    ASSERT_EQ(streamed.content_type, "text/event-stream");
    std::string expected;
    for (int i = 1; i <= 3; ++i)
      expected += "event: message\ndata: " +
                  mcp_hints::json_text(mcp_hints::jsonrpc::notification(
                      "notifications/progress", json{{"progressToken", "p-1"}, {"progress", i}, {"total", 3}})) +
                  "\n\n";
    expected += "event: message\ndata: " + mcp_hints::json_text(mcp_hints::jsonrpc::result(2, result)) + "\n\n";
    EXPECT_EQ(streamed.body, expected);
    // Past its script the tool gets the default result, alone.
    call["params"].erase("_meta");
    call["id"] = "three";
    const HttpReply single = endpoint.handle(post(call, session));
    EXPECT_EQ(single.body, mcp_hints::json_text(mcp_hints::jsonrpc::result("three", server.spec().default_result)));
    bodies.push_back(streamed.body + single.body);
  }
  EXPECT_EQ(bodies[0], bodies[1]);
}

// A scripted delay counts from the request's arrival, as over stdio: the progress notifications
// and the list_changed note before a result do not each add their own wait (nine progress steps
// and a catalogue change once made a 1 s answer take 5.5 s over HTTP). Only the gap is bounded
// above, by several seconds: a loaded machine slows the answer by far less.
TEST(HttpEndpoint, AScriptedDelayCountsFromTheRequestNotFromEachMessageBeforeIt) {
  const json tool = {{"name", "slow"}, {"inputSchema", {{"type", "object"}}}};
  const json document = {{"id", "t.delay"},
                         {"title", "t"},
                         {"checks", "c"},
                         {"proposals", {{{"proposal", "p"}, {"section", "s"}}}},
                         {"level", "MAY"},
                         {"servers",
                          {{"main",
                            {{"tools", {tool}},
                             {"scripts",
                              {{"slow",
                                {{{"delayMs", 1000},
                                  {"progress", 9},
                                  {"listChanged", {{"tools", {tool}}}},
                                  {"result", {{"content", {{{"type", "text"}, {"text", "done"}}}}}}}}}}}}}}}};
  MockServer server(mcp_hints::mock::parse_scenario(document, "t.json").servers.at("main"));
  HttpEndpoint endpoint(server, nullptr, true);
  const std::string session = header(endpoint.handle(post(initialize())), "Mcp-Session-Id");
  ASSERT_FALSE(session.empty());
  const auto start = std::chrono::steady_clock::now();
  const HttpReply reply = endpoint.handle(
      post(mcp_hints::jsonrpc::request(2, "tools/call", json{{"name", "slow"}, {"_meta", {{"progressToken", "p"}}}}),
           session));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_NE(reply.body.find("\"done\""), std::string::npos) << reply.body;
  EXPECT_NE(reply.body.find("notifications/tools/list_changed"), std::string::npos);
  EXPECT_GE(elapsed, std::chrono::milliseconds(1000));
  EXPECT_LT(elapsed, std::chrono::milliseconds(4000));
}
