#include "mcp_hints/vocabulary.hpp"

#include <gtest/gtest.h>

#include <set>

#include "mcp_hints/embedded.hpp"
#include "mcp_hints/json_input.hpp"
#include "mcp_hints/schema_registry.hpp"

using json = nlohmann::json;
using mcp_hints::Vocabulary;

namespace {

// The schema node for a tool-relative pointer: follows properties and local $refs, and for a
// value-or-set field the string branch of its oneOf.
const json* schema_node(const json& doc, const std::string& pointer) {
  auto deref = [&](const json* n) {
    while (n && n->contains("$ref")) n = &doc.at(json::json_pointer((*n)["$ref"].get<std::string>().substr(1)));
    return n;
  };
  const json* node = deref(&doc);
  json::json_pointer p(pointer);
  std::vector<std::string> tokens;
  while (!p.empty()) {
    tokens.insert(tokens.begin(), p.back());
    p.pop_back();
  }
  for (const auto& t : tokens) {
    if (!node->contains("properties") || !(*node)["properties"].contains(t)) return nullptr;
    node = deref(&(*node)["properties"][t]);
  }
  if (node->contains("oneOf")) node = deref(&(*node)["oneOf"][0]);
  return node;
}

}  // namespace

TEST(Vocabulary, EveryFieldMapsExactlyTheValuesItsSchemaAllows) {
  const auto& vocabulary = Vocabulary::builtin();
  std::size_t compared = 0;
  for (const auto& field : vocabulary.fields()) {
    if (field.map.empty() || field.map.count("*")) continue;
    const auto& rev = vocabulary.active_revision(field.vocabulary, "2025-11-25");
    const json doc = mcp_hints::parse_json(*mcp_hints::embedded_file(rev.schema));
    const json* node = schema_node(doc, field.pointer_text);
    ASSERT_NE(node, nullptr) << field.vocabulary << " " << field.key << ": no schema node at " << field.pointer_text;
    std::set<std::string> allowed, mapped;
    if (node->contains("enum")) {
      for (const auto& v : (*node)["enum"]) allowed.insert(v.get<std::string>());
    } else {
      ASSERT_EQ((*node)["type"], "boolean") << field.key;
      allowed = {"true", "false"};
    }
    for (const auto& [value, targets] : field.map) mapped.insert(value);
    EXPECT_EQ(mapped, allowed) << field.vocabulary << " " << field.key;
    ++compared;
  }
  EXPECT_GE(compared, 19u);
}

TEST(Vocabulary, MapsOnlyToFacetValuesThatExist) {
  const auto& vocabulary = Vocabulary::builtin();
  for (const auto& field : vocabulary.fields()) {
    for (const auto& [value, targets] : field.map) {
      for (const auto& t : targets) {
        const auto& facet = vocabulary.facet(t.facet);
        if (t.value == "*" || facet.kind == "integer" || facet.values.empty()) continue;
        EXPECT_GE(facet.rank(t.value), 0) << field.key << "=" << value << " -> " << t.facet << "=" << t.value;
      }
    }
  }
}

TEST(Vocabulary, EveryRevisionNamesARegisteredSchema) {
  const auto& registry = mcp_hints::SchemaRegistry::builtin();
  for (const auto& rev : Vocabulary::builtin().revisions())
    EXPECT_TRUE(registry.contains(rev.schema)) << rev.ref() << " -> " << rev.schema;
  EXPECT_EQ(Vocabulary::builtin().spec_revisions(), (std::vector<std::string>{"2025-06-18", "2025-11-25", "2026-07-28"}));
}

TEST(Vocabulary, ActiveRevisionFollowsTheChosenSpecRevision) {
  const auto& v = Vocabulary::builtin();
  EXPECT_EQ(v.active_revision("spec", "2025-06-18").meta_reservation, "any-label");
  EXPECT_EQ(v.active_revision("spec", "2026-07-28").meta_reservation, "second-label");
  EXPECT_EQ(v.active_revision("risk-metadata", "2025-06-18").ref(), "risk-metadata@sep-2793");
  EXPECT_THROW(v.active_revision("spec", "2030-01-01"), std::out_of_range);
  EXPECT_THROW(v.active_revision("nonesuch", "2025-11-25"), std::out_of_range);
}

TEST(Vocabulary, FacetRanksFollowCaution) {
  const auto& effect = Vocabulary::builtin().facet("effect");
  EXPECT_LT(effect.rank("read"), effect.rank("write"));
  EXPECT_LT(effect.rank("write"), effect.rank("delete"));
  EXPECT_EQ(effect.rank("modify"), -1);
  const auto& open = Vocabulary::builtin().facet("open-world");
  EXPECT_LT(open.rank(false), open.rank(true));
}

TEST(Vocabulary, DataClassesConstrainResultSensitivity) {
  const auto& v = Vocabulary::builtin();
  EXPECT_EQ(v.minimum_result_sensitivity("pii"), "internal");
  EXPECT_EQ(v.minimum_result_sensitivity("credentials"), "internal");
  EXPECT_EQ(v.minimum_result_sensitivity("user"), std::nullopt);
  EXPECT_EQ(v.minimum_result_sensitivity("none"), std::nullopt);
}

TEST(Vocabulary, RejectsACrosswalkNamingAnUnknownFacet) {
  json doc = mcp_hints::parse_json(*mcp_hints::embedded_file("vocabulary.json"));
  doc["fields"][0]["map"]["true"] = json::array({json::array({"no-such-facet", "x"})});
  EXPECT_THROW(Vocabulary{doc}, std::runtime_error);
}
