#include "mcp_hints/wire/mcp_client.hpp"

#include <algorithm>
#include <set>

#include "mcp_hints/json/member.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/json/version.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/param_headers.hpp"

namespace mcp_hints {

using json = nlohmann::json;

McpClientSession::McpClientSession(Transport& transport, ClientOptions options)
    : transport_(transport), options_(std::move(options)) {
  // Over HTTP a request on a POST's stream is answered while the stream is read: seen and answered
  // as one that receive() hands over. The transport may outlive the session: it then answers that
  // no session is there.
  transport_.set_server_request_answerer([self = std::weak_ptr<McpClientSession*>(self_)](const json& request) {
    const auto session = self.lock();
    if (!session)
      return jsonrpc::error(request.value("id", json()), jsonrpc::internal_error, "the client session has ended");
    McpClientSession& s = **session;
    if (s.observer_) s.observer_(request, Direction::server_to_client);
    json answer = s.answer_to(request);
    if (s.observer_) s.observer_(answer, Direction::client_to_server);
    return answer;
  });
  transport_.listen_during_requests(options_.listen_during_requests);
}

void McpClientSession::send(const json& message, Deadline deadline) {
  if (observer_) observer_(message, Direction::client_to_server);
  transport_.send(message, deadline);
}

void McpClientSession::notify(const std::string& method, const std::optional<json>& params) {
  send(jsonrpc::notification(method, params), Clock::now() + options_.request_timeout);
}

// "When the request has not received a success or error response within the timeout period, the
// sender SHOULD issue a cancellation notification for that request" (lifecycle, 2025-11-25). In the
// stateless era over HTTP the request's own stream, closed at its deadline, is the cancellation.
void McpClientSession::cancel_timed_out(long long id) {
  if (era_ == ProtocolEra::stateless && transport_.stream_per_request()) return;
  try {
    send(jsonrpc::notification("notifications/cancelled", json{{"requestId", id}, {"reason", "timed out"}}),
         Clock::now() + std::chrono::milliseconds(500));
  } catch (const Error&) {
    // the server is gone or not reading: the timeout is what the caller learns
  }
}

std::optional<json> McpClientSession::receive(Deadline deadline) {
  auto message = transport_.receive(deadline);
  if (message && observer_) observer_(*message, Direction::server_to_client);
  return message;
}

void McpClientSession::speak(ProtocolEra era, const std::string& version) {
  era_ = era;
  protocol_version_ = version;
  transport_.set_protocol_version(version);
}

json McpClientSession::protocol_meta() const {
  if (era_ != ProtocolEra::stateless) return json::object();
  return {{kProtocolVersionMeta, protocol_version_},
          {kClientCapabilitiesMeta, options_.capabilities},
          {kClientInfoMeta, {{"name", options_.client_name}, {"version", kVersion}}}};
}

// Every request is answered, so that the server never waits on us.
json McpClientSession::answer_to(const json& request) {
  if (server_requests_.size() < kKeptMessages) server_requests_.push_back(request);
  std::optional<json> result;
  if (request["method"] == "ping")
    result = json::object();
  else if (options_.answer_server_request)
    result = options_.answer_server_request(request);
  return result ? jsonrpc::result(request["id"], std::move(*result))
                : jsonrpc::error(request["id"], jsonrpc::method_not_found,
                                 "mcp-hints does not support " + request["method"].get<std::string>());
}

namespace {

// The subscriptionId a message names in params._meta; nullptr when it names none.
const json* find_subscription_tag(const json& message) {
  const json* params = member(message, "params");
  const json* meta = params ? member(*params, "_meta") : nullptr;
  return meta ? member(*meta, kSubscriptionIdMeta) : nullptr;
}

}  // namespace

void McpClientSession::handle_unsolicited(const json& message) {
  switch (jsonrpc::classify(message)) {
    case jsonrpc::Kind::notification:
      if (!held_id_.is_null() && message["method"] == "notifications/subscriptions/acknowledged")
        if (const json* tag = find_subscription_tag(message); tag && *tag == held_id_) held_acknowledged_ = true;
      count_notification(message);
      break;
    case jsonrpc::Kind::request: send(answer_to(message), Clock::now() + options_.request_timeout); break;
    case jsonrpc::Kind::result:
    case jsonrpc::Kind::error:
      // The answer to the held subscriptions/listen: the server ended it.
      if (!held_id_.is_null() && message["id"] == held_id_ && !held_ended_) {
        held_ended_ = true;
        held_end_ = message.contains("error") ? "the server refused it: " + shown(message["error"], 200)
                                              : "the server ended it";
      }
      break;
    default: break;  // a stray response or a malformed message: nothing waits for it
  }
}

std::optional<json> McpClientSession::with_meta(const std::optional<json>& params) const {
  std::optional<json> sent = params;
  const json protocol = protocol_meta();
  if (!request_meta_.empty() || !protocol.empty()) {
    if (!sent || !sent->is_object()) sent = json::object();
    json& meta = (*sent)["_meta"];
    if (!meta.is_object()) meta = json::object();
    meta.update(request_meta_);
    meta.update(protocol);  // the protocol's own keys are never the caller's to change
  }
  return sent;
}

SubscriptionWindow McpClientSession::listen(const json& filter, std::chrono::milliseconds window) {
  Deadline deadline = Clock::now() + window;
  if (options_.run_deadline && *options_.run_deadline < deadline) deadline = *options_.run_deadline;
  SubscriptionWindow seen;
  seen.id = next_id_++;
  try {
    // Over HTTP the stream is read here, until the window closes it.
    send(jsonrpc::request(seen.id, "subscriptions/listen", with_meta(json{{"notifications", filter}})), deadline);
  } catch (const RequestTimeout&) {
    return seen;  // nothing came on the stream in the window (its closing ended the subscription)
  }
  while (auto message = receive(deadline)) {
    const auto kind = jsonrpc::classify(*message);
    if ((kind == jsonrpc::Kind::result || kind == jsonrpc::Kind::error) && (*message)["id"] == seen.id) {
      seen.answer = std::move(*message);
      return seen;  // the server ended it
    }
    // Over stdio every subscription shares the channel: what names another is not this stream's.
    const json* tag = find_subscription_tag(*message);
    if (kind == jsonrpc::Kind::notification && (transport_.stream_per_request() || !tag || *tag == seen.id))
      seen.messages.push_back(*message);
    handle_unsolicited(*message);
  }
  // stdio has no stream of its own to close.
  if (!transport_.stream_per_request()) try {
      notify("notifications/cancelled", json{{"requestId", seen.id}});
    } catch (const TransportError&) {
      // a server gone has no subscription left to end
    }
  return seen;
}

json McpClientSession::hold_subscription(const json& filter) {
  release_subscription();
  held_id_ = next_id_++;
  held_acknowledged_ = held_ended_ = false;
  const json request = jsonrpc::request(held_id_, "subscriptions/listen", with_meta(json{{"notifications", filter}}));
  if (observer_) observer_(request, Direction::client_to_server);
  Deadline deadline = Clock::now() + options_.request_timeout;
  if (options_.run_deadline && *options_.run_deadline < deadline) deadline = *options_.run_deadline;
  held_end_.clear();
  held_stream_ = transport_.hold_stream(request, [inbox = held_inbox_](json message) {
    {
      std::lock_guard lock(inbox->mutex);
      if (inbox->messages.size() >= kHeldBacklog) return false;
      inbox->messages.push_back(std::move(message));
    }
    inbox->arrived.notify_all();
    return true;
  });
  if (held_stream_) {
    while (!held_acknowledged_ && !held_ended_ && !held_stream_->ended() && Clock::now() < deadline) {
      {
        std::unique_lock lock(held_inbox_->mutex);
        // Woken by a delivery; a stream that ends delivers nothing, so its end is looked at often.
        held_inbox_->arrived.wait_until(lock, std::min(deadline, Clock::now() + std::chrono::milliseconds(20)),
                                        [&] { return !held_inbox_->messages.empty(); });
      }
      take_held_messages();
    }
    return held_id_;
  }
  // stdio: the request goes on the channel, and what it brings comes there among the rest.
  send(request, deadline);
  while (!held_acknowledged_ && !held_ended_)
    if (auto message = receive(deadline))
      handle_unsolicited(*message);
    else
      break;
  return held_id_;
}

void McpClientSession::release_subscription() {
  if (held_id_.is_null()) return;
  const json id = std::exchange(held_id_, json());
  if (held_stream_) {
    held_stream_.reset();  // closing the stream ends the subscription
    take_held_messages();  // what came before it closed
  } else if (!held_ended_) {
    try {
      notify("notifications/cancelled", json{{"requestId", id}});
    } catch (const TransportError&) {
      // a server gone has no subscription left to end
    }
  }
  held_ended_ = false;
  held_end_.clear();
}

bool McpClientSession::holding_subscription() {
  if (held_stream_ && held_stream_->ended() && !held_ended_) {
    held_ended_ = true;
    held_end_ = held_stream_->why_ended();
  }
  return !held_id_.is_null() && !held_ended_;
}

void McpClientSession::take_held_messages() {
  std::vector<json> taken;
  {
    std::lock_guard lock(held_inbox_->mutex);
    taken.swap(held_inbox_->messages);
  }
  for (auto& message : taken) {
    if (observer_) observer_(message, Direction::server_to_client);
    handle_unsolicited(message);
  }
}

void McpClientSession::poll() {
  take_held_messages();
  if (transport_.stream_per_request()) return;  // HTTP: nothing comes outside a request's stream
  while (auto message = receive(Clock::now())) handle_unsolicited(*message);
}

json McpClientSession::request(const std::string& method, const std::optional<json>& params,
                               std::optional<std::chrono::milliseconds> timeout) {
  return request_within(method, params, timeout.value_or(options_.request_timeout));
}

// SEP-2243 (2026-07-28): over Streamable HTTP, a tools/call mirrors its tool's x-mcp-header
// parameters in Mcp-Param headers; only the schemas that have any are kept from the listing.
void McpClientSession::remember_param_headers(const json& tool) {
  if (era_ != ProtocolEra::stateless || !transport_.stream_per_request() || !tool.is_object()) return;
  const auto name = tool.find("name"), schema = tool.find("inputSchema");  // read in place: no copy per tool
  if (name != tool.end() && name->is_string() && schema != tool.end() && has_param_headers(*schema))
    param_header_schemas_[name->get<std::string>()] = *schema;
}

json McpClientSession::request_within(const std::string& method, const std::optional<json>& params,
                                      std::chrono::milliseconds timeout) {
  if (method == "tools/call" && !param_header_schemas_.empty() && params && params->is_object() &&
      params->contains("name") && (*params)["name"].is_string())
    if (const auto tool = param_header_schemas_.find((*params)["name"].get<std::string>());
        tool != param_header_schemas_.end()) {
      Transport::HeaderOverrides headers;
      for (auto& [name, value] : param_headers(tool->second, params->value("arguments", json::object())))
        headers.emplace_back(std::move(name), std::move(value));
      transport_.override_next_headers(std::move(headers));
    }
  take_held_messages();  // what the held stream brought so far comes before this request's answer
  const long long id = next_id_++;
  Deadline deadline = Clock::now() + timeout;
  if (options_.run_deadline && *options_.run_deadline < deadline) deadline = *options_.run_deadline;
  const std::optional<json> sent = with_meta(params);
  // Not the probe of an unknown era: a legacy server that ignored it is not yet initialized, and
  // hears nothing more of it.
  const auto cancel = [&] {
    if (method != "server/discover" || options_.protocol.era != EraChoice::automatic) cancel_timed_out(id);
  };
  try {
    send(jsonrpc::request(id, method, sent), deadline);  // over HTTP the answer comes with it
  } catch (const RequestTimeout&) {
    cancel();
    throw;
  }
  for (;;) {
    auto message = receive(deadline);
    if (!message) {
      cancel();
      throw RequestTimeout("no answer to " + method + " in time" +
                           (transport_.noise_count()
                                ? " (the server wrote " + std::to_string(transport_.noise_count()) +
                                      " line(s) to stdout that are not JSON-RPC; first, " + transport_.first_noise() +
                                      ")"
                                : std::string()));
    }
    const auto kind = jsonrpc::classify(*message);
    const bool ours = message->is_object() && message->contains("id") && (*message)["id"] == id;
    if (ours && kind == jsonrpc::Kind::result) {
      result_duplicates_.clear();
      for (const auto& d : transport_.duplicate_members())
        if (d.pointer.starts_with("/result/")) {
          result_duplicates_.push_back(d);
          result_duplicates_.back().pointer.erase(0, std::string_view("/result").size());
        }
      return std::move((*message)["result"]);
    }
    if (ours && kind == jsonrpc::Kind::error) {
      const auto& e = (*message)["error"];
      throw ProtocolError(
          method + " failed with JSON-RPC error " + e["code"].dump() + ": " +
              (e.contains("message") && e["message"].is_string() ? e["message"].get<std::string>() : "(no message)"),
          e);
    }
    if (ours) throw ProtocolError("the answer to " + method + " is not a JSON-RPC response: " + shown(*message, 200));
    handle_unsolicited(*message);
  }
}

McpClientSession::ProbeAnswer McpClientSession::probe(const std::string& method, const json& params,
                                                      Transport::HeaderOverrides headers,
                                                      std::chrono::milliseconds timeout) {
  const long long id = next_id_++;
  Deadline deadline = Clock::now() + timeout;
  if (options_.run_deadline && *options_.run_deadline < deadline) deadline = *options_.run_deadline;
  transport_.override_next_headers(std::move(headers));
  send(jsonrpc::request(id, method, params), deadline);
  ProbeAnswer answer;
  while (auto message = receive(deadline)) {
    const bool ours = message->is_object() && message->contains("id") && (*message)["id"] == id;
    if (!ours) {
      handle_unsolicited(*message);
      continue;
    }
    const auto kind = jsonrpc::classify(*message);
    if (kind == jsonrpc::Kind::result) answer.result = std::move((*message)["result"]);
    if (kind == jsonrpc::Kind::error) answer.error = std::move((*message)["error"]);
    answer.http_status = transport_.last_http_status();
    return answer;
  }
  return answer;
}

namespace {

// From a -32022 error, the first stateless revision mcp-hints speaks that the server says it
// supports; empty when there is none (or the error is another).
std::string supported_stateless_version(const json& error) {
  if (!error.is_object() || error.value("code", 0) != unsupported_protocol_version || !error.contains("data") ||
      !error["data"].is_object() || !error["data"].contains("supported") || !error["data"]["supported"].is_array())
    return {};
  for (const auto& ours : stateless_protocol_versions())
    for (const auto& theirs : error["data"]["supported"])
      if (theirs == ours) return ours;
  return {};
}

}  // namespace

InitializeResult McpClientSession::connect() {
  if (options_.protocol.era == EraChoice::legacy) return initialize();
  if (options_.protocol.era == EraChoice::stateless) return discover();
  // Automatic: a server of the legacy era answers server/discover with an error (method not
  // found; over HTTP often a 4xx refusal of a request without a session) and is spoken to the
  // old way; one whose discover result lists no stateless revision we speak, likewise.
  std::string why;
  try {
    InitializeResult result = discover();
    if (result.era == ProtocolEra::stateless) return result;
    why = "its server/discover result lists no stateless revision mcp-hints speaks (" +
          join(result.supported_versions, ", ") + ")";
  } catch (const ProtocolError& e) {
    why = "it answered server/discover with an error (" + std::string(e.what()) + ")";
  } catch (const TransportError& e) {
    if (!transport_.alive()) throw;
    why = "server/discover was refused (" + std::string(e.what()) + ")";
  }
  speak(ProtocolEra::legacy, "");
  try {
    InitializeResult result = initialize();
    result.fallback_reason = why;
    return result;
  } catch (const ProtocolError& e) {
    // A server slower to answer server/discover than the probe allows (one still starting) that
    // refuses initialize with -32022 naming a stateless revision we speak has said which era it
    // speaks: asked again, it has the whole request timeout.
    if (supported_stateless_version(e.error).empty()) throw;
  }
  return discover(options_.request_timeout);
}

InitializeResult McpClientSession::discover() {
  return discover(options_.protocol.era == EraChoice::automatic
                      ? std::min(options_.request_timeout, options_.discover_probe_timeout)
                      : options_.request_timeout);
}

InitializeResult McpClientSession::discover(std::chrono::milliseconds timeout) {
  const std::string asked = options_.protocol.era == EraChoice::stateless && !options_.protocol.version.empty()
                                ? options_.protocol.version
                                : stateless_protocol_versions().front();
  speak(ProtocolEra::stateless, asked);
  json result;
  try {
    result = request_within("server/discover", json::object(), timeout);
  } catch (const ProtocolError& e) {
    // -32022 names the versions the server supports: one stateless revision we speak is worth
    // one more try (a server may refuse a first request whatever it names), none is not.
    const std::string retry = supported_stateless_version(e.error);
    if (retry.empty()) throw;
    speak(ProtocolEra::stateless, retry);
    result = request_within("server/discover", json::object(), timeout);
  }
  if (!result.is_object()) throw ProtocolError("the server/discover result is not an object");
  InitializeResult out;
  out.raw = result;
  out.era = ProtocolEra::stateless;
  if (!result.contains("supportedVersions") || !result["supportedVersions"].is_array())
    throw ProtocolError("the server/discover result has no supportedVersions array");
  for (const auto& v : result["supportedVersions"])
    if (v.is_string()) out.supported_versions.push_back(v.get<std::string>());
  const auto& ours = stateless_protocol_versions();
  auto listed = [&](const std::string& v) {
    return std::find(out.supported_versions.begin(), out.supported_versions.end(), v) != out.supported_versions.end();
  };
  if (listed(asked)) {
    out.protocol_version = asked;
  } else {
    for (const auto& v : ours)
      if (listed(v)) {
        out.protocol_version = v;
        break;
      }
  }
  if (out.protocol_version.empty()) {
    if (options_.protocol.era == EraChoice::stateless)
      throw ProtocolError("the server/discover result lists no stateless revision mcp-hints speaks (it lists " +
                          (out.supported_versions.empty() ? std::string("none") : join(out.supported_versions, ", ")) +
                          "; mcp-hints speaks " + join(ours, ", ") + ")");
    out.era = ProtocolEra::legacy;
    return out;
  }
  if (!result.contains("capabilities") || !result["capabilities"].is_object())
    throw ProtocolError("the server/discover result has no capabilities object");
  out.capabilities = result["capabilities"];
  if (result.contains("_meta") && result["_meta"].is_object())
    out.server_info = result["_meta"].value(kServerInfoMeta, json());
  speak(ProtocolEra::stateless, out.protocol_version);
  return out;
}

InitializeResult McpClientSession::initialize() {
  const std::string offered = options_.protocol.era == EraChoice::legacy && !options_.protocol.version.empty()
                                  ? options_.protocol.version
                                  : supported_protocol_versions().front();
  offered_version_ = offered;
  const json params = {{"protocolVersion", offered},
                       {"capabilities", options_.capabilities},
                       {"clientInfo", {{"name", options_.client_name}, {"version", kVersion}}}};
  json result = request("initialize", params);
  if (!result.is_object()) throw ProtocolError("the initialize result is not an object");
  InitializeResult out;
  out.raw = result;
  if (!result.contains("protocolVersion") || !result["protocolVersion"].is_string())
    throw ProtocolError("the initialize result has no protocolVersion string");
  out.protocol_version = result["protocolVersion"].get<std::string>();
  const auto& versions = supported_protocol_versions();
  if (std::find(versions.begin(), versions.end(), out.protocol_version) == versions.end())
    throw ProtocolError("the server chose protocol version " + out.protocol_version +
                        ", which mcp-hints does not speak (it offered 2025-11-25 and accepts 2025-06-18, "
                        "2025-03-26, 2024-11-05)");
  if (!result.contains("capabilities") || !result["capabilities"].is_object())
    throw ProtocolError("the initialize result has no capabilities object");
  out.capabilities = result["capabilities"];
  out.server_info = result.value("serverInfo", json());
  speak(ProtocolEra::legacy, out.protocol_version);
  send(jsonrpc::notification("notifications/initialized"), Clock::now() + options_.request_timeout);
  return out;
}

ToolListing McpClientSession::list_tools() {
  ToolListing listing;
  std::optional<std::string> cursor;
  std::set<std::string> seen_cursors;
  const std::size_t bytes_before = transport_.bytes_received();
  for (std::size_t page = 1;; ++page) {
    if (page > options_.max_pages) {
      listing.complete = false;
      listing.incomplete_reason =
          "tools/list still had a nextCursor after " + std::to_string(options_.max_pages) + " pages";
      return listing;
    }
    json params = json::object();
    if (cursor) params["cursor"] = *cursor;
    json result = request("tools/list", params);
    ++listing.page_count;
    const std::string where = "page " + std::to_string(page);
    // "/tools/3/annotations/x" is the fourth tool's "/annotations/x".
    const auto& duplicates = result_duplicates();
    for (std::size_t i = 0; i < duplicates.size(); ++i) {
      DuplicateMember d = duplicates[i];
      const std::size_t slash = d.pointer.find('/', std::string_view("/tools/").size());
      if (d.pointer.starts_with("/tools/") && slash != std::string::npos && result.contains("tools") &&
          result["tools"].is_array()) {
        const std::size_t index = std::stoul(d.pointer.substr(7, slash - 7));
        d.pointer.erase(0, slash);
        listing.tool_duplicates[listing.tools.size() + index].push_back(std::move(d));
      } else {
        listing.page_errors.push_back(where + ": " + d.describe(given_after(result, duplicates, i)));
      }
    }
    if (!result.is_object() || !result.contains("tools") || !result["tools"].is_array()) {
      listing.page_errors.push_back(where + ": the result has no tools array");
    } else {
      if (page == 1) param_header_schemas_.clear();
      for (auto& tool : result["tools"]) {
        remember_param_headers(tool);
        listing.tools.push_back(std::move(tool));
      }
    }
    if (result.is_object()) {
      json page_result = result;
      page_result.erase("tools");
      listing.pages.push_back(std::move(page_result));
    }
    if (listing.tools.size() > options_.max_total_tools) {
      listing.complete = false;
      listing.over_size_limit = true;
      listing.incomplete_reason = "more than " + std::to_string(options_.max_total_tools) + " tools";
      return listing;
    }
    if (transport_.bytes_received() - bytes_before > options_.max_total_bytes) {
      listing.complete = false;
      listing.over_size_limit = true;
      listing.incomplete_reason =
          "tools/list pages took more than " + std::to_string(options_.max_total_bytes) + " bytes (" + where + ")";
      return listing;
    }
    if (!result.is_object() || !result.contains("nextCursor") || result["nextCursor"].is_null()) return listing;
    if (!result["nextCursor"].is_string()) {
      listing.page_errors.push_back(where + ": nextCursor is not a string (" + shown(result["nextCursor"]) + ")");
      return listing;
    }
    cursor = result["nextCursor"].get<std::string>();
    if (!seen_cursors.insert(*cursor).second) {
      listing.complete = false;
      listing.incomplete_reason =
          "tools/list returned the cursor \"" + shorten(*cursor, 80) + "\" a second time (" + where + ")";
      return listing;
    }
  }
}

json McpClientSession::call_tool(const std::string& name, const json& arguments) {
  return request("tools/call", json{{"name", name}, {"arguments", arguments}});
}

std::optional<long long> ToolListing::ttl_ms() const {
  std::optional<long long> shortest;
  bool carried = false;
  for (const auto& page : pages) {
    const json ttl = page.value("ttlMs", json());
    carried = carried || !ttl.is_null();
    const long long fresh_for = ttl.is_number_integer() && ttl.get<long long>() >= 0 ? ttl.get<long long>() : 0;
    shortest = std::min(shortest.value_or(fresh_for), fresh_for);
  }
  return carried ? shortest : std::nullopt;
}

void McpClientSession::observe(std::chrono::milliseconds window) {
  Deadline deadline = Clock::now() + window;
  if (options_.run_deadline && *options_.run_deadline < deadline) deadline = *options_.run_deadline;
  while (Clock::now() < deadline) {
    auto message = receive(deadline);
    if (!message) return;
    handle_unsolicited(*message);
  }
}

void McpClientSession::count_notification(const json& message) {
  ++notifications_received_;
  const std::string& method = message["method"].get_ref<const std::string&>();  // classified: a string
  auto counted = notifications_by_method_.find(method);
  if (counted == notifications_by_method_.end()) {
    const bool of_the_spec = std::find(std::begin(kSpecNotificationMethods), std::end(kSpecNotificationMethods),
                                       method) != std::end(kSpecNotificationMethods);
    if (of_the_spec || notifications_by_method_.size() < kCountedMethods)
      counted = notifications_by_method_.emplace(method, 0).first;
  }
  ++(counted == notifications_by_method_.end() ? notifications_of_later_methods_ : counted->second);
  if (notifications_.size() < kKeptMessages) notifications_.push_back(message);
}

std::size_t McpClientSession::notification_count(const std::string& method) const {
  const auto counted = notifications_by_method_.find(method);
  return counted == notifications_by_method_.end() ? 0 : counted->second;
}

}  // namespace mcp_hints
