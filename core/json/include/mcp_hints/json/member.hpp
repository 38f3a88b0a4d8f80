#pragma once
// A JSON object's member by name, looked up once, and a value compared with a text. nlohmann's own
// ways cost more on a hot path: a const operator[] given a C string makes a std::string of it
// first, find or contains given one measures it (strlen) at every node of the map, and a value
// compared with a literal is compared with a json made of it. A string_view is measured once.
#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mcp_hints {

// a <=> b as std::string orders them (bytes unsigned, then length), the first bytes compared here:
// member names mostly differ there, and memcmp is a call for every node of a map's descent.
inline int compare_names(std::string_view a, std::string_view b) {
  const std::size_t shorter = std::min(a.size(), b.size());
  if (shorter != 0 && a[0] != b[0]) return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]) ? -1 : 1;
  if (const int order = shorter == 0 ? 0 : std::memcmp(a.data(), b.data(), shorter); order != 0) return order;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

// std::string's order as a map's transparent comparator: a map of names found by any text
// (std::string_view, a literal) without a string made of it, and compared by compare_names.
struct NameOrder {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return compare_names(a, b) < 0; }
};

namespace detail {

// A name to find in a map of std::string keys (nlohmann's objects compare with std::less<>, so a
// find given this key orders by compare_names).
struct MemberName {
  std::string_view text;
};
inline bool operator<(const std::string& key, MemberName name) { return compare_names(key, name.text) < 0; }
inline bool operator<(MemberName name, const std::string& key) { return compare_names(name.text, key) < 0; }

}  // namespace detail

// The member `name` of `object`; nullptr when it has none.
inline const nlohmann::json* member(const nlohmann::json::object_t& object, std::string_view name) {
  const auto found = object.find(detail::MemberName{name});
  return found == object.end() ? nullptr : &found->second;
}

// The member `name` of `value`; nullptr when value is no object or has no such member.
inline const nlohmann::json* member(const nlohmann::json& value, std::string_view name) {
  if (!value.is_object()) return nullptr;
  return member(value.get_ref<const nlohmann::json::object_t&>(), name);
}

// The member `name` of `value` when it is a string; nullptr otherwise.
inline const std::string* string_member(const nlohmann::json& value, std::string_view name) {
  const nlohmann::json* found = member(value, name);
  return found && found->is_string() ? &found->get_ref<const std::string&>() : nullptr;
}

// Whether `value` is the string `text`: value == "text" without the json nlohmann would make of
// the literal (a string allocated for every comparison).
inline bool text_is(const nlohmann::json& value, std::string_view text) {
  return value.is_string() && value.get_ref<const std::string&>() == text;
}

}  // namespace mcp_hints
