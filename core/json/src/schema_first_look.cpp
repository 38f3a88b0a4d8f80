#include "schema_first_look.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <limits>
#include <locale>
#include <string_view>

#include "mcp_hints/json/member.hpp"

namespace mcp_hints::detail {
namespace {

using json = nlohmann::json;

// Deeper than this (a chain of references, or schemas inside schemas) the first look stands aside.
constexpr int kMaxDepth = 200;
// Verdicts kept per thread for one names schema or pattern, on strings up to this long; past
// this many they are dropped and kept again (a catalog of ever new names).
constexpr std::size_t kMaxKeptVerdicts = 65536;
constexpr std::size_t kMaxKeptLength = 256;

enum TypeBit : std::uint8_t {
  kNull = 1,
  kBoolean = 2,
  kInteger = 4,
  kNumber = 8,
  kString = 16,
  kArray = 32,
  kObject = 64,
};

std::uint8_t type_bit(const json& name) {
  if (!name.is_string()) return 0;
  const auto& text = name.get_ref<const std::string&>();
  if (text == "null") return kNull;
  if (text == "boolean") return kBoolean;
  if (text == "integer") return kInteger;
  if (text == "number") return kNumber;
  if (text == "string") return kString;
  if (text == "array") return kArray;
  if (text == "object") return kObject;
  return 0;
}

// valijson with strict types: an integer is "integer" and "number", a float only "number".
Verdict of_type(std::uint8_t types, const json& value) {
  switch (value.type()) {
    case json::value_t::null: return types & kNull ? Verdict::valid : Verdict::invalid;
    case json::value_t::boolean: return types & kBoolean ? Verdict::valid : Verdict::invalid;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return types & (kInteger | kNumber) ? Verdict::valid : Verdict::invalid;
    case json::value_t::number_float: return types & kNumber ? Verdict::valid : Verdict::invalid;
    case json::value_t::string: return types & kString ? Verdict::valid : Verdict::invalid;
    case json::value_t::array: return types & kArray ? Verdict::valid : Verdict::invalid;
    case json::value_t::object: return types & kObject ? Verdict::valid : Verdict::invalid;
    default: return Verdict::undecided;
  }
}

// An integer valijson cannot read as a signed 64-bit one: the registry judges it as the largest it
// can (SchemaRegistry), which the first look does not weigh. It leaves every verdict that reads
// one to valijson, and so judges an instance as it is, whichever such integers it holds.
bool past_int64(const json& value) {
  return value.is_number_unsigned() && value.get_ref<const json::number_unsigned_t&>() >
                                           static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
}

// A schema of types alone: what judge() finds for it, without the rest of its walk (an integer
// past int64 is left undecided there, whatever the types).
Verdict of_types_alone(std::uint8_t types, const json& value) {
  const Verdict v = of_type(types, value);
  return v == Verdict::valid && past_int64(value) ? Verdict::undecided : v;
}

// Equality as `const`, `enum` and `uniqueItems` need it ("valid": equal). An integer and a float
// are not compared: how valijson weighs 1 against 1.0 is left to valijson.
Verdict same(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_number_float() != b.is_number_float() || past_int64(a) || past_int64(b)) return Verdict::undecided;
    return a == b ? Verdict::valid : Verdict::invalid;
  }
  if (a.type() != b.type()) return Verdict::invalid;
  Verdict seen = Verdict::valid;
  switch (a.type()) {
    case json::value_t::array: {
      const auto& x = a.get_ref<const json::array_t&>();
      const auto& y = b.get_ref<const json::array_t&>();
      if (x.size() != y.size()) return Verdict::invalid;
      for (std::size_t i = 0; i < x.size(); ++i) {
        const Verdict v = same(x[i], y[i]);
        if (v == Verdict::invalid) return v;
        if (v == Verdict::undecided) seen = v;
      }
      return seen;
    }
    case json::value_t::object: {
      const auto& x = a.get_ref<const json::object_t&>();
      const auto& y = b.get_ref<const json::object_t&>();
      if (x.size() != y.size()) return Verdict::invalid;
      for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j) {
        if (i->first != j->first) return Verdict::invalid;
        const Verdict v = same(i->second, j->second);
        if (v == Verdict::invalid) return v;
        if (v == Verdict::undecided) seen = v;
      }
      return seen;
    }
    case json::value_t::binary: return Verdict::undecided;
    default: return a == b ? Verdict::valid : Verdict::invalid;
  }
}

std::optional<std::uint64_t> count_of(const json& value) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer() && value.get<std::int64_t>() >= 0)
    return static_cast<std::uint64_t>(value.get<std::int64_t>());
  return std::nullopt;
}

std::uint64_t next_serial() {
  static std::atomic<std::uint64_t> serial{0};
  return ++serial;
}

// A thread's verdict on a string for one names schema or pattern (by its never reused serial),
// judged by `judge` the first time.
template <typename Judge>
Verdict kept_verdict(std::uint64_t serial, const std::string& text, const Judge& judge) {
  if (text.size() > kMaxKeptLength) return judge();
  thread_local std::unordered_map<std::uint64_t, std::unordered_map<std::string, Verdict>> kept;
  auto& verdicts = kept[serial];
  if (const auto it = verdicts.find(text); it != verdicts.end()) return it->second;
  if (verdicts.size() >= kMaxKeptVerdicts) verdicts.clear();
  const Verdict verdict = judge();
  verdicts.emplace(text, verdict);
  return verdict;
}

}  // namespace

void fill_regex_narrow_table() {
  // std::regex reads characters through the locale's ctype<char>::narrow, whose table libstdc++
  // fills one character at a time as they are met: threads compiling patterns at once would
  // write it together. Filled whole once, before any pattern is compiled, it is only read.
  static const bool filled = [] {
    char all[256], narrowed[256];
    for (int c = 0; c < 256; ++c) all[c] = static_cast<char>(c);
    std::use_facet<std::ctype<char>>(std::locale()).narrow(all, all + 256, '\0', narrowed);
    return true;
  }();
  (void)filled;
}

// std::regex's traits, answering as they do, sooner. Compiling a bracket expression ("[a-z0-9-]")
// tries each of the 256 characters against it, and for each the standard traits look the
// locale's facets up for a character class the bracket may not hold, and build the character's
// primary sort key (for [[=x=]] classes) in new strings: most of what compiling a schema's
// patterns costs a process that starts (a mock server). Here no class asked for matches nothing
// at once, as the standard traits find after looking it up, and one character's primary key is
// read from a table made once, with the same locale. (Outside the anonymous namespace: Pattern,
// which the header declares, derives from a regex of these traits.)
struct QuickRegexTraits : std::regex_traits<char> {
  bool isctype(char c, char_class_type f) const { return f != char_class_type() && regex_traits::isctype(c, f); }

  template <typename Iterator>
  string_type transform_primary(Iterator first, Iterator last) const {
    struct Table {
      std::locale locale;
      std::array<string_type, 256> keys;
    };
    static const Table table = [] {
      Table t;
      const std::regex_traits<char> standard;
      t.locale = standard.getloc();
      for (int c = 0; c < 256; ++c) {
        const char one = static_cast<char>(c);
        t.keys[static_cast<std::size_t>(c)] = standard.transform_primary(&one, &one + 1);
      }
      return t;
    }();
    if (std::distance(first, last) == 1 && _M_locale == table.locale)
      return table.keys[static_cast<unsigned char>(*first)];
    return regex_traits::transform_primary(first, last);
  }
};

// A pattern as std::regex (and valijson) reads and matches it.
struct SchemaFirstLook::Pattern : std::basic_regex<char, QuickRegexTraits> {
  using basic_regex::basic_regex;
};

struct SchemaFirstLook::Node {
  bool fixed = false;  // a boolean schema, or one the first look does not read: `verdict` always
  Verdict verdict = Verdict::valid;
  const Node* target = nullptr;  // a $ref: its siblings are not read (draft-07)
  std::uint8_t types = 0;        // TypeBits; 0: no `type`
  const json* constant = nullptr;
  bool has_enum = false;
  std::vector<const json*> enum_values;
  // Objects.
  bool has_properties = false;                                  // properties or additionalProperties
  std::vector<std::pair<std::string, const Node*>> properties;  // by name, in the order of an object's members
  const Node* additional = nullptr;                             // additionalProperties as a schema
  bool additional_forbidden = false;                            // additionalProperties: false
  std::vector<std::string> required;
  // dependencies: a member that, when present, needs others present too, or the whole object
  // valid against a schema.
  std::vector<std::pair<std::string, std::vector<std::string>>> needs_members;
  std::vector<std::pair<std::string, const Node*>> needs_schema;
  const Node* names = nullptr;  // propertyNames
  std::uint64_t names_serial = 0;
  std::optional<std::uint64_t> min_properties, max_properties;
  // Arrays.
  const Node* items = nullptr;
  std::optional<std::uint64_t> min_items, max_items;
  bool unique_items = false;
  // Strings.
  std::optional<std::uint64_t> min_length, max_length;
  std::unique_ptr<Pattern> pattern;
  std::uint64_t pattern_serial = 0;
  bool has_format = false, dated_format = false;  // date, time and date-time are checked by valijson
  // Numbers.
  std::optional<double> minimum, maximum, exclusive_minimum, exclusive_maximum;
  // Combinations.
  std::vector<const Node*> all_of, any_of, one_of;
  const Node* negated = nullptr;
  const Node *condition = nullptr, *then = nullptr, *otherwise = nullptr;
  // Nothing but `type` (most leaves: "type": "string"): judged by its types alone, at once. Set
  // from the node compared with one that has only its types, so no keyword read can be missed.
  bool only_types = false;

  bool operator==(const Node&) const = default;
};

SchemaFirstLook::SchemaFirstLook(const nlohmann::json& document, const std::string& fragment)
    : document_(document), whole_document_(fragment.empty()) {
  fill_regex_narrow_table();
  try {
    root_schema_ = whole_document_ ? &document : &document.at(json::json_pointer(fragment));
    referred_.insert(root_schema_);  // a fragment is validated through a reference to it
    find_referred(document, 0);
    root_ = compile(*root_schema_, 0);
  } catch (const json::exception&) {
    root_ = nullptr;
  }
}

void SchemaFirstLook::find_referred(const json& node, int depth) {
  if (depth > kMaxDepth) return;
  if (node.is_array()) {
    for (const auto& item : node) find_referred(item, depth + 1);
    return;
  }
  if (!node.is_object()) return;
  if (const auto ref = node.find("$ref"); ref != node.end() && ref->is_string()) {
    if (const json* target = referred_node(ref->get_ref<const std::string&>())) referred_.insert(target);
  }
  for (const auto& [keyword, child] : node.items()) {
    const std::string_view key = keyword;  // compared by length first
    if (key != "enum" && key != "const" && key != "default" && key != "examples") find_referred(child, depth + 1);
  }
}

const json* SchemaFirstLook::referred_node(const std::string& reference) const {
  // Only a reference inside the document; valijson trims a pointer's trailing slashes.
  if (reference.empty() || reference[0] != '#' || reference.find('%') != std::string::npos) return nullptr;
  std::string pointer = reference.substr(1);
  while (!pointer.empty() && pointer.back() == '/') pointer.pop_back();
  if (pointer.empty()) return root_schema_;
  // Validating a fragment, valijson sees a root that refers to it, beside the document's
  // definitions: only those are where they are in the document.
  if (!whole_document_ && pointer.rfind("/definitions/", 0) != 0 && pointer.rfind("/$defs/", 0) != 0) return nullptr;
  try {
    const json::json_pointer at(pointer);
    return document_.contains(at) ? &document_.at(at) : nullptr;
  } catch (const json::exception&) {
    return nullptr;
  }
}

SchemaFirstLook::~SchemaFirstLook() = default;

const SchemaFirstLook::Node* SchemaFirstLook::compile(const json& schema, int depth) {
  if (const auto it = compiled_.find(&schema); it != compiled_.end()) return it->second;
  Node& node = nodes_.emplace_back();
  compiled_.emplace(&schema, &node);
  const auto stand_aside = [&node]() -> const Node* {
    node = Node{};
    node.fixed = true;
    node.verdict = Verdict::undecided;
    return &node;
  };
  if (depth > kMaxDepth) return stand_aside();
  if (schema.is_boolean()) {
    node.fixed = true;
    node.verdict = schema.get<bool>() ? Verdict::valid : Verdict::invalid;
    return &node;
  }
  if (!schema.is_object()) return stand_aside();
  if (const auto ref = schema.find("$ref"); ref != schema.end()) {
    if (!ref->is_string()) return stand_aside();
    const json* target = referred_node(ref->get_ref<const std::string&>());
    if (!target) return stand_aside();
    node.target = compile(*target, depth + 1);
    return &node;
  }
  const auto subschema = [&](const json& child) -> const Node* { return compile(child, depth + 1); };
  const auto schemas = [&](const json& list, std::vector<const Node*>& into) {
    if (!list.is_array()) return false;
    for (const auto& child : list) into.push_back(subschema(child));
    return true;
  };
  const auto count = [&](const json& value, std::optional<std::uint64_t>& into) {
    into = count_of(value);
    return into.has_value();
  };
  const auto number = [&](const json& value, std::optional<double>& into) {
    if (!value.is_number()) return false;
    into = value.get<double>();
    return true;
  };
  // valijson's reading of dependencies (draft 7): a list of names, or a schema. A name with a NUL in
  // it (valijson cuts it there), a name that is not a string, or any other value is left to it.
  // valijson builds every dependent schema at the path of `dependencies` itself, and a reference
  // into it may have left another schema in its cache there: where one points in, it is left to
  // valijson.
  const auto referred_within = [this](const json& value, const auto& self) -> bool {
    if (referred_.contains(&value)) return true;
    if (value.is_structured())
      for (const auto& child : value)
        if (self(child, self)) return true;
    return false;
  };
  const auto dependencies = [&](const json& list) {
    if (!list.is_object() || referred_within(list, referred_within)) return false;
    const auto plain = [](const std::string& name) { return name.find('\0') == std::string::npos; };
    for (const auto& [name, needs] : list.items()) {
      if (!plain(name)) return false;
      if (needs.is_array()) {
        std::vector<std::string> names;
        for (const auto& other : needs) {
          if (!other.is_string() || !plain(other.get_ref<const std::string&>())) return false;
          names.push_back(other.get<std::string>());
        }
        node.needs_members.emplace_back(name, std::move(names));
      } else if (needs.is_object() || needs.is_boolean()) {  // an empty object is an empty list to valijson: alike
        node.needs_schema.emplace_back(name, subschema(needs));
      } else {
        return false;
      }
    }
    return true;
  };
  bool read = true;
  const json* then = nullptr;
  const json* otherwise = nullptr;
  for (const auto& [keyword, value] : schema.items()) {
    const std::string_view key = keyword;  // compared by length first, against some thirty keywords
    if (key == "type") {
      if (value.is_array()) {
        for (const auto& name : value) {
          const auto bit = type_bit(name);
          read = read && bit != 0;
          node.types |= bit;
        }
        read = read && !value.empty();
      } else {
        node.types = type_bit(value);
        read = node.types != 0;
      }
    } else if (key == "const") {
      node.constant = &value;
    } else if (key == "enum") {
      node.has_enum = true;
      read = value.is_array();
      if (read)
        for (const auto& v : value) node.enum_values.push_back(&v);
    } else if (key == "properties") {
      node.has_properties = true;
      read = value.is_object();
      if (read)
        for (const auto& [name, child] : value.items()) node.properties.emplace_back(name, subschema(child));
    } else if (key == "additionalProperties") {
      node.has_properties = true;
      if (value.is_boolean())
        node.additional_forbidden = !value.get<bool>();
      else if (value.is_object())
        node.additional = subschema(value);
      else
        read = false;
    } else if (key == "required") {
      read = value.is_array() && std::all_of(value.begin(), value.end(), [](const json& n) { return n.is_string(); });
      if (read)
        for (const auto& name : value) node.required.push_back(name.get<std::string>());
    } else if (key == "dependencies") {
      read = dependencies(value);
    } else if (key == "propertyNames") {
      // valijson judges the names of an object whose schema is the target of a reference (or the
      // root) against that schema itself, not against its propertyNames.
      read = !referred_.contains(&schema);
      node.names = subschema(value);
      node.names_serial = next_serial();
    } else if (key == "minProperties") {
      read = count(value, node.min_properties);
    } else if (key == "maxProperties") {
      read = count(value, node.max_properties);
    } else if (key == "items") {
      read = !value.is_array();  // a list of schemas, one an element, is valijson's to read
      if (read) node.items = subschema(value);
    } else if (key == "minItems") {
      read = count(value, node.min_items);
    } else if (key == "maxItems") {
      read = count(value, node.max_items);
    } else if (key == "uniqueItems") {
      read = value.is_boolean();
      node.unique_items = read && value.get<bool>();
    } else if (key == "minLength") {
      read = count(value, node.min_length);
    } else if (key == "maxLength") {
      read = count(value, node.max_length);
    } else if (key == "pattern") {
      read = value.is_string();
      if (read) {
        try {
          node.pattern = std::make_unique<Pattern>(value.get<std::string>());
          node.pattern_serial = next_serial();
        } catch (const std::regex_error&) {
          read = false;
        }
      }
    } else if (key == "format") {
      read = value.is_string();
      node.has_format = true;
      if (read) {
        const auto& format = value.get_ref<const std::string&>();
        node.dated_format = format == "date" || format == "time" || format == "date-time";
      }
    } else if (key == "minimum") {
      read = number(value, node.minimum);
    } else if (key == "maximum") {
      read = number(value, node.maximum);
    } else if (key == "exclusiveMinimum") {
      read = number(value, node.exclusive_minimum);
    } else if (key == "exclusiveMaximum") {
      read = number(value, node.exclusive_maximum);
    } else if (key == "allOf") {
      read = schemas(value, node.all_of);
    } else if (key == "anyOf") {
      read = schemas(value, node.any_of);
    } else if (key == "oneOf") {
      read = schemas(value, node.one_of);
    } else if (key == "not") {
      node.negated = subschema(value);
    } else if (key == "if") {
      node.condition = subschema(value);
    } else if (key == "then") {
      then = &value;
    } else if (key == "else") {
      otherwise = &value;
    } else if (key == "id" || key == "contains" || key == "multipleOf" || key == "divisibleBy" ||
               key == "patternProperties" || key == "extends" || key == "disallow") {
      read = false;  // valijson reads these; the first look does not
    }
    // Every other member is one valijson does not read either (title, description, definitions, ...).
    if (!read) return stand_aside();
  }
  if (node.condition) {
    if (then) node.then = subschema(*then);
    if (otherwise) node.otherwise = subschema(*otherwise);
  }
  std::sort(node.properties.begin(), node.properties.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  Node types_alone;
  types_alone.types = node.types;
  node.only_types = node.types != 0 && node == types_alone;
  return &node;
}

Verdict SchemaFirstLook::judge(const nlohmann::json& instance) const {
  const Verdict verdict = root_ ? judge(*root_, instance, 0) : Verdict::undecided;
  (verdict == Verdict::valid     ? valid_
   : verdict == Verdict::invalid ? invalid_
                                 : undecided_)
      .fetch_add(1, std::memory_order_relaxed);
  return verdict;
}

SchemaFirstLook::Counts SchemaFirstLook::counts() const {
  return {valid_.load(std::memory_order_relaxed), invalid_.load(std::memory_order_relaxed),
          undecided_.load(std::memory_order_relaxed)};
}

Verdict SchemaFirstLook::judge(const Node& start, const json& value, int depth) const {
  const Node* node = &start;
  for (; node->target; node = node->target)
    if (++depth > kMaxDepth) return Verdict::undecided;
  if (++depth > kMaxDepth) return Verdict::undecided;
  if (node->fixed) return node->verdict;
  if (node->only_types) return of_types_alone(node->types, value);
  Verdict seen = Verdict::valid;
  // Notes a part's verdict; true when it settles the whole as invalid.
  const auto failed = [&seen](Verdict v) {
    if (v == Verdict::undecided) seen = v;
    return v == Verdict::invalid;
  };
  if (node->types && failed(of_type(node->types, value))) return Verdict::invalid;
  if (node->constant && failed(same(*node->constant, value))) return Verdict::invalid;
  if (node->has_enum) {
    Verdict any = Verdict::invalid;
    for (const json* allowed : node->enum_values) {
      const Verdict v = same(*allowed, value);
      if (v == Verdict::valid) {
        any = v;
        break;
      }
      if (v == Verdict::undecided) any = v;
    }
    if (failed(any)) return Verdict::invalid;
  }
  switch (value.type()) {
    case json::value_t::object:
      if (failed(judge_object(*node, value.get_ref<const json::object_t&>(), depth))) return Verdict::invalid;
      if (failed(judge_dependencies(*node, value, depth))) return Verdict::invalid;
      break;
    case json::value_t::array:
      if (failed(judge_array(*node, value.get_ref<const json::array_t&>(), depth))) return Verdict::invalid;
      break;
    case json::value_t::string:
      if (failed(judge_string(*node, value.get_ref<const std::string&>()))) return Verdict::invalid;
      break;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: {
      if (past_int64(value)) return Verdict::undecided;
      // valijson compares every number as a double.
      const double number = value.get<double>();
      if ((node->minimum && number < *node->minimum) || (node->maximum && number > *node->maximum) ||
          (node->exclusive_minimum && number <= *node->exclusive_minimum) ||
          (node->exclusive_maximum && number >= *node->exclusive_maximum))
        return Verdict::invalid;
      break;
    }
    default: break;
  }
  // Of the formats valijson checks only dates and times. A format is met on strings only: the
  // registry puts every one under {"if": {"type": "string"}} (guard_keywords).
  if (node->has_format && node->dated_format) seen = Verdict::undecided;
  for (const Node* part : node->all_of)
    if (failed(judge(*part, value, depth))) return Verdict::invalid;
  if (!node->any_of.empty()) {
    Verdict any = Verdict::invalid;
    for (const Node* part : node->any_of) {
      const Verdict v = judge(*part, value, depth);
      if (v == Verdict::valid) {
        any = v;
        break;
      }
      if (v == Verdict::undecided) any = v;
    }
    if (failed(any)) return Verdict::invalid;
  }
  if (!node->one_of.empty()) {
    int valid = 0;
    bool undecided = false;
    for (const Node* part : node->one_of) {
      const Verdict v = judge(*part, value, depth);
      valid += v == Verdict::valid;
      undecided = undecided || v == Verdict::undecided;
    }
    if (valid > 1) return Verdict::invalid;
    if (failed(undecided ? Verdict::undecided : valid == 1 ? Verdict::valid : Verdict::invalid))
      return Verdict::invalid;
  }
  if (node->negated) {
    const Verdict v = judge(*node->negated, value, depth);
    if (failed(v == Verdict::valid ? Verdict::invalid : v == Verdict::invalid ? Verdict::valid : v))
      return Verdict::invalid;
  }
  if (node->condition) {
    const Verdict v = judge(*node->condition, value, depth);
    const Node* branch = v == Verdict::valid ? node->then : node->otherwise;
    if (v == Verdict::undecided)
      seen = v;
    else if (branch && failed(judge(*branch, value, depth)))
      return Verdict::invalid;
  }
  return seen;
}

Verdict SchemaFirstLook::judge_object(const Node& node, const json::object_t& object, int depth) const {
  if ((node.min_properties && object.size() < *node.min_properties) ||
      (node.max_properties && object.size() > *node.max_properties))
    return Verdict::invalid;
  for (const auto& name : node.required)
    if (!member(object, name)) return Verdict::invalid;
  Verdict seen = Verdict::valid;
  if (node.has_properties) {
    // The members and the properties both in name order: one walk pairs them.
    auto property = node.properties.begin();
    for (const auto& [name, member] : object) {
      int order = 1;
      while (property != node.properties.end() && (order = compare_names(property->first, name)) < 0) ++property;
      const Node* schema = nullptr;
      if (property != node.properties.end() && order == 0) {
        schema = property->second;
      } else if (node.additional_forbidden) {
        return Verdict::invalid;
      } else {
        schema = node.additional;
      }
      if (!schema) continue;
      // A member whose schema is types alone is judged here, not through a call (judge's depth
      // limit kept).
      const Verdict v = schema->only_types && depth < kMaxDepth ? of_types_alone(schema->types, member)
                                                                : judge(*schema, member, depth);
      if (v == Verdict::invalid) return v;
      if (v == Verdict::undecided) seen = v;
    }
  }
  if (node.names) {
    const Verdict v = judge_names(node, object, depth);
    if (v != Verdict::valid) return v;
  }
  return seen;
}

Verdict SchemaFirstLook::judge_dependencies(const Node& node, const json& object, int depth) const {
  const auto& members = object.get_ref<const json::object_t&>();
  for (const auto& [name, needed] : node.needs_members)
    if (member(members, name))
      for (const auto& other : needed)
        if (!member(members, other)) return Verdict::invalid;
  Verdict seen = Verdict::valid;
  for (const auto& [name, schema] : node.needs_schema) {
    if (!member(members, name)) continue;
    const Verdict v = judge(*schema, object, depth);
    if (v == Verdict::invalid) return v;
    if (v == Verdict::undecided) seen = v;
  }
  return seen;
}

Verdict SchemaFirstLook::judge_names(const Node& node, const json::object_t& object, int depth) const {
  Verdict seen = Verdict::valid;
  for (const auto& [name, member] : object) {
    const Verdict v = kept_verdict(node.names_serial, name, [&] { return judge(*node.names, json(name), depth); });
    if (v == Verdict::invalid) return v;
    if (v == Verdict::undecided) seen = v;
  }
  return seen;
}

Verdict SchemaFirstLook::judge_array(const Node& node, const json::array_t& array, int depth) const {
  if ((node.min_items && array.size() < *node.min_items) || (node.max_items && array.size() > *node.max_items))
    return Verdict::invalid;
  Verdict seen = Verdict::valid;
  if (node.unique_items)
    for (std::size_t i = 0; i < array.size(); ++i)
      for (std::size_t j = i + 1; j < array.size(); ++j) {
        const Verdict equal = same(array[i], array[j]);
        if (equal == Verdict::valid) return Verdict::invalid;
        if (equal == Verdict::undecided) seen = equal;
      }
  if (node.items)
    for (const auto& element : array) {
      const Verdict v = judge(*node.items, element, depth);
      if (v == Verdict::invalid) return v;
      if (v == Verdict::undecided) seen = v;
    }
  return seen;
}

Verdict SchemaFirstLook::judge_string(const Node& node, const std::string& text) const {
  if (node.min_length || node.max_length) {
    // valijson counts code points up to the first NUL.
    if (text.find('\0') != std::string::npos) return Verdict::undecided;
    const auto length = static_cast<std::uint64_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xc0) != 0x80; }));
    if ((node.min_length && length < *node.min_length) || (node.max_length && length > *node.max_length))
      return Verdict::invalid;
  }
  if (node.pattern) {
    return kept_verdict(node.pattern_serial, text,
                        [&] { return std::regex_search(text, *node.pattern) ? Verdict::valid : Verdict::invalid; });
  }
  return Verdict::valid;
}

}  // namespace mcp_hints::detail
