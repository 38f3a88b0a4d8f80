#pragma once
// Where hints are placed: _meta keys outside the prefixes MCP reserves, and annotations outside the
// specification's ToolAnnotations mirrored in _meta, where clients keep them.
// An area of lint checks: its code, then its entries (kChecks). registry.cpp includes it; nothing else does.
#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/member.hpp"
#include "support.hpp"

namespace mcp_hints::rules::placement {

// _meta prefixes: 2025-06-18 reserves any prefix with mcp or modelcontextprotocol in a label
// other than the last; 2025-11-25 and later reserve those whose second label is one of them.
// _meta keys a vocabulary of the crosswalk defines: they are what proposals ask servers to send.
inline bool is_vocabulary_key(const Vocabulary& vocabulary, const std::string& key) {
  const std::string pointer = "/_meta/" + escape_pointer_token(key);
  return std::any_of(vocabulary.fields().begin(), vocabulary.fields().end(),
                     [&](const Field& f) { return f.pointer_text == pointer; });
}

inline void meta_reserved_prefix(const ToolContext& ctx, const FindingSink& sink) {
  const json* meta = member(ctx.tool, "_meta");
  if (!meta || !meta->is_object()) return;
  const auto& rule = ctx.spec.meta_reservation;
  for (const auto& [key, value] : meta->items()) {
    if (!meta_key_reserved(rule, key)) continue;
    // MCP's own extensions live under its reserved prefix by right.
    const auto& revisions = ctx.vocabulary.revisions();
    if (std::any_of(revisions.begin(), revisions.end(), [&key = key](const auto& r) { return r.extension == key; }))
      continue;
    const std::string why = rule == "any-label" ? "mcp or modelcontextprotocol before its last label"
                                                : "mcp or modelcontextprotocol as its second label";
    sink.report("/_meta/" + escape_pointer_token(key),
                "the _meta key \"" + key + "\" has a prefix MCP " + std::string(ctx.spec_revision) +
                    " reserves for itself (" + why + ")" +
                    (is_vocabulary_key(ctx.vocabulary, key)
                         ? "; the proposal names this key, but under this revision a server may not send it: "
                           "mirror it under your own reverse-DNS prefix"
                         : "; use your own reverse-DNS prefix, e.g. com.example/"));
  }
}

inline void annotation_only(const ToolContext& ctx, const FindingSink& sink) {
  const json* annotations = member(ctx.tool, "annotations");
  if (!annotations || !annotations->is_object()) return;
  // The specification's ToolAnnotations keys: its hint fields in the crosswalk, and title.
  const auto spec = ctx.vocabulary.vocabulary_fields("spec");
  const auto in_spec = [&](std::string_view key) {
    return key == "title" || std::any_of(spec.begin(), spec.end(), [&](const Field* f) { return f->key == key; });
  };
  const auto& given = annotations->get_ref<const json::object_t&>();
  // Most tools give only the specification's keys: their _meta is then not read.
  if (std::all_of(given.begin(), given.end(), [&](const auto& member) { return in_spec(member.first); })) return;
  // What each _meta key under a prefix names after its last slash: a mirror of that annotation.
  // (The objects' members are walked as the map they are: every tool is read here.)
  std::vector<std::string_view> mirrors;
  if (const json* meta = member(ctx.tool, "_meta"); meta && meta->is_object())
    for (const auto& [name, value] : meta->get_ref<const json::object_t&>())
      if (const auto slash = name.rfind('/'); slash != std::string::npos)
        mirrors.push_back(std::string_view(name).substr(slash + 1));
  std::vector<std::string> dropped;
  for (const auto& [name, value] : given)
    if (!in_spec(name) && std::find(mirrors.begin(), mirrors.end(), name) == mirrors.end()) dropped.emplace_back(name);
  if (dropped.empty()) return;
  std::string list;
  for (const auto& k : dropped) list += (list.empty() ? "" : ", ") + k;
  sink.report("/annotations",
              "annotations." + list + (dropped.size() == 1 ? " is" : " are") +
                  " not defined by the specification; SDK clients (the official TypeScript and "
                  "Python SDKs) drop unknown annotation keys, so no client decision sees " +
                  (dropped.size() == 1 ? "it" : "them") + ": mirror " + (dropped.size() == 1 ? "it" : "each") +
                  " in _meta under your own prefix, e.g. _meta[\"com.example/" + dropped.front() + "\"]");
}

inline constexpr auto kChecks = std::to_array<Check>({
    {{"meta.reserved-prefix", Level::info, "MCP specification (chosen revision): General fields, _meta",
      "_meta keys do not use a prefix the chosen revision reserves for MCP (mcp.dev/ under 2025-06-18)"},
     &meta_reserved_prefix},
    {{"placement.annotation-only", Level::warning,
      "mcp-hints rule (where SDKs keep hints); MCP specification: ToolAnnotations; SDK behaviour",
      "hints outside the specification's ToolAnnotations keys are mirrored in _meta, where SDK clients keep them"},
     &annotation_only},
});

}  // namespace mcp_hints::rules::placement
