// The reference client: a careful MCP client driven by the adapter contract
// (conformance/ADAPTER.md). It connects to the scenario's servers (stdio or Streamable HTTP),
// performs the task, and lets the reference policy (mcp_hints::SessionPolicy) decide: confirm,
// block, propagate, escalate, retry. What only it can see goes to the events file.
//
// Each --flag breaks it in one way; the broken variants are the negative controls of the
// certification scenarios.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/conformance/policy.hpp"
#include "mcp_hints/vocab/hint_model.hpp"
#include "mcp_hints/vocab/trust_annotations.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"
#include "mcp_hints/wire/mcp_client.hpp"
#include "mcp_hints/wire/param_headers.hpp"
#include "mcp_hints/wire/protocol.hpp"
#include "mcp_hints/wire/transport.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints;

const char* kHelp = R"(usage: reference_client [FLAG] [URL]

The mcp-hints reference client, run by `mcp-hints certify` (see conformance/ADAPTER.md): reads
MCP_CONFORMANCE_CONTEXT (servers, task, scripted user, events file), and MCP_HINTS_SERVER_COMMAND
or a URL as its last argument when the context names no servers. Without a task (the official
conformance suite's client scenarios) it acts as a plain client: it connects, lists the tools and
calls each with arguments its input schema allows (or makes the calls the context lists in
toolCalls), under the same policy; the suite's json-schema-2020-12-preservation
(MCP_CONFORMANCE_SCENARIO) instead hands one tool's input schema, as listed, to the tool that
echoes it. It speaks the revision MCP_CONFORMANCE_PROTOCOL_VERSION
names, else negotiates (server/discover, else initialize).

flags (each breaks one behaviour, for negative controls):
  --never-prompt          never involves the user: no prompt, no block, no escalation, no progress
  --ignore-denial         asks, but calls even when the user denies
  --drop-propagation      does not carry #711 trust annotations on later requests
  --retry-anything        resends any call after a transient failure, up to 10 times, without
                          asking again
  --ignore-list-changed   keeps the first tool listing after tools/list_changed (and, in the
                          stateless era, after the listing's ttlMs)
  --trust-missing-hints   treats a tool without readable effect hints as safe
  --leak-across-sessions  keeps the session's trust annotations in a new session
  --taint-high-only       treats only sensitiveHint high as sensitive data in the context
  --silent-retries        retries as the policy allows, but reports no retry event
  --reuse-listing         keeps a server's tool listing from one session to the next
  --nag-after-denial      after a denial, still asks the rest of a multi-approval call's prompts
  --auto-answer-input     answers a server's input requests (an input_required result) itself,
                          accepting, without showing them to the user
  --keep-first-hints      lists tools again when it should, but keeps the hints of a tool's
                          first listing
  --ttl-in-seconds        reads a listing's ttlMs as seconds (so it stays fresh 1000 times too long)
  --latest-level          carries the latest sensitiveHint seen instead of the highest
  --per-server-propagation
                          carries a server's trust annotations only on requests to that server
  --malformed-cancel      sends a notifications/cancelled whose reason is a number (the schema says
                          a string): a message its revision's schema.json refuses
  --share-private-cache   a gateway that keeps one tool listing per server for every
                          authorization context, cacheScope private or not: one user's hints
                          decide another user's calls
  --absence-as-false      reads a trust annotation (io.modelcontextprotocol/trust-annotations) that
                          makes no sensitive claim as "sensitive: false", clearing what the tool
                          declared it returns
  --agency-when-missing   reads a tool without agencyHint as agentic, and asks before calling a tool
                          it reads as agentic (asking is allowed; the assumption is not)
  --relist-first-page     lists every page at first, but after tools/list_changed (or ttlMs) asks
                          for the first page only and keeps the earlier entries of the rest
  --tools-by-name         keeps one table of tools by name for every server: the server listed
                          last decides the hints of a name two servers share
  --merge-relisted-hints  merges a relisted tool's hints into those it had, so a hint the new
                          listing withdraws is kept
  --skip-error-results    reads no trust annotation from a result with isError true
  --clear-sensitivity-only
                          a new session drops the carried sensitiveHint but keeps the session's
                          other trust annotations
  --bare-relist           sends the relist after tools/list_changed (or ttlMs) without the
                          session's trust annotations
  --closed-world-by-default
                          reads a tool that leaves openWorldHint out as a closed world (the
                          specification's default is open)
  --carry-from-medium     does not carry sensitiveHint low (only medium and high)
  --reuse-input-answer    asks the user about the first input request of an input_required result
                          and gives that answer to the others too
  --bare-input-retry      retries a call after input_required without the session's trust
                          annotations
  --ttl-from-use          counts a listing's ttlMs from its last use instead of its receipt, so a
                          listing used often never goes stale
  --per-server-taint      weighs sensitive data and reported malicious activity only against calls
                          to the server that returned them
  --reconnect-clears      takes the reconnection after a dropped connection for a new session and
                          forgets the trust annotations carried so far
  --resend-on-timeout     sends a call that timed out once more, without asking the user again
  --block-overrides-result
                          lets a content block's trust annotation (sensitive: false) override
                          its result's (sensitive: true)
  --first-member-only     reads only the first member of a list-valued hint (sideEffects,
                          outcomes, sensitivity sets)
  --string-sensitivity-only
                          reads a sensitivity only where it is a string, so SEP-1913's and the
                          2026-06 extension's {"regulated": {"scopes": [...]}} claims nothing
  --events-in-ms          writes event times in milliseconds, against the contract (the events
                          file is then unusable: every check is not testable)
  --no-param-headers      sends tools/call without the Mcp-Param headers of a tool's x-mcp-header
                          parameters (over HTTP in the stateless era the server refuses it: -32020)
  --no-mcp-name           sends tools/call without its Mcp-Name header (the same)
  --no-resubscription     after a reconnection over stdio, does not send subscriptions/listen again
                          (the server holds no subscription across connections)

careful flags (stricter local policies, which the texts allow: "Clients MAY apply stricter local
policies regardless of hints"; a client with one must keep every conformance tier), and what a
client may leave out:
  --no-subscription       never opens a subscriptions/listen stream (the stateless era): learns of a
                          changed catalog only once its listing's ttlMs runs out
  --no-elicitation        declares no elicitation capability, so a server may not ask it for input
                          (the mock refuses such a call with -32021)
  --prompt-always         asks the user before every call, read-only ones too
  --refuse-confirmable    refuses on its own (a blocked event) every call its policy would ask the
                          user about, and asks nothing
)";

struct Flags {
  bool never_prompt = false, ignore_denial = false, drop_propagation = false, retry_anything = false,
       ignore_list_changed = false, trust_missing_hints = false, prompt_always = false, leak_across_sessions = false,
       taint_high_only = false, events_in_ms = false, silent_retries = false, reuse_listing = false,
       nag_after_denial = false, auto_answer_input = false, keep_first_hints = false, ttl_in_seconds = false,
       latest_level = false, per_server_propagation = false, malformed_cancel = false, share_private_cache = false,
       absence_as_false = false, agency_when_missing = false, refuse_confirmable = false, relist_first_page = false,
       tools_by_name = false, merge_relisted_hints = false, skip_error_results = false, clear_sensitivity_only = false,
       bare_relist = false, first_member_only = false, closed_world_by_default = false, carry_from_medium = false,
       reuse_input_answer = false, bare_input_retry = false, ttl_from_use = false, per_server_taint = false,
       block_overrides_result = false, reconnect_clears = false, resend_on_timeout = false,
       string_sensitivity_only = false, no_param_headers = false, no_mcp_name = false, no_subscription = false,
       no_resubscription = false, no_elicitation = false;
};

double unix_now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

// The events file: one JSON line per event, each written with one write(2) and a time.
class Events {
 public:
  Events(const std::string& path, double time_scale) : time_scale_(time_scale) {
    if (!path.empty()) fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  }
  ~Events() {
    if (fd_ >= 0) ::close(fd_);
  }
  // The authorization context the task item under way is done for: every event names it, so that
  // an approval given for one user's call covers none of another's (empty: none named).
  void acting_for(std::string authorization) { authorization_ = std::move(authorization); }
  void emit(json event) {
    if (!authorization_.empty()) event["authorization"] = authorization_;
    event["time"] = unix_now() * time_scale_;
    const std::string line = event.dump() + "\n";
    if (fd_ >= 0 && ::write(fd_, line.data(), line.size()) < 0)
      std::cerr << "reference_client: cannot write an event\n";
  }

 private:
  int fd_ = -1;
  double time_scale_ = 1;
  std::string authorization_;
};

// The scripted user: per prompt, else per tool, else the default (approve).
class ScriptedUser {
 public:
  explicit ScriptedUser(const json& user) : user_(user.is_object() ? user : json::object()) {}
  std::string decide(const std::string& tool) {
    const std::size_t n = prompts_++;
    if (user_.contains("prompts") && user_["prompts"].is_array() && n < user_["prompts"].size() &&
        user_["prompts"][n].is_string())
      return user_["prompts"][n];
    if (user_.contains("tools") && user_["tools"].is_object() && user_["tools"].contains(tool) &&
        user_["tools"][tool].is_string())
      return user_["tools"][tool];
    if (user_.contains("default") && user_["default"].is_string()) return user_["default"];
    return "approve";
  }

 private:
  json user_;
  std::size_t prompts_ = 0;
};

struct Connection {
  std::unique_ptr<Transport> transport;
  std::unique_ptr<McpClientSession> session;
  std::map<std::string, json> tools;
  std::size_t list_changes_seen = 0;
  bool listed_before = false;  // --reuse-listing: this connection's first listing is done
  std::string server;          // the scenario's name for it
  std::string authorization;   // the authorization context it acts for (the context's name); empty: none
  bool over_http = false;      // Streamable HTTP (SEP-2243's x-mcp-header constraints bind it)
  // Stateless era: when the listing stops being fresh (its ttlMs; no list_changed comes then).
  std::optional<std::chrono::steady_clock::time_point> stale_at;
  std::chrono::milliseconds ttl{0};  // the listing's ttlMs; --ttl-from-use only
};

class Client {
 public:
  Client(json context, Flags flags, std::string fallback_url)
      : context_(std::move(context)),
        flags_(flags),
        events_(context_.value("events", std::string()), flags.events_in_ms ? 1000 : 1),
        user_(context_.value("user", json::object())),
        fallback_url_(std::move(fallback_url)) {
    config_.trust_level = context_.value("trustLevel", 3);
    if (flags_.taint_high_only) config_.sensitive_from = "high";
    policy_ = std::make_unique<SessionPolicy>(config_);
  }

  int run() {
    if (!context_.contains("task")) return run_plain();
    const json task = context_.value("task", json::array());
    for (const auto& item : task) {
      if (item.value("newSession", false)) {
        connections_.clear();                     // closing ends each session (stdio: the server exits)
        shared_listings_.clear();                 // a listing never outlives the session it came from
        events_.emit({{"type", "new_session"}});  // the stateless era has no protocol session to end
        if (flags_.clear_sensitivity_only) {      // broken: only sensitiveHint is left behind
          leaked_annotations_ = policy_->request_annotations();
          leaked_annotations_.erase("sensitiveHint");
        }
        if (!flags_.leak_across_sessions) policy_ = std::make_unique<SessionPolicy>(config_);
        server_policies_.clear();
        subscribed_.clear();
        continue;
      }
      const std::string server = item.value("server", default_server());
      const std::string authorization = item.value("authorization", std::string());
      try {
        perform(server, item.at("tool").get<std::string>(), item.value("arguments", json::object()), authorization);
      } catch (const RequestTimeout& e) {
        // Cancelled unanswered: the server may or may not have acted. Sending it again would be a
        // new call, which a confirmed call must not become without the user.
        std::cerr << "reference_client: " << item.dump() << ": " << e.what() << " (not sent again)\n";
      } catch (const TransportError& e) {
        // The connection is gone (the server exited, or ended its HTTP session): the next use of
        // the server connects again. That is still this session of ours, and what it carries
        // goes on: the data already in the context did not leave with the connection.
        std::cerr << "reference_client: " << item.dump() << ": " << e.what() << " (reconnecting at next use)\n";
        connections_.erase(connection_key(server, authorization));
        if (flags_.reconnect_clears) policy_ = std::make_unique<SessionPolicy>(config_);  // broken
      } catch (const std::exception& e) {
        std::cerr << "reference_client: " << item.dump() << ": " << e.what() << "\n";
      }
    }
    for (auto& [key, c] : connections_) c->transport->close();
    return 0;
  }

 private:
  // No task of ours (the official conformance suite's client scenarios give none): act as a plain
  // client would, connect, list and call every tool with arguments its input schema allows, under
  // the same policy.
  int run_plain() {
    const std::string server = default_server();
    Connection& c = connect(server);
    std::vector<std::pair<std::string, json>> calls;
    const char* scenario = std::getenv("MCP_CONFORMANCE_SCENARIO");
    const auto focal = c.tools.find("json_schema_2020_12_tool");
    const json listed_calls = context_.value("toolCalls", json());
    if (scenario && std::string_view(scenario) == "json-schema-2020-12-preservation" && focal != c.tools.end())
      // What a client keeps of a schema is what it hands back: the listing's, to the byte.
      calls.emplace_back("json_schema_echo", json{{"schema", focal->second.value("inputSchema", json::object())}});
    else if (listed_calls.is_array())  // the calls the suite's context lists, as given
      for (const auto& call : listed_calls) {
        if (call.is_object() && call.contains("name") && call["name"].is_string())
          calls.emplace_back(call["name"].get<std::string>(), call.value("arguments", json::object()));
      }
    else
      for (const auto& [name, tool] : c.tools)
        calls.emplace_back(name, example_arguments(tool.value("inputSchema", json())));
    int failures = 0;
    for (const auto& [name, arguments] : calls) {
      try {
        perform(server, name, arguments);
      } catch (const std::exception& e) {
        std::cerr << "reference_client: " << name << ": " << e.what() << "\n";
        ++failures;
      }
    }
    for (auto& [key, conn] : connections_) conn->transport->close();
    return failures ? 1 : 0;
  }

  // A value for each property: its default ("Clients SHOULD use default values to pre-populate
  // form fields", SEP-1034), else the first of its enum, else one of its type: 1 for numbers,
  // true, "x", an empty array or object.
  static json example_arguments(const json& schema) {
    json arguments = json::object();
    if (!schema.is_object() || !schema.contains("properties") || !schema["properties"].is_object()) return arguments;
    for (const auto& [name, property] : schema["properties"].items()) {
      if (property.is_object() && property.contains("default")) {
        arguments[name] = property["default"];
        continue;
      }
      if (property.is_object() && property.contains("enum") && property["enum"].is_array() &&
          !property["enum"].empty()) {
        arguments[name] = property["enum"].front();
        continue;
      }
      const std::string type = property.is_object() && property.contains("type") && property["type"].is_string()
                                   ? property["type"].get<std::string>()
                                   : "string";
      arguments[name] = type == "number" || type == "integer" ? json(1)
                        : type == "boolean"                   ? json(true)
                        : type == "array"                     ? json::array()
                        : type == "object"                    ? json::object()
                                                              : json("x");
    }
    return arguments;
  }

  std::string default_server() const {
    const json servers = context_.value("servers", json::object());
    return servers.empty() ? "main" : servers.begin().key();
  }

  // The timeout the scenario asks calls to be given (requestTimeoutMs), else the session's own.
  std::optional<std::chrono::milliseconds> call_timeout() const {
    const auto timeout = context_.find("requestTimeoutMs");
    if (timeout == context_.end() || !timeout->is_number_integer()) return std::nullopt;
    return std::chrono::milliseconds(std::max<long long>(1, timeout->get<long long>()));
  }

  static std::string connection_key(const std::string& server, const std::string& authorization) {
    return server + '\n' + authorization;
  }

  // One connection per server and authorization context: a credential belongs to a connection
  // (over stdio, to the server process's environment).
  Connection& connect(const std::string& server, const std::string& authorization = {}) {
    const std::string key = connection_key(server, authorization);
    if (auto it = connections_.find(key); it != connections_.end()) return *it->second;
    auto c = std::make_unique<Connection>();
    c->server = server;
    c->authorization = authorization;
    const std::string credential = authorization.empty() ? std::string() : "Bearer " + token_of(authorization);
    const json spec = context_.value("servers", json::object()).value(server, json::object());
    std::string url = spec.value("url", std::string());
    std::string command = spec.value("command", std::string());
    if (url.empty() && command.empty()) {
      url = fallback_url_;
      if (const char* env = std::getenv("MCP_HINTS_SERVER_COMMAND"); url.empty() && env) command = env;
    }
    if (!url.empty()) {
      c->over_http = true;
      c->transport =
          make_http_transport(url, {}, credential.empty() ? HttpHeaders{} : HttpHeaders{{"Authorization", credential}});
    } else if (!command.empty()) {
      ProcessOptions process;
      // As the adapter contract says, /bin/sh runs it; a command of plain words needs no shell.
      if (auto words = mcp_hints::direct_argv(command))
        process.argv = std::move(*words);
      else
        process.argv = {"/bin/sh", "-c", "exec " + command};
      if (!credential.empty()) process.env = {{"MCP_HINTS_AUTHORIZATION", credential}};
      c->transport = std::make_unique<StdioTransport>(process);
    } else {
      throw std::runtime_error("no URL, command or MCP_HINTS_SERVER_COMMAND for server " + server);
    }
    ClientOptions options;
    options.client_name = "mcp-hints-reference-client";
    // The revision under test, as the official suite and certify name it; else negotiated.
    if (const char* version = std::getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"))
      if (auto choice = parse_protocol_choice(version)) options.protocol = *choice;
    // It answers form elicitations in either era: in the session era as requests the server makes
    // during a call (on the call's stream or the standalone one), in the stateless era as an
    // input_required result's inputRequests.
    if (!flags_.no_elicitation) options.capabilities = {{"elicitation", {{"form", json::object()}}}};
    options.listen_during_requests = true;  // a server may ask on its standalone stream, too
    options.answer_server_request = [this, server](const json& request) -> std::optional<json> {
      // --no-elicitation: what it did not declare, it does not answer
      if (flags_.no_elicitation || request.value("method", std::string()) != "elicitation/create") return std::nullopt;
      const json params = request.value("params", json::object());
      if (params.is_object() && params.value("mode", std::string("form")) != "form")
        return json{{"action", "decline"}};  // only form mode is declared
      return answer_elicitation(server, calling_tool_, request.value("id", json()).dump(), params);
    };
    c->session = std::make_unique<McpClientSession>(*c->transport, options);
    sync_annotations(*c);                      // the stateless era's server/discover is a later request too
    const auto hello = c->session->connect();  // the stateless era where the server speaks it, else initialize
    // The stateless era announces a changed catalog only on a subscriptions/listen stream: held
    // beside the calls where the server says it will announce. After a reconnection this is the
    // new connection's, sent again ("the client MUST re-send subscriptions/listen", subscriptions).
    const json* list_changed = find_member(hello.capabilities, {"tools", "listChanged"});
    if (hello.era == ProtocolEra::stateless && list_changed && *list_changed == true && !flags_.no_subscription &&
        !(flags_.no_resubscription && subscribed_.count(key)))
      c->session->hold_subscription({{"toolsListChanged", true}});
    subscribed_.insert(key);
    if (!reuse_shared_listing(*c)) list(*c);
    // Broken: cancels its first request (long answered, which the text allows) with a reason that
    // is no string.
    if (flags_.malformed_cancel) c->session->notify("notifications/cancelled", json{{"requestId", 1}, {"reason", 408}});
    return *connections_.emplace(key, std::move(c)).first->second;
  }

  std::string token_of(const std::string& authorization) const {
    const json* token = nullptr;
    if (const auto all = context_.find("authorizations"); all != context_.end() && all->is_object())
      if (const auto one = all->find(authorization); one != all->end() && one->is_object() && one->contains("token"))
        token = &(*one)["token"];
    if (!token || !token->is_string())
      throw std::runtime_error("the context has no token for the authorization context " + authorization);
    return token->get<std::string>();
  }

  // A gateway's listing cache across authorization contexts (stateless era): a listing whose
  // cacheScope is public may serve every context while fresh; a private one only its own, which
  // its own connection holds.
  bool reuse_shared_listing(Connection& c) {
    if (c.authorization.empty()) return false;
    auto it = shared_listings_.find(c.server);
    if (it == shared_listings_.end() || !it->second.stale_at ||
        std::chrono::steady_clock::now() >= *it->second.stale_at)
      return false;
    c.tools = it->second.tools;
    c.stale_at = it->second.stale_at;
    return true;
  }

  void share_listing(const Connection& c, const ToolListing& listing) {
    if (c.authorization.empty() || !c.stale_at) return;
    bool is_public = !listing.pages.empty();
    for (const auto& page : listing.pages) is_public = is_public && page.value("cacheScope", json()) == "public";
    if (is_public || flags_.share_private_cache) shared_listings_[c.server] = {c.tools, c.stale_at};
  }

  // `relist`: listed again because the catalog changed or went stale.
  void list(Connection& c, bool relist = false) {
    if (relist && flags_.bare_relist)
      c.session->set_request_meta(json::object());  // broken: the relist goes without the annotations
    else
      sync_annotations(c);
    if (flags_.reuse_listing && !c.listed_before && first_listings_.count(c.server)) {
      c.tools = first_listings_[c.server];  // broken: an earlier session's listing, without asking this one
      c.listed_before = true;
      return;
    }
    c.listed_before = true;
    const bool first_page_only = relist && flags_.relist_first_page;
    const std::map<std::string, json> previous = c.tools;
    if (!first_page_only) c.tools.clear();  // --relist-first-page keeps the later pages' tools (broken)
    auto listing = first_page_only ? first_page(c) : c.session->list_tools();
    // Over Streamable HTTP in the stateless era, a tool whose x-mcp-header breaks SEP-2243's
    // constraints is left out, with a warning naming it and why (transports, 2026-07-28).
    const bool param_headers = c.over_http && c.session->era() == ProtocolEra::stateless;
    for (auto& tool : listing.tools) {
      if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string()) continue;
      if (param_headers)
        if (const auto why = invalid_param_headers(tool.value("inputSchema", json())); !why.empty()) {
          std::cerr << "reference_client: tools/list: leaves out " << tool["name"].get<std::string>() << ": " << why
                    << "\n";
          continue;
        }
      c.tools[tool["name"]] = tool;
    }
    if (flags_.keep_first_hints) keep_first_hints(c);
    if (flags_.merge_relisted_hints) merge_hints(c, previous);
    for (const auto& [name, tool] : c.tools) tools_by_name_[name] = tool;  // --tools-by-name only
    // In the stateless era a listing is fresh for its ttlMs (none: not at all).
    c.stale_at.reset();
    c.ttl = std::chrono::milliseconds(listing.ttl_ms().value_or(0)) * (flags_.ttl_in_seconds ? 1000 : 1);
    if (c.session->era() == ProtocolEra::stateless) c.stale_at = std::chrono::steady_clock::now() + c.ttl;
    c.list_changes_seen = c.session->notification_count("notifications/tools/list_changed");
    share_listing(c, listing);
    if (flags_.reuse_listing) first_listings_.emplace(c.server, c.tools);
  }

  // --relist-first-page: the first page alone, its nextCursor ignored (broken).
  static ToolListing first_page(Connection& c) {
    ToolListing listing;
    json page = c.session->request("tools/list", json::object());
    if (page.is_object() && page.contains("tools") && page["tools"].is_array())
      listing.tools = page["tools"].get<std::vector<json>>();
    if (page.is_object()) page.erase("tools");
    listing.pages.push_back(std::move(page));
    return listing;
  }

  // --merge-relisted-hints: a relisted tool's hints laid over those it had (broken).
  static void merge_hints(Connection& c, const std::map<std::string, json>& previous) {
    for (auto& [name, tool] : c.tools) {
      const auto before = previous.find(name);
      if (before == previous.end()) continue;
      for (const char* where : {"annotations", "_meta"}) {
        if (!before->second.contains(where) || !before->second[where].is_object()) continue;
        json merged = before->second[where];
        if (tool.contains(where) && tool[where].is_object()) merged.update(tool[where]);
        tool[where] = merged;
      }
    }
  }

  // --first-member-only: each list-valued hint cut to its first member (broken).
  static json first_members(json value) {
    if (value.is_array() && value.size() > 1) value.erase(value.begin() + 1, value.end());
    if (value.is_object() || value.is_array())
      for (auto& member : value) member = first_members(member);
    return value;
  }

  // --string-sensitivity-only: every sensitivity member, or member of a sensitivity list, that is
  // an object ({"regulated": {"scopes": [...]}}) dropped as if unknown (broken).
  static json string_sensitivities(json value) {
    if (value.is_array())
      for (auto& member : value) member = string_sensitivities(member);
    if (!value.is_object()) return value;
    for (auto it = value.begin(); it != value.end();) {
      json& member = it.value();
      if (it.key() == "sensitivity" || it.key() == "Sensitivity") {
        if (member.is_array())
          member.erase(std::remove_if(member.begin(), member.end(), [](const json& m) { return m.is_object(); }),
                       member.end());
        if (member.is_object() || (member.is_array() && member.empty())) {
          it = value.erase(it);
          continue;
        }
      } else {
        member = string_sensitivities(member);
      }
      ++it;
    }
    return value;
  }

  // The policy whose sensitive context gates a call: the session's, or with --per-server-taint
  // (broken) one per server, which sees only that server's results.
  SessionPolicy& taint_policy(const std::string& server) {
    if (!flags_.per_server_taint) return *policy_;
    auto& own = server_policies_[server];
    if (!own) own = std::make_unique<SessionPolicy>(config_);
    return *own;
  }

  // --block-overrides-result: a content block's "sensitive: false" taken over its result's claim,
  // so nothing in the result says sensitive (broken: a block may strengthen, never weaken).
  static json blocks_override(json result) {
    const std::string key(kTrustAnnotationsExtension);
    bool weakened = false;
    if (result.is_object() && result.contains("content") && result["content"].is_array())
      for (const auto& block : result["content"])
        if (const json* trust = find_member(block, {"_meta", key}); trust && trust->is_object())
          weakened = weakened || trust->value("sensitive", json()) == false;
    if (!weakened) return result;
    if (json* trust = result.is_object() && result.contains("_meta") ? &result["_meta"] : nullptr;
        trust && trust->is_object() && trust->contains(key) && (*trust)[key].is_object())
      (*trust)[key].erase("sensitive");
    for (auto& block : result["content"])
      if (block.is_object() && block.contains("_meta") && block["_meta"].is_object() && block["_meta"].contains(key) &&
          block["_meta"][key].is_object())
        block["_meta"][key].erase("sensitive");
    return result;
  }

  // --keep-first-hints: each tool keeps the hints it was first listed with (broken).
  void keep_first_hints(Connection& c) {
    for (auto& [name, tool] : c.tools) {
      auto [first, added] = first_hints_.emplace(c.server + "\n" + name, tool);
      if (added) continue;
      for (const char* where : {"annotations", "_meta"}) {
        if (first->second.contains(where))
          tool[where] = first->second[where];
        else
          tool.erase(where);
      }
    }
  }

  // #711: what the session has seen rides on every later request, to every server.
  void sync_annotations(Connection& c, const json& progress_token = json()) {
    json meta = json::object();
    json annotations = policy_->request_annotations();
    if (flags_.latest_level && annotations.contains("sensitiveHint") && !latest_sensitivity_.is_null())
      annotations["sensitiveHint"] = latest_sensitivity_;  // broken: the latest, not the highest
    if (flags_.per_server_propagation && !annotating_servers_.count(c.server))
      annotations = json::object();                               // broken: only the servers whose results set them
    for (const auto& [key, value] : leaked_annotations_.items())  // --clear-sensitivity-only
      if (!annotations.contains(key)) annotations[key] = value;
    if (flags_.carry_from_medium && annotations.value("sensitiveHint", json()) == "low")
      annotations.erase("sensitiveHint");  // broken: the lowest level goes uncarried
    if (!flags_.drop_propagation && !annotations.empty()) meta["annotations"] = annotations;
    if (!progress_token.is_null()) meta["progressToken"] = progress_token;
    c.session->set_request_meta(meta);
  }

  // What only the broken propagation variants need: the latest sensitiveHint, and which servers
  // set any annotation.
  void note_result_annotations(const std::string& server, const json& result) {
    const json annotations =
        result.is_object() ? result.value("_meta", json::object()).value("annotations", json()) : json();
    if (!annotations.is_object() || annotations.empty()) return;
    annotating_servers_.insert(server);
    if (annotations.contains("sensitiveHint")) latest_sensitivity_ = annotations["sensitiveHint"];
  }

  // tools/call, and in the stateless era the retries an input_required result asks for: each of
  // its elicitations is shown to the user, whose answer (accept or decline) goes back with the
  // requestState. The answer is the user's, never the client's own.
  json call_answering_input(Connection& c, const std::string& server, const std::string& tool, const json& arguments) {
    calling_tool_ = tool;  // what a session-era elicitation during the call is about
    json params = {{"name", tool}, {"arguments", arguments}};
    for (int round = 1;; ++round) {
      json result = flags_.no_param_headers || flags_.no_mcp_name
                        ? bare_call(c, params)
                        : c.session->request("tools/call", params, call_timeout());
      if (result_type(result) != "input_required") return result;
      if (round > 3) throw std::runtime_error(tool + " still asks for input after 3 answers");
      const json requests = result.value("inputRequests", json::object());
      json responses = json::object();
      for (const auto& [key, request] : requests.items()) {
        if (flags_.no_elicitation || !request.is_object() || request.value("method", "") != "elicitation/create")
          throw std::runtime_error(tool + " asks for " + request.value("method", std::string("?")) +
                                   ", which this client cannot answer");
        // --reuse-input-answer: the first answer given for every request (broken)
        responses[key] = flags_.reuse_input_answer && !responses.empty()
                             ? responses.begin().value()
                             : answer_elicitation(server, tool, key, request.value("params", json::object()));
      }
      if (flags_.bare_input_retry) c.session->set_request_meta(json::object());  // broken: no annotations
      params = {{"name", tool}, {"arguments", arguments}};
      if (!responses.empty()) params["inputResponses"] = responses;
      if (result.contains("requestState")) params["requestState"] = result["requestState"];
    }
  }

  // --no-param-headers, --no-mcp-name (broken): the call as a probe, which mirrors no parameter in
  // headers, only what the transport adds to every request (less Mcp-Name, if so).
  json bare_call(Connection& c, json params) {
    params["_meta"] = c.session->protocol_meta();
    Transport::HeaderOverrides drop;
    if (flags_.no_mcp_name) drop.emplace_back("Mcp-Name", std::nullopt);
    const auto answer =
        c.session->probe("tools/call", params, std::move(drop), call_timeout().value_or(std::chrono::seconds(10)));
    if (answer.error) throw std::runtime_error("tools/call failed with error " + answer.error->dump());
    if (!answer.result) throw std::runtime_error("no answer to tools/call in time");
    return *answer.result;
  }

  json answer_elicitation(const std::string& server, const std::string& tool, const std::string& key,
                          const json& request) {
    const json schema = request.value("requestedSchema", json::object());
    if (flags_.auto_answer_input) return {{"action", "accept"}, {"content", example_arguments(schema)}};
    const std::string message = request.value("message", std::string());
    events_.emit({{"type", "confirmation_requested"},
                  {"server", server},
                  {"tool", tool},
                  {"input", key},
                  {"message", message},
                  {"hints", json::array()},
                  {"reasons", json::array({"the server asks: " + message})}});
    const std::string answer = user_.decide(tool);
    events_.emit({{"type", "user_decision"}, {"server", server}, {"tool", tool}, {"decision", answer}});
    if (answer != "approve") return {{"action", "decline"}};
    return {{"action", "accept"}, {"content", example_arguments(schema)}};
  }

  // Asks the user as often as the decision says; true when every answer approves.
  bool confirm(const std::string& server, const std::string& tool, const ToolHints& hints, const Decision& decision) {
    json shown = json::array();
    for (const auto& claim : hints.claims)
      if (!claim.defaulted) shown.push_back(describe_source(claim.source));
    bool approved = true;
    for (int i = 0; i < std::max(1, decision.confirmations); ++i) {
      events_.emit({{"type", "confirmation_requested"},
                    {"server", server},
                    {"tool", tool},
                    {"hints", shown},
                    {"reasons", decision.reasons}});
      const std::string answer = user_.decide(tool);
      events_.emit({{"type", "user_decision"}, {"server", server}, {"tool", tool}, {"decision", answer}});
      if (answer != "approve") {
        approved = false;
        if (!flags_.nag_after_denial) break;
      }
    }
    return approved || flags_.ignore_denial;
  }

  // The policy's decision, carried out; true when the call may go ahead.
  bool gate(const std::string& server, const std::string& tool, const ToolHints& hints) {
    Decision decision = taint_policy(server).before_call(hints);
    if (flags_.trust_missing_hints && hints.asserted("effect").empty()) decision = Decision{};
    if (flags_.never_prompt) return true;
    if (flags_.prompt_always && decision.action == Decision::Action::allow) {
      decision.action = Decision::Action::confirm;
      decision.confirmations = 1;
      decision.reasons.push_back("this client asks before every call");
    }
    if (flags_.agency_when_missing && decision.action == Decision::Action::allow && !hints.asserting("agency", false)) {
      decision.action = Decision::Action::confirm;
      decision.confirmations = 1;
      decision.reasons.push_back("it may be agentic (no agencyHint says otherwise)");
    }
    if (flags_.refuse_confirmable && decision.action == Decision::Action::confirm) {
      decision.action = Decision::Action::block;
      decision.reasons.push_back("this client refuses what it would otherwise ask about");
    }
    if (decision.action == Decision::Action::block) {
      events_.emit({{"type", "blocked"},
                    {"server", server},
                    {"tool", tool},
                    {"reason", decision.reasons.empty() ? "" : decision.reasons.back()}});
      return false;
    }
    if (decision.action == Decision::Action::confirm) return confirm(server, tool, hints, decision);
    return true;
  }

  void perform(const std::string& server, const std::string& tool, const json& arguments,
               const std::string& authorization = {}) {
    Connection& c = connect(server, authorization);
    events_.acting_for(authorization);
    c.session->poll();  // what the subscription brought meanwhile
    if (!flags_.ignore_list_changed &&
        (c.session->notification_count("notifications/tools/list_changed") > c.list_changes_seen ||
         (c.stale_at && std::chrono::steady_clock::now() >= *c.stale_at)))
      list(c, true);
    if (flags_.ttl_from_use && c.stale_at)
      c.stale_at = std::chrono::steady_clock::now() + c.ttl;  // broken: fresh again on every use
    auto it = c.tools.find(tool);
    if (it == c.tools.end()) throw std::runtime_error("the server lists no tool " + tool);
    json tool_json = it->second;                                 // a relist below must not pull it from under us
    if (flags_.tools_by_name) tool_json = tools_by_name_[tool];  // broken: whichever server was listed last
    if (flags_.closed_world_by_default && tool_json.contains("annotations") && tool_json["annotations"].is_object() &&
        !tool_json["annotations"].contains("openWorldHint"))
      tool_json["annotations"]["openWorldHint"] = false;  // broken: the default is open world
    if (flags_.first_member_only)
      for (const char* where : {"annotations", "_meta"})
        if (tool_json.contains(where)) tool_json[where] = first_members(tool_json[where]);
    if (flags_.string_sensitivity_only)
      for (const char* where : {"annotations", "_meta"})
        if (tool_json.contains(where)) tool_json[where] = string_sensitivities(tool_json[where]);
    // Hints are read the same whatever revision the session negotiated: the tool annotations are
    // the same in every revision that has them, and a server of an older revision that sends
    // hints anyway is taken at its word.
    const ToolHints hints = read_tool_hints(tool_json, Vocabulary::builtin(), kDefaultSpecRevision);
    if (!gate(server, tool, hints)) return;
    for (int attempt = 1;; ++attempt) {
      // Ask for progress, and show what comes (a client that never involves the user does not).
      const json token = "call-" + std::to_string(++calls_);
      sync_annotations(c, flags_.never_prompt ? json() : token);
      const std::size_t before = c.session->notification_count("notifications/progress");
      try {
        const json result = call_answering_input(c, server, tool, arguments);
        if (const auto n = c.session->notification_count("notifications/progress") - before; n > 0)
          events_.emit({{"type", "progress_shown"}, {"server", server}, {"tool", tool}, {"progress", n}});
        // --absence-as-false: the extension's annotation without a sensitive claim taken as an
        // asserted false, so the tool's own declaration of what it returns no longer counts.
        const json* trust = find_member(result, {"_meta", std::string(kTrustAnnotationsExtension)});
        const bool claims_nothing = trust && trust->is_object() && !trust->contains("sensitive");
        const bool skipped = flags_.skip_error_results && result.is_object() && result.value("isError", false);
        if (!skipped) {  // --skip-error-results: an error's annotations go unread (broken)
          const json read = flags_.block_overrides_result ? blocks_override(result) : result;
          const ToolHints& declared = flags_.absence_as_false && claims_nothing ? ToolHints{} : hints;
          policy_->after_result(declared, read);
          if (flags_.per_server_taint) taint_policy(server).after_result(declared, read);
          note_result_annotations(server, result);
        }
        for (const auto& why : policy_->take_escalations())
          if (!flags_.never_prompt)
            events_.emit({{"type", "escalated"},
                          {"server", server},
                          {"tool", tool},
                          {"what", "malicious activity"},
                          {"why", why}});
        return;
      } catch (const RequestTimeout&) {
        if (!flags_.resend_on_timeout || attempt > 1) throw;
        continue;  // broken: the same call again, its one confirmation spent on the first
      } catch (const ProtocolError& e) {
        const json* transient = e.error.is_object() && e.error.contains("data") && e.error["data"].is_object() &&
                                        e.error["data"].contains("transient")
                                    ? &e.error["data"]["transient"]
                                    : nullptr;
        if (!transient || *transient != true) throw;
        if (flags_.retry_anything) {
          if (attempt >= 10) throw;
          events_.emit(
              {{"type", "retry"}, {"server", server}, {"tool", tool}, {"attempt", attempt + 1}, {"delayMs", 0}});
          continue;  // resent at once, whatever the tool is and whatever was approved
        }
        if (!policy_->may_retry(hints, attempt)) throw;
        // Backoff, and never sooner than the server asked.
        const json* asked = e.error["data"].contains("retryAfterMs") ? &e.error["data"]["retryAfterMs"] : nullptr;
        const int delay_ms = std::max(
            10 * attempt, asked && asked->is_number_integer() && *asked > 0 && *asked <= 60000 ? asked->get<int>() : 0);
        if (!flags_.silent_retries)
          events_.emit(
              {{"type", "retry"}, {"server", server}, {"tool", tool}, {"attempt", attempt + 1}, {"delayMs", delay_ms}});
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        if (!gate(server, tool, hints)) return;  // a confirmed call is confirmed again
      }
    }
  }

  json context_;
  Flags flags_;
  Events events_;
  ScriptedUser user_;
  std::string fallback_url_;
  PolicyConfig config_;
  std::unique_ptr<SessionPolicy> policy_;
  std::map<std::string, std::unique_ptr<Connection>> connections_;
  std::map<std::string, std::map<std::string, json>> first_listings_;  // by server; --reuse-listing only
  struct SharedListing {
    std::map<std::string, json> tools;
    std::optional<std::chrono::steady_clock::time_point> stale_at;
  };
  std::map<std::string, SharedListing> shared_listings_;  // by server: listings any context may use
  long long calls_ = 0;
  std::string calling_tool_;                   // the tool of the call under way
  std::map<std::string, json> first_hints_;    // by server and tool; --keep-first-hints only
  json latest_sensitivity_;                    // --latest-level only
  std::set<std::string> annotating_servers_;   // --per-server-propagation only
  std::map<std::string, json> tools_by_name_;  // the last listing of each name; --tools-by-name only
  json leaked_annotations_ = json::object();   // --clear-sensitivity-only
  std::map<std::string, std::unique_ptr<SessionPolicy>> server_policies_;  // --per-server-taint only
  std::set<std::string> subscribed_;  // connections made so far in the session; --no-resubscription only
};

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  std::string url;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::cout << kHelp;
      return 0;
    }
    if (a == "--never-prompt")
      flags.never_prompt = true;
    else if (a == "--ignore-denial")
      flags.ignore_denial = true;
    else if (a == "--absence-as-false")
      flags.absence_as_false = true;
    else if (a == "--agency-when-missing")
      flags.agency_when_missing = true;
    else if (a == "--drop-propagation")
      flags.drop_propagation = true;
    else if (a == "--retry-anything")
      flags.retry_anything = true;
    else if (a == "--ignore-list-changed")
      flags.ignore_list_changed = true;
    else if (a == "--trust-missing-hints")
      flags.trust_missing_hints = true;
    else if (a == "--prompt-always")
      flags.prompt_always = true;
    else if (a == "--leak-across-sessions")
      flags.leak_across_sessions = true;
    else if (a == "--taint-high-only")
      flags.taint_high_only = true;
    else if (a == "--events-in-ms")
      flags.events_in_ms = true;
    else if (a == "--silent-retries")
      flags.silent_retries = true;
    else if (a == "--reuse-listing")
      flags.reuse_listing = true;
    else if (a == "--nag-after-denial")
      flags.nag_after_denial = true;
    else if (a == "--auto-answer-input")
      flags.auto_answer_input = true;
    else if (a == "--keep-first-hints")
      flags.keep_first_hints = true;
    else if (a == "--ttl-in-seconds")
      flags.ttl_in_seconds = true;
    else if (a == "--latest-level")
      flags.latest_level = true;
    else if (a == "--per-server-propagation")
      flags.per_server_propagation = true;
    else if (a == "--malformed-cancel")
      flags.malformed_cancel = true;
    else if (a == "--share-private-cache")
      flags.share_private_cache = true;
    else if (a == "--refuse-confirmable")
      flags.refuse_confirmable = true;
    else if (a == "--relist-first-page")
      flags.relist_first_page = true;
    else if (a == "--tools-by-name")
      flags.tools_by_name = true;
    else if (a == "--merge-relisted-hints")
      flags.merge_relisted_hints = true;
    else if (a == "--skip-error-results")
      flags.skip_error_results = true;
    else if (a == "--clear-sensitivity-only")
      flags.clear_sensitivity_only = true;
    else if (a == "--bare-relist")
      flags.bare_relist = true;
    else if (a == "--first-member-only")
      flags.first_member_only = true;
    else if (a == "--closed-world-by-default")
      flags.closed_world_by_default = true;
    else if (a == "--carry-from-medium")
      flags.carry_from_medium = true;
    else if (a == "--reuse-input-answer")
      flags.reuse_input_answer = true;
    else if (a == "--no-param-headers")
      flags.no_param_headers = true;
    else if (a == "--no-mcp-name")
      flags.no_mcp_name = true;
    else if (a == "--no-subscription")
      flags.no_subscription = true;
    else if (a == "--no-elicitation")
      flags.no_elicitation = true;
    else if (a == "--no-resubscription")
      flags.no_resubscription = true;
    else if (a == "--bare-input-retry")
      flags.bare_input_retry = true;
    else if (a == "--ttl-from-use")
      flags.ttl_from_use = true;
    else if (a == "--per-server-taint")
      flags.per_server_taint = true;
    else if (a == "--block-overrides-result")
      flags.block_overrides_result = true;
    else if (a == "--reconnect-clears")
      flags.reconnect_clears = true;
    else if (a == "--resend-on-timeout")
      flags.resend_on_timeout = true;
    else if (a == "--string-sensitivity-only")
      flags.string_sensitivity_only = true;
    else if (a.rfind("http://", 0) == 0 || a.rfind("https://", 0) == 0)
      url = a;
    else {
      std::cerr << "reference_client: unknown argument '" << a << "' (try --help)\n";
      return 2;
    }
  }
  json context = json::object();
  if (const char* text = std::getenv("MCP_CONFORMANCE_CONTEXT")) {
    try {
      context = json::parse(text);
    } catch (const json::exception& e) {
      std::cerr << "reference_client: MCP_CONFORMANCE_CONTEXT is not JSON: " << e.what() << "\n";
      return 2;
    }
  }
  if (!context.is_object()) {
    std::cerr << "reference_client: MCP_CONFORMANCE_CONTEXT is not a JSON object\n";
    return 2;
  }
  try {
    return Client(std::move(context), flags, url).run();
  } catch (const std::exception& e) {
    std::cerr << "reference_client: " << e.what() << "\n";
    return 1;
  }
}
