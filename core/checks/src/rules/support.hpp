#pragma once
// What the lint rules share: how a message shows a value and the claim that made it.
#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcp_hints/checks/checks.hpp"
#include "mcp_hints/json/member.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/hint_model.hpp"

namespace mcp_hints::rules {

using json = nlohmann::json;

// "annotations.category (risk-metadata@sep-2793) = \"destroy\""
inline std::string said(const Claim& claim) { return describe_source(claim.source) + " = " + shown(*claim.source.raw); }

inline const Claim* first_of(const ToolHints& hints, std::string_view facet,
                             std::initializer_list<std::string_view> values) {
  for (const auto& v : values)
    if (const auto* c = hints.asserting(facet, v)) return c;
  return nullptr;
}

inline bool is_spec(const Claim& c) { return c.source.field->vocabulary == "spec"; }

}  // namespace mcp_hints::rules
