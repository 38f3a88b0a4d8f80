// The scripted model endpoint called as a function, then over a socket: the step due read from
// the request (its tool results), each API's answer in JSON and as server-sent events, tool names
// as each host makes them, conversations by URL, side requests, tools never offered, bad input,
// and the record.
#include "mcp_hints/mock/model_endpoint.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "listening_child.hpp"
#include "mcp_hints/mock/scenario.hpp"
#include "raw_http_client.hpp"
#include "test_support.hpp"

using json = nlohmann::json;
using mcp_hints::HttpReply;
using mcp_hints::HttpRequestView;
using mcp_hints::mock::ModelCall;
using mcp_hints::mock::ScriptedModel;

namespace {

// Two conversations: drop_table then read_rows on main; then sync on the second server.
std::vector<std::vector<ModelCall>> two_conversations() {
  return {{{"main", "drop_table", {{"table", "users"}}}, {"main", "read-rows", {{"limit", 3}}}},
          {{"backup", "sync", json::object()}}};
}

HttpRequestView request(const std::string& path, const json& body, const std::string& method = "POST") {
  HttpRequestView req;
  req.method = method;
  req.path = path;
  req.body = body.is_null() ? std::string() : body.dump();
  return req;
}

// The data lines of an SSE body, each parsed; `[DONE]` kept as a string.
std::vector<json> sse_data(const std::string& body) {
  std::vector<json> out;
  std::istringstream in(body);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("data: ", 0) == 0) {
      const std::string data = line.substr(6);
      out.push_back(data == "[DONE]" ? json(data) : json::parse(data));
    }
  return out;
}

// The event names of an SSE body, in order.
std::vector<std::string> sse_events(const std::string& body) {
  std::vector<std::string> out;
  std::istringstream in(body);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("event: ", 0) == 0) out.push_back(line.substr(7));
  return out;
}

json anthropic_tools(const std::vector<std::string>& names) {
  json tools = json::array();
  for (const auto& n : names) tools.push_back({{"name", n}, {"input_schema", {{"type", "object"}}}});
  return tools;
}

// An Anthropic request whose history holds `results` tool results.
json anthropic_request(std::size_t results, bool stream = false) {
  json messages = json::array({{{"role", "user"}, {"content", "do the task"}}});
  for (std::size_t i = 0; i < results; ++i) {
    messages.push_back(
        {{"role", "assistant"}, {"content", json::array({{{"type", "tool_use"}, {"id", "t" + std::to_string(i)}}})}});
    messages.push_back(
        {{"role", "user"},
         {"content", json::array({{{"type", "tool_result"}, {"tool_use_id", "t" + std::to_string(i)}}})}});
  }
  return {{"model", "claude"},
          {"max_tokens", 100},
          {"stream", stream},
          {"messages", messages},
          {"tools", anthropic_tools({"Bash", "mcp__main__drop_table", "mcp__main__read-rows"})}};
}

}  // namespace

TEST(ScriptedModel, ATaskIsCutIntoConversationsAtEachNewSession) {
  const auto scenario = mcp_hints::mock::load_scenario("propagation.new-session-clean");
  const auto conversations = mcp_hints::mock::model_conversations(scenario);
  const json task = scenario.document.at("task");
  std::size_t calls = 0, sessions = 0;
  for (const auto& item : task) (item.value("newSession", false) ? sessions : calls) += 1;
  ASSERT_GE(sessions, 1u);
  EXPECT_EQ(conversations.size(), sessions + 1);
  std::size_t counted = 0;
  for (const auto& c : conversations) counted += c.size();
  EXPECT_EQ(counted, calls);
  for (const auto& c : conversations)
    for (const auto& call : c) {
      EXPECT_TRUE(scenario.servers.count(call.server)) << call.server;  // the only server when the task names none
      EXPECT_FALSE(call.tool.empty());
    }
}

TEST(ScriptedModel, AnthropicAsksForTheStepThatTheToolResultsCountThenEnds) {
  ScriptedModel model(two_conversations());
  const auto first = model.handle(request("/v1/messages", anthropic_request(0)));
  ASSERT_EQ(first.status, 200) << first.body;
  const json a = json::parse(first.body);
  EXPECT_EQ(a["stop_reason"], "tool_use");
  ASSERT_EQ(a["content"].size(), 1u);
  EXPECT_EQ(a["content"][0]["type"], "tool_use");
  EXPECT_EQ(a["content"][0]["name"], "mcp__main__drop_table");
  EXPECT_EQ(a["content"][0]["input"], json({{"table", "users"}}));
  // One result carried: the second call, a name with '-' as the host kept it.
  const json b = json::parse(model.handle(request("/v1/messages", anthropic_request(1))).body);
  EXPECT_EQ(b["content"][0]["name"], "mcp__main__read-rows");
  EXPECT_EQ(b["content"][0]["input"], json({{"limit", 3}}));
  EXPECT_NE(a["content"][0]["id"], b["content"][0]["id"]);
  // Every call answered: a text, the turn ended.
  const json c = json::parse(model.handle(request("/v1/messages", anthropic_request(2))).body);
  EXPECT_EQ(c["stop_reason"], "end_turn");
  EXPECT_EQ(c["content"][0]["type"], "text");
  // The same request again gets the same step: nothing is counted on the endpoint.
  const json again = json::parse(model.handle(request("/v1/messages", anthropic_request(0))).body);
  EXPECT_EQ(again["content"][0]["name"], "mcp__main__drop_table");
  const auto record = model.exchanges();
  ASSERT_EQ(record.size(), 4u);
  EXPECT_EQ(record[0].answer, "call");
  EXPECT_EQ(record[0].tool, "drop_table");
  EXPECT_EQ(record[0].name, "mcp__main__drop_table");
  EXPECT_EQ(record[0].offered, (std::vector<std::string>{"Bash", "mcp__main__drop_table", "mcp__main__read-rows"}));
  EXPECT_EQ(record[1].results, 1u);
  EXPECT_EQ(record[2].answer, "done");
}

TEST(ScriptedModel, AnthropicStreamsTheSameTurnAsEvents) {
  ScriptedModel model(two_conversations());
  const HttpReply reply = model.handle(request("/v1/messages", anthropic_request(0, true)));
  EXPECT_EQ(reply.content_type, "text/event-stream");
  EXPECT_EQ(sse_events(reply.body),
            (std::vector<std::string>{"message_start", "content_block_start", "content_block_delta",
                                      "content_block_stop", "message_delta", "message_stop"}));
  const auto data = sse_data(reply.body);
  ASSERT_EQ(data.size(), 6u);
  EXPECT_EQ(data[1]["content_block"]["name"], "mcp__main__drop_table");
  EXPECT_EQ(json::parse(data[2]["delta"]["partial_json"].get<std::string>()), json({{"table", "users"}}));
  EXPECT_EQ(data[4]["delta"]["stop_reason"], "tool_use");
  const auto done = sse_data(model.handle(request("/v1/messages", anthropic_request(2, true))).body);
  EXPECT_EQ(done[2]["delta"]["type"], "text_delta");
  EXPECT_EQ(done[4]["delta"]["stop_reason"], "end_turn");
  EXPECT_TRUE(model.exchanges()[0].stream);
}

// Codex: tools in a namespace mcp__SERVER, '-' in names rewritten '_'; the call names both.
TEST(ScriptedModel, ResponsesCallsANamespacedToolByBothNamesAndStreams) {
  ScriptedModel model(two_conversations());
  const json tools = json::array({{{"type", "function"}, {"name", "shell"}},
                                  {{"type", "namespace"},
                                   {"name", "mcp__main"},
                                   {"tools", json::array({{{"type", "function"}, {"name", "drop_table"}},
                                                          {{"type", "function"}, {"name", "read_rows"}}})}}});
  json body = {{"model", "gpt"}, {"stream", true}, {"input", json::array()}, {"tools", tools}};
  body["input"].push_back({{"type", "message"}, {"role", "user"}, {"content", "do it"}});
  const HttpReply first = model.handle(request("/v1/responses", body));
  ASSERT_EQ(first.status, 200);
  const auto events = sse_events(first.body);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front(), "response.created");
  EXPECT_EQ(events.back(), "response.completed");
  const json completed = sse_data(first.body).back()["response"];
  ASSERT_EQ(completed["output"].size(), 1u);
  const json call = completed["output"][0];
  EXPECT_EQ(call["type"], "function_call");
  EXPECT_EQ(call["namespace"], "mcp__main");
  EXPECT_EQ(call["name"], "drop_table");
  EXPECT_EQ(json::parse(call["arguments"].get<std::string>()), json({{"table", "users"}}));
  // Sequence numbers count up from 0.
  const auto data = sse_data(first.body);
  for (std::size_t i = 0; i < data.size(); ++i) EXPECT_EQ(data[i]["sequence_number"], i);
  // With the call's output in the input: the second call, read-rows found as read_rows.
  body["input"].push_back(call);
  body["input"].push_back({{"type", "function_call_output"}, {"call_id", call["call_id"]}, {"output", "ok"}});
  const json second = sse_data(model.handle(request("/v1/responses", body)).body).back()["response"];
  EXPECT_EQ(second["output"][0]["name"], "read_rows");
  EXPECT_EQ(model.exchanges()[1].name, "mcp__main/read_rows");
  // A chain by previous_response_id carries its results: only the new output is sent.
  body["stream"] = false;
  const json chained = {
      {"model", "gpt"},
      {"previous_response_id", second["id"]},
      {"tools", tools},
      {"input", json::array({{{"type", "function_call_output"}, {"call_id", "x"}, {"output", "ok"}}})}};
  const json last = json::parse(model.handle(request("/v1/responses", chained)).body);
  EXPECT_EQ(last["output"][0]["type"], "message");
  EXPECT_EQ(last["output"][0]["content"][0]["type"], "output_text");
  EXPECT_EQ(model.exchanges()[2].results, 2u);
  // A chain from an id the endpoint never gave is refused in the API's shape.
  json unknown = chained;
  unknown["previous_response_id"] = "resp_none";
  const HttpReply refused = model.handle(request("/v1/responses", unknown));
  EXPECT_EQ(refused.status, 400);
  EXPECT_TRUE(json::parse(refused.body)["error"].contains("message"));
}

// The Agents SDK offers bare tool names; Chat Completions in JSON and as chunks.
TEST(ScriptedModel, ChatCompletionsAnswerByBareNamesInJsonAndChunks) {
  ScriptedModel model(two_conversations());
  const json tools = json::array({{{"type", "function"}, {"function", {{"name", "drop_table"}}}},
                                  {{"type", "function"}, {"function", {{"name", "read-rows"}}}}});
  json body = {{"model", "gpt"}, {"messages", json::array({{{"role", "user"}, {"content", "go"}}})}, {"tools", tools}};
  const json first = json::parse(model.handle(request("/v1/chat/completions", body)).body);
  EXPECT_EQ(first["object"], "chat.completion");
  EXPECT_EQ(first["choices"][0]["finish_reason"], "tool_calls");
  const json call = first["choices"][0]["message"]["tool_calls"][0];
  EXPECT_EQ(call["function"]["name"], "drop_table");
  EXPECT_EQ(json::parse(call["function"]["arguments"].get<std::string>()), json({{"table", "users"}}));
  body["messages"].push_back(first["choices"][0]["message"]);
  body["messages"].push_back({{"role", "tool"}, {"tool_call_id", call["id"]}, {"content", "dropped"}});
  body["stream"] = true;
  const HttpReply streamed = model.handle(request("/chat/completions", body));  // a base URL without /v1
  const auto chunks = sse_data(streamed.body);
  ASSERT_EQ(chunks.size(), 3u);
  EXPECT_EQ(chunks[0]["choices"][0]["delta"]["tool_calls"][0]["function"]["name"], "read-rows");
  EXPECT_EQ(chunks[0]["choices"][0]["delta"]["tool_calls"][0]["index"], 0);
  EXPECT_EQ(chunks[1]["choices"][0]["finish_reason"], "tool_calls");
  EXPECT_EQ(chunks[2], "[DONE]");
}

// Two servers with a tool of one name: the name that says the server wins over the bare one.
TEST(ScriptedModel, TheNameThatSaysTheServerIsPreferred) {
  ScriptedModel model({{{"backup", "sync", json::object()}}});
  json body = anthropic_request(0);
  body["tools"] = anthropic_tools({"sync", "mcp__main__sync", "mcp__backup__sync"});
  EXPECT_EQ(json::parse(model.handle(request("/v1/messages", body)).body)["content"][0]["name"], "mcp__backup__sync");
  body["tools"] = anthropic_tools({"mcp__main__sync", "sync"});
  EXPECT_EQ(json::parse(model.handle(request("/v1/messages", body)).body)["content"][0]["name"], "sync");
  // The Agents SDK's names with includeServerInToolNames: mcp_SERVER__TOOL.
  body["tools"] = anthropic_tools({"mcp_main__sync", "mcp_backup__sync"});
  EXPECT_EQ(json::parse(model.handle(request("/v1/messages", body)).body)["content"][0]["name"], "mcp_backup__sync");
}

TEST(ScriptedModel, TheUrlNamesTheConversation) {
  ScriptedModel model(two_conversations());
  json body = anthropic_request(0);
  body["tools"] = anthropic_tools({"mcp__backup__sync"});
  const json second = json::parse(model.handle(request("/c/2/v1/messages", body)).body);
  EXPECT_EQ(second["content"][0]["name"], "mcp__backup__sync");
  EXPECT_EQ(model.exchanges().back().conversation, 2u);
  for (const char* path : {"/c/3/v1/messages", "/c/0/v1/messages", "/c/x/v1/messages", "/c//v1/messages"}) {
    const HttpReply reply = model.handle(request(path, body));
    EXPECT_EQ(reply.status, 404) << path;
    const json error = json::parse(reply.body);
    EXPECT_EQ(error["type"], "error") << path;  // the Anthropic shape, as the path asks
    EXPECT_EQ(model.exchanges().back().answer, "refused") << path;
  }
}

// A request with no tools and no results (a title, a summary) uses no step. A call whose tool the
// host did not offer is passed over and recorded, and the task goes on with the next: the step due
// is counted among the offered calls, so the same request always gets the same answer.
TEST(ScriptedModel, SideRequestsUseNoStepAndAToolNeverOfferedIsPassedOverAndRecorded) {
  ScriptedModel model(two_conversations());
  json side = anthropic_request(0);
  side.erase("tools");
  const json title = json::parse(model.handle(request("/v1/messages", side)).body);
  EXPECT_EQ(title["content"][0]["type"], "text");
  EXPECT_EQ(model.exchanges().back().answer, "side");
  EXPECT_EQ(json::parse(model.handle(request("/v1/messages", anthropic_request(0))).body)["content"][0]["name"],
            "mcp__main__drop_table");
  using Calls = std::vector<std::pair<std::string, std::string>>;
  json rejected = anthropic_request(0);
  rejected["tools"] = anthropic_tools({"Bash", "mcp__main__read-rows"});
  const json next = json::parse(model.handle(request("/v1/messages", rejected)).body);
  EXPECT_EQ(next["content"][0]["name"], "mcp__main__read-rows");
  auto last = model.exchanges().back();
  EXPECT_EQ(last.answer, "call");
  EXPECT_EQ(last.tool, "read-rows");
  EXPECT_EQ(last.not_offered, (Calls{{"main", "drop_table"}}));
  // With read-rows answered, the task is done, and the text says what was passed over.
  json after = anthropic_request(1);
  after["tools"] = rejected["tools"];
  const json done = json::parse(model.handle(request("/v1/messages", after)).body);
  EXPECT_EQ(done["stop_reason"], "end_turn");
  EXPECT_NE(done["content"][0]["text"].get<std::string>().find("drop_table"), std::string::npos);
  last = model.exchanges().back();
  EXPECT_EQ(last.answer, "done");
  EXPECT_EQ(last.not_offered, (Calls{{"main", "drop_table"}}));
  EXPECT_EQ(mcp_hints::mock::to_json(last)["notOffered"], json::parse(R"([{"server": "main", "tool": "drop_table"}])"));
  // Nothing of the task offered: done at once, every call passed over.
  json none = anthropic_request(0);
  none["tools"] = anthropic_tools({"Bash"});
  model.handle(request("/v1/messages", none));
  EXPECT_EQ(model.exchanges().back().answer, "done");
  EXPECT_EQ(model.exchanges().back().not_offered, (Calls{{"main", "drop_table"}, {"main", "read-rows"}}));
}

TEST(ScriptedModel, BadRequestsAreRefusedInTheApisOwnShape) {
  ScriptedModel model(two_conversations());
  HttpRequestView bad = request("/v1/messages", json());
  bad.body = "{not json";
  HttpReply reply = model.handle(bad);
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(json::parse(reply.body)["error"]["type"], "invalid_request_error");
  bad.path = "/v1/responses";
  bad.body = "[1, 2]";
  reply = model.handle(bad);
  EXPECT_EQ(reply.status, 400);
  EXPECT_TRUE(json::parse(reply.body)["error"].contains("message"));
  EXPECT_EQ(model.handle(request("/v1/messages", json::object(), "GET")).status, 405);
  EXPECT_EQ(model.handle(request("/v1/embeddings", json::object())).status, 404);
  // A path or method that is not UTF-8 is said back replaced, never thrown over (found by the fuzzer).
  for (const auto& [method, path] : std::vector<std::pair<std::string, std::string>>{
           {"POST", "/c/1/v1/\x87messages"}, {"P\xc3OST", "/v1/messages"}, {"GET", "/\xff"}}) {
    const HttpReply odd = model.handle(request(path, json::object(), method));
    EXPECT_GE(odd.status, 400) << path;
    EXPECT_TRUE(json::accept(odd.body)) << odd.body;
  }
  // Members of the wrong type are no tools and no results, never a crash.
  const json odd = {{"messages", "text"}, {"tools", {{"name", 7}}}, {"input", 5}, {"stream", "yes"}};
  for (const char* path : {"/v1/messages", "/v1/responses", "/v1/chat/completions"})
    EXPECT_EQ(model.handle(request(path, odd)).status, 200) << path;
  // count_tokens and the model list, which hosts ask before they begin.
  EXPECT_GE(json::parse(model.handle(request("/v1/messages/count_tokens", anthropic_request(0))).body)["input_tokens"],
            1);
  const json models = json::parse(model.handle(request("/v1/models", json(), "GET")).body);
  EXPECT_EQ(models["data"].size(), 1u);
}

TEST(ScriptedModel, EveryExchangeIsAppendedToTheRecord) {
  test_support::TempDir dir;
  const auto file = dir.path() / "model.jsonl";
  {
    ScriptedModel model(two_conversations(), file);
    model.handle(request("/v1/messages", anthropic_request(0)));
    model.handle(request("/nowhere", json::object()));
  }
  std::ifstream in(file);
  std::vector<json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["answer"], "call");
  EXPECT_EQ(lines[0]["tool"], "drop_table");
  EXPECT_EQ(lines[0]["conversation"], 1);
  EXPECT_GT(lines[0]["time"].get<double>(), 1.7e9);
  EXPECT_EQ(lines[1]["answer"], "refused");
  EXPECT_THROW(ScriptedModel(two_conversations(), dir.path() / "missing" / "model.jsonl"), mcp_hints::Error);
}

namespace {

// One POST of `body` to `path` on its own connection: the whole answer.
std::string post_to(int port, const std::string& path, const std::string& body) {
  test_support::RawClient c(port);
  if (!c.connected() || !c.send_all("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
                                    "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
                                    "\r\n\r\n" + body))
    return {};
  return c.read_answer(std::chrono::steady_clock::now() + std::chrono::seconds(60));
}

}  // namespace

// Served on every path of a socket, as a host reaches it.
TEST(ScriptedModel, IsServedOnEveryPathOfItsPort) {
  ScriptedModel model(two_conversations());
  mcp_hints::HttpServer http([&model](const HttpRequestView& req) { return model.handle(req); });
  const int port = http.listen("127.0.0.1", 0, "/*");
  EXPECT_EQ(http.url(), "http://127.0.0.1:" + std::to_string(port));
  const std::string answer = post_to(port, "/c/1/v1/messages", anthropic_request(0).dump());
  EXPECT_EQ(test_support::status_of(answer), 200) << answer;
  EXPECT_EQ(json::parse(test_support::body_of(answer))["content"][0]["name"], "mcp__main__drop_table");
  http.stop();
}

// The command: a scenario's task, its URL on the first line, every exchange recorded.
TEST(ScriptedModel, TheCommandServesAScenariosTaskAndRecordsIt) {
  test_support::TempDir dir;
  const auto record = dir.path() / "model.jsonl";
  mcp_hints::ProcessOptions o;
  o.argv = {MCP_HINTS_BIN, "model", "--scenario", "confirm.spec-destructive", "--record", record.string()};
  auto child = test_support::start_listening(o);
  ASSERT_EQ(child.url.rfind("http://127.0.0.1:", 0), 0u) << child.url;
  const int port = std::stoi(child.url.substr(child.url.rfind(':') + 1));
  json body = anthropic_request(1);
  body["tools"] = anthropic_tools({"mcp__main__delete_branch", "mcp__main__drop_table"});
  const std::string answer = post_to(port, "/v1/messages", body.dump());
  ASSERT_EQ(test_support::status_of(answer), 200) << answer;
  const json turn = json::parse(test_support::body_of(answer));
  EXPECT_EQ(turn["content"][0]["name"], "mcp__main__drop_table");
  EXPECT_EQ(turn["content"][0]["input"], json({{"id", "1"}}));
  const json line = json::parse(test_support::read_file(record));
  EXPECT_EQ(line["answer"], "call");
  EXPECT_EQ(line["tool"], "drop_table");
}
