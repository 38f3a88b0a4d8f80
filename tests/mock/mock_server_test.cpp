// The mock server: its engine step by step, and its stdio and HTTP fronts driven as a client
// drives them (through the library's own transports).
#include "mcp_hints/mock/mock_server.hpp"

#include <gtest/gtest.h>

#include <signal.h>

#include <fstream>
#include <thread>

#include "listening_child.hpp"
#include "mcp_hints/live/check_server.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/mcp_client.hpp"
#include "mcp_hints/wire/transport.hpp"
#include "test_support.hpp"

using json = nlohmann::json;
namespace rpc = mcp_hints::jsonrpc;
using mcp_hints::Clock;

namespace {

mcp_hints::mock::MockServer server_of(const std::string& id, const std::string& server = "main") {
  return mcp_hints::mock::MockServer(mcp_hints::mock::load_scenario(id).servers.at(server));
}

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

json initialize_request() {
  return rpc::request(0, "initialize",
                      json{{"protocolVersion", "2025-11-25"},
                           {"capabilities", json::object()},
                           {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
}

// `mcp-hints mock --transport http` as a child.
test_support::ListeningChild http_mock(const std::vector<std::string>& args) {
  mcp_hints::ProcessOptions o;
  o.argv = {MCP_HINTS_BIN, "mock", "--transport", "http"};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  return test_support::start_listening(o);
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
  EXPECT_EQ(first[0].message["error"]["code"], -32603);
  EXPECT_EQ(first[0].message["error"]["data"]["transient"], true);
  auto second = server.handle(call("fetch_record", 2));
  EXPECT_EQ(second[0].delay.count(), 100);
  EXPECT_EQ(second[0].message["result"]["_meta"]["annotations"]["sensitiveHint"], "high");
  EXPECT_EQ(second[0].answers, 2);
  auto third = server.handle(call("fetch_record", 3));
  EXPECT_EQ(third[0].message["error"]["message"], "record locked");
  auto fourth = server.handle(call("fetch_record", 4));
  ASSERT_EQ(fourth.size(), 2u);
  // list_changed first, so the client knows before it makes its next call.
  EXPECT_EQ(fourth[0].message["method"], "notifications/tools/list_changed");
  EXPECT_EQ(fourth[1].message["result"]["content"][0]["text"], "changed");
  // The catalog changed: the rug pull is served from now on.
  auto listed = server.handle(rpc::request(5, "tools/list"));
  EXPECT_EQ(listed[0].message["result"]["tools"][0]["annotations"]["destructiveHint"], true);
  // Past its script, a tool gets the default result.
  EXPECT_EQ(server.handle(call("fetch_record", 6))[0].message["result"]["content"][0]["text"], "default");
  auto close = server.handle(call("hang_up", 7));
  EXPECT_TRUE(close[0].close);
  EXPECT_TRUE(close[0].message.is_null());
}

TEST(MockServer, SendsProgressOnlyToACallerThatAskedForIt) {
  auto server = server_of("progress.long-running");
  json with_token = call("research_topic", 1);
  with_token["params"]["_meta"] = {{"progressToken", "p-1"}};
  const auto out = server.handle(with_token);
  ASSERT_EQ(out.size(), 4u);  // three progress notifications, then the answer
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out[i].message["method"], "notifications/progress");
    EXPECT_EQ(out[i].message["params"]["progressToken"], "p-1");
    EXPECT_EQ(out[i].message["params"]["progress"], i + 1);
    EXPECT_EQ(out[i].answers, 1);  // cancelled with the call
    EXPECT_LT(out[i].delay, out[3].delay);
  }
  EXPECT_EQ(out[3].message["result"]["content"][0]["text"], "findings");
  auto plain = server_of("progress.long-running").handle(call("research_topic", 2));
  ASSERT_EQ(plain.size(), 1u);  // no token, no progress
}

TEST(MockServer, NegotiatesTheLegacyEraAndAnswersBadInputWithTheStandardErrors) {
  auto server = server_of("mock.basic");
  for (const char* v : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
    auto r = server.handle(rpc::request(1, "initialize", json{{"protocolVersion", v}}));
    EXPECT_EQ(r[0].message["result"]["protocolVersion"], v);
  }
  EXPECT_EQ(server.handle(rpc::request(1, "initialize", json{{"protocolVersion", "2026-07-28"}}))[0]
                .message["result"]["protocolVersion"],
            "2025-11-25");
  EXPECT_EQ(server.handle(rpc::request(1, "initialize", json{{"protocolVersion", 7}}))[0].message["error"]["code"],
            -32602);
  EXPECT_EQ(server.handle_text("{oops")[0].message["error"]["code"], -32700);
  EXPECT_EQ(server.handle(json::array({rpc::request(1, "ping")}))[0].message["error"]["code"], -32600);
  EXPECT_EQ(server.handle(json("hello"))[0].message["error"]["code"], -32600);
  EXPECT_EQ(server.handle(json{{"jsonrpc", "2.0"}, {"id", 3}})[0].message["id"], 3);
  EXPECT_EQ(server.handle(rpc::request(1, "server/discover"))[0].message["error"]["code"], -32601);
  EXPECT_EQ(server.handle(rpc::request(1, "resources/list"))[0].message["error"]["code"], -32601);
  EXPECT_EQ(server.handle(rpc::request(1, "ping"))[0].message["result"], json::object());
  EXPECT_EQ(server.handle(rpc::request(1, "tools/call", json{{"name", 3}}))[0].message["error"]["code"], -32602);
  EXPECT_EQ(server.handle(rpc::request(1, "tools/call", json{{"name", "nonesuch"}}))[0].message["error"]["code"],
            -32602);
  EXPECT_EQ(server.handle(rpc::request(1, "tools/call", json{{"name", "read_file"}, {"arguments", 1}}))[0]
                .message["error"]["code"],
            -32602);
  EXPECT_EQ(server.handle(rpc::request(1, "tools/list", json{{"cursor", "page-99"}}))[0].message["error"]["code"],
            -32602);
  EXPECT_EQ(server.handle(rpc::request(1, "tools/list", json{{"cursor", 2}}))[0].message["error"]["code"], -32602);
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
        .message["result"]["protocolVersion"];
  };
  EXPECT_EQ(answer("2024-11-05"), "2024-11-05");
  EXPECT_EQ(answer("2025-03-26"), "2025-03-26");
  EXPECT_EQ(answer("2025-11-25"), "2025-03-26");
  EXPECT_EQ(answer("2025-06-18"), "2025-03-26");

  const json schema = json::parse(test_support::read_file(test_support::source_dir() / "schemas/scenario.schema.json"));
  const json listed = schema["definitions"]["Server"]["properties"]["protocolVersions"]["items"]["enum"];
  EXPECT_EQ(listed.get<std::vector<std::string>>(), mcp_hints::supported_protocol_versions());

  json document = mcp_hints::mock::load_scenario("mock.basic").document;
  document["servers"]["main"]["protocolVersions"] = {"2026-07-28"};
  EXPECT_THROW(mcp_hints::mock::parse_scenario(document, "pinned"), mcp_hints::mock::ScenarioError);
}

TEST(MockServer, PagesTheCatalog) {
  auto server = server_of("mock.basic");
  std::vector<std::string> names;
  json cursor;
  for (int i = 0; i < 10; ++i) {
    json params = json::object();
    if (!cursor.is_null()) params["cursor"] = cursor;
    auto r = server.handle(rpc::request(i, "tools/list", params))[0].message["result"];
    for (const auto& t : r["tools"]) names.push_back(t["name"]);
    if (!r.contains("nextCursor")) break;
    cursor = r["nextCursor"];
  }
  EXPECT_EQ(names, (std::vector<std::string>{"read_file", "delete_file", "send_email", "plan_trip", "no_hints"}));
}

TEST(MockServer, StdioDelaysWithoutBlockingAndHonoursCancellation) {
  auto t = mock_stdio("mock.script-steps");
  t->send(initialize_request(), soon());
  ASSERT_TRUE(t->receive(soon()));
  t->send(call("fetch_record", 1), soon());  // transient failure
  EXPECT_EQ((*t->receive(soon()))["error"]["code"], -32603);
  t->send(call("fetch_record", 2), soon());                                               // delayed 100 ms ...
  t->send(rpc::notification("notifications/cancelled", json{{"requestId", 2}}), soon());  // ... and cancelled
  t->send(rpc::request(3, "ping"), soon());  // answered at once, not after the delay
  const auto start = Clock::now();
  auto pong = t->receive(soon());
  ASSERT_TRUE(pong);
  EXPECT_EQ((*pong)["id"], 3);
  EXPECT_LT(Clock::now() - start, std::chrono::milliseconds(90));
  EXPECT_FALSE(t->receive(Clock::now() + std::chrono::milliseconds(300)));  // the cancelled answer never comes
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

TEST(MockServer, HttpSessionsOriginsAndStreams) {
  test_support::TempDir dir;
  const auto record = (dir.path() / "record.jsonl").string();
  const auto mock = http_mock({"--scenario", "mock.script-steps", "--record", record});
  ASSERT_TRUE(mock.url.starts_with("http://127.0.0.1:")) << mock.url;
  auto t = mcp_hints::connect({{}, mock.url, {}}, {});
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
  for (std::string line; std::getline(in, line); ++lines) EXPECT_NO_THROW(json::parse(line));
  EXPECT_GE(lines, 12u);
}

// A request refused at the HTTP level (no session, an unknown one) is in the record with why, and
// never uses up a scripted step: the script stays in step with the calls the server answered.
TEST(MockServer, HttpRecordsRefusedRequestsAndKeepsTheScriptInStep) {
  test_support::TempDir dir;
  const auto record = (dir.path() / "record.jsonl").string();
  const auto mock = http_mock({"--scenario", "mock.script-steps", "--record", record});
  auto t = mcp_hints::connect({{}, mock.url, {}}, {});
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
  EXPECT_EQ(refusals, (std::vector<std::string>{"http:- refused: HTTP 400 Bad Request: Mcp-Session-Id missing",
                                                "http:nope refused: HTTP 404 Not Found: unknown session"}));
}

TEST(MockServer, TwoServersOfOneScenarioRunAtOnce) {
  const auto a = http_mock({"--scenario", "mock.two-servers", "--server", "a"});
  const auto b = http_mock({"--scenario", "mock.two-servers", "--server", "b"});
  ASSERT_NE(a.url, b.url);
  for (const auto* m : {&a, &b}) {
    auto t = mcp_hints::connect({{}, m->url, {}}, {});
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
  EXPECT_EQ(test_support::run_cli({"mock", "--scenario", "mock.basic", "--record", "/nonexistent/dir/r"}).exit_code, 2);
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
  auto r = test_support::run_cli({"check-server", "--format", "json", "--observe", "100", "--", MCP_HINTS_BIN, "mock",
                                  "--scenario", "mock.two-servers", "--server", "b"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["tool_count"], 1);
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
