// The only translation unit that includes valijson (it is slow to compile).
#include "mcp_hints/json/schema_registry.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <limits>
#include <locale>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <unordered_map>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"

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

// std::regex (used by valijson for `pattern`) overflows the stack on long strings, so every
// `pattern` is rewritten to run only on strings within the limit; a longer string fails a
// maxLength check instead, at its own pointer.
void guard_patterns(nlohmann::json& node) {
  if (node.is_array()) {
    for (auto& item : node) guard_patterns(item);
    return;
  }
  if (!node.is_object()) return;
  if (node.contains("patternProperties"))
    throw std::runtime_error("patternProperties is not supported: its regex would run on unbounded member names");
  for (auto& [key, child] : node.items()) {
    if (key != "enum" && key != "const" && key != "default" && key != "examples") guard_patterns(child);
  }
  auto pattern = node.find("pattern");
  if (pattern == node.end() || !pattern->is_string()) return;
  const auto limit = SchemaRegistry::pattern_length_limit;
  nlohmann::json guarded = {
      {"if", {{"maxLength", limit}}}, {"then", {{"pattern", *pattern}}}, {"else", {{"maxLength", limit}}}};
  node.erase("pattern");
  node["allOf"].push_back(std::move(guarded));
}

// valijson's validator caches the regular expressions of `pattern`s as it meets them: one a thread,
// shared by every registry (the cache is by pattern), lets threads validate at once.
valijson::Validator& thread_validator() {
  // std::regex reads characters through the locale's ctype<char>::narrow, whose table libstdc++
  // fills one character at a time as they are met: threads compiling patterns at once would
  // write it together. Filled whole once, before any validator is made, it is only read.
  static const bool narrow_table_filled = [] {
    char all[256], narrowed[256];
    for (int c = 0; c < 256; ++c) all[c] = static_cast<char>(c);
    std::use_facet<std::ctype<char>>(std::locale()).narrow(all, all + 256, '\0', narrowed);
    return true;
  }();
  (void)narrow_table_filled;
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

  // The first pass over a whole registered document, where it has propertyNames on a plain path
  // from its root (through inline `properties` only): the document compiled without them, and
  // each of them, to judge the member names found there one distinct name at a time. The spec's
  // `_meta` key pattern, through std::regex on every key of every tool, was a tenth of lint.
  struct NamesAt {
    std::vector<std::string> path;  // the members from the instance's root to the object
    const valijson::Schema* names;  // the propertyNames schema, compiled (kept in compiled_names)
    std::uint64_t serial;           // never reused: the key of a thread's verdicts on names
  };
  struct FastPass {
    std::unique_ptr<valijson::Schema> without_names;  // null until made, and where there is nothing to take out
    std::vector<NamesAt> names;
    std::atomic<std::uint32_t> validations{0};
    bool decided = false;  // made, or found not to apply
  };
  // Compiling a document again pays only over many instances (a mock validates one scenario, lint
  // every tool): the first pass is made for a document's this-many'th validation.
  static constexpr std::uint32_t validations_before_a_first_pass = 64;
  // By document URI (under `compiling`).
  mutable std::map<std::string, std::unique_ptr<FastPass>, std::less<>> fast_passes;

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
  std::string register_document(std::string_view file_name, const nlohmann::json& schema) {
    if (!schema.is_object()) throw std::runtime_error("schema " + std::string(file_name) + " is not an object");
    nlohmann::json guarded = schema;
    guard_patterns(guarded);
    // valijson mis-scopes $id (NOTES: its draft-07 failures); documents are found by this
    // registry instead, so the copy it sees has none.
    guarded.erase("$id");
    std::string id = schema.value("$id", std::string(file_name));
    documents[std::string(file_name)] = guarded;
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

  // Whether any $ref of the document could lead into its root or its inline properties ("#",
  // "#/properties/..."): a propertyNames there could then apply where the plain path does not reach.
  static bool refers_into_root(const nlohmann::json& node) {
    if (node.is_array()) return std::any_of(node.begin(), node.end(), refers_into_root);
    if (!node.is_object()) return false;
    if (const auto ref = node.find("$ref"); ref != node.end() && ref->is_string()) {
      const auto& target = ref->get_ref<const std::string&>();
      if (target == "#" || target.rfind("#/properties", 0) == 0) return true;
    }
    for (const auto& [key, child] : node.items())
      if (key != "enum" && key != "const" && key != "default" && key != "examples" && refers_into_root(child))
        return true;
    return false;
  }
  // Takes each propertyNames on a plain path out of `copy` (the same place in a copy of `doc`).
  void take_names(const nlohmann::json& doc, const nlohmann::json& node, nlohmann::json& copy,
                  std::vector<std::string>& path, FastPass& pass) const {
    // A $ref's siblings are not read (draft-07), so nothing below one is on a plain path.
    if (!node.is_object() || node.contains("$ref")) return;
    if (node.contains("propertyNames")) {
      pass.names.push_back({path, kept_names(doc, node), next_serial()});
      copy.erase("propertyNames");
    }
    const auto properties = node.find("properties");
    if (properties == node.end() || !properties->is_object()) return;
    for (const auto& [key, child] : properties->items()) {
      path.push_back(key);
      take_names(doc, child, copy["properties"][key], path, pass);
      path.pop_back();
    }
  }
  static std::uint64_t next_serial() {
    static std::atomic<std::uint64_t> serial{0};
    return ++serial;
  }
  // The first pass for a whole registered document; null when it has no propertyNames on a plain
  // path (or a $ref that could reach one by another way).
  const FastPass* fast_pass_for(const std::string& uri) const {
    if (uri.find('#') != std::string::npos) return nullptr;
    {
      std::shared_lock lock(compiling);
      if (auto it = fast_passes.find(uri); it != fast_passes.end()) {
        FastPass& pass = *it->second;
        if (pass.decided) return pass.without_names ? &pass : nullptr;
        if (++pass.validations < validations_before_a_first_pass) return nullptr;
      }
    }
    std::unique_lock lock(compiling);
    auto& pass = fast_passes[uri];
    if (!pass) pass = std::make_unique<FastPass>();
    if (pass->decided) return pass->without_names ? pass.get() : nullptr;
    if (pass->validations < validations_before_a_first_pass) return nullptr;
    pass->decided = true;
    const nlohmann::json& doc = *document(uri);
    if (refers_into_root(doc)) return nullptr;
    nlohmann::json copy = doc;
    std::vector<std::string> path;
    take_names(doc, doc, copy, path, *pass);
    if (pass->names.empty()) return nullptr;
    pass->without_names = compile(copy);
    return pass.get();
  }

  // Whether an instance passes the whole document, by the first pass: the document without the
  // propertyNames, then the member names where they stood, each distinct name judged once a thread.
  static bool passes(const FastPass& pass, const nlohmann::json& instance) {
    if (!thread_validator().validate(*pass.without_names, Adapter(instance), nullptr)) return false;
    thread_local std::map<std::uint64_t, std::unordered_map<std::string, bool>> verdicts;
    for (const auto& at : pass.names) {
      const nlohmann::json* value = &instance;
      for (const auto& member : at.path) {
        if (!value->is_object()) break;
        const auto it = value->find(member);
        value = it == value->end() ? nullptr : &*it;
        if (!value) break;
      }
      if (!value || !value->is_object()) continue;
      auto& known = verdicts[at.serial];
      if (known.size() > 65536) known.clear();  // bounded: a catalog of ever new names
      for (const auto& [key, member] : value->items()) {
        auto [it, added] = known.try_emplace(key, false);
        if (added) it->second = thread_validator().validate(*at.names, Adapter(nlohmann::json(key)), nullptr);
        if (!it->second) return false;
      }
    }
    return true;
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
  std::vector<SchemaViolation> run(const valijson::Schema& schema, const nlohmann::json& instance,
                                   const nlohmann::json* document_json, const std::string& fragment = {},
                                   const FastPass* fast = nullptr) const {
    std::vector<SchemaViolation> out;
    // valijson reads every integer as a signed 64-bit one: 18446744073709551615 would be judged as
    // -1 ("less than 1"). Such an integer is judged as the largest it can read, which every
    // minimum lets through and every maximum below it refuses.
    std::optional<nlohmann::json> saturated;
    if (has_unsigned_over_int64(instance)) saturated = saturate(instance);
    const nlohmann::json& judged = saturated ? *saturated : instance;
    // Most instances are valid: a first pass without results stops at the first failure and
    // skips valijson's error bookkeeping; only a failing instance is validated again for detail.
    if (fast ? passes(*fast, judged) : thread_validator().validate(schema, Adapter(judged), nullptr)) return out;
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

void SchemaRegistry::add(std::string_view file_name, const nlohmann::json& schema) {
  impl_->compiled_for(impl_->register_document(file_name, schema));  // a broken schema fails here
}

void SchemaRegistry::add_lazily(std::string_view file_name, const nlohmann::json& schema) {
  impl_->register_document(file_name, schema);
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
  std::string uri(name_or_id);
  if (!impl_->document(uri)) throw std::runtime_error("unknown schema '" + uri + "'");
  const auto hash = uri.find('#');
  const std::string fragment = hash == std::string::npos ? std::string() : uri.substr(hash + 1);
  return impl_->run(impl_->compiled_for(uri), instance, impl_->document(uri), fragment, impl_->fast_pass_for(uri));
}

std::vector<SchemaViolation> SchemaRegistry::validate_inline(const nlohmann::json& schema,
                                                             const nlohmann::json& instance) const {
  // {"$ref": "<registered name or $id>[#fragment]"} names a registered schema.
  if (schema.is_object() && schema.size() == 1 && schema.contains("$ref") && schema["$ref"].is_string() &&
      impl_->document(schema["$ref"].get<std::string>()))
    return validate(schema["$ref"].get<std::string>(), instance);
  nlohmann::json guarded = schema;
  guard_patterns(guarded);
  return impl_->run(*impl_->compile(guarded), instance, &guarded);
}

}  // namespace mcp_hints
