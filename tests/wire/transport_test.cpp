// The stdio and Streamable HTTP transports against scripted peers.
#include "mcp_hints/wire/transport.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "listening_child.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/mcp_client.hpp"
#include "mcp_hints/wire/protocol.hpp"

using json = nlohmann::json;
using mcp_hints::Clock;
using mcp_hints::TransportError;

namespace {

using test_support::sh;

auto soon() { return Clock::now() + std::chrono::seconds(3); }

std::string error_of(mcp_hints::Transport& t) {
  try {
    while (t.receive(soon())) {
    }
    return "timeout";
  } catch (const TransportError& e) {
    return e.what();
  }
}

// What a scripted session-era server answers alike every time: a notification or a response (202),
// and initialize (session "s-1", speaking `version`); nullopt for any other request.
std::optional<mcp_hints::HttpReply> session_basics(const json& message, const std::string& version) {
  mcp_hints::HttpReply reply;
  if (!message.contains("id") || !message.contains("method")) {
    reply.status = 202;
    return reply;
  }
  if (message["method"] != "initialize") return std::nullopt;
  reply.headers.emplace_back("Mcp-Session-Id", "s-1");
  reply.body = mcp_hints::jsonrpc::result(message["id"], json{{"protocolVersion", version},
                                                              {"capabilities", json::object()},
                                                              {"serverInfo", {{"name", "s"}, {"version", "1"}}}})
                   .dump();
  return reply;
}

}  // namespace

TEST(StdioTransport, ReadsLinesAndCountsWhatIsNotProtocol) {
  mcp_hints::StdioTransport t(
      sh("echo 'starting up'; echo '{\"jsonrpc\":\"2.0\",\"method\":\"n\"}'; echo; "
         "printf '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\\r\\n'; sleep 5"));
  auto first = t.receive(soon());
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)["method"], "n");
  auto second = t.receive(soon());
  ASSERT_TRUE(second);
  EXPECT_EQ((*second)["id"], 1);
  EXPECT_EQ(t.noise_count(), 1u);
  EXPECT_NE(t.first_noise().find("line 1: starting up"), std::string::npos) << t.first_noise();
  EXPECT_FALSE(t.receive(Clock::now() + std::chrono::milliseconds(100)));  // nothing more: a timeout
}

// A line in pieces, over many reads and more than the pipe holds, then lines that share a read:
// each message whole, in order, and every byte counted.
TEST(StdioTransport, ALineInPiecesAndLinesThatShareAReadArriveWhole) {
  const std::size_t long_text = 3 << 20;
  mcp_hints::StdioTransport t(
      sh("printf '{\"jsonrpc\":\"2.0\",\"id\":1,'; sleep 0.05; printf '\"result\":{\"a\":\"'; "
         "head -c " +
         std::to_string(long_text) +
         " /dev/zero | tr '\\0' x; sleep 0.05; "
         "printf '\"}}\\n{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\\n{\"jsonrpc\":\"2.0\",\"id\":3,'; "
         "sleep 0.05; printf '\"result\":{}}\\n'; sleep 5"));
  const auto first = t.receive(soon());
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)["id"], 1);
  EXPECT_EQ((*first)["result"]["a"].get_ref<const std::string&>().size(), long_text);
  for (int id : {2, 3}) {
    const auto next = t.receive(soon());
    ASSERT_TRUE(next);
    EXPECT_EQ((*next)["id"], id);
  }
  EXPECT_EQ(t.bytes_received(), 3 * std::string(R"({"jsonrpc":"2.0","id":1,"result":{}})").size() + 3 +
                                    std::string(R"("a":"")").size() + long_text);
  EXPECT_EQ(t.noise_count(), 0u);
  EXPECT_FALSE(t.receive(Clock::now() + std::chrono::milliseconds(100)));
}

// A repeat is the first text to the byte outside its id, whose value reads as JSON of the first
// id's type: a byte changed anywhere else, at either end or on either side of the id, is none.
TEST(ExpectedRepeat, IsTheSameTextButItsIdOfTheSameType) {
  mcp_hints::ExpectedRepeat first;
  first.text = R"({"jsonrpc":"2.0","id":7,"result":{"tools":[{"name":"a"}],"x":1}})";
  first.id_span = *mcp_hints::member_value_span(first.text, "id");
  first.id_type = json::value_t::number_unsigned;
  const mcp_hints::TransportLimits limits;
  const auto with_id = [&](const std::string& id) {
    return first.text.substr(0, first.id_span.first) + id + first.text.substr(first.id_span.second);
  };
  EXPECT_EQ(first.id_if_repeated(first.text, limits), json(7));
  EXPECT_EQ(first.id_if_repeated(with_id("1234567"), limits), json(1234567));
  EXPECT_EQ(first.id_if_repeated(with_id("0"), limits), json(0));
  for (const std::string id : {"\"7\"", "7.0", "-7", "null", "true", "7x", "07", "\"7", "[7]", "{}", ""})
    EXPECT_FALSE(first.id_if_repeated(with_id(id), limits)) << id;
  // One byte changed: the first, the last, in a member before the id, on either side of the id,
  // in the name after it, deep in the result.
  const std::size_t before_id = first.id_span.first - 1, after_id = first.id_span.second;
  for (const std::size_t at : {std::size_t{0}, first.text.size() - 1, first.text.find("2.0") + 2, before_id, after_id,
                               after_id + 2, first.text.find("\"a\"") + 1, first.text.find(":1}") + 1}) {
    std::string changed = first.text;
    changed[at] = changed[at] == 'b' ? 'c' : 'b';
    EXPECT_FALSE(first.id_if_repeated(changed, limits)) << changed;
  }
  EXPECT_FALSE(first.id_if_repeated(first.text + " ", limits));
  EXPECT_FALSE(first.id_if_repeated(first.text.substr(0, first.text.size() - 1), limits));
  mcp_hints::TransportLimits small;
  small.max_message = first.text.size() - 1;
  EXPECT_FALSE(first.id_if_repeated(first.text, small));
}

// Wherever the id stands (last, behind the result, beside an "id" deeper in), a repeat is the same
// text around it.
TEST(ExpectedRepeat, IsFoundWhereverTheIdStands) {
  mcp_hints::ExpectedRepeat first;
  first.text = R"({"result":{"tools":[{"name":"a","id":3}]},"jsonrpc":"2.0","id":7})";
  first.id_span = *mcp_hints::member_value_span(first.text, "id");
  first.id_type = json::value_t::number_unsigned;
  EXPECT_EQ(first.text.substr(first.id_span.first), "7}");
  const mcp_hints::TransportLimits limits;
  const auto with_id = [&](const std::string& id) {
    return first.text.substr(0, first.id_span.first) + id + first.text.substr(first.id_span.second);
  };
  EXPECT_EQ(first.id_if_repeated(with_id("8"), limits), json(8));
  EXPECT_FALSE(first.id_if_repeated(with_id("\"8\""), limits));
  std::string changed = with_id("8");
  changed[changed.find("\"a\"") + 1] = 'b';
  EXPECT_FALSE(first.id_if_repeated(changed, limits));
}

// A line that repeats the message expected is not read again: its stand-in comes back with the
// line's id (and no member given twice, as the message gave none); any other line is read, and so
// is the repeat once nothing is expected.
TEST(StdioTransport, TakesAnExpectedRepeatWithoutReadingItAgain) {
  const std::string text = R"({"jsonrpc":"2.0","id":8,"result":{"tools":[{"name":"a"}]}})";
  auto expected = std::make_shared<mcp_hints::ExpectedRepeat>();
  expected->text = text;
  expected->id_span = *mcp_hints::member_value_span(text, "id");
  expected->id_type = json::value_t::number_unsigned;
  expected->in_place = json{{"jsonrpc", "2.0"}, {"result", {{"stand", "in"}}}};
  const auto with = [&](const std::string& id, std::string_view from, std::string_view to) {
    std::string line = text.substr(0, expected->id_span.first) + id + text.substr(expected->id_span.second);
    if (!from.empty()) line.replace(line.find(from), from.size(), to);
    return line;
  };
  const std::vector<std::string> lines = {R"({"jsonrpc":"2.0","id":1,"result":{"x":1,"x":2}})", with("19", "", ""),
                                          with("20", "\"a\"", "\"c\""), with("\"21\"", "", ""), with("22", "", "")};
  std::string script = "printf '%s\\n'";
  for (const auto& line : lines) script += " '" + line + "'";
  mcp_hints::StdioTransport t(sh(script + "; sleep 5"));
  t.expect_repeat(expected);

  const auto twice = t.receive(soon());
  ASSERT_TRUE(twice);
  EXPECT_FALSE(t.repeated());
  EXPECT_EQ(t.duplicate_members().size(), 1u);
  auto repeat = t.receive(soon());
  ASSERT_TRUE(repeat);
  EXPECT_TRUE(t.repeated());
  EXPECT_EQ(*repeat, (json{{"jsonrpc", "2.0"}, {"id", 19}, {"result", {{"stand", "in"}}}}));
  EXPECT_EQ(t.last_text(), lines[1]);
  EXPECT_TRUE(t.duplicate_members().empty());
  EXPECT_EQ(t.bytes_received(), lines[0].size() + lines[1].size() + 2);

  for (const std::string& name : {std::string("c"), std::string("a")}) {
    const auto read = t.receive(soon());
    ASSERT_TRUE(read);
    EXPECT_FALSE(t.repeated());
    EXPECT_EQ((*read)["result"]["tools"][0]["name"], name);
  }
  t.expect_repeat(nullptr);
  const auto unexpected = t.receive(soon());
  ASSERT_TRUE(unexpected);
  EXPECT_FALSE(t.repeated());
  EXPECT_EQ((*unexpected)["id"], 22);
  EXPECT_EQ((*unexpected)["result"]["tools"][0]["name"], "a");
}

TEST(StdioTransport, SaysHowTheServerWent) {
  mcp_hints::StdioTransport died(sh("printf '{\"jsonrpc\":'; kill -SEGV $$"));
  EXPECT_NE(error_of(died).find("was killed by signal 11 (Segmentation fault), in the middle of line 1"),
            std::string::npos);
  mcp_hints::StdioTransport exited(sh("exit 4"));
  EXPECT_NE(error_of(exited).find("the server exited with status 4"), std::string::npos);
  mcp_hints::TransportLimits small;
  small.max_message = 1000;
  mcp_hints::StdioTransport long_line(sh("head -c 5000 /dev/zero | tr '\\0' x; sleep 5"), small);
  EXPECT_NE(error_of(long_line).find("a line longer than 1000 bytes (line 1)"), std::string::npos);
  small.max_noise_lines = 3;
  mcp_hints::StdioTransport flood(sh("yes 'log line'"), small);
  EXPECT_NE(error_of(flood).find("more than 3 lines that are not JSON-RPC"), std::string::npos);
}

TEST(StdioTransport, SendsOneLinePerMessage) {
  mcp_hints::StdioTransport t(sh("read a; read b; echo \"$b\""));
  t.send(mcp_hints::jsonrpc::notification("x", json{{"text", "two\nlines"}}), soon());
  t.send(mcp_hints::jsonrpc::request(2, "y"), soon());
  auto echoed = t.receive(soon());
  ASSERT_TRUE(echoed);
  EXPECT_EQ((*echoed)["method"], "y");
}

TEST(HttpTransport, SpeaksJsonAndSseWithSessionAndVersionHeaders) {
  std::vector<mcp_hints::HttpRequestView> seen;
  std::mutex m;
  mcp_hints::HttpServer server([&](const mcp_hints::HttpRequestView& req) {
    std::lock_guard lock(m);
    seen.push_back(req);
    mcp_hints::HttpReply reply;
    if (req.method == "DELETE") {
      reply.status = 204;
      return reply;
    }
    if (req.method == "GET") {
      reply.status = 405;
      return reply;
    }
    const json message = json::parse(req.body);
    if (auto basic = session_basics(message, "2025-06-18")) return *basic;
    reply.content_type = "text/event-stream";
    reply.body = ": priming\n\nevent: message\ndata: " + mcp_hints::jsonrpc::notification("progress").dump() +
                 "\n\ndata: " + mcp_hints::jsonrpc::result(message["id"], json{{"ok", true}}).dump() + "\n\n";
    return reply;
  });
  server.listen("127.0.0.1", 0);
  auto t = mcp_hints::connect({{}, server.url(), {}, {}}, {});
  t->send(mcp_hints::jsonrpc::request(1, "initialize"), soon());
  auto init = t->receive(soon());
  ASSERT_TRUE(init);
  EXPECT_EQ((*init)["result"]["protocolVersion"], "2025-06-18");
  t->set_protocol_version("2025-06-18");
  t->send(mcp_hints::jsonrpc::notification("notifications/initialized"), soon());
  t->send(mcp_hints::jsonrpc::request(2, "tools/list"), soon());
  auto note = t->receive(soon());
  auto answer = t->receive(soon());
  ASSERT_TRUE(note && answer);
  EXPECT_EQ((*note)["method"], "progress");
  EXPECT_EQ((*answer)["result"]["ok"], true);
  EXPECT_FALSE(t->receive(Clock::now() + std::chrono::milliseconds(200)));  // GET is 405: nothing arrives
  t->close();
  std::lock_guard lock(m);
  ASSERT_GE(seen.size(), 4u);
  EXPECT_EQ(seen[0].session_id, "");
  EXPECT_EQ(seen[1].session_id, "s-1");
  EXPECT_EQ(seen[2].protocol_version, "2025-06-18");
  EXPECT_EQ(seen.back().method, "DELETE");
  EXPECT_EQ(seen.back().session_id, "s-1");
}

TEST(HttpTransport, StatelessEraPostsOnlyWithRoutingHeadersAndTakesA400ErrorAsTheAnswer) {
  std::vector<mcp_hints::HttpRequestView> seen;
  std::mutex m;
  mcp_hints::HttpServer server([&](const mcp_hints::HttpRequestView& req) {
    std::lock_guard lock(m);
    seen.push_back(req);
    mcp_hints::HttpReply reply;
    const json message = json::parse(req.body);
    if (message["method"] == "tools/list") {
      reply.body = mcp_hints::jsonrpc::result(message["id"], json{{"tools", json::array()}}).dump();
    } else {  // the stateless era's refusal: HTTP 400 with the JSON-RPC error that answers the request
      json error = mcp_hints::jsonrpc::error(message["id"], mcp_hints::unsupported_protocol_version, "Unsupported");
      error["error"]["data"] = {{"requested", "2026-07-28"}, {"supported", {"2025-11-25"}}};
      reply.status = 400;
      reply.body = error.dump();
    }
    return reply;
  });
  server.listen("127.0.0.1", 0);
  auto t = mcp_hints::connect({{}, server.url(), {}, {}}, {});
  t->set_protocol_version("2026-07-28");
  t->send(mcp_hints::jsonrpc::request(1, "tools/list"), soon());
  ASSERT_TRUE(t->receive(soon()));
  t->send(mcp_hints::jsonrpc::request(2, "tools/call", json{{"name", "read_doc"}}), soon());
  auto refused = t->receive(soon());
  ASSERT_TRUE(refused);
  EXPECT_EQ((*refused)["error"]["code"], -32022);
  EXPECT_EQ(t->last_http_status(), 400);
  // No session: nothing to listen to, nothing to delete.
  EXPECT_FALSE(t->receive(Clock::now() + std::chrono::milliseconds(100)));
  t->close();
  std::lock_guard lock(m);
  ASSERT_EQ(seen.size(), 2u);
  for (const auto& req : seen) {
    EXPECT_EQ(req.method, "POST");
    EXPECT_EQ(req.protocol_version, "2026-07-28");
    EXPECT_TRUE(req.has_mcp_method);
  }
  EXPECT_EQ(seen[0].mcp_method, "tools/list");
  EXPECT_FALSE(seen[0].has_mcp_name);
  EXPECT_EQ(seen[1].mcp_method, "tools/call");
  EXPECT_EQ(seen[1].mcp_name, "read_doc");
}

TEST(HttpTransport, ARefusalThatAnswersNoRequestOfOursStaysATransportError) {
  mcp_hints::HttpServer server([&](const mcp_hints::HttpRequestView&) {
    mcp_hints::HttpReply reply;
    reply.status = 400;  // a legacy server's refusal of a request without a session: id null
    reply.body = mcp_hints::jsonrpc::error(nullptr, -32000, "Bad Request: Server not initialized").dump();
    return reply;
  });
  server.listen("127.0.0.1", 0);
  auto t = mcp_hints::connect({{}, server.url(), {}, {}}, {});
  try {
    t->send(mcp_hints::jsonrpc::request(1, "server/discover"), soon());
    FAIL() << "a 400 that answers no request of ours was taken as an answer";
  } catch (const mcp_hints::TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("answered HTTP 400"), std::string::npos) << e.what();
  }
}

namespace {

// A server answering every request with an empty result, keeping one header of each as it came.
class HeaderRecorder {
 public:
  explicit HeaderRecorder(std::string mcp_hints::HttpRequestView::*header)
      : header_(header), server_([this](const mcp_hints::HttpRequestView& req) {
          std::lock_guard lock(m_);
          seen_.push_back(req.*header_);
          mcp_hints::HttpReply reply;
          reply.body = mcp_hints::jsonrpc::result(json::parse(req.body)["id"], json::object()).dump();
          return reply;
        }) {
    server_.listen("127.0.0.1", 0);
  }
  std::string url() const { return server_.url(); }
  std::vector<std::string> seen() {
    std::lock_guard lock(m_);
    return seen_;
  }

 private:
  std::string mcp_hints::HttpRequestView::*header_;
  std::mutex m_;
  std::vector<std::string> seen_;
  mcp_hints::HttpServer server_;
};

}  // namespace

TEST(HttpTransport, SendsTheAuthorizationItIsGivenOnEveryRequestAndTheServerSeesIt) {
  HeaderRecorder server(&mcp_hints::HttpRequestView::authorization);
  auto with = mcp_hints::make_http_transport(server.url(), {}, {{"Authorization", "Bearer token-bob"}});
  with->set_protocol_version("2026-07-28");
  with->send(mcp_hints::jsonrpc::request(1, "tools/list"), soon());
  ASSERT_TRUE(with->receive(soon()));
  auto without = mcp_hints::make_http_transport(server.url());
  without->set_protocol_version("2026-07-28");
  without->send(mcp_hints::jsonrpc::request(2, "tools/list"), soon());
  ASSERT_TRUE(without->receive(soon()));
  EXPECT_EQ(server.seen(), (std::vector<std::string>{"Bearer token-bob", ""}));
}

// Messages larger than what either side keeps before sending (64 KiB) go out whole, both ways, and
// a run of small exchanges on the kept-alive connection stays in order: each answer is its request's.
TEST(HttpTransport, LargeAndSmallMessagesArriveWholeBothWays) {
  mcp_hints::HttpServer server([](const mcp_hints::HttpRequestView& req) {
    mcp_hints::HttpReply reply;
    const json message = json::parse(req.body);
    // The answer echoes the request's text, and doubles it once the request is large.
    const std::string text = message["params"]["text"];
    reply.body =
        mcp_hints::jsonrpc::result(message["id"], json{{"text", text.size() > 1000 ? text + text : text}}).dump();
    return reply;
  });
  server.listen("127.0.0.1", 0);
  auto t = mcp_hints::connect({{}, server.url(), {}, {}}, {});
  for (const std::size_t size : {std::size_t{10}, std::size_t{70'000}, std::size_t{300'000}, std::size_t{65'500}}) {
    std::string text(size, 'a');
    for (std::size_t i = 0; i < size; i += 997) text[i] = static_cast<char>('b' + i % 23);
    t->send(mcp_hints::jsonrpc::request(static_cast<int>(size), "echo", json{{"text", text}}), soon());
    const auto answer = t->receive(soon());
    ASSERT_TRUE(answer) << size;
    EXPECT_EQ((*answer)["id"], size);
    EXPECT_EQ((*answer)["result"]["text"], size > 1000 ? text + text : text) << size;
  }
  for (int i = 0; i < 50; ++i) {
    t->send(mcp_hints::jsonrpc::request(i, "echo", json{{"text", std::to_string(i)}}), soon());
    const auto answer = t->receive(soon());
    ASSERT_TRUE(answer);
    EXPECT_EQ((*answer)["id"], i);
    EXPECT_EQ((*answer)["result"]["text"], std::to_string(i));
  }
}

namespace {

// A session-era server whose tools/call stream ends after its priming events, before the answer,
// and whose GETs resume it as `gets` script them (by the Last-Event-ID they carry).
struct ResumingServer {
  std::mutex m;
  std::vector<mcp_hints::HttpRequestView> gets;
  std::vector<Clock::time_point> ends;  // when each POST of tools/call and each GET was answered
  std::string call_stream;              // the SSE text of the tools/call stream
  std::function<mcp_hints::HttpReply(const std::string& last_event_id)> on_get;
  mcp_hints::HttpServer server{[this](const mcp_hints::HttpRequestView& req) {
    mcp_hints::HttpReply reply;
    std::lock_guard lock(m);
    if (req.method == "DELETE") {
      reply.status = 204;
      return reply;
    }
    if (req.method == "GET") {
      gets.push_back(req);
      reply = on_get(req.last_event_id);
    } else {
      if (auto basic = session_basics(json::parse(req.body), "2025-11-25")) return *basic;
      reply.content_type = "text/event-stream";
      reply.body = call_stream;
    }
    ends.push_back(Clock::now());
    return reply;
  }};

  static mcp_hints::HttpReply stream(const std::string& text) {
    mcp_hints::HttpReply reply;
    reply.content_type = "text/event-stream";
    reply.body = text;
    return reply;
  }

  std::unique_ptr<mcp_hints::Transport> connect(const std::string& version) {
    server.listen("127.0.0.1", 0);
    auto t = mcp_hints::connect({{}, server.url(), {}, {}}, {});
    if (version != "2026-07-28") {
      t->send(mcp_hints::jsonrpc::request(1, "initialize"), soon());
      EXPECT_TRUE(t->receive(soon()));
    }
    t->set_protocol_version(version);
    return t;
  }
};

std::string data_event(const json& message) { return "data: " + message.dump() + "\n\n"; }

}  // namespace

// "The client MUST respect the `retry` field, waiting the given number of milliseconds before
// attempting to reconnect", and resumes "with an HTTP GET ... and include the Last-Event-ID header"
// (transports, 2025-11-25): every time the stream ends before its answer, after the latest valid
// retry (one not made of digits alone is ignored), from the latest event ID.
TEST(HttpTransport, AStreamEndedBeforeItsAnswerIsResumedAfterItsRetryWithTheLastEventId) {
  ResumingServer s;
  s.call_stream = "id: e-1\nretry: 300\ndata: \n\nretry: -5\nretry: 1e3\nretry: 20ms\n: still 300\n\n";
  s.on_get = [](const std::string& last_event_id) {
    if (last_event_id == "e-1") return ResumingServer::stream("id: e-2\nretry: 150\ndata: \n\n");
    return ResumingServer::stream(data_event(mcp_hints::jsonrpc::notification("notifications/progress")) + "id: e-3\n" +
                                  data_event(mcp_hints::jsonrpc::result(7, json{{"content", json::array()}})));
  };
  auto t = s.connect("2025-11-25");
  t->send(mcp_hints::jsonrpc::request(7, "tools/call", json{{"name", "slow"}}), soon());
  const auto note = t->receive(soon());
  const auto answer = t->receive(soon());
  ASSERT_TRUE(note && answer);
  EXPECT_EQ((*note)["method"], "notifications/progress");
  EXPECT_EQ((*answer)["id"], 7);
  std::lock_guard lock(s.m);
  ASSERT_EQ(s.gets.size(), 2u);
  EXPECT_EQ(s.gets[0].last_event_id, "e-1");
  EXPECT_EQ(s.gets[1].last_event_id, "e-2");
  EXPECT_EQ(s.gets[1].session_id, "s-1");
  ASSERT_EQ(s.ends.size(), 3u);
  // Each GET came after the previous stream's end by at least the retry then in force.
  using std::chrono::milliseconds;
  EXPECT_GE(s.ends[1] - s.ends[0], milliseconds(300));
  EXPECT_GE(s.ends[2] - s.ends[1], milliseconds(150));
}

// A resumption the server refuses leaves the request unanswered for good: said at once, in one
// line, rather than waited out.
TEST(HttpTransport, AResumptionTheServerRefusesIsATransportErrorThatSaysWhy) {
  ResumingServer s;
  s.call_stream = "id: e-1\nretry: 10\ndata: \n\n";
  s.on_get = [](const std::string&) {
    mcp_hints::HttpReply reply;
    reply.status = 405;
    return reply;
  };
  auto t = s.connect("2025-11-25");
  t->send(mcp_hints::jsonrpc::request(7, "tools/call", json{{"name", "slow"}}), soon());
  const std::string error = error_of(*t);
  EXPECT_NE(error.find("resuming the SSE stream of request 7 after event \"e-1\""), std::string::npos) << error;
  EXPECT_NE(error.find("answered HTTP 405"), std::string::npos) << error;
  std::lock_guard lock(s.m);
  EXPECT_EQ(s.gets.size(), 1u);
}

// A stream that brings no event ID has nothing to resume from, and the stateless era resumes
// nothing ("Resumable SSE streams via Last-Event-ID are not supported", 2026-07-28): no GET
// carries a Last-Event-ID.
TEST(HttpTransport, NoStreamIsResumedWithoutAnEventIdOrInTheStatelessEra) {
  for (const auto& [version, stream] : std::vector<std::pair<std::string, std::string>>{
           {"2025-11-25", "retry: 10\ndata: \n\n"}, {"2026-07-28", "id: e-1\nretry: 10\ndata: \n\n"}}) {
    ResumingServer s;
    s.call_stream = stream;
    s.on_get = [](const std::string&) {
      mcp_hints::HttpReply reply;
      reply.status = 405;
      return reply;
    };
    auto t = s.connect(version);
    t->send(mcp_hints::jsonrpc::request(7, "tools/call", json{{"name", "slow"}}), soon());
    EXPECT_FALSE(t->receive(Clock::now() + std::chrono::milliseconds(200))) << version;
    std::lock_guard lock(s.m);
    for (const auto& get : s.gets) EXPECT_EQ(get.last_event_id, "") << version;
    if (version == "2026-07-28") {
      EXPECT_TRUE(s.gets.empty());
    }
  }
}

// "If the `Mcp-Name` source value cannot be safely represented as a plain ASCII header value,
// clients MUST encode it using the Base64 sentinel format" (transports, 2026-07-28).
TEST(HttpTransport, ANameThatIsNotPlainAsciiGoesInMcpNameInBase64) {
  HeaderRecorder server(&mcp_hints::HttpRequestView::mcp_name);
  auto t = mcp_hints::make_http_transport(server.url());
  t->set_protocol_version("2026-07-28");
  int id = 0;
  for (const char* name : {"get_weather", "wetter_\xC3\xA4", " padded", "file:///a b.txt"}) {
    t->send(mcp_hints::jsonrpc::request(++id, "tools/call", json{{"name", name}}), soon());
    ASSERT_TRUE(t->receive(soon())) << name;
  }
  EXPECT_EQ(server.seen(), (std::vector<std::string>{"get_weather", "=?base64?d2V0dGVyX8Ok?=",
                                                     "=?base64?IHBhZGRlZA==?=", "file:///a b.txt"}));
}

// A session-era server may send a request on a POST's stream and keep the stream open until it has
// the answer ("The server MAY send JSON-RPC requests ... before sending the JSON-RPC response",
// transports, 2025-11-25): the session answers it while the stream is read, through its hook, on
// a connection of its own, and the observer sees the request and the answer.
TEST(HttpTransport, ARequestOnAPostStreamIsAnsweredWhileTheStreamWaitsForIt) {
  std::mutex m;
  std::condition_variable answered;
  std::optional<json> answer;
  mcp_hints::HttpServer server([&](const mcp_hints::HttpRequestView& req) {
    mcp_hints::HttpReply reply;
    if (req.method != "POST") {
      reply.status = req.method == "DELETE" ? 204 : 405;
      return reply;
    }
    const json message = json::parse(req.body);
    if (mcp_hints::jsonrpc::classify(message) == mcp_hints::jsonrpc::Kind::result) {
      std::lock_guard lock(m);
      answer = message;
      answered.notify_all();
      reply.status = 202;
      return reply;
    }
    if (auto basic = session_basics(message, "2025-11-25")) return *basic;
    reply.content_type = "text/event-stream";
    reply.body = data_event(mcp_hints::jsonrpc::request("e1", "elicitation/create", json{{"message", "Name?"}}));
    reply.more = [&, id = message["id"], done = false]() mutable -> std::optional<std::string> {
      if (done) return std::nullopt;
      std::unique_lock lock(m);
      if (!answered.wait_for(lock, std::chrono::seconds(3), [&] { return answer.has_value(); }))
        return std::nullopt;  // no answer: the stream ends without the result
      done = true;
      return data_event(mcp_hints::jsonrpc::result(id, json{{"content", json::array({(*answer)["result"]})}}));
    };
    return reply;
  });
  server.listen("127.0.0.1", 0);
  auto t = mcp_hints::connect({{}, server.url(), {}, {}}, {});
  mcp_hints::ClientOptions options;
  options.answer_server_request = [](const json& request) -> std::optional<json> {
    return json{{"action", "accept"}, {"content", {{"name", request["params"]["message"]}}}};
  };
  mcp_hints::McpClientSession session(*t, options);
  std::vector<std::string> observed;
  session.set_message_observer([&](const json& message, mcp_hints::Direction direction) {
    observed.push_back((direction == mcp_hints::Direction::server_to_client ? "in " : "out ") +
                       message.value("method", message.contains("result") ? "result" : "?"));
  });
  session.initialize();
  const json result = session.request("tools/call", json{{"name", "greet"}});
  EXPECT_EQ(result["content"][0], (json{{"action", "accept"}, {"content", {{"name", "Name?"}}}}));
  ASSERT_EQ(session.server_requests().size(), 1u);
  EXPECT_EQ(session.server_requests()[0]["id"], "e1");
  EXPECT_EQ(observed, (std::vector<std::string>{"out initialize", "in result", "out notifications/initialized",
                                                "out tools/call", "in elicitation/create", "out result", "in result"}));
}

// A session-era server may send its request on the standalone GET stream instead, naming no request
// of ours (as the official SDK does for a request a tool's handler makes of its own server), and
// hold the call until it has the answer. A session that listens during requests answers it there;
// one that does not never sees it, and the call waits out its timeout.
TEST(HttpTransport, ARequestOnTheStandaloneStreamIsAnsweredWhenTheSessionListensDuringRequests) {
  for (const bool listening : {true, false}) {
    SCOPED_TRACE(listening ? "listening" : "not listening");
    std::mutex m;
    std::condition_variable changed;
    bool call_arrived = false, asked = false, done = false;
    std::optional<json> answer;
    std::size_t gets = 0;
    // Waits (a little at a time, so that the test's end ends it) until `ready` says so.
    auto wait_for = [&](std::unique_lock<std::mutex>& lock, auto ready) {
      const auto until = Clock::now() + std::chrono::seconds(3);
      while (!ready() && !done && Clock::now() < until) changed.wait_for(lock, std::chrono::milliseconds(50));
      return ready();
    };
    mcp_hints::HttpServer server([&](const mcp_hints::HttpRequestView& req) {
      mcp_hints::HttpReply reply;
      if (req.method == "DELETE") {
        reply.status = 204;
        return reply;
      }
      reply.content_type = "text/event-stream";
      if (req.method == "GET") {
        std::lock_guard lock(m);
        ++gets;
        reply.more = [&, sent = false]() mutable -> std::optional<std::string> {
          std::unique_lock lock(m);
          if (sent || !wait_for(lock, [&] { return call_arrived; })) return std::nullopt;
          sent = asked = true;
          return data_event(mcp_hints::jsonrpc::request("e1", "elicitation/create", json{{"message", "Name?"}}));
        };
        return reply;
      }
      const json message = json::parse(req.body);
      if (mcp_hints::jsonrpc::classify(message) == mcp_hints::jsonrpc::Kind::result) {
        std::lock_guard lock(m);
        answer = message;
        changed.notify_all();
        reply.status = 202;
        return reply;
      }
      if (auto basic = session_basics(message, "2025-11-25")) return *basic;
      {
        std::lock_guard lock(m);
        call_arrived = true;
        changed.notify_all();
      }
      reply.more = [&, id = message["id"], sent = false]() mutable -> std::optional<std::string> {
        std::unique_lock lock(m);
        if (sent || !wait_for(lock, [&] { return answer.has_value(); })) return std::nullopt;
        sent = true;
        return data_event(mcp_hints::jsonrpc::result(id, json{{"content", json::array({(*answer)["result"]})}}));
      };
      return reply;
    });
    server.listen("127.0.0.1", 0);
    auto t = mcp_hints::connect({{}, server.url(), {}, {}}, {});
    mcp_hints::ClientOptions options;
    options.request_timeout = std::chrono::seconds(listening ? 10 : 1);
    options.listen_during_requests = listening;
    options.answer_server_request = [](const json& request) -> std::optional<json> {
      return json{{"action", "accept"}, {"content", {{"name", request["params"]["message"]}}}};
    };
    {
      mcp_hints::McpClientSession session(*t, options);
      session.initialize();
      if (listening) {
        const json result = session.request("tools/call", json{{"name", "greet"}});
        EXPECT_EQ(result["content"][0], (json{{"action", "accept"}, {"content", {{"name", "Name?"}}}}));
        ASSERT_EQ(session.server_requests().size(), 1u);
        EXPECT_EQ(session.server_requests()[0]["id"], "e1");
      } else {
        EXPECT_THROW(session.request("tools/call", json{{"name", "greet"}}), mcp_hints::RequestTimeout);
        EXPECT_TRUE(session.server_requests().empty());
      }
    }
    {
      std::lock_guard lock(m);
      if (listening) {
        EXPECT_EQ(gets, 1u);
        EXPECT_TRUE(asked);
      }
      done = true;
      changed.notify_all();
    }
    t->close();
  }
}

namespace {

constexpr std::chrono::seconds kListeningRequestTimeout{60};

// Three tools/list requests of a session that listens during requests, against a server that answers
// its nth GET (from 1) with answer_get(n): each request's answer is checked, and the GETs counted.
std::size_t gets_of_three_listening_requests(const std::function<mcp_hints::HttpReply(std::size_t)>& answer_get) {
  std::mutex m;
  std::size_t gets = 0;
  mcp_hints::HttpServer server([&](const mcp_hints::HttpRequestView& req) {
    mcp_hints::HttpReply reply;
    if (req.method == "DELETE") {
      reply.status = 204;
      return reply;
    }
    if (req.method == "GET") {
      std::lock_guard lock(m);
      return answer_get(++gets);
    }
    const json message = json::parse(req.body);
    if (auto basic = session_basics(message, "2025-11-25")) return *basic;
    reply.body = mcp_hints::jsonrpc::result(message["id"], json{{"tools", json::array()}}).dump();
    return reply;
  });
  server.listen("127.0.0.1", 0);
  auto t = mcp_hints::connect({{}, server.url(), {}, {}}, {});
  mcp_hints::ClientOptions options;
  options.listen_during_requests = true;
  options.request_timeout = kListeningRequestTimeout;  // a stream no one ends lasts this long
  options.answer_server_request = [](const json&) -> std::optional<json> { return std::nullopt; };
  {
    mcp_hints::McpClientSession session(*t, options);
    session.initialize();
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(session.request("tools/list", json::object()), (json{{"tools", json::array()}}));
  }
  t->close();
  std::lock_guard lock(m);
  return gets;
}
}  // namespace

// A standalone stream the server holds open with nothing on it is ended by the client once the
// request's answer has come, and opened again with the next request. The client ends it from
// another thread than the one reading it, the path ThreadSanitizer watches.
TEST(HttpTransport, AListeningStreamTheServerHoldsOpenEndsWithItsRequest) {
  const auto start = Clock::now();
  EXPECT_EQ(gets_of_three_listening_requests([](std::size_t) {
              mcp_hints::HttpReply reply;
              reply.content_type = "text/event-stream";
              reply.stall_after_headers = true;
              return reply;
            }),
            3u);
  // Ended by the client, not by the request's deadline: three streams no one ended would take three
  // request timeouts.
  EXPECT_LT(Clock::now() - start, kListeningRequestTimeout);
}

// A server that offers no standalone stream says so with 405, and no GET is made again in that
// session; one that refuses a GET otherwise (409: one stream at a time) is asked again at the next
// request, whose stream it then opens.
TEST(HttpTransport, OnlyA405EndsListeningDuringRequests) {
  for (const int refusal : {405, 409}) {
    SCOPED_TRACE(refusal);
    const std::size_t gets = gets_of_three_listening_requests([&](std::size_t nth) {
      mcp_hints::HttpReply reply;
      if (nth == 1) {
        reply.status = refusal;
        return reply;
      }
      reply.content_type = "text/event-stream";
      reply.body = ": open\n\n";
      return reply;
    });
    EXPECT_EQ(gets, refusal == 405 ? 1u : 3u);
  }
}
