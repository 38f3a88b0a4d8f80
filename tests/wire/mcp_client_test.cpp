// The client session against a scripted in-memory server.
#include "mcp_hints/wire/mcp_client.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

#include "mcp_hints/wire/jsonrpc.hpp"

using json = nlohmann::json;
namespace rpc = mcp_hints::jsonrpc;

namespace {

// Answers each message the client sends with what the script returns.
class ScriptedTransport : public mcp_hints::Transport {
 public:
  explicit ScriptedTransport(std::function<std::vector<json>(const json&)> script) : script_(std::move(script)) {}
  void send(const json& message, mcp_hints::Deadline) override {
    sent.push_back(message);
    for (auto& m : script_(message)) queue_.push_back(std::move(m));
  }
  std::size_t bytes_per_message = 0;
  std::optional<json> receive(mcp_hints::Deadline) override {
    if (queue_.empty()) return std::nullopt;
    bytes_received_ += bytes_per_message;
    json m = queue_.front();
    queue_.pop_front();
    return m;
  }
  void close() override {}
  std::string target() const override { return "scripted"; }
  std::vector<json> sent;

 private:
  std::function<std::vector<json>(const json&)> script_;
  std::deque<json> queue_;
};

std::vector<json> initialize_as(const json& m, const std::string& version) {
  if (m.value("method", "") != "initialize") return {};
  return {rpc::result(m["id"], {{"protocolVersion", version}, {"capabilities", {{"tools", json::object()}}}})};
}

}  // namespace

TEST(McpClient, NegotiatesEveryLegacyRevisionAndRefusesOthers) {
  for (const auto& version : mcp_hints::supported_protocol_versions()) {
    ScriptedTransport t([&](const json& m) { return initialize_as(m, version); });
    mcp_hints::McpClientSession session(t);
    EXPECT_EQ(session.initialize().protocol_version, version);
    EXPECT_EQ(t.sent[0]["params"]["protocolVersion"], "2025-11-25");
    EXPECT_EQ(t.sent[1]["method"], "notifications/initialized");
  }
  ScriptedTransport future([&](const json& m) { return initialize_as(m, "2026-07-28"); });
  mcp_hints::McpClientSession session(future);
  try {
    session.initialize();
    FAIL();
  } catch (const mcp_hints::ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("chose protocol version 2026-07-28, which mcp-hints does not speak"),
              std::string::npos);
  }
}

TEST(McpClient, AnswersServerRequestsInsteadOfHanging) {
  ScriptedTransport t([&](const json& m) -> std::vector<json> {
    if (m.value("method", "") == "tools/list")
      return {rpc::request("s1", "sampling/createMessage"), rpc::request("s2", "ping"),
              rpc::notification("notifications/message"), rpc::result(m["id"], {{"tools", json::array()}})};
    return initialize_as(m, "2025-11-25");
  });
  mcp_hints::McpClientSession session(t);
  session.initialize();
  EXPECT_TRUE(session.list_tools().tools.empty());
  ASSERT_EQ(session.server_requests().size(), 2u);
  EXPECT_EQ(session.notification_count("notifications/message"), 1u);
  // Our answers: method not found for sampling, an empty result for ping.
  json sampling_answer, ping_answer;
  for (const auto& s : t.sent) {
    if (s.value("id", json()) == "s1") sampling_answer = s;
    if (s.value("id", json()) == "s2") ping_answer = s;
  }
  EXPECT_EQ(sampling_answer["error"]["code"], -32601);
  EXPECT_EQ(ping_answer["result"], json::object());
}

// A server that floods a session with notifications and requests cannot exhaust its memory: every
// one is counted (by method: the first kCountedMethods distinct methods each on its own, and the
// specification's always; later made-up methods together, apart from a method named "") and every
// request answered, but only the first kKeptMessages of each are kept.
TEST(McpClient, AFloodOfNotificationsAndRequestsIsCountedButNotKept) {
  using Session = mcp_hints::McpClientSession;
  const std::size_t flood = Session::kKeptMessages + 2 * Session::kCountedMethods;
  ScriptedTransport t([&](const json& m) -> std::vector<json> {
    if (m.value("method", "") != "tools/list") return initialize_as(m, "2025-11-25");
    std::vector<json> out{rpc::notification("")};  // a name of its own, not the later methods' count
    for (std::size_t i = 0; i < flood; ++i) {
      out.push_back(rpc::notification("notifications/progress"));
      out.push_back(rpc::notification("notifications/n" + std::to_string(i)));  // a new method each time
      out.push_back(rpc::request("r" + std::to_string(i), "ping"));
    }
    out.push_back(rpc::notification("notifications/tools/list_changed"));  // after the others filled the count
    out.push_back(rpc::result(m["id"], {{"tools", json::array()}}));
    return out;
  });
  Session session(t);
  session.initialize();
  EXPECT_TRUE(session.list_tools().tools.empty());
  EXPECT_EQ(session.notifications_received(), 2 * flood + 2);
  EXPECT_EQ(session.notification_count("notifications/progress"), flood);
  EXPECT_EQ(session.notification_count("notifications/tools/list_changed"), 1u);  // the spec's: always apart
  EXPECT_EQ(session.notification_count("notifications/n0"), 1u);
  EXPECT_EQ(session.notification_count("notifications/n" + std::to_string(Session::kCountedMethods - 3)), 1u);
  EXPECT_EQ(session.notification_count("notifications/n" + std::to_string(Session::kCountedMethods - 2)), 0u);
  EXPECT_EQ(session.notification_count(""), 1u);
  EXPECT_EQ(session.notifications_of_later_methods(), flood - (Session::kCountedMethods - 2));
  ASSERT_EQ(session.notifications().size(), Session::kKeptMessages);
  EXPECT_EQ(session.notifications()[2]["method"], "notifications/n0");
  EXPECT_EQ(session.server_requests().size(), Session::kKeptMessages);
  std::size_t answered = 0;
  for (const auto& sent : t.sent) answered += sent.contains("result") && sent["result"] == json::object();
  EXPECT_EQ(answered, flood);
}

// A client that declares a capability answers what it lets the server ask, through its hook, in the
// middle of its own request; what the hook declines (nullopt) is method-not-found, as without one.
// The capabilities are declared in initialize and, in the stateless era, in every request's _meta.
TEST(McpClient, AnswersServerRequestsItsHookTakesAndDeclaresItsCapabilities) {
  ScriptedTransport t([&](const json& m) -> std::vector<json> {
    if (m.value("method", "") == "tools/call")
      return {rpc::request("e1", "elicitation/create", json{{"message", "Your name?"}}),
              rpc::request("s1", "sampling/createMessage"), rpc::result(m["id"], {{"content", json::array()}})};
    return initialize_as(m, "2025-11-25");
  });
  mcp_hints::ClientOptions options;
  options.capabilities = {{"elicitation", {{"form", json::object()}}}};
  std::vector<json> asked;
  options.answer_server_request = [&](const json& request) -> std::optional<json> {
    asked.push_back(request);
    if (request["method"] != "elicitation/create") return std::nullopt;
    return json{{"action", "accept"}, {"content", {{"name", "Ada"}}}};
  };
  mcp_hints::McpClientSession session(t, options);
  session.initialize();
  EXPECT_EQ(t.sent[0]["params"]["capabilities"], options.capabilities);
  session.request("tools/call", json{{"name", "greet"}});
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(asked[0]["params"]["message"], "Your name?");
  json elicitation_answer, sampling_answer;
  for (const auto& sent : t.sent) {
    if (sent.value("id", json()) == "e1") elicitation_answer = sent;
    if (sent.value("id", json()) == "s1") sampling_answer = sent;
  }
  EXPECT_EQ(elicitation_answer["result"], (json{{"action", "accept"}, {"content", {{"name", "Ada"}}}}));
  EXPECT_EQ(sampling_answer["error"]["code"], -32601);
  EXPECT_EQ(session.protocol_meta(), json::object());  // the session era carries no _meta
}

TEST(McpClient, FollowsCursorsWithinBounds) {
  int pages = 0;
  ScriptedTransport paged([&](const json& m) -> std::vector<json> {
    if (m.value("method", "") != "tools/list") return initialize_as(m, "2025-11-25");
    ++pages;
    json result = {{"tools", json::array({{{"name", "t" + std::to_string(pages)}}})}};
    if (pages < 3) result["nextCursor"] = "c" + std::to_string(pages);
    EXPECT_EQ(m["params"].value("cursor", ""), pages == 1 ? "" : "c" + std::to_string(pages - 1));
    return {rpc::result(m["id"], result)};
  });
  mcp_hints::McpClientSession session(paged);
  session.initialize();
  auto listing = session.list_tools();
  EXPECT_TRUE(listing.complete);
  EXPECT_EQ(listing.tools.size(), 3u);
  EXPECT_EQ(listing.page_count, 3u);

  ScriptedTransport endless([&](const json& m) -> std::vector<json> {
    if (m.value("method", "") != "tools/list") return initialize_as(m, "2025-11-25");
    return {rpc::result(m["id"], {{"tools", json::array()}, {"nextCursor", "n" + std::to_string(m["id"].get<int>())}})};
  });
  mcp_hints::ClientOptions options;
  options.max_pages = 10;
  mcp_hints::McpClientSession bounded(endless, options);
  bounded.initialize();
  auto cut = bounded.list_tools();
  EXPECT_FALSE(cut.complete);
  EXPECT_FALSE(cut.over_size_limit);  // the server's cursors never end: its finding, not our limit
  EXPECT_NE(cut.incomplete_reason.find("after 10 pages"), std::string::npos);

  // A listing bounded by bytes: each message "weighs" 1 MB here.
  ScriptedTransport heavy([&](const json& m) -> std::vector<json> {
    if (m.value("method", "") != "tools/list") return initialize_as(m, "2025-11-25");
    return {rpc::result(m["id"], {{"tools", json::array()}, {"nextCursor", "h" + std::to_string(m["id"].get<int>())}})};
  });
  heavy.bytes_per_message = 1 << 20;
  mcp_hints::ClientOptions small;
  small.max_total_bytes = 3 << 20;
  mcp_hints::McpClientSession weighed(heavy, small);
  weighed.initialize();
  auto stopped = weighed.list_tools();
  EXPECT_FALSE(stopped.complete);
  EXPECT_TRUE(stopped.over_size_limit);
  EXPECT_NE(stopped.incomplete_reason.find("took more than 3145728 bytes (page 4)"), std::string::npos)
      << stopped.incomplete_reason;

  ScriptedTransport malformed([&](const json& m) -> std::vector<json> {
    if (m.value("method", "") != "tools/list") return initialize_as(m, "2025-11-25");
    return {rpc::result(m["id"], {{"tools", "none"}, {"nextCursor", 5}})};
  });
  mcp_hints::McpClientSession bad(malformed);
  bad.initialize();
  auto listing_bad = bad.list_tools();
  ASSERT_EQ(listing_bad.page_errors.size(), 2u);
  EXPECT_NE(listing_bad.page_errors[0].find("page 1: the result has no tools array"), std::string::npos);
  EXPECT_NE(listing_bad.page_errors[1].find("nextCursor is not a string"), std::string::npos);
}

TEST(McpClient, SilenceAndErrorsBecomeClearExceptions) {
  ScriptedTransport silent([](const json&) { return std::vector<json>{}; });
  mcp_hints::ClientOptions options;
  options.request_timeout = std::chrono::milliseconds(50);
  mcp_hints::McpClientSession session(silent, options);
  EXPECT_THROW(session.initialize(), mcp_hints::TransportError);
  ScriptedTransport failing([](const json& m) { return std::vector<json>{rpc::error(m["id"], -32603, "boom")}; });
  mcp_hints::McpClientSession failed(failing);
  try {
    failed.initialize();
    FAIL();
  } catch (const mcp_hints::ProtocolError& e) {
    EXPECT_EQ(std::string(e.what()), "initialize failed with JSON-RPC error -32603: boom");
  }
}

namespace {

const json kStatelessCapabilities = {{"tools", json::object()}};

// A server of the stateless era: discover, then requests that must carry the version in _meta.
std::vector<json> stateless_server(const json& m, const json& supported = {"2026-07-28"}) {
  const std::string method = m.value("method", "");
  if (method == "server/discover")
    return {
        rpc::result(m["id"], {{"resultType", "complete"},
                              {"supportedVersions", supported},
                              {"capabilities", kStatelessCapabilities},
                              {"_meta", {{"io.modelcontextprotocol/serverInfo", {{"name", "s"}, {"version", "1"}}}}},
                              {"ttlMs", 1000},
                              {"cacheScope", "public"}})};
  if (method == "tools/list")
    return {rpc::result(
        m["id"], {{"resultType", "complete"}, {"tools", json::array()}, {"ttlMs", 5}, {"cacheScope", "private"}})};
  if (method == "initialize") return initialize_as(m, "2025-11-25");
  return {};
}

// A server of the legacy era: it knows no server/discover.
std::vector<json> legacy_server(const json& m) {
  if (m.value("method", "") == "server/discover")
    return {rpc::error(m["id"], rpc::method_not_found, "Method not found: server/discover")};
  if (m.value("method", "") == "tools/list") return {rpc::result(m["id"], {{"tools", json::array()}})};
  return initialize_as(m, "2025-11-25");
}

}  // namespace

TEST(McpClient, TheStatelessEraDeclaresTheCapabilitiesInEveryRequestsMeta) {
  ScriptedTransport t([](const json& m) { return stateless_server(m); });
  mcp_hints::ClientOptions options;
  options.capabilities = {{"elicitation", {{"form", json::object()}}}};
  mcp_hints::McpClientSession session(t, options);
  EXPECT_EQ(session.connect().era, mcp_hints::ProtocolEra::stateless);
  session.list_tools();
  ASSERT_GE(t.sent.size(), 2u);
  for (const auto& sent : t.sent)
    EXPECT_EQ(sent["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"], options.capabilities)
        << sent.dump();
}

TEST(McpClient, AutomaticallySpeaksTheStatelessEraWhenTheServerDiscoversIt) {
  ScriptedTransport t([](const json& m) { return stateless_server(m); });
  mcp_hints::McpClientSession session(t);
  session.set_request_meta(
      {{"annotations", {{"sensitiveHint", "high"}}}, {"io.modelcontextprotocol/protocolVersion", "1999-01-01"}});
  const auto hello = session.connect();
  EXPECT_EQ(hello.era, mcp_hints::ProtocolEra::stateless);
  EXPECT_EQ(hello.protocol_version, "2026-07-28");
  EXPECT_EQ(hello.capabilities, kStatelessCapabilities);
  EXPECT_EQ(hello.server_info["name"], "s");
  EXPECT_TRUE(hello.fallback_reason.empty());
  const auto listing = session.list_tools();
  ASSERT_EQ(listing.pages.size(), 1u);
  EXPECT_EQ(listing.pages[0]["ttlMs"], 5);
  EXPECT_FALSE(listing.pages[0].contains("tools"));
  // Every request carries the era's _meta; the caller's own meta rides along but cannot change it.
  ASSERT_EQ(t.sent.size(), 2u);
  for (const auto& sent : t.sent) {
    const json& meta = sent["params"]["_meta"];
    EXPECT_EQ(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28") << sent;
    EXPECT_EQ(meta["io.modelcontextprotocol/clientCapabilities"], json::object()) << sent;
    EXPECT_EQ(meta["io.modelcontextprotocol/clientInfo"]["name"], "mcp-hints") << sent;
    EXPECT_EQ(meta["annotations"]["sensitiveHint"], "high") << sent;
  }
  EXPECT_EQ(t.sent[0]["method"], "server/discover");
}

TEST(McpClient, AutomaticallyFallsBackToInitializeAndSaysWhy) {
  ScriptedTransport t(legacy_server);
  mcp_hints::McpClientSession session(t);
  const auto hello = session.connect();
  EXPECT_EQ(hello.era, mcp_hints::ProtocolEra::legacy);
  EXPECT_EQ(hello.protocol_version, "2025-11-25");
  EXPECT_NE(hello.fallback_reason.find("-32601"), std::string::npos) << hello.fallback_reason;
  ASSERT_GE(t.sent.size(), 3u);
  EXPECT_EQ(t.sent[0]["method"], "server/discover");
  EXPECT_EQ(t.sent[1]["method"], "initialize");
  session.list_tools();
  // After the fallback no request carries the stateless era's _meta.
  EXPECT_FALSE(t.sent.back()["params"].contains("_meta")) << t.sent.back();

  // A discover result that lists only legacy revisions: the legacy era, too.
  ScriptedTransport old([](const json& m) { return stateless_server(m, {"2025-11-25"}); });
  mcp_hints::McpClientSession dual(old);
  const auto legacy = dual.connect();
  EXPECT_EQ(legacy.era, mcp_hints::ProtocolEra::legacy);
  EXPECT_NE(legacy.fallback_reason.find("lists no stateless revision"), std::string::npos);
}

// "When the request has not received a success or error response within the timeout period, the
// sender SHOULD issue a cancellation notification for that request" (lifecycle): a timeout is its
// own error (the connection may be fine), and the request is cancelled, except the probe of an
// unknown era, which a legacy server ignores before initialize and hears nothing more of.
TEST(McpClient, ATimedOutRequestIsCancelledAndSaysSo) {
  mcp_hints::ClientOptions options;
  options.request_timeout = std::chrono::milliseconds(50);
  ScriptedTransport slow(
      [](const json& m) { return m.value("method", "") == "tools/call" ? std::vector<json>{} : legacy_server(m); });
  mcp_hints::McpClientSession session(slow, options);
  session.connect();
  const std::size_t before = slow.sent.size();
  EXPECT_THROW(session.request("tools/call", json{{"name", "t"}}), mcp_hints::RequestTimeout);
  ASSERT_EQ(slow.sent.size(), before + 2);
  const json& call = slow.sent[before];
  EXPECT_EQ(slow.sent.back(),
            rpc::notification("notifications/cancelled", json{{"requestId", call["id"]}, {"reason", "timed out"}}));
  // The probe: a legacy server that ignores server/discover gets initialize next, nothing between.
  ScriptedTransport quiet([](const json& m) {
    return m.value("method", "") == "server/discover" ? std::vector<json>{} : legacy_server(m);
  });
  mcp_hints::McpClientSession probing(quiet, options);
  EXPECT_EQ(probing.connect().era, mcp_hints::ProtocolEra::legacy);
  ASSERT_GE(quiet.sent.size(), 2u);
  EXPECT_EQ(quiet.sent[0]["method"], "server/discover");
  EXPECT_EQ(quiet.sent[1]["method"], "initialize");
}

TEST(McpClient, AForcedEraIsNeverNegotiatedAway) {
  mcp_hints::ClientOptions stateless;
  stateless.protocol = *mcp_hints::parse_protocol_choice("2026-07-28");
  ScriptedTransport legacy(legacy_server);
  mcp_hints::McpClientSession refused(legacy, stateless);
  EXPECT_THROW(refused.connect(), mcp_hints::ProtocolError);
  ScriptedTransport old([](const json& m) { return stateless_server(m, {"2025-11-25"}); });
  mcp_hints::McpClientSession listed_none(old, stateless);
  try {
    listed_none.connect();
    FAIL();
  } catch (const mcp_hints::ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("lists no stateless revision mcp-hints speaks (it lists 2025-11-25"),
              std::string::npos)
        << e.what();
  }
  mcp_hints::ClientOptions legacy_only;
  legacy_only.protocol = *mcp_hints::parse_protocol_choice("2025-03-26");
  ScriptedTransport both([](const json& m) { return stateless_server(m); });
  mcp_hints::McpClientSession session(both, legacy_only);
  EXPECT_EQ(session.connect().era, mcp_hints::ProtocolEra::legacy);
  EXPECT_EQ(both.sent[0]["method"], "initialize");
  EXPECT_EQ(both.sent[0]["params"]["protocolVersion"], "2025-03-26");
}

TEST(McpClient, ProtocolChoicesAndResultTypes) {
  EXPECT_EQ(mcp_hints::parse_protocol_choice("auto")->era, mcp_hints::EraChoice::automatic);
  EXPECT_EQ(mcp_hints::parse_protocol_choice("stateless")->era, mcp_hints::EraChoice::stateless);
  EXPECT_EQ(mcp_hints::parse_protocol_choice("2025-06-18")->era, mcp_hints::EraChoice::legacy);
  EXPECT_FALSE(mcp_hints::parse_protocol_choice("2026-07-29"));
  EXPECT_FALSE(mcp_hints::parse_protocol_choice(""));
  EXPECT_TRUE(mcp_hints::is_stateless_revision("2026-07-28"));
  EXPECT_FALSE(mcp_hints::is_stateless_revision("2025-11-25"));
  EXPECT_EQ(mcp_hints::result_type(json{{"content", json::array()}}), "complete");
  EXPECT_EQ(mcp_hints::result_type(json{{"resultType", "input_required"}}), "input_required");
}

// A server may refuse the first request whatever version it names (-32022 listing the ones it
// supports): one that lists a stateless revision we speak is asked again, once.
TEST(McpClient, RetriesDiscoverOnceWhenTheRefusalListsAVersionItSpeaks) {
  for (const char* mode : {"auto", "2026-07-28"}) {
    int refusals = 0;
    ScriptedTransport t([&](const json& m) -> std::vector<json> {
      if (m.value("method", "") == "server/discover" && refusals++ == 0) {
        json e = rpc::error(m["id"], -32022, "Unsupported protocol version");
        e["error"]["data"] = {{"supported", {"2026-07-28"}}, {"requested", "2026-07-28"}};
        return {e};
      }
      return stateless_server(m);
    });
    mcp_hints::ClientOptions options;
    options.protocol = *mcp_hints::parse_protocol_choice(mode);
    mcp_hints::McpClientSession session(t, options);
    EXPECT_EQ(session.connect().era, mcp_hints::ProtocolEra::stateless) << mode;
    EXPECT_EQ(refusals, 2) << mode;
  }
  // Refused twice: the pinned client gives up, the automatic one falls back.
  ScriptedTransport stubborn([](const json& m) -> std::vector<json> {
    if (m.value("method", "") != "server/discover") return legacy_server(m);
    json e = rpc::error(m["id"], -32022, "Unsupported protocol version");
    e["error"]["data"] = {{"supported", {"2026-07-28"}}, {"requested", "2026-07-28"}};
    return {e};
  });
  mcp_hints::McpClientSession automatic(stubborn);
  EXPECT_EQ(automatic.connect().era, mcp_hints::ProtocolEra::legacy);
}

// A held subscription whose server floods its stream: the reading stops once the session holds
// kHeldBacklog messages unread, the subscription ends and says why, and what came is kept; one the
// server refuses (HTTP 400 with the JSON-RPC error) ends at once with the refusal.
TEST(McpClient, AHeldSubscriptionIsBoundedAgainstAFloodingServer) {
  mcp_hints::HttpServer server([](const mcp_hints::HttpRequestView& req) {
    const json message = json::parse(req.body);
    mcp_hints::HttpReply reply;
    if (message["params"]["notifications"].contains("refused")) {
      reply.status = 400;
      reply.body = mcp_hints::jsonrpc::error(message["id"], -32602, "Invalid params").dump();
      return reply;
    }
    const json tag = {{"_meta", {{"io.modelcontextprotocol/subscriptionId", message["id"]}}}};
    auto event = [](const json& m) { return "event: message\ndata: " + m.dump() + "\n\n"; };
    reply.content_type = "text/event-stream";
    reply.body = event(mcp_hints::jsonrpc::notification("notifications/subscriptions/acknowledged", tag));
    reply.more = [event, tag]() -> std::optional<std::string> {  // forever, until the client stops reading
      std::string events;
      for (int i = 0; i < 500; ++i) events += event(mcp_hints::jsonrpc::notification("notifications/message", tag));
      return events;
    };
    return reply;
  });
  server.listen("127.0.0.1", 0);
  auto t = mcp_hints::connect({{}, server.url(), {}, {}}, {});
  mcp_hints::McpClientSession session(*t);
  const json id = session.hold_subscription({{"toolsListChanged", true}});
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (session.holding_subscription() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // nothing taken in: the backlog fills
  EXPECT_FALSE(session.holding_subscription());
  session.poll();
  EXPECT_NE(session.subscription_end().find("too many messages unread"), std::string::npos)
      << session.subscription_end();
  // What was taken in while waiting for the acknowledgment, then a full backlog: bounded.
  EXPECT_GT(session.notifications_received(), mcp_hints::McpClientSession::kHeldBacklog);
  EXPECT_LE(session.notifications_received(), 2 * mcp_hints::McpClientSession::kHeldBacklog);
  EXPECT_EQ(session.notifications().front()["method"], "notifications/subscriptions/acknowledged");
  EXPECT_EQ(session.notifications().front()["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], id);

  session.hold_subscription({{"refused", true}});  // the first is released
  EXPECT_FALSE(session.holding_subscription());
  EXPECT_NE(session.subscription_end().find("the server refused it"), std::string::npos) << session.subscription_end();
  session.release_subscription();
  EXPECT_EQ(session.subscription_end(), "");
}
