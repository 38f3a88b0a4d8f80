// Prompts and resources as a scenario scripts them: listed, got and read as given. The mock is a
// tool server first; these let it be the whole server a client or a suite expects to meet.
#include <map>
#include <string>
#include <string_view>

#include "mcp_hints/json/member.hpp"
#include "mcp_hints/mock/mock_server.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"

namespace mcp_hints::mock {

using json = nlohmann::json;
namespace rpc = jsonrpc;
using namespace std::string_view_literals;

namespace {

using Values = std::map<std::string, std::string, std::less<>>;

// `value` with every {{NAME}} in its strings replaced by the value of NAME (the innermost pair of
// braces before each "}}"); a name it has no value for stays as written.
json substituted(const json& value, const Values& values) {
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    std::string out;
    std::size_t at = 0;
    for (std::size_t close; (close = text.find("}}", at)) != std::string::npos;) {
      const std::size_t open = text.rfind("{{", close);
      if (open == std::string::npos || open < at) {  // a "}}" that closes nothing
        out.append(text, at, close + 2 - at);
        at = close + 2;
        continue;
      }
      const auto found = values.find(std::string_view(text).substr(open + 2, close - open - 2));
      out.append(text, at, open - at);
      out += found == values.end() ? text.substr(open, close + 2 - open) : found->second;
      at = close + 2;
    }
    return out.append(text, at);
  }
  if (value.is_array() || value.is_object()) {
    json copy = value;
    for (auto& element : copy) element = substituted(element, values);
    return copy;
  }
  return value;
}

// The variables a URI gives a template's simple expansions ({NAME}: one or more characters, none
// a '/'), each ending where the template's next literal text first follows; nullopt when the URI
// does not match, or the template uses what the mock does not expand (RFC 6570's operators, lists
// and modifiers; two expansions side by side, which nothing divides).
std::optional<Values> match_template(std::string_view pattern, std::string_view uri) {
  Values values;
  while (!pattern.empty()) {
    const std::size_t open = pattern.find('{');
    const std::string_view literal = pattern.substr(0, open);
    if (uri.substr(0, literal.size()) != literal) return std::nullopt;
    uri.remove_prefix(literal.size());
    if (open == std::string_view::npos) break;
    const std::size_t close = pattern.find('}', open);
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view name = pattern.substr(open + 1, close - open - 1);
    if (name.empty() || std::string_view("+#./;?&=!@|").find(name.front()) != std::string_view::npos ||
        name.find_first_of(",*:{") != std::string_view::npos)
      return std::nullopt;
    pattern.remove_prefix(close + 1);
    const std::string_view next = pattern.substr(0, pattern.find('{'));
    const std::size_t end = next.empty() ? uri.size() : uri.find(next, 1);  // a value is never empty
    if (end == std::string_view::npos) return std::nullopt;
    const std::string_view value = uri.substr(0, end);
    if (value.empty() || value.find('/') != std::string_view::npos) return std::nullopt;
    values.emplace(name, value);
    uri.remove_prefix(end);
  }
  if (!uri.empty()) return std::nullopt;
  return values;
}

std::vector<Outgoing> refused(const json& id, const std::string& message, json data = json()) {
  json error = rpc::error(id, rpc::invalid_params, message);
  if (!data.is_null()) error["error"]["data"] = std::move(data);
  std::vector<Outgoing> out;
  out.emplace_back(std::move(error), std::chrono::milliseconds{}, false, id);
  return out;
}

}  // namespace

std::optional<std::vector<Outgoing>> MockServer::serve_content(const json& id, const std::string& method,
                                                               const json& params, ProtocolEra era) const {
  if (spec_.prompts) {
    if (method == "prompts/list"sv) return list_page(id, params, era, "prompts", listed_prompts_);
    if (method == "prompts/get"sv) return get_prompt(id, params, era);
  }
  if (spec_.resources || spec_.resource_templates) {
    if (method == "resources/list"sv) return list_page(id, params, era, "resources", listed_resources_);
    if (method == "resources/templates/list"sv)
      return list_page(id, params, era, "resourceTemplates", listed_templates_);
    if (method == "resources/read"sv) return read_resource(id, params, era);
  }
  return std::nullopt;
}

// prompts: "Invalid prompt name: -32602 (Invalid params); Missing required arguments: -32602". A
// prompt that asks for input asks every request that does not answer it (SEP-2322: the server
// keeps no state between them).
std::vector<Outgoing> MockServer::get_prompt(const json& id, const json& params, ProtocolEra era) const {
  const std::string* name = string_member(params, "name");
  if (!name) return refused(id, "Invalid params: name must be a string");
  Values values;
  if (const json* arguments = member(params, "arguments")) {
    if (!arguments->is_object()) return refused(id, "Invalid params: arguments must be an object");
    for (const auto& [argument, value] : arguments->items()) {
      if (!value.is_string()) return refused(id, "Invalid params: argument '" + argument + "' must be a string");
      values.emplace(argument, value.get<std::string>());
    }
  }
  for (const auto& entry : *spec_.prompts) {
    const json& prompt = entry["prompt"];
    if (prompt["name"] != *name) continue;
    for (const auto& argument : prompt.value("arguments", json::array()))
      if (argument.value("required", false) && !values.count(argument["name"].get<std::string>()))
        return refused(id, "Invalid params: missing required argument '" + argument["name"].get<std::string>() + "'");
    if (const json* asked = member(entry, "inputRequired")) {
      if (era == ProtocolEra::legacy)  // which asks with a server request, which no script makes
        return only(Outgoing{rpc::error(id, rpc::internal_error,
                                        "Internal error: the prompt asks for input by an InputRequiredResult, which "
                                        "only the stateless era has"),
                             {},
                             false,
                             id});
      // "Servers MUST NOT send an inputRequests that the client has not declared support for in
      // its capabilities" (SEP-2322): a client that lacks one gets -32021, as for a tool step.
      if (auto lacking = refuse_undeclared(id, params, capabilities_asked_by(*asked))) return std::move(*lacking);
      std::string why;
      switch (answer_to_input(*asked, params, why)) {
        case InputAnswer::missing:  // asked again: the server keeps nothing between requests
          return only(Outgoing{rpc::result(id, input_required_result(*asked)), {}, false, id});
        case InputAnswer::malformed: return refused(id, "Invalid params: " + why);
        case InputAnswer::in_full: break;
      }
    }
    json result = {{"messages", substituted(entry["messages"], values)}};
    if (const json* description = member(prompt, "description"); description && description->is_string())
      result["description"] = *description;
    return only(Outgoing{rpc::result(id, result), {}, false, id});
  }
  return refused(id, "Invalid params: unknown prompt: " + *name);
}

// resources: a URI it does not serve is an error, never an empty contents array; -32002 in the
// session era, -32602 with data.uri in the stateless one (2026-07-28, resources: "servers MUST
// return a JSON-RPC error with code -32602").
std::vector<Outgoing> MockServer::read_resource(const json& id, const json& params, ProtocolEra era) const {
  const std::string* uri = string_member(params, "uri");
  if (!uri) return refused(id, "Invalid params: uri must be a string");
  std::optional<json> contents;
  if (spec_.resources)
    for (const auto& entry : *spec_.resources)
      if (entry["resource"]["uri"] == *uri) {
        contents = entry["contents"];
        break;
      }
  if (!contents && spec_.resource_templates)
    for (const auto& entry : *spec_.resource_templates)
      if (auto values = match_template(entry["resourceTemplate"]["uriTemplate"].get_ref<const std::string&>(), *uri)) {
        values->insert_or_assign("uri", *uri);
        contents = substituted(entry["contents"], *values);
        break;
      }
  if (!contents) {
    constexpr int legacy_resource_not_found = -32002;
    if (era == ProtocolEra::stateless) return refused(id, "Resource not found", {{"uri", *uri}});
    json error = rpc::error(id, legacy_resource_not_found, "Resource not found");
    error["error"]["data"] = {{"uri", *uri}};
    return only(Outgoing{std::move(error), {}, false, id});
  }
  json result = {{"contents", std::move(*contents)}};
  if (era == ProtocolEra::stateless) {
    result["ttlMs"] = ttl_ms();
    result["cacheScope"] = spec_.cache_scope;
  }
  return only(Outgoing{rpc::result(id, result), {}, false, id});
}

}  // namespace mcp_hints::mock
