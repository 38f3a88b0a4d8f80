#include "mcp_hints/wire/protocol_schema.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "mcp_hints/json/embedded.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/schema_registry.hpp"

namespace mcp_hints {

// schemas/protocol/*.schema.json, compiled in (cmake/EmbedFiles.cmake).
std::span<const EmbeddedFile> embedded_protocol_schemas();

namespace {

using json = nlohmann::json;

constexpr std::string_view kSchemaSuffix = ".schema.json";

// The one value of resultType the schema's prose (ResultType, 2026-07-28) gives a meaning that
// changes which definition a result follows; the schema itself types it only as a string.
constexpr std::string_view kInputRequired = "input_required";

// --- What valijson (draft-07) reads as the document's own dialect does -------------------------

enum class Dialect { draft07, draft2020_12 };

std::optional<Dialect> dialect_of(const json& document) {
  const std::string schema = document.value("$schema", std::string());
  if (schema.find("draft-07") != std::string::npos) return Dialect::draft07;
  if (schema.find("2020-12") != std::string::npos) return Dialect::draft2020_12;
  return std::nullopt;
}

// Keywords that only annotate: no validator asserts them.
const std::set<std::string, std::less<>> kAnnotations = {"description", "title",    "default",   "examples",
                                                         "deprecated",  "readOnly", "writeOnly", "$comment"};

// Keywords valijson evaluates as draft-07 and 2020-12 both define them.
const std::set<std::string, std::less<>> kSharedAssertions = {"type",
                                                              "enum",
                                                              "const",
                                                              "properties",
                                                              "required",
                                                              "additionalProperties",
                                                              "anyOf",
                                                              "allOf",
                                                              "oneOf",
                                                              "not",
                                                              "if",
                                                              "then",
                                                              "else",
                                                              "minimum",
                                                              "maximum",
                                                              "exclusiveMinimum",
                                                              "exclusiveMaximum",
                                                              "multipleOf",
                                                              "minLength",
                                                              "maxLength",
                                                              "pattern",
                                                              "minItems",
                                                              "maxItems",
                                                              "uniqueItems",
                                                              "minProperties",
                                                              "maxProperties",
                                                              "propertyNames",
                                                              "contains",
                                                              "items",
                                                              "format"};

// Where a schema sits under a keyword: one schema, an array of them, or a map of them.
enum class Holds { value, schema, schemas, schema_map };

Holds what_keyword_holds(std::string_view keyword) {
  static const std::set<std::string, std::less<>> single = {
      "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "items", "additionalItems"};
  static const std::set<std::string, std::less<>> arrays = {"anyOf", "allOf", "oneOf"};
  static const std::set<std::string, std::less<>> maps = {"properties", "definitions", "$defs", "dependencies"};
  if (single.count(keyword)) return Holds::schema;
  if (arrays.count(keyword)) return Holds::schemas;
  if (maps.count(keyword)) return Holds::schema_map;
  return Holds::value;
}

void audit(const json& node, const std::string& pointer, Dialect dialect, bool is_root, std::vector<std::string>& out) {
  if (!node.is_object()) return;  // a boolean schema reads the same everywhere
  auto refuse = [&](const std::string& keyword, const std::string& why) {
    out.push_back((pointer.empty() ? "/" : pointer) + ": " + keyword + " (" + why + ")");
  };
  const bool has_ref = node.contains("$ref");
  for (const auto& [keyword, value] : node.items()) {
    const std::string here = pointer + "/" + escape_pointer_token(keyword);
    if (keyword == "$ref") {
      if (!value.is_string() || value.get_ref<const std::string&>().rfind("#/", 0) != 0)
        refuse(keyword, "only references inside the document are resolved");
    } else if (kAnnotations.count(keyword)) {
      // an annotation beside $ref is harmless in both dialects
    } else if (is_root && (keyword == "$schema" || keyword == "$id" ||
                           keyword == (dialect == Dialect::draft07 ? "definitions" : "$defs"))) {
      // the dialect, the document's name (the registry names documents itself), the definitions
    } else if (!kSharedAssertions.count(keyword) &&
               !(dialect == Dialect::draft07 && (keyword == "additionalItems" || keyword == "dependencies"))) {
      refuse(keyword, "valijson does not evaluate it");
    } else if (has_ref && dialect == Dialect::draft2020_12) {
      refuse(keyword, "beside $ref: 2020-12 applies it, valijson ignores it");
    } else if (dialect == Dialect::draft2020_12 && keyword == "items" && value.is_array()) {
      refuse(keyword, "an array of schemas: 2020-12 calls that prefixItems");
    } else if (dialect == Dialect::draft2020_12 && keyword == "format" && value.is_string() &&
               (value == "date" || value == "time" || value == "date-time")) {
      refuse(keyword, "an annotation in 2020-12, asserted by valijson");
    }
    switch (what_keyword_holds(keyword)) {
      case Holds::schema: audit(value, here, dialect, false, out); break;
      case Holds::schemas:
        if (value.is_array())
          for (std::size_t i = 0; i < value.size(); ++i)
            audit(value[i], here + "/" + std::to_string(i), dialect, false, out);
        break;
      case Holds::schema_map:
        if (value.is_object())
          for (const auto& [name, schema] : value.items())
            audit(schema, here + "/" + escape_pointer_token(name), dialect, false, out);
        break;
      case Holds::value: break;
    }
  }
}

// --- Reading the schema: which definition a message follows -----------------------------------

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The definition a local reference ("#/$defs/X") names, or empty.
std::string referenced_definition(const json& node, std::string_view definitions_key) {
  if (!node.is_object() || !node.contains("$ref") || !node["$ref"].is_string()) return {};
  const std::string prefix = "#/" + std::string(definitions_key) + "/";
  const std::string& ref = node["$ref"].get_ref<const std::string&>();
  return ref.rfind(prefix, 0) == 0 ? ref.substr(prefix.size()) : std::string();
}

// The const of properties/<member> of a schema, or of one of its allOf parts.
const json* member_const(const json& schema, std::string_view member) {
  if (!schema.is_object()) return nullptr;
  if (auto properties = schema.find("properties"); properties != schema.end() && properties->is_object()) {
    auto it = properties->find(std::string(member));
    if (it != properties->end() && it->is_object() && it->contains("const")) return &(*it)["const"];
  }
  if (auto all_of = schema.find("allOf"); all_of != schema.end() && all_of->is_array())
    for (const auto& part : *all_of)
      if (const auto* found = member_const(part, member)) return found;
  return nullptr;
}

bool requires_member(const json& schema, std::string_view member) {
  const auto it = schema.find("required");
  return it != schema.end() && it->is_array() && std::find(it->begin(), it->end(), member) != it->end();
}

// The unions ClientRequest, ServerNotification, ...: which messages each side may send.
const char* sender_union(Direction direction, bool request) {
  if (direction == Direction::client_to_server) return request ? "ClientRequest" : "ClientNotification";
  return request ? "ServerRequest" : "ServerNotification";
}

bool is_sender_union(std::string_view name) {
  return name == "ClientRequest" || name == "ServerRequest" || name == "ClientNotification" ||
         name == "ServerNotification";
}

}  // namespace

std::string_view to_string(Direction direction) {
  return direction == Direction::client_to_server ? "client→server" : "server→client";
}

std::span<const std::string> bundled_protocol_revisions() {
  static const std::vector<std::string> revisions = [] {
    std::vector<std::string> out;
    for (const auto& file : embedded_protocol_schemas())
      if (ends_with(file.name, kSchemaSuffix))
        out.emplace_back(file.name.substr(0, file.name.size() - kSchemaSuffix.size()));
    std::sort(out.begin(), out.end());  // revisions are dates: their order is the text's
    return out;
  }();
  return revisions;
}

std::vector<std::string> keywords_valijson_misreads(const json& schema_document) {
  const auto dialect = dialect_of(schema_document);
  if (!dialect) return {"/$schema: neither draft-07 nor 2020-12"};
  std::vector<std::string> out;
  audit(schema_document, "", *dialect, true, out);
  return out;
}

// One revision's schema and what was read from it.
struct ProtocolSchemas::Revision {
  std::string name;
  std::string file;             // as registered: "<revision>.schema.json"
  std::string definitions_key;  // "definitions" (draft-07) or "$defs" (2020-12)
  SchemaRegistry registry;
  const json* definitions = nullptr;  // in the registry's document
  std::map<std::string, std::string, std::less<>> request_by_method, notification_by_method;
  std::set<std::string, std::less<>> sent_by[2][2];  // [direction][request?]: methods of the sender unions
  std::string envelope_request, envelope_notification, envelope_result, envelope_error;
  struct ErrorDefinition {
    std::string definition;
    bool whole_response;  // else the error object
  };
  std::multimap<std::int64_t, ErrorDefinition> errors_by_code;

  bool has(std::string_view definition) const { return definitions->contains(definition); }
  const json& at(std::string_view definition) const { return (*definitions)[std::string(definition)]; }

  std::vector<SchemaViolation> validate(std::string_view definition, const json& instance) const {
    return registry.validate(file + "#/" + definitions_key + "/" + std::string(definition), instance);
  }

  // The methods a definition accepts, through $ref and anyOf (the sender unions).
  void collect_methods(const json& schema, std::set<std::string, std::less<>>& out, int depth = 0) const {
    if (depth > 8 || !schema.is_object()) return;
    if (const auto* method = member_const(schema, "method"); method && method->is_string()) out.insert(*method);
    if (auto target = referenced_definition(schema, definitions_key); !target.empty() && has(target))
      collect_methods(at(target), out, depth + 1);
    if (auto any_of = schema.find("anyOf"); any_of != schema.end() && any_of->is_array())
      for (const auto& part : *any_of) collect_methods(part, out, depth + 1);
  }

  void read_index() {
    for (const auto& [name, schema] : definitions->items()) {
      const auto* method = member_const(schema, "method");
      const bool request = ends_with(name, "Request"), notification = ends_with(name, "Notification");
      if (method && method->is_string() && (request || notification) && !is_sender_union(name)) {
        auto& index = request ? request_by_method : notification_by_method;
        if (!index.emplace(*method, name).second)
          throw UnknownProtocolSchema("the " + this->name + " schema defines " + method->get<std::string>() +
                                      " twice (" + index[*method] + ", " + name + ")");
      }
      const bool whole = schema.is_object() && schema.contains("properties") && schema["properties"].contains("error");
      const json* code = whole ? member_const(schema["properties"]["error"], "code") : member_const(schema, "code");
      if (code && code->is_number_integer())
        errors_by_code.emplace(code->get<std::int64_t>(), ErrorDefinition{name, whole});
    }
    for (int d = 0; d < 2; ++d)
      for (int r = 0; r < 2; ++r)
        if (const char* union_name = sender_union(static_cast<Direction>(d), r == 1); has(union_name))
          collect_methods(at(union_name), sent_by[d][r]);
    // The envelopes: the members of JSONRPCMessage, told apart by the member each requires.
    if (has("JSONRPCMessage") && at("JSONRPCMessage").contains("anyOf"))
      for (const auto& part : at("JSONRPCMessage")["anyOf"]) {
        const auto name = referenced_definition(part, definitions_key);
        if (name.empty() || !has(name)) continue;
        const json& envelope = at(name);
        if (requires_member(envelope, "method"))
          (requires_member(envelope, "id") ? envelope_request : envelope_notification) = name;
        else if (requires_member(envelope, "result"))
          envelope_result = name;
        else if (requires_member(envelope, "error"))
          envelope_error = name;
      }
    if (envelope_request.empty() || envelope_notification.empty() || envelope_result.empty() || envelope_error.empty())
      throw UnknownProtocolSchema("the " + this->name + " schema's JSONRPCMessage does not name the four messages");
  }
};

ProtocolSchemas::ProtocolSchemas() = default;
ProtocolSchemas::~ProtocolSchemas() = default;

ProtocolSchemas::Revision& ProtocolSchemas::revision(std::string_view name) {
  if (auto it = revisions_.find(name); it != revisions_.end()) return *it->second;
  const std::string file = std::string(name) + std::string(kSchemaSuffix);
  const auto content = find_embedded(embedded_protocol_schemas(), file);
  if (!content) {
    std::string known;
    for (const auto& r : bundled_protocol_revisions()) known += (known.empty() ? "" : ", ") + r;
    throw UnknownProtocolSchema("no schema for protocol revision '" + std::string(name) + "' (bundled: " + known + ")");
  }
  json document = parse_json(*content);
  // A bundled schema that valijson would read otherwise than its dialect says is a bug of the
  // bundle: refused here rather than checked wrongly.
  if (auto misread = keywords_valijson_misreads(document); !misread.empty())
    throw std::logic_error("the " + file + " schema uses what valijson misreads: " + misread.front());
  auto r = std::make_unique<Revision>();
  r->name = std::string(name);
  r->file = file;
  r->definitions_key = dialect_of(document) == Dialect::draft07 ? "definitions" : "$defs";
  r->registry.add_lazily(file, std::move(document));  // read from the registry from here on
  r->definitions = &r->registry.document(file)->at(r->definitions_key);
  r->read_index();
  return *revisions_.emplace(std::string(name), std::move(r)).first->second;
}

void ProtocolSchemas::prepare_listing(std::string_view revision_name) {
  // A listing large enough that its first validation makes the first looks too (they are made at
  // once for a large instance), in the revision's era.
  json tools = json::array();
  for (int i = 0; i < 300; ++i)
    tools.push_back({{"name", "t" + std::to_string(i)}, {"inputSchema", {{"type", "object"}}}});
  json result = {{"tools", std::move(tools)}};
  if (is_stateless_revision(std::string(revision_name)))
    result.update({{"resultType", "complete"}, {"ttlMs", 0}, {"cacheScope", "private"}});
  validate_message(revision_name, {{"jsonrpc", "2.0"}, {"id", 0}, {"result", std::move(result)}},
                   Direction::server_to_client, "tools/list");
}

bool ProtocolSchemas::knows_method(std::string_view revision_name, std::string_view method) {
  const Revision& r = revision(revision_name);
  return r.request_by_method.count(method) || r.notification_by_method.count(method);
}

std::vector<SchemaViolation> ProtocolSchemas::validate_definition(std::string_view revision_name,
                                                                  std::string_view definition, const json& instance) {
  const Revision& r = revision(revision_name);
  if (!r.has(definition))
    throw UnknownProtocolSchema("the " + r.name + " schema has no definition '" + std::string(definition) + "'");
  return r.validate(definition, instance);
}

std::vector<ProtocolViolation> ProtocolSchemas::validate_message(std::string_view revision_name, const json& message,
                                                                 Direction direction,
                                                                 std::string_view answered_method) {
  const Revision& r = revision(revision_name);
  std::vector<ProtocolViolation> out;
  std::string_view check_id = protocol_check::message;
  std::string method(answered_method);
  auto check = [&](const std::string& definition, const json& instance, const std::string& prefix = {}) {
    for (auto& v : r.validate(definition, instance)) {
      const std::string pointer = prefix + v.pointer;
      // The envelope and the specific definition often say the same thing: once is enough.
      if (std::any_of(out.begin(), out.end(),
                      [&](const auto& o) { return o.pointer == pointer && o.message == v.message; }))
        continue;
      out.push_back({check_id, direction, method, definition, pointer, std::move(v.message)});
    }
  };

  if (message.is_object() && message.contains("method")) {
    method = message["method"].is_string() ? message["method"].get<std::string>() : std::string();
    const auto request = r.request_by_method.find(method);
    const auto notification = r.notification_by_method.find(method);
    // A known request's method without an id is a request that lost its id, not a notification.
    const bool is_request = request != r.request_by_method.end() ||
                            (notification == r.notification_by_method.end() && message.contains("id"));
    check_id = is_request ? protocol_check::request : protocol_check::notification;
    const std::string specific = is_request
                                     ? (request != r.request_by_method.end() ? request->second : "")
                                     : (notification != r.notification_by_method.end() ? notification->second : "");
    if (!specific.empty()) {
      check(specific, message);
      const char* union_name = sender_union(direction, is_request);
      const int d = direction == Direction::client_to_server ? 0 : 1;
      if (!r.sent_by[d][is_request ? 1 : 0].count(method))
        out.push_back({check_id, direction, method, union_name, "/method",
                       r.has(union_name) ? method + " is not among the " + union_name + " messages of " + r.name
                                         : "the " + r.name + " schema has no " + union_name + ": no " +
                                               (is_request ? "request" : "notification") + " goes " +
                                               std::string(to_string(direction))});
    }
    check(is_request ? r.envelope_request : r.envelope_notification, message);
  } else if (message.is_object() && message.contains("result")) {
    check_id = protocol_check::result;
    if (auto request = r.request_by_method.find(method); request != r.request_by_method.end()) {
      const std::string base = request->second.substr(0, request->second.size() - std::string_view("Request").size());
      // The results a response may carry: those of XResultResponse where the schema has one
      // (2026-07-28: an InputRequiredResult or the XResult), else the XResult.
      std::vector<std::string> alternatives;
      if (r.has(base + "ResultResponse")) {
        const json& result_schema = r.at(base + "ResultResponse")["properties"]["result"];
        if (auto name = referenced_definition(result_schema, r.definitions_key); !name.empty())
          alternatives.push_back(name);
        if (result_schema.contains("anyOf"))
          for (const auto& part : result_schema["anyOf"])
            if (auto name = referenced_definition(part, r.definitions_key); !name.empty()) alternatives.push_back(name);
      } else if (r.has(base + "Result")) {
        alternatives.push_back(base + "Result");
      }
      // resultType says which: the schema's anyOf would let a broken final result pass as an
      // InputRequiredResult (which requires nothing but resultType).
      const json& result = message["result"];
      const bool input_required = result.is_object() && result.value("resultType", json()) == kInputRequired;
      const auto is_input_required = [](const std::string& name) { return name == "InputRequiredResult"; };
      const auto chosen = input_required
                              ? std::find_if(alternatives.begin(), alternatives.end(), is_input_required)
                              : std::find_if_not(alternatives.begin(), alternatives.end(), is_input_required);
      if (chosen != alternatives.end())
        check(*chosen, result, "/result");
      else if (!alternatives.empty())
        check(alternatives.front(), result, "/result");
    }
    check(r.envelope_result, message);
  } else if (message.is_object() && message.contains("error")) {
    check_id = protocol_check::error;
    if (message["error"].is_object() && message["error"].contains("code") &&
        message["error"]["code"].is_number_integer()) {
      const auto [first, last] = r.errors_by_code.equal_range(message["error"]["code"].get<std::int64_t>());
      for (auto it = first; it != last; ++it) {
        if (it->second.whole_response)
          check(it->second.definition, message);
        else
          check(it->second.definition, message["error"], "/error");
      }
    }
    check(r.envelope_error, message);
  } else {
    check("JSONRPCMessage", message);
  }
  return out;
}

}  // namespace mcp_hints
