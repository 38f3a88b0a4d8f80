#pragma once
// The crosswalk (vocab table) as JSON, text, Markdown and HTML: every field of every vocabulary
// revision, where it lives, its type, each value and the facet it means, its overlaps and
// conflicts; then the message scope, how its facets stand to the tool's, and the conflicts.
#include <ostream>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcp_hints/vocab/crosswalk.hpp"

namespace mcp_hints {

nlohmann::json crosswalk_json(const Vocabulary& vocabulary);
// `aside`: said in parentheses at the end of the first line (the command's way to the other forms).
void render_crosswalk_text(std::ostream& out, const Vocabulary& vocabulary, std::string_view aside = {});
void render_crosswalk_markdown(std::ostream& out, const Vocabulary& vocabulary);
std::string render_crosswalk_html(const Vocabulary& vocabulary);

// A row's values and the facet each means: "`value` → facet; …".
std::string crosswalk_values_text(const CrosswalkRow& row);
// A relation between a message facet and a tool facet, in Markdown: "**a** rule **b** (checks): words".
std::string crosswalk_relation_text(const Relation& relation);

}  // namespace mcp_hints
