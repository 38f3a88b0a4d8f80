#pragma once
// A JSON object's member by name, looked up once, and a value compared with a text. nlohmann's own
// ways cost more on a hot path: a const operator[] given a C string makes a std::string of it
// first, find or contains given one measures it (strlen) at every node of the map, and a value
// compared with a literal is compared with a json made of it. A string_view is measured once.
#include <string_view>

#include <nlohmann/json.hpp>

namespace mcp_hints {

// The member `name` of `value`; nullptr when value is no object or has no such member.
inline const nlohmann::json* member(const nlohmann::json& value, std::string_view name) {
  if (!value.is_object()) return nullptr;
  const auto& object = value.get_ref<const nlohmann::json::object_t&>();
  const auto found = object.find(name);
  return found == object.end() ? nullptr : &found->second;
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
