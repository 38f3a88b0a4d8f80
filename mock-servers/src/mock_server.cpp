#include "mcp_hints/mock/mock_server.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/member.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/json/version.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/protocol.hpp"

namespace mcp_hints::mock {

using json = nlohmann::json;
namespace rpc = jsonrpc;
using namespace std::string_view_literals;  // a method compared by size first, not by strlen

Outgoing Outgoing::scripted_result(const json& id, const json& result, const std::string& text,
                                   std::chrono::milliseconds delay) {
  Outgoing out(json(), delay, false, id);
  out.result_ = &result;
  out.result_text_ = &text;
  return out;
}

const json& Outgoing::message() const {
  if (result_ && message_.is_null()) message_ = rpc::result(answers, *result_);
  return message_;
}

json& Outgoing::message() {
  std::as_const(*this).message();
  result_ = nullptr;  // what the caller changes is what is sent
  result_text_ = nullptr;
  return message_;
}

void Outgoing::append_text(std::string& out) const {
  if (!result_) return append_json(out, message_);
  // rpc::result's members, in the order json_text writes them (by name)
  out += "{\"id\":";
  append_json(out, answers);
  out += ",\"jsonrpc\":\"2.0\",\"result\":";
  out += *result_text_;
  out += '}';
}

MockServer::MockServer(ServerSpec spec)
    : spec_(std::move(spec)),
      spoken_(spec_.protocol_versions.empty() ? supported_protocol_versions() : spec_.protocol_versions),
      tools_(spec_.tools) {
  for (const auto& version : spoken_) (is_stateless_revision(version) ? stateless_ : legacy_).push_back(version);
  const auto listed = [](const auto& entries, const char* key, std::vector<json>& out) {
    if (entries)
      for (const auto& entry : *entries) out.push_back(entry.at(key));  // the schema requires it
  };
  listed(spec_.prompts, "prompt", listed_prompts_);
  listed(spec_.resources, "resource", listed_resources_);
  listed(spec_.resource_templates, "resourceTemplate", listed_templates_);
  // spec_ is not changed after this: the texts' keys stay valid for the server's life.
  result_texts_.emplace(&spec_.default_result, json_text(spec_.default_result));
  for (const auto& [tool, steps] : spec_.scripts)
    for (const auto& step : steps)
      if (step.kind == Step::Kind::result) result_texts_.emplace(&step.payload, json_text(step.payload));
}

Outgoing MockServer::scripted_result(const json& id, const json& result, std::chrono::milliseconds delay) const {
  return Outgoing::scripted_result(id, result, result_texts_.at(&result), delay);
}

std::vector<Outgoing> MockServer::only(Outgoing out) {
  std::vector<Outgoing> list;
  list.push_back(std::move(out));
  return list;
}

namespace {

// Whether a message (any JSON value) is an object whose method is this name. Compared as text:
// a json made of the name for every message read would cost more than the rest of the test.
bool names_method(const json& message, std::string_view name) {
  const std::string* method = string_member(message, "method");
  return method && *method == name;
}

// Whether `declared` (a ClientCapabilities object) declares `capability` as an object with each
// sub-capability `settings` names (elicitation's form or url, sampling's tools): "an empty
// capabilities object is equivalent to declaring support for form mode only" (elicitation).
bool declares(const json& declared, const std::string& capability, const json& settings) {
  const json* given = member(declared, capability);
  if (!given || !given->is_object()) return false;
  if (!settings.is_object()) return true;
  for (const auto& [sub, value] : settings.items()) {
    const bool implied = capability == "elicitation" && sub == "form" && given->empty();
    if (!implied && !given->contains(sub)) return false;
  }
  return true;
}

}  // namespace

std::optional<json> MockServer::cancelled_request(const json& message) {
  if (!names_method(message, "notifications/cancelled") || rpc::classify(message) != rpc::Kind::notification)
    return std::nullopt;
  const json params = message.value("params", json::object());
  if (!params.is_object() || !params.contains("requestId")) return std::nullopt;
  return params["requestId"];
}

std::string MockServer::authorization_context(std::string_view credential) const {
  constexpr std::string_view scheme = "bearer ";
  if (credential.size() <= scheme.size()) return {};
  for (std::size_t i = 0; i < scheme.size(); ++i)  // the scheme is case-insensitive (RFC 9110)
    if (std::tolower(static_cast<unsigned char>(credential[i])) != scheme[i]) return {};
  const std::string_view token = credential.substr(scheme.size());
  for (const auto& [name, known] : spec_.authorizations)
    if (known == token) return name;
  return {};
}

std::optional<json> MockServer::tool_input_schema(const std::string& name, const std::string& context) {
  std::lock_guard lock(mutex_);
  for (const auto& tool : catalog_for(context))
    if (tool.is_object() && tool.value("name", json()) == name && tool.contains("inputSchema"))
      return tool["inputSchema"];
  return std::nullopt;
}

const std::vector<json>& MockServer::catalog_for(const std::string& context) const {
  auto own = spec_.tools_by_authorization.find(context);
  return own == spec_.tools_by_authorization.end() ? tools_ : own->second;
}

std::vector<Outgoing> MockServer::handle_text(std::string_view text, MessageReader* reader, const std::string& context,
                                              bool batches) {
  // A repeated member keeps its last value: the judge reads the record.
  std::optional<MessageReader> local;
  MessageReader& in = reader ? *reader : local.emplace(request_reader());
  const json* message;
  try {
    message = &in.read(text);
  } catch (const InputError& e) {
    return only(Outgoing{rpc::error(nullptr, rpc::parse_error, std::string("Parse error: ") + e.what())});
  }
  return handle(*message, context, batches);
}

std::vector<Outgoing> MockServer::handle(const json& message, const std::string& context, bool batches) {
  const rpc::Envelope envelope = rpc::envelope_of(message);
  const auto kind = rpc::classify(envelope);
  if (message.is_array() && batches) return handle_batch(message, context);
  if (message.is_array())
    return only(Outgoing{rpc::error(nullptr, rpc::invalid_request,
                                    "Invalid Request: batches are part of MCP in revision 2025-03-26 only")});
  if (kind == rpc::Kind::invalid) {
    const json* given = envelope.id;
    const json id = given && (given->is_string() || given->is_number_integer()) ? *given : json();
    return only(
        Outgoing{rpc::error(id, rpc::invalid_request, "Invalid Request: not a JSON-RPC 2.0 request or notification")});
  }
  if (kind != rpc::Kind::request) return {};  // notifications and responses need no answer
  const json& id = *envelope.id;
  const std::string& method = envelope.method->get_ref<const std::string&>();  // a request's is a string
  static const json no_params = json::object();
  const json* given = envelope.params;
  const json& params = given ? *given : no_params;
  if (!params.is_object())
    return only(Outgoing{rpc::error(id, rpc::invalid_params, "Invalid params: not an object"), {}, false, id});
  std::lock_guard lock(mutex_);
  // A request that carries a protocol version in its _meta speaks the stateless era; one that
  // carries none speaks the legacy era, which a stateless-only server does not.
  if (names_protocol_version(params)) return handle_stateless(id, method, params, context);
  const auto& legacy = legacy_versions();
  if (method == "initialize"sv) {
    if (!params.contains("protocolVersion") || !params["protocolVersion"].is_string())
      return answer(rpc::error(id, rpc::invalid_params, "Invalid params: protocolVersion must be a string"));
    if (legacy.empty()) return answer(unsupported_version(id, params["protocolVersion"]), 400);
    std::string version = params["protocolVersion"];
    if (std::find(legacy.begin(), legacy.end(), version) == legacy.end()) version = legacy.front();
    return answer(rpc::result(id, {{"protocolVersion", version},
                                   {"capabilities", capabilities(true)},
                                   {"serverInfo", {{"name", spec_.name}, {"version", kVersion}}}}));
  }
  if (legacy.empty() || method == "server/discover"sv) {
    if (stateless_versions().empty())  // a legacy server: clients probing the newer era fall back
      return answer(rpc::error(id, rpc::method_not_found, "Method not found: " + method));
    return answer(rpc::error(id, rpc::invalid_params,
                             std::string("Invalid params: _meta has no ") + kProtocolVersionMeta +
                                 " (this server speaks " + join(spoken_versions(), ", ") + ")"),
                  400);
  }
  if (method == "ping"sv) return answer(rpc::result(id, json::object()));
  if (method == "tools/list"sv) return list_tools(id, params, ProtocolEra::legacy, context);
  if (method == "tools/call"sv) return call_tool(id, params, ProtocolEra::legacy, context);
  if (auto served = serve_content(id, method, params, ProtocolEra::legacy)) return std::move(*served);
  return answer(rpc::error(id, rpc::method_not_found, "Method not found: " + method));
}

bool MockServer::takes_batches(std::string_view version) { return version == "2025-03-26"; }

std::string MockServer::agreed_version(const json& request, const std::vector<Outgoing>& outs) {
  if (!names_method(request, "initialize") || !member(request, "id")) return {};
  for (const auto& out : outs) {
    const json& message = out.message();
    if (rpc::classify(message) != rpc::Kind::result || message["id"] != request["id"] || !message["result"].is_object())
      continue;
    const json version = message["result"].value("protocolVersion", json());
    if (version.is_string()) return version.get<std::string>();
  }
  return {};
}

std::vector<Outgoing> MockServer::handle_batch(const json& batch, const std::string& context) {
  if (!batch.is_array() || batch.empty())
    return only(Outgoing{rpc::error(nullptr, rpc::invalid_request, "Invalid Request: an empty batch")});
  Outgoing combined{json::array()};
  std::vector<Outgoing> notes;
  for (const auto& element : batch) {
    std::vector<Outgoing> outs;
    if (element.is_object() && element.value("method", json()) == "initialize")
      outs.emplace_back(rpc::error(element.value("id", json()), rpc::invalid_request,
                                   "Invalid Request: initialize must not be part of a batch"));
    else if (element.is_array())
      outs.emplace_back(rpc::error(nullptr, rpc::invalid_request, "Invalid Request: a batch inside a batch"));
    else
      outs = handle(element, context);
    for (auto& out : outs) {
      combined.delay = std::max(combined.delay, out.delay);
      combined.close = combined.close || out.close;
      if (out.sends()) combined.message().push_back(std::move(out.message()));
      if (!out.note.empty()) notes.emplace_back(json(), out.delay).note = std::move(out.note);
    }
  }
  if (combined.message().empty()) combined.message() = json();  // nothing but notifications: no answer
  if (combined.sends() || combined.close) notes.push_back(std::move(combined));
  return notes;
}

json MockServer::unsupported_version(const json& id, const json& requested) const {
  json error = rpc::error(id, unsupported_protocol_version, "Unsupported protocol version");
  error["error"]["data"] = {{"requested", requested.is_string() ? requested.get<std::string>() : requested.dump()},
                            {"supported", spoken_versions()}};
  return error;
}

long long MockServer::ttl_ms() const {
  if (spec_.ttl_ms) return *spec_.ttl_ms;
  // A catalog that a script changes is never fresh for long: a client that honours ttlMs lists again.
  for (const auto& [tool, steps] : spec_.scripts)
    for (const auto& step : steps)
      if (step.list_changed) return 0;
  return 300000;
}

std::vector<Outgoing> MockServer::answer(json message, int http_status) {
  Outgoing out{std::move(message)};
  out.answers = out.message()["id"];
  out.http_status = http_status;
  return only(std::move(out));
}

std::vector<Outgoing> MockServer::handle_stateless(const json& id, const std::string& method, const json& params,
                                                   const std::string& context) {
  const json& meta = params["_meta"];
  const json& version = meta[kProtocolVersionMeta];
  const auto& spoken = stateless_versions();
  if (!version.is_string() || std::find(spoken.begin(), spoken.end(), version.get<std::string>()) == spoken.end())
    return answer(unsupported_version(id, version), 400);
  if (!meta.contains(kClientCapabilitiesMeta) || !meta[kClientCapabilitiesMeta].is_object())
    return answer(rpc::error(id, rpc::invalid_params,
                             std::string("Invalid params: _meta ") + kClientCapabilitiesMeta + " must be an object"),
                  400);
  std::vector<Outgoing> out;
  if (method == "server/discover"sv) {
    out = answer(rpc::result(id, {{"supportedVersions", spoken_versions()},
                                  {"capabilities", capabilities(spec_.announces_changes)},
                                  {"_meta", {{kServerInfoMeta, {{"name", spec_.name}, {"version", kVersion}}}}},
                                  {"ttlMs", ttl_ms()},
                                  {"cacheScope", spec_.cache_scope}}));
  } else if (method == "tools/list"sv) {
    out = list_tools(id, params, ProtocolEra::stateless, context);
  } else if (method == "tools/call"sv) {
    out = call_tool(id, params, ProtocolEra::stateless, context);
  } else if (method == "subscriptions/listen"sv) {
    return listen(id, params, context);
  } else if (auto served = serve_content(id, method, params, ProtocolEra::stateless)) {
    out = std::move(*served);
  } else {  // ping, initialize and the like are gone from this era: 404, as the SDK and the suite say
    return answer(rpc::error(id, rpc::method_not_found, "Method not found: " + method), 404);
  }
  // Every result of the era says what it is; a scripted one may already (input_required).
  for (auto& o : out)
    if (json& message = o.message(); message.is_object() && message.contains("result") &&
                                     message["result"].is_object() && !message["result"].contains("resultType"))
      message["result"]["resultType"] = "complete";
  return out;
}

std::vector<Outgoing> MockServer::list_tools(const json& id, const json& params, ProtocolEra era,
                                             const std::string& context) {
  return list_page(id, params, era, "tools", catalog_for(context));
}

std::vector<Outgoing> MockServer::list_page(const json& id, const json& params, ProtocolEra era, const char* key,
                                            const std::vector<json>& items) const {
  std::size_t start = 0;
  if (params.contains("cursor")) {
    const json& cursor = params["cursor"];
    const std::string text = cursor.is_string() ? cursor.get<std::string>() : "";
    char* end = nullptr;
    const unsigned long value = text.rfind("page-", 0) == 0 ? std::strtoul(text.c_str() + 5, &end, 10) : 0;
    if (!cursor.is_string() || text.rfind("page-", 0) != 0 || *end != '\0' || value >= items.size() || value == 0)
      return only(Outgoing{rpc::error(id, rpc::invalid_params, "Invalid params: unknown cursor"), {}, false, id});
    start = value;
  }
  const std::size_t size = spec_.page_size ? spec_.page_size : items.size();
  json page = json::array();
  for (std::size_t i = start; i < items.size() && i < start + size; ++i) page.push_back(items[i]);
  json result = {{key, std::move(page)}};
  if (start + size < items.size()) result["nextCursor"] = "page-" + std::to_string(start + size);
  if (era == ProtocolEra::stateless) {
    result["ttlMs"] = ttl_ms();
    result["cacheScope"] = spec_.cache_scope;
  }
  return only(Outgoing{rpc::result(id, result), {}, false, id});
}

json MockServer::capabilities(bool tools_list_changed) const {
  json declared = {{"tools", {{"listChanged", tools_list_changed}}}};
  if (spec_.prompts) declared["prompts"] = {{"listChanged", false}};
  if (spec_.resources || spec_.resource_templates)
    declared["resources"] = {{"subscribe", false}, {"listChanged", false}};
  return declared;
}

std::vector<Outgoing> MockServer::call_tool(const json& id, const json& params, ProtocolEra era,
                                            const std::string& context) {
  const std::string* given_name = string_member(params, "name");
  if (!given_name)
    return only(Outgoing{rpc::error(id, rpc::invalid_params, "Invalid params: name must be a string"), {}, false, id});
  if (const json* arguments = member(params, "arguments"); arguments && !arguments->is_object())
    return only(
        Outgoing{rpc::error(id, rpc::invalid_params, "Invalid params: arguments must be an object"), {}, false, id});
  const std::string& name = *given_name;
  const auto& tools = catalog_for(context);
  // Compared as strings: no json made per tool and call (a catalog may hold thousands).
  const bool listed = std::any_of(tools.begin(), tools.end(), [&](const json& t) {
    const std::string* listed_name = string_member(t, "name");
    return listed_name && *listed_name == name;
  });
  if (!listed) return only(Outgoing{rpc::error(id, rpc::invalid_params, "Unknown tool: " + name), {}, false, id});
  if (era == ProtocolEra::stateless)
    if (auto asked = answer_open_input(id, name, params)) return std::move(*asked);
  const std::size_t n = calls_[name];
  auto script = spec_.scripts.find(name);
  const Step* next = script != spec_.scripts.end() && n < script->second.size() ? &script->second[n] : nullptr;
  // A step that needs a capability the request does not declare is refused, and stays for the next
  // call (2026-07-28, basic: "the server MUST return a MissingRequiredClientCapabilityError (-32021)
  // whose data.requiredCapabilities lists the missing capabilities").
  if (next && era == ProtocolEra::stateless)
    if (auto lacking = refuse_undeclared(id, params, next->required_capabilities)) return std::move(*lacking);
  ++calls_[name];
  if (!next) return only(scripted_result(id, spec_.default_result));
  const Step& step = *next;
  std::vector<Outgoing> out;
  // Progress for a caller that asked for it (a progressToken), before the answer.
  const json* meta = member(params, "_meta");
  if (const json* token = meta ? member(*meta, "progressToken") : nullptr; token && step.progress > 0)
    for (int i = 1; i <= step.progress; ++i)
      out.push_back({rpc::notification("notifications/progress",
                                       json{{"progressToken", *token}, {"progress", i}, {"total", step.progress}}),
                     step.delay * i / (step.progress + 1), false, id});
  // list_changed goes out before the answer, so a client has it before it makes its next call. The
  // stateless era delivers it only on the subscriptions/listen streams that asked for it, at once (the
  // catalog has changed already; the stream is not the call's, so a delayed answer gives the client
  // time to read it); with none open the change goes unannounced, and the listing's ttlMs is what
  // sends a client back.
  if (step.list_changed) {
    tools_ = *step.list_changed;
    if (era == ProtocolEra::legacy) {
      out.push_back({rpc::notification("notifications/tools/list_changed"), step.delay, false, json()});
    } else if (announce_tools_changed(Clock::now()) == 0) {
      Outgoing changed{json(), step.delay};
      changed.note = std::string(kCatalogChangedEvent);
      out.push_back(std::move(changed));
    } else {  // recorded as it happens: a stream may close before what it was told goes out
      Outgoing changed{json(), {}};
      changed.note = std::string(kCatalogAnnouncedEvent);
      out.push_back(std::move(changed));
    }
  }
  switch (step.kind) {
    case Step::Kind::result: out.push_back(scripted_result(id, step.payload, step.delay)); break;
    case Step::Kind::error:
      out.push_back({{{"jsonrpc", "2.0"}, {"id", id}, {"error", step.payload}}, step.delay, false, id});
      break;
    case Step::Kind::transient_failure: {
      json error = rpc::error(id, rpc::internal_error, "Transient failure: try again");
      error["error"]["data"] = step.payload;
      out.push_back({error, step.delay, false, id});
      break;
    }
    case Step::Kind::close: out.push_back({json(), step.delay, true, id}); break;
    case Step::Kind::input_required:
      if (era == ProtocolEra::legacy) {  // the legacy era asks with a server request, which no script makes
        out.push_back({rpc::error(id, rpc::internal_error,
                                  "Internal error: the script answers with an InputRequiredResult, which only the "
                                  "stateless era has"),
                       step.delay, false, id});
        break;
      }
      open_inputs_[name] = step.payload;
      out.push_back({rpc::result(id, input_required_result(step.payload)), step.delay, false, id});
      break;
  }
  return out;
}

std::vector<Outgoing> MockServer::listen(const json& id, const json& params, const std::string& context) {
  const json* filter = member(params, "notifications");
  std::string wrong;
  if (!filter || !filter->is_object()) wrong = "notifications must be an object (the subscription's filter)";
  if (wrong.empty())
    for (const char* flag : {"toolsListChanged", "promptsListChanged", "resourcesListChanged"})
      if (const json* value = member(*filter, flag); value && !value->is_boolean() && wrong.empty())
        wrong = std::string("notifications.") + flag + " must be a boolean";
  if (const json* uris = wrong.empty() ? member(*filter, "resourceSubscriptions") : nullptr;
      uris &&
      (!uris->is_array() || !std::all_of(uris->begin(), uris->end(), [](const json& u) { return u.is_string(); })))
    wrong = "notifications.resourceSubscriptions must be an array of strings";
  if (!wrong.empty()) return answer(rpc::error(id, rpc::invalid_params, "Invalid params: " + wrong), 400);
  if (subscriptions_.size() >= kMaxSubscriptions)
    return answer(
        rpc::error(id, rpc::internal_error,
                   "Internal error: " + std::to_string(kMaxSubscriptions) + " subscriptions are open already"));
  // The mock serves tools alone (and announces their changes unless told not to): what else the
  // filter asks for is left out of what it honours.
  const json* tools = member(*filter, "toolsListChanged");
  Subscription subscription{id, context, tools && *tools == true && spec_.announces_changes, {}};
  json honoured = json::object();
  if (subscription.tools) honoured["toolsListChanged"] = true;
  const std::uint64_t number = next_subscription_++;
  subscriptions_.emplace(number, std::move(subscription));
  Outgoing ack{rpc::notification("notifications/subscriptions/acknowledged",
                                 json{{"_meta", {{kSubscriptionIdMeta, id}}}, {"notifications", std::move(honoured)}}),
               {},
               false,
               id};
  ack.subscription = number;
  return only(std::move(ack));
}

std::size_t MockServer::announce_tools_changed(Clock::time_point due) {
  std::size_t told = 0;
  for (auto& [number, s] : subscriptions_) {
    // A context with a catalog of its own does not see the shared one change.
    if (!s.tools || spec_.tools_by_authorization.count(s.context)) continue;
    ++told;
    if (s.queued.size() >= kMaxQueuedDeliveries) continue;  // a stream nobody reads: what it holds is enough
    s.queued.push_back({due, rpc::notification("notifications/tools/list_changed",
                                               json{{"_meta", {{kSubscriptionIdMeta, s.request_id}}}})});
  }
  if (told) delivered_.notify_all();
  return told;
}

std::vector<Delivery> MockServer::take_deliveries(std::uint64_t subscription, std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  auto found = subscriptions_.find(subscription);
  if (found == subscriptions_.end()) return {};
  if (found->second.queued.empty() && wait.count() > 0) {
    delivered_.wait_for(lock, wait, [&] {
      found = subscriptions_.find(subscription);
      return found == subscriptions_.end() || !found->second.queued.empty();
    });
    if (found == subscriptions_.end()) return {};
  }
  std::vector<Delivery> taken(std::make_move_iterator(found->second.queued.begin()),
                              std::make_move_iterator(found->second.queued.end()));
  found->second.queued.clear();
  return taken;
}

void MockServer::end_subscription(std::uint64_t subscription) {
  {
    std::lock_guard lock(mutex_);
    subscriptions_.erase(subscription);
  }
  delivered_.notify_all();
}

std::optional<std::vector<Outgoing>> MockServer::answer_open_input(const json& id, const std::string& tool,
                                                                   const json& params) {
  auto open = open_inputs_.find(tool);
  if (open == open_inputs_.end()) return std::nullopt;
  const json& asked = open->second;
  // Asked again only of a request that declares what the question needs (SEP-2322), as a prompt.
  if (auto lacking = refuse_undeclared(id, params, capabilities_asked_by(asked))) return lacking;
  std::string why;
  switch (answer_to_input(asked, params, why)) {
    case InputAnswer::missing: return answer(rpc::result(id, input_required_result(asked)));  // asked again
    case InputAnswer::malformed: return answer(rpc::error(id, rpc::invalid_params, "Invalid params: " + why));
    case InputAnswer::in_full: break;
  }
  open_inputs_.erase(open);
  return std::nullopt;
}

json MockServer::input_required_result(const json& asked) {
  json result = asked;
  result["resultType"] = "input_required";
  return result;
}

std::optional<std::vector<Outgoing>> MockServer::refuse_undeclared(const json& id, const json& params,
                                                                   const json& required) {
  if (required.empty()) return std::nullopt;
  const json& declared = params["_meta"][kClientCapabilitiesMeta];  // handle_stateless checked it is an object
  json missing = json::object();
  std::vector<std::string> names;
  for (const auto& [capability, settings] : required.items())
    if (!declares(declared, capability, settings)) {
      missing[capability] = settings;
      names.push_back(capability);
    }
  if (missing.empty()) return std::nullopt;
  json error =
      rpc::error(id, missing_required_client_capability, "Missing required client capability: " + join(names, ", "));
  error["error"]["data"] = {{"requiredCapabilities", std::move(missing)}};
  return answer(std::move(error), 400);
}

MockServer::InputAnswer MockServer::answer_to_input(const json& asked, const json& params, std::string& why) {
  const json* responses = member(params, "inputResponses");
  if (responses && !responses->is_object()) {
    why = "inputResponses is not an object";
    return InputAnswer::malformed;
  }
  if ((responses || member(params, "requestState")) && asked.contains("requestState") &&
      params.value("requestState", json()) != asked["requestState"]) {
    why = "requestState is not the one the input_required result gave";
    return InputAnswer::malformed;
  }
  // Only the answers to what was asked are read: others are ignored (SEP-2322: "the server SHOULD
  // ignore any information it does not recognize"). The requests held by name: items() of the
  // temporary value() returns would outlive it.
  const json requests = asked.value("inputRequests", json::object());
  bool missing = false;
  for (const auto& [key, request] : requests.items()) {
    const json* response = responses ? member(*responses, key) : nullptr;
    if (!response) {
      missing = true;
    } else if (!response->is_object()) {
      why = "inputResponses['" + key + "'] is not an object";
      return InputAnswer::malformed;
    }
  }
  return missing ? InputAnswer::missing : InputAnswer::in_full;
}

}  // namespace mcp_hints::mock
