#include "mcp_hints/wire/param_headers.hpp"

#include <nettle/base64.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
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

// What a header value may hold as it is: visible ASCII, space and tab.
bool header_safe(char c) { return c == '\t' || (c >= 0x20 && c <= 0x7e); }

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
  const auto space = [](char c) { return c == ' ' || c == '\t'; };
  const bool sentinel = value.starts_with("=?base64?") && value.ends_with("?=");
  if (!sentinel && std::ranges::all_of(value, header_safe) &&
      (value.empty() || (!space(value.front()) && !space(value.back()))))
    return std::string(value);
  std::string encoded(BASE64_ENCODE_RAW_LENGTH(value.size()), '\0');
  base64_encode_raw(encoded.data(), value.size(), reinterpret_cast<const uint8_t*>(value.data()));
  return "=?base64?" + encoded + "?=";
}

std::optional<std::string> decoded_header_value(std::string_view value) {
  if (!std::ranges::all_of(value, header_safe)) return std::nullopt;
  constexpr std::string_view prefix = "=?base64?", suffix = "?=";
  if (value.size() < prefix.size() + suffix.size() || !value.starts_with(prefix) || !value.ends_with(suffix))
    return std::string(value);  // no sentinel: the value as it is
  const std::string_view encoded = value.substr(prefix.size(), value.size() - prefix.size() - suffix.size());
  // Strict: the standard alphabet, padded to a multiple of four (Nettle's decoder alone would
  // take a missing padding and skip spaces).
  const auto alphabet = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/'; };
  const std::size_t padding = encoded.size() - std::min(encoded.find('='), encoded.size());
  if (encoded.size() % 4 != 0 || padding > 2 ||
      !std::ranges::all_of(encoded.substr(0, encoded.size() - padding), alphabet) ||
      encoded.substr(encoded.size() - padding).find_first_not_of('=') != std::string_view::npos)
    return std::nullopt;
  base64_decode_ctx ctx;
  base64_decode_init(&ctx);
  std::string decoded(BASE64_DECODE_LENGTH(encoded.size()), '\0');
  std::size_t length = decoded.size();
  if (!base64_decode_update(&ctx, &length, reinterpret_cast<uint8_t*>(decoded.data()), encoded.size(),
                            encoded.data()) ||
      !base64_decode_final(&ctx))
    return std::nullopt;
  decoded.resize(length);
  return decoded;
}

std::string mismatched_header_value(std::string_view text) {
  const std::string_view digits = text.starts_with('-') ? text.substr(1) : text;
  if (!digits.empty() && std::ranges::all_of(digits, [](char c) { return c >= '0' && c <= '9'; }))
    return text == "0" ? "1" : "0";
  if (text == "true") return "false";
  if (text == "false") return "true";
  return header_value(std::string(text) + "-mcp-hints-probe");
}

namespace {

// An annotated parameter the arguments give: its header's {Name}, its text (a string as is, an
// integer in decimal, a boolean true or false), and whether it is an integer.
struct Mirrored {
  std::string name, text;
  bool integer = false;
};

// Each annotated parameter the arguments give, in the schema's order; null, absent or of another
// type: none.
void collect(const json& schema, const json& value, std::vector<Mirrored>& out) {
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
      out.push_back({mark->get<std::string>(), std::move(text), at->is_number_integer()});
    }
    collect(property, *at, out);
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> param_headers(const json& input_schema, const json& arguments) {
  std::vector<Mirrored> mirrored;
  collect(input_schema, arguments, mirrored);
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& m : mirrored) out.emplace_back("Mcp-Param-" + m.name, header_value(m.text));
  return out;
}

std::string param_header_mismatch(const json& input_schema, const json& arguments,
                                  const std::vector<std::pair<std::string, std::string>>& headers) {
  std::vector<Mirrored> expected;
  collect(input_schema, arguments, expected);
  const auto same_name = [](std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
             return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
  };
  for (const auto& [name, body, integer] : expected) {
    const std::string header = "Mcp-Param-" + name;
    const auto sent = std::ranges::find_if(headers, [&](const auto& h) { return same_name(h.first, name); });
    if (sent == headers.end()) return header + " header missing (the body says \"" + body + "\")";
    const auto decoded = decoded_header_value(sent->second);
    if (!decoded) return header + " header \"" + sent->second + "\" has invalid characters or Base64";
    if (*decoded == body) continue;
    // "servers SHOULD compare the header value and the body value numerically" (42.0 is 42).
    char* end = nullptr;
    const double number = std::strtod(decoded->c_str(), &end);
    const bool numeric = integer && !decoded->empty() && end == decoded->c_str() + decoded->size();
    if (numeric && std::isfinite(number) && number == std::strtod(body.c_str(), nullptr)) continue;
    return header + " header value \"" + *decoded + "\" does not match the body's \"" + body + "\"";
  }
  return {};
}

}  // namespace mcp_hints
