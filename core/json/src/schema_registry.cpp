// The only translation unit that includes valijson (it is slow to compile).
#include "mcp_hints/json/schema_registry.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"
#include "schema_first_look.hpp"

namespace mcp_hints {
namespace {

using Adapter = valijson::adapters::NlohmannJsonAdapter;

std::string without_fragment(std::string_view uri) { return std::string(uri.substr(0, uri.find('#'))); }

// valijson reports a location as "<root>", "[key]", "[0]"; turn it into a JSON pointer.
std::string context_to_pointer(const std::vector<std::string>& context) {
  std::string pointer;
  for (const auto& part : context) {
    if (part.size() >= 2 && part.front() == '[' && part.back() == ']')
      pointer += "/" + escape_pointer_token(std::string_view(part).substr(1, part.size() - 2));
  }
  return pointer;
}

bool is_prefix_pointer(const std::string& prefix, const std::string& pointer) {
  return pointer.size() > prefix.size() && pointer.compare(0, prefix.size(), prefix) == 0 &&
         pointer[prefix.size()] == '/';
}

// Two keywords valijson cannot run on every value are rewritten where they stand (a schema's
// member of that name whose value is a string, not a property of that name, whose value is a
// schema):
// - `pattern`: std::regex (valijson's) overflows the stack on long strings, so it runs only on
//   strings within the limit; a longer string fails a maxLength check instead, at its own pointer.
// - `format`: valijson reads the value as text and throws on an object or a non-empty array, which
//   a peer's message may hold where a string is asked for. It runs on strings only, as JSON Schema
//   has it (draft-07, 7.1: a format that does not apply to the value's type passes).
void guard_keywords(nlohmann::json& node) {
  if (node.is_array()) {
    for (auto& item : node) guard_keywords(item);
    return;
  }
  if (!node.is_object()) return;
  if (node.contains("patternProperties"))
    throw std::runtime_error("patternProperties is not supported: its regex would run on unbounded member names");
  for (auto& [keyword, child] : node.items()) {
    const std::string_view key = keyword;  // compared by length first
    if (key != "enum" && key != "const" && key != "default" && key != "examples") guard_keywords(child);
  }
  if (auto pattern = node.find("pattern"); pattern != node.end() && pattern->is_string()) {
    const auto limit = SchemaRegistry::pattern_length_limit;
    nlohmann::json guarded = {
        {"if", {{"maxLength", limit}}}, {"then", {{"pattern", *pattern}}}, {"else", {{"maxLength", limit}}}};
    node.erase("pattern");
    node["allOf"].push_back(std::move(guarded));
  }
  if (auto format = node.find("format"); format != node.end() && format->is_string()) {
    nlohmann::json guarded = {{"if", {{"type", "string"}}}, {"then", {{"format", *format}}}};
    node.erase("format");
    node["allOf"].push_back(std::move(guarded));
  }
}

// valijson's validator caches the regular expressions of `pattern`s as it meets them: one a thread,
// shared by every registry (the cache is by pattern), lets threads validate at once.
valijson::Validator& thread_validator() {
  detail::fill_regex_narrow_table();
  thread_local valijson::Validator validator;
  return validator;
}

}  // namespace

struct SchemaRegistry::Impl {
  std::map<std::string, nlohmann::json, std::less<>> documents;  // by file name and by $id
  std::map<std::string, std::string, std::less<>> id_by_name;    // file name -> $id (or name)
  // Compiled when first used; validating only reads a compiled schema, so a lookup shares the lock.
  mutable std::map<std::string, std::unique_ptr<valijson::Schema>, std::less<>> compiled;
  // A propertyNames schema (by its node in a registered document), compiled once (under `compiling`).
  mutable std::map<const nlohmann::json*, std::unique_ptr<valijson::Schema>> compiled_names;
  mutable std::shared_mutex compiling;

  const nlohmann::json* document(std::string_view uri) const {
    auto it = documents.find(without_fragment(uri));
    return it == documents.end() ? nullptr : &it->second;
  }

  // A $ref to another document resolves only to a registered schema (by $id or file name):
  // nothing is ever fetched from outside.
  std::unique_ptr<valijson::Schema> compile(const nlohmann::json& schema) const {
    auto result = std::make_unique<valijson::Schema>();
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.populateSchema(
        Adapter(schema), *result,
        [this](const std::string& uri) -> const nlohmann::json* {
          if (const auto* doc = document(uri)) return doc;
          throw std::runtime_error("schema reference to " + uri + ", which is not a registered schema");
        },
        [](const nlohmann::json*) {});  // registered documents are the registry's
    return result;
  }

  // Keeps a document under its file name and its $id; returns the $id.
  std::string register_document(std::string_view file_name, nlohmann::json guarded) {
    if (!guarded.is_object()) throw std::runtime_error("schema " + std::string(file_name) + " is not an object");
    std::string id = guarded.value("$id", std::string(file_name));
    guard_keywords(guarded);
    // valijson mis-scopes $id (NOTES: its draft-07 failures); documents are found by this
    // registry instead, so the copy it sees has none.
    guarded.erase("$id");
    // What was compiled from a document points into it: a name or $id stands for one document.
    for (const std::string& key : {std::string(file_name), id})
      if (const auto it = documents.find(key); it != documents.end() && it->second != guarded)
        throw std::runtime_error("schema " + key + " is already registered, as another document");
    if (id != file_name) documents[std::string(file_name)] = guarded;
    documents[id] = std::move(guarded);
    id_by_name[std::string(file_name)] = id;
    return id;
  }

  // A propertyNames schema (`node` holds it) with the definitions of its document, compiled.
  std::unique_ptr<valijson::Schema> compile_names(const nlohmann::json& doc, const nlohmann::json& node) const {
    nlohmann::json names_schema = {{"$ref", "#/names"}, {"names", node["propertyNames"]}};
    for (const char* definitions : {"definitions", "$defs"})
      if (doc.contains(definitions)) names_schema[definitions] = doc[definitions];
    return compile(names_schema);
  }
  // The propertyNames schema of a node of a registered document, compiled once (call under `compiling`).
  const valijson::Schema* kept_names(const nlohmann::json& doc, const nlohmann::json& node) const {
    auto& kept = compiled_names[&node];
    if (!kept) kept = compile_names(doc, node);
    return kept.get();
  }

  // The first look at a registered document or one of its definitions, made for its first
  // validation: valijson's compiled schema is made only for an instance the first look does not
  // find valid (a mock's scenario, validated once, costs a third less to start so).
  // By URI (under `compiling`).
  mutable std::map<std::string, std::unique_ptr<detail::SchemaFirstLook>, std::less<>> first_looks;

  // What validate needs of a URI once its first look is made, the steady state: found in one
  // look-up under one shared lock, where the maps above take one each (and two threads validating
  // take turns at the lock's cache line for each).
  struct Ready {
    const nlohmann::json* document;
    std::string fragment;
    const detail::SchemaFirstLook* look;
  };
  mutable std::map<std::string, Ready, std::less<>> ready;  // by URI (under `compiling`); only grows

  const detail::SchemaFirstLook* first_look_for(const std::string& uri) const {
    {
      std::shared_lock lock(compiling);
      if (auto it = first_looks.find(uri); it != first_looks.end()) return it->second.get();
    }
    std::unique_lock lock(compiling);
    auto& look = first_looks[uri];
    if (!look) {
      const auto hash = uri.find('#');
      look = std::make_unique<detail::SchemaFirstLook>(
          *document(uri), hash == std::string::npos ? std::string() : uri.substr(hash + 1));
    }
    return look.get();
  }

  // A registered document, or one of its definitions ("name#/definitions/X"), compiled once.
  const valijson::Schema& compiled_for(const std::string& uri) const {
    {
      std::shared_lock lock(compiling);
      if (auto it = compiled.find(uri); it != compiled.end()) return *it->second;
    }
    std::unique_lock lock(compiling);
    if (auto it = compiled.find(uri); it != compiled.end()) return *it->second;  // compiled meanwhile
    const nlohmann::json& doc = *document(uri);
    const auto hash = uri.find('#');
    if (hash == std::string::npos || hash + 1 == uri.size()) return *compiled.emplace(uri, compile(doc)).first->second;
    // A fragment: a root that refers to it locally, beside the document's definitions (draft-07
    // "definitions", 2020-12 "$defs"). valijson resolves the references inside a document it
    // fetched against the referring root, so the definitions are copied rather than fetched.
    nlohmann::json wrapper = {{"$ref", uri.substr(hash)}};
    for (const char* definitions : {"definitions", "$defs"})
      if (doc.contains(definitions)) wrapper[definitions] = doc[definitions];
    return *compiled.emplace(uri, compile(wrapper)).first->second;
  }

  static constexpr auto kMostInt64 = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  // Walks the containers themselves: nlohmann's iterators cost more than the test (a 4 MB tools/list
  // result is walked once a validation).
  static bool has_unsigned_over_int64(const nlohmann::json& value) {
    switch (value.type()) {
      case nlohmann::json::value_t::number_unsigned:
        return value.get_ref<const nlohmann::json::number_unsigned_t&>() > kMostInt64;
      case nlohmann::json::value_t::object:
        for (const auto& [name, member] : value.get_ref<const nlohmann::json::object_t&>())
          if (has_unsigned_over_int64(member)) return true;
        return false;
      case nlohmann::json::value_t::array:
        for (const auto& element : value.get_ref<const nlohmann::json::array_t&>())
          if (has_unsigned_over_int64(element)) return true;
        return false;
      default: return false;
    }
  }
  static nlohmann::json saturate(nlohmann::json value) {
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > kMostInt64) return kMostInt64;
    if (value.is_structured())
      for (auto& member : value) member = saturate(std::move(member));
    return value;
  }

  // `document_json` is the schema document and `fragment` the pointer in it of the schema
  // validated (empty for its root): the explanations read the schema from there.
  // `compiled_schema` gives valijson's compiled schema, compiled when first asked for: an
  // instance the first look finds valid never needs it.
  std::vector<SchemaViolation> run(const std::function<const valijson::Schema&()>& compiled_schema,
                                   const nlohmann::json& instance, const nlohmann::json* document_json,
                                   const std::string& fragment = {},
                                   const detail::SchemaFirstLook* look = nullptr) const {
    std::vector<SchemaViolation> out;
    // Most instances are valid. The first look settles most; valijson without results (it stops at
    // the first failure and keeps no account of errors) settles what the first look left; only a
    // failing instance is validated again, for detail. The first look leaves an integer past int64
    // that it reads to valijson (below), so it judges the instance as it is.
    const auto first = look ? look->judge(instance) : detail::Verdict::undecided;
    if (first == detail::Verdict::valid) return out;
    const valijson::Schema& schema = compiled_schema();
    // valijson reads every integer as a signed 64-bit one: 18446744073709551615 would be judged as
    // -1 ("less than 1"). Such an integer is judged as the largest it can read, which every
    // minimum lets through and every maximum below it refuses.
    std::optional<nlohmann::json> saturated;
    if (has_unsigned_over_int64(instance)) saturated = saturate(instance);
    const nlohmann::json& judged = saturated ? *saturated : instance;
    if (first == detail::Verdict::undecided && thread_validator().validate(schema, Adapter(judged), nullptr))
      return out;
    valijson::ValidationResults results;
    thread_validator().validate(schema, Adapter(judged), &results);
    struct Raw {
      std::string pointer;
      std::string message;
      std::string target;  // for a container message: where the real failure is
    };
    std::vector<Raw> all;
    valijson::ValidationResults::Error error;
    while (results.popError(error)) {
      Raw raw{context_to_pointer(error.context), error.description, {}};
      static const std::string property_prefix = "Failed to validate against schema associated with property name '";
      if (raw.message.rfind(property_prefix, 0) == 0) {
        const auto name = raw.message.substr(property_prefix.size(), raw.message.rfind('\'') - property_prefix.size());
        raw.target = raw.pointer + "/" + escape_pointer_token(name);
      } else if (is_container_message(raw.message)) {
        raw.target = raw.pointer;
      }
      all.push_back(std::move(raw));
    }
    auto add = [&](std::string pointer, std::string message) {
      for (const auto& o : out)
        if (o.pointer == pointer && o.message == message) return;
      out.push_back({std::move(pointer), std::move(message)});
    };
    for (const auto& raw : all) {
      if (raw.target.empty()) {
        add(raw.pointer, explain(document_json, fragment, raw.pointer, raw.message));
        continue;
      }
      // A container message stands only where nothing more specific was said at or below it.
      const bool explained = std::any_of(all.begin(), all.end(), [&](const Raw& o) {
        return &o != &raw && o.target.empty() && (o.pointer == raw.target || is_prefix_pointer(raw.target, o.pointer));
      });
      const bool deeper_container = std::any_of(all.begin(), all.end(), [&](const Raw& o) {
        return &o != &raw && !o.target.empty() && is_prefix_pointer(raw.target, o.target);
      });
      if (explained || deeper_container) continue;
      // valijson says nothing about a failed propertyNames: find the offending names.
      auto names = failing_member_names(document_json, fragment, raw.target, instance);
      if (names.empty()) add(raw.target, "does not match the schema");
      for (auto& [pointer, message] : names) add(pointer, message);
    }
    return out;
  }

  static bool is_container_message(const std::string& message) {
    for (const char* prefix :
         {"Failed to validate item #", "Failed to validate against child schema #",
          "Failed to validate against additional properties schema", "Failed to validate against a conditional schema"})
      if (message.rfind(prefix, 0) == 0) return true;
    return false;
  }

  // The subschema of a document that applies at an instance pointer, reached through
  // "properties" and "items" from the schema at `fragment` and following local $refs; null when
  // not that simple.
  static const nlohmann::json* schema_at(const nlohmann::json* doc, const std::string& fragment,
                                         const std::string& pointer) {
    if (!doc || (!fragment.empty() && (fragment[0] != '/' || !doc->contains(nlohmann::json::json_pointer(fragment)))))
      return nullptr;
    auto deref = [&](const nlohmann::json* n) -> const nlohmann::json* {
      for (int hops = 0; n && n->is_object() && n->contains("$ref"); ++hops) {
        const auto& ref = (*n)["$ref"];
        if (hops > 8 || !ref.is_string() || ref.get_ref<const std::string&>().rfind("#/", 0) != 0) return nullptr;
        const nlohmann::json::json_pointer target(ref.get<std::string>().substr(1));
        if (!doc->contains(target)) return nullptr;
        n = &doc->at(target);
      }
      return n;
    };
    nlohmann::json::json_pointer path(pointer);
    std::vector<std::string> tokens;
    while (!path.empty()) {
      tokens.insert(tokens.begin(), path.back());
      path.pop_back();
    }
    const nlohmann::json* node = deref(fragment.empty() ? doc : &doc->at(nlohmann::json::json_pointer(fragment)));
    for (const auto& token : tokens) {
      if (!node || !node->is_object()) return nullptr;
      if (auto props = node->find("properties"); props != node->end() && props->contains(token)) {
        node = deref(&(*props)[token]);
      } else if (auto items = node->find("items"); items != node->end() && items->is_object() && !token.empty() &&
                                                   std::isdigit(static_cast<unsigned char>(token[0]))) {
        node = deref(&*items);
      } else if (auto more = node->find("additionalProperties"); more != node->end() && more->is_object()) {
        node = deref(&*more);  // a map's values (servers by key)
      } else {
        return nullptr;
      }
    }
    return node;
  }

  // valijson's messages say what failed, not what was expected: add that from the schema.
  static std::string explain(const nlohmann::json* doc, const std::string& fragment, const std::string& pointer,
                             std::string message) {
    const nlohmann::json* node = schema_at(doc, fragment, pointer);
    if (!node || !node->is_object()) return message;
    if (message.rfind("Failed to match against any enum values", 0) == 0 && node->contains("enum")) {
      std::string list;
      for (const auto& v : (*node)["enum"]) list += (list.empty() ? "" : ", ") + v.dump();
      return "expected one of " + list;
    }
    if (message.rfind("Failed to match expected value set by 'const'", 0) == 0 && node->contains("const"))
      return "expected " + (*node)["const"].dump();
    if (message.rfind("Value type not permitted", 0) == 0 && node->contains("type"))
      return "expected type " + (*node)["type"].dump();
    // "Expected number less than or equal to 100.000000": the range, as the schema writes it.
    if (message.rfind("Expected number ", 0) == 0 && (node->contains("minimum") || node->contains("maximum"))) {
      if (!node->contains("maximum")) return "out of range (at least " + (*node)["minimum"].dump() + ")";
      if (!node->contains("minimum")) return "out of range (at most " + (*node)["maximum"].dump() + ")";
      return "out of range (" + (*node)["minimum"].dump() + " to " + (*node)["maximum"].dump() + ")";
    }
    return message;
  }

  // For a failure at `target` whose schema has propertyNames: each member name that breaks it
  // (valijson says nothing more than that the object failed).
  std::vector<std::pair<std::string, std::string>> failing_member_names(const nlohmann::json* doc,
                                                                        const std::string& fragment,
                                                                        const std::string& target,
                                                                        const nlohmann::json& instance) const {
    std::vector<std::pair<std::string, std::string>> out;
    const nlohmann::json* node = schema_at(doc, fragment, target);
    const nlohmann::json::json_pointer where(target);
    if (!node || !node->is_object() || !node->contains("propertyNames") || !instance.contains(where)) return out;
    const nlohmann::json& value = instance.at(where);
    if (!value.is_object()) return out;
    // Kept for the next time when the node is in a registered document (an inline schema's is
    // gone after its run, and its address may be another's next).
    const bool registered =
        std::any_of(documents.begin(), documents.end(), [&](const auto& entry) { return &entry.second == doc; });
    const valijson::Schema* names = nullptr;
    if (registered) {
      std::shared_lock lock(compiling);
      if (const auto it = compiled_names.find(node); it != compiled_names.end()) names = it->second.get();
    }
    std::unique_ptr<valijson::Schema> once;
    if (!names && registered) {
      std::unique_lock lock(compiling);
      names = kept_names(*doc, *node);
    } else if (!names) {
      once = compile_names(*doc, *node);
      names = once.get();
    }
    for (const auto& [key, member] : value.items()) {
      if (!thread_validator().validate(*names, Adapter(nlohmann::json(key)), nullptr)) {
        out.emplace_back(target + "/" + escape_pointer_token(key),
                         "the member name \"" + shorten(key, 60) + "\" is not of the form the schema allows" +
                             (key.size() > SchemaRegistry::pattern_length_limit ? " (too long to check)" : ""));
      }
    }
    return out;
  }
};

SchemaRegistry::SchemaRegistry() : impl_(std::make_unique<Impl>()) {}
SchemaRegistry::~SchemaRegistry() = default;
SchemaRegistry::SchemaRegistry(SchemaRegistry&&) noexcept = default;

void SchemaRegistry::add(std::string_view file_name, nlohmann::json schema) {
  impl_->compiled_for(impl_->register_document(file_name, std::move(schema)));  // a broken schema fails here
}

void SchemaRegistry::add_lazily(std::string_view file_name, nlohmann::json schema) {
  impl_->register_document(file_name, std::move(schema));
}

bool SchemaRegistry::contains(std::string_view name_or_id) const { return impl_->document(name_or_id) != nullptr; }

const nlohmann::json* SchemaRegistry::document(std::string_view name_or_id) const {
  return impl_->document(name_or_id);
}

std::vector<std::string> SchemaRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, id] : impl_->id_by_name) out.push_back(name);
  return out;
}

std::vector<SchemaViolation> SchemaRegistry::validate(std::string_view name_or_id,
                                                      const nlohmann::json& instance) const {
  const Impl::Ready* ready = nullptr;
  {
    std::shared_lock lock(impl_->compiling);
    if (const auto it = impl_->ready.find(name_or_id); it != impl_->ready.end()) ready = &it->second;
  }
  const auto compiled = [&]() -> const valijson::Schema& { return impl_->compiled_for(std::string(name_or_id)); };
  if (ready) return impl_->run(compiled, instance, ready->document, ready->fragment, ready->look);
  std::string uri(name_or_id);
  const nlohmann::json* document = impl_->document(uri);
  if (!document) throw std::runtime_error("unknown schema '" + uri + "'");
  const auto hash = uri.find('#');
  std::string fragment = hash == std::string::npos ? std::string() : uri.substr(hash + 1);
  const detail::SchemaFirstLook* look = impl_->first_look_for(uri);
  {
    std::unique_lock lock(impl_->compiling);
    impl_->ready.emplace(uri, Impl::Ready{document, fragment, look});
  }
  return impl_->run(compiled, instance, document, fragment, look);
}

SchemaRegistry::FirstLookCounts SchemaRegistry::first_look_counts(std::string_view uri) const {
  std::shared_lock lock(impl_->compiling);
  const auto it = impl_->first_looks.find(uri);
  if (it == impl_->first_looks.end() || !it->second) return {};
  const auto counts = it->second->counts();
  return {counts.valid, counts.invalid, counts.undecided};
}

std::vector<SchemaViolation> SchemaRegistry::validate_inline(const nlohmann::json& schema,
                                                             const nlohmann::json& instance) const {
  // {"$ref": "<registered name or $id>[#fragment]"} names a registered schema.
  if (schema.is_object() && schema.size() == 1 && schema.contains("$ref") && schema["$ref"].is_string() &&
      impl_->document(schema["$ref"].get<std::string>()))
    return validate(schema["$ref"].get<std::string>(), instance);
  nlohmann::json guarded = schema;
  guard_keywords(guarded);
  const auto compiled = impl_->compile(guarded);
  return impl_->run([&]() -> const valijson::Schema& { return *compiled; }, instance, &guarded);
}

}  // namespace mcp_hints
