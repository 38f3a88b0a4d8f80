#include "mcp_hints/wire/param_headers.hpp"

#include <nettle/base64.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <string_view>

using json = nlohmann::json;

namespace mcp_hints {
namespace {

constexpr std::string_view kAnnotation = "x-mcp-header";

// RFC 9110 5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" /
// "`" / "|" / "~" / DIGIT / ALPHA.
bool is_tchar(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x80 && (std::isalnum(u) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos);
}

// The keywords whose values are schemas (one, an array of them, or an object of them by name):
// where an annotation can hide. Others (enum, const, default, examples...) hold instances.
constexpr std::array<std::string_view, 10> kSchemaKeywords = {"items",
                                                              "additionalProperties",
                                                              "not",
                                                              "if",
                                                              "then",
                                                              "else",
                                                              "contains",
                                                              "propertyNames",
                                                              "unevaluatedItems",
                                                              "unevaluatedProperties"};
constexpr std::array<std::string_view, 4> kSchemaArrays = {"allOf", "anyOf", "oneOf", "prefixItems"};
constexpr std::array<std::string_view, 4> kSchemaMaps = {"$defs", "definitions", "patternProperties",
                                                         "dependentSchemas"};

bool among(const auto& list, std::string_view key) { return std::ranges::find(list, key) != list.end(); }

class Walk {
 public:
  std::string why;

  // `path`: the schema's JSON pointer in the inputSchema; `reachable`: it is reached from the root
  // through `properties` alone.
  void schema(const json& s, const std::string& path, bool reachable) {
    if (!why.empty() || !s.is_object()) return;
    for (const auto& [key, value] : s.items()) {
      if (key == kAnnotation) {
        annotation(s, value, path, reachable);
      } else if (key == "properties" && value.is_object()) {
        for (const auto& [name, property] : value.items()) schema(property, path + "/properties/" + name, reachable);
      } else if (among(kSchemaKeywords, key)) {
        schema(value, path + "/" + key, false);
      } else if (among(kSchemaArrays, key) && value.is_array()) {
        for (const auto& member : value) schema(member, path + "/" + key, false);
      } else if (among(kSchemaMaps, key) && value.is_object()) {
        for (const auto& [name, member] : value.items()) schema(member, path + "/" + key + "/" + name, false);
      }
      if (!why.empty()) return;
    }
  }

 private:
  void annotation(const json& s, const json& value, const std::string& path, bool reachable) {
    const std::string where = "the x-mcp-header at " + (path.empty() ? std::string("the schema's root") : path);
    if (path.empty() || !reachable) {
      why = where + " is not on a property reached through properties alone";
      return;
    }
    if (!value.is_string()) {
      why = where + " is not a string";
      return;
    }
    const std::string name = value.get<std::string>();
    if (name.empty()) {
      why = where + " is empty";
      return;
    }
    if (!std::ranges::all_of(name, is_tchar)) {
      why = where + " (" + value.dump() + ") has a character an HTTP header name cannot hold";
      return;
    }
    const json type = s.value("type", json());
    if (!type.is_string() || (type != "integer" && type != "string" && type != "boolean")) {
      why = where + " is on a property of type " + (type.is_null() ? std::string("unstated") : type.dump()) +
            ", not integer, string or boolean";
      return;
    }
    std::string folded = name;
    std::ranges::transform(folded, folded.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (!seen_.insert(folded).second) why = where + " (" + value.dump() + ") repeats another, ignoring case";
  }

  std::set<std::string> seen_;  // the names so far, in lower case
};

}  // namespace

std::string invalid_param_headers(const json& input_schema) {
  Walk walk;
  walk.schema(input_schema, "", true);
  return walk.why;
}

bool has_param_headers(const json& input_schema) {
  if (!input_schema.is_object() || !input_schema.contains("properties") || !input_schema["properties"].is_object())
    return false;
  for (const auto& [name, property] : input_schema["properties"].items())
    if (property.is_object() && (property.contains(kAnnotation) || has_param_headers(property))) return true;
  return false;
}

std::string header_value(std::string_view value) {
  const auto plain = [](char c) { return c == '\t' || (c >= 0x20 && c <= 0x7e); };
  const auto space = [](char c) { return c == ' ' || c == '\t'; };
  const bool sentinel = value.starts_with("=?base64?") && value.ends_with("?=");
  if (!sentinel && std::ranges::all_of(value, plain) &&
      (value.empty() || (!space(value.front()) && !space(value.back()))))
    return std::string(value);
  std::string encoded(BASE64_ENCODE_RAW_LENGTH(value.size()), '\0');
  base64_encode_raw(encoded.data(), value.size(), reinterpret_cast<const uint8_t*>(value.data()));
  return "=?base64?" + encoded + "?=";
}

namespace {

void collect(const json& schema, const json& value, std::vector<std::pair<std::string, std::string>>& out) {
  if (!schema.is_object() || !schema.contains("properties") || !schema["properties"].is_object() || !value.is_object())
    return;
  for (const auto& [name, property] : schema["properties"].items()) {
    const auto at = value.find(name);
    if (at == value.end() || !property.is_object()) continue;
    if (const auto mark = property.find(kAnnotation); mark != property.end() && mark->is_string()) {
      std::string text;
      if (at->is_string())
        text = at->get<std::string>();
      else if (at->is_boolean())
        text = at->get<bool>() ? "true" : "false";
      else if (at->is_number_integer())
        text = at->dump();
      else
        continue;  // null, or a value of no primitive type: no header
      out.emplace_back("Mcp-Param-" + mark->get<std::string>(), header_value(text));
    }
    collect(property, *at, out);
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> param_headers(const json& input_schema, const json& arguments) {
  std::vector<std::pair<std::string, std::string>> out;
  collect(input_schema, arguments, out);
  return out;
}

}  // namespace mcp_hints
