#include "mcp_hints/vocab/vocabulary.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "mcp_hints/json/catalog_reader.hpp"
#include "mcp_hints/json/embedded.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/schema_registry.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"
#include "test_support.hpp"

using json = nlohmann::json;
using mcp_hints::Vocabulary;

namespace {

// Every embedded schema, by $id, for $refs between documents.
const json& schema_by_id(const std::string& id) {
  static std::map<std::string, json> by_id = [] {
    std::map<std::string, json> out;
    for (const auto& f : mcp_hints::embedded_schemas())
      if (f.name.ends_with(".schema.json")) {
        json doc = mcp_hints::parse_json(f.content);
        out[doc.value("$id", std::string(f.name))] = doc;
      }
    return out;
  }();
  return by_id.at(id);
}

// The schema node for a tool-relative pointer: follows properties and $refs (local or to
// another embedded schema), and for a value-or-set field the branch of its oneOf that is not
// an array.
const json* schema_node(const json& doc_in, const std::string& pointer) {
  const json* doc = &doc_in;
  auto deref = [&](const json* n) {
    while (n && n->contains("$ref")) {
      const std::string ref = (*n)["$ref"];
      const auto hash = ref.find('#');
      if (hash > 0) doc = &schema_by_id(ref.substr(0, hash));
      n = &doc->at(json::json_pointer(ref.substr(hash + 1)));
    }
    return n;
  };
  const json* node = deref(doc);
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
  while (node && node->contains("oneOf")) node = deref(&(*node)["oneOf"][0]);
  return node;
}

}  // namespace

TEST(Vocabulary, EveryFieldMapsExactlyTheValuesItsSchemaAllows) {
  const auto& vocabulary = Vocabulary::builtin();
  std::size_t compared = 0;
  for (const auto& field : vocabulary.fields()) {
    if (field.map.empty() || field.map.count("*")) continue;
    const auto& rev = field.vocabulary == "spec" ? vocabulary.active_revision("spec", "2025-11-25") : *field.latest;
    const json doc = mcp_hints::parse_json(*mcp_hints::embedded_schema(rev.schema));
    const json* node = schema_node(doc, field.pointer_text);
    ASSERT_NE(node, nullptr) << field.vocabulary << " " << field.key << ": no schema node at " << field.pointer_text;
    std::set<std::string> allowed, mapped;
    if (node->contains("enum")) {
      for (const auto& v : (*node)["enum"]) allowed.insert(v.is_string() ? v.get<std::string>() : v.dump());
    } else {
      ASSERT_EQ((*node)["type"], "boolean") << field.key;
      allowed = {"true", "false"};
    }
    for (const auto& [value, targets] : field.map) mapped.insert(value);
    // SEP-1913's sensitivity class is a string or the object {"regulated": {"scopes": [...]}},
    // mapped as "{regulated}": the schema must have that object form.
    if (mapped.erase("{regulated}")) {
      std::string text = doc.dump();  // the revision's schema and those it refers to
      for (const auto& id : {"urn:mcp-hints:schema:trust-annotations:sep-1913"})
        if (text.find(id) != std::string::npos) text += schema_by_id(id).dump();
      EXPECT_NE(text.find("\"required\":[\"regulated\"]"), std::string::npos) << field.key;
    }
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
  const auto& registry = mcp_hints::published_schemas();
  for (const auto& rev : Vocabulary::builtin().revisions())
    EXPECT_TRUE(registry.contains(rev.schema)) << rev.ref() << " -> " << rev.schema;
  EXPECT_EQ(Vocabulary::builtin().spec_revisions(),
            (std::vector<std::string>{"2025-06-18", "2025-11-25", "2026-07-28"}));
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
  json doc = mcp_hints::parse_json(*mcp_hints::embedded_schema("vocabulary.json"));
  doc["fields"][0]["map"]["true"] = json::array({json::array({"no-such-facet", "x"})});
  EXPECT_THROW(Vocabulary{doc}, std::runtime_error);
  json relation = mcp_hints::parse_json(*mcp_hints::embedded_schema("vocabulary.json"));
  relation["relations"][0]["tool"] = "no-such-facet";
  EXPECT_THROW(Vocabulary{relation}, std::runtime_error);
}

// Every message field maps every value its schema allows, and each claim stands on the facet's
// scale as its proposal grades it: sensitiveHint low < medium < high, privateHint and the
// extension's sensitive at the lowest non-public level, an untrusted origin at the least trusted
// source; a value that claims nothing (false) asserts no level.
TEST(Vocabulary, MessageFieldsGradeTheirClaimsOnTheFacetsScale) {
  const auto& v = Vocabulary::builtin();
  const auto& levels = v.facet("result-sensitivity");
  auto claim = [&](const std::string& ref, const std::string& key, const json& value) -> json {
    for (const auto* f : v.fields_of(*v.find(ref)))
      if (f->key == key) {
        const auto meant = f->facet_values(value);
        if (!meant) return "unknown";
        return meant->empty() ? json() : meant->front().value;
      }
    return "no field";
  };
  EXPECT_LT(levels.rank(claim("trust-annotations@issue-711", "sensitiveHint", "low")),
            levels.rank(claim("trust-annotations@issue-711", "sensitiveHint", "medium")));
  EXPECT_LT(levels.rank(claim("trust-annotations@issue-711", "sensitiveHint", "medium")),
            levels.rank(claim("trust-annotations@issue-711", "sensitiveHint", "high")));
  EXPECT_EQ(claim("trust-annotations@issue-711", "sensitiveHint", "high"), "restricted");
  EXPECT_EQ(claim("trust-annotations@issue-711", "sensitiveHint", "extreme"), "unknown");
  EXPECT_EQ(claim("trust-annotations@issue-711", "privateHint", true), "internal");
  EXPECT_EQ(claim("trust-annotations@issue-711", "privateHint", false), json());
  EXPECT_EQ(claim("trust-annotations@issue-711", "privateHint", "true"), "unknown");  // a string, not the boolean
  EXPECT_EQ(claim("trust-annotations@ext-2026-06", "sensitive", true), "internal");
  EXPECT_EQ(claim("trust-annotations@ext-2026-06", "sensitive", false), json());
  EXPECT_EQ(claim("trust-annotations@ext-2026-06", "untrusted", true), "untrusted-public");
  EXPECT_EQ(claim("trust-annotations@sep-1913", "openWorldHint", true), "untrusted-public");
  EXPECT_EQ(claim("trust-annotations@sep-1913", "maliciousActivityHint", true), true);
  for (const auto& f : v.fields())
    if (f.is_message_field) {
      EXPECT_FALSE(f.map.empty()) << f.key;
      EXPECT_TRUE(f.propagation) << f.key;
      EXPECT_FALSE(f.carried_on.empty()) << f.key;
    }
  for (const auto& r : v.relations()) EXPECT_NE(v.facet(r.message_facet).scope, "tool") << r.message_facet;
}

TEST(Vocabulary, TheDefaultSpecRevisionIsOneTheVocabularyKnows) {
  const auto known = Vocabulary::builtin().spec_revisions();
  EXPECT_NE(std::find(known.begin(), known.end(), mcp_hints::kDefaultSpecRevision), known.end());
}

namespace {

// The tools `locate` is held to find_member on: every tool of the lint fixtures and example
// catalogs, and for each field of the crosswalk, tools built around its member names: the field
// alone, each of its containers of the wrong type, names beside its own (one byte before or after
// it, a prefix, an extension, another case, the empty name) at every level, and the field given
// with its condition's member.
std::vector<json> tools_for_locating() {
  std::vector<json> tools;
  const auto root = test_support::source_dir();
  for (const auto& dir : {root / "tests" / "fixtures" / "lint", root / "tests" / "fixtures" / "lint" / "negative",
                          root / "examples" / "catalogs"})
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".json") continue;
      std::ifstream in(entry.path(), std::ios::binary);
      try {
        mcp_hints::read_catalog(in, {}, [&](mcp_hints::CatalogTool&& tool) { tools.push_back(std::move(tool.tool)); });
      } catch (const mcp_hints::InputError&) {
        // a fixture of bad input: the tools before the fault are kept
      }
    }
  const auto neighbours = [](const std::string& name) {
    if (name.empty()) return std::vector<std::string>{"x", "\x01"};
    std::vector<std::string> out{"", name + "x", name.substr(0, name.size() - 1)};
    std::string before = name, after = name, upper = name;
    before.back() = static_cast<char>(before.back() - 1);
    after.back() = static_cast<char>(after.back() + 1);
    upper[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[0])));
    for (const auto& n : {before, after, upper})
      if (n != name) out.push_back(n);
    return out;
  };
  // The value at the tokens' path, made of objects; `others` beside each level's name.
  const auto build = [&](const std::vector<std::string>& tokens, const json& leaf, bool others) {
    json tool = leaf;
    for (std::size_t i = tokens.size(); i-- > 0;) {
      json holder = json::object();
      if (others)
        for (const auto& n : neighbours(tokens[i])) holder[n] = i % 2 ? json(i) : json::object({{tokens[i], true}});
      holder[tokens[i]] = std::move(tool);
      tool = std::move(holder);
    }
    return tool;
  };
  for (const auto& field : Vocabulary::builtin().fields()) {
    const json leaf = field.default_value.value_or(json("x"));
    tools.push_back(build(field.tokens, leaf, false));
    tools.push_back(build(field.tokens, leaf, true));
    for (std::size_t depth = 1; depth < field.tokens.size(); ++depth) {
      const std::vector<std::string> prefix(field.tokens.begin(), field.tokens.begin() + static_cast<long>(depth));
      tools.push_back(build(prefix, json::array({json::object({{field.tokens[depth], leaf}})}), true));
      tools.push_back(build(prefix, "not an object", false));
    }
    for (std::size_t i = 0; i < field.tokens.size(); ++i) {
      auto near = field.tokens;
      for (const auto& n : neighbours(field.tokens[i])) {
        near[i] = n;
        tools.push_back(build(near, leaf, true));
      }
    }
    if (field.meaningful_when) {
      json both = build(field.tokens, leaf, true);
      json other = build(field.meaningful_when->tokens, field.meaningful_when->equals, false);
      both.merge_patch(other);
      tools.push_back(both);
    }
  }
  for (const json& odd : {json(nullptr), json(1), json("tool"), json::array(), json::object()}) tools.push_back(odd);
  return tools;
}

}  // namespace

// locate walks a tool once beside the fields' member names; what it finds is what a look-up of
// each field finds, and mentions, uses and detect say what their definitions say of it.
TEST(Vocabulary, LocateFindsWhatALookUpOfEachFieldFinds) {
  const auto& vocabulary = Vocabulary::builtin();
  const auto tools = tools_for_locating();
  ASSERT_GT(tools.size(), 500u);
  std::size_t found = 0, mentioned = 0, conditions = 0, detected = 0;
  for (const auto& tool : tools) {
    const auto located = vocabulary.locate(tool);
    for (const auto& field : vocabulary.fields()) {
      const json* value = mcp_hints::find_member(tool, field.tokens);
      ASSERT_EQ(located.value(field), value) << field.pointer_text << " in " << tool.dump();
      const bool first_two = mcp_hints::find_member(tool, field.tokens, 2) != nullptr;
      ASSERT_EQ(located.mentioned(field), first_two) << field.pointer_text << " in " << tool.dump();
      const json* condition =
          field.meaningful_when ? mcp_hints::find_member(tool, field.meaningful_when->tokens) : nullptr;
      ASSERT_EQ(located.condition(field), condition) << field.pointer_text << " in " << tool.dump();
      found += value != nullptr;
      mentioned += first_two;
      conditions += condition != nullptr;
    }
    std::vector<const mcp_hints::VocabularyRevision*> expected;
    for (const auto& revision : vocabulary.revisions()) {
      bool uses = false, mentions = false;
      for (const auto& field : vocabulary.fields()) {
        if (field.vocabulary != revision.id) continue;
        mentions = mentions || mcp_hints::find_member(tool, field.tokens, 2);
        uses = uses || (!field.is_message_field && field.in_revision(revision.revision) &&
                        mcp_hints::find_member(tool, field.tokens));
      }
      EXPECT_EQ(vocabulary.uses(located, revision), uses) << revision.ref() << " in " << tool.dump();
      EXPECT_EQ(vocabulary.mentions(located, revision.id), mentions) << revision.id << " in " << tool.dump();
      if (uses && revision.id != "spec") expected.push_back(&revision);
    }
    EXPECT_EQ(vocabulary.detect(located), expected) << tool.dump();
    detected += expected.size();
  }
  // Each kind of answer was given, many times.
  EXPECT_GT(found, 500u);
  EXPECT_GT(mentioned, found);
  EXPECT_GT(conditions, 10u);
  EXPECT_GT(detected, 200u);
}

// The two rules for _meta prefixes, at each label's place: 2025-06-18 reserves mcp or
// modelcontextprotocol in any label but the last ("any-label"); 2025-11-25 and later, as the
// second label ("second-label"). The prefix is what comes before the first slash.
TEST(Vocabulary, MetaKeyReservationReadsThePrefixLabelByLabel) {
  struct Case {
    const char* key;
    bool any_label, second_label;
  };
  for (const auto& c : std::vector<Case>{
           {"mcp/x", false, false},
           {"mcp.dev/x", true, false},
           {"dev.mcp/x", false, true},
           {"a.mcp.b/x", true, true},
           {"a.b.mcp/x", false, false},
           {"a.b.mcp.c/x", true, false},
           {"modelcontextprotocol.io/x", true, false},
           {"io.modelcontextprotocol/x", false, true},
           {"io.modelcontextprotocol.tools/x", true, true},
           {"mcp", false, false},
           {"mcp.dev", false, false},
           {"/x", false, false},
           {"mcp./x", true, false},
           {".mcp/x", false, true},
           {"..mcp/x", false, false},
           {"MCP.dev/x", false, false},
           {"mcpx.dev/x", false, false},
           {"dev.xmcp/x", false, false},
           {"a/mcp.b/x", false, false},
           {"com.example/mcp.dev", false, false},
       }) {
    EXPECT_EQ(mcp_hints::meta_key_reserved("any-label", c.key), c.any_label) << c.key;
    EXPECT_EQ(mcp_hints::meta_key_reserved("second-label", c.key), c.second_label) << c.key;
  }
}

// A value is looked up under its text: a string as it is, true and false as words, a number as
// dump() writes it (an integer read without dump(): the same digits). A string that reads as a
// literal never matches one; what no key names falls to "*".
TEST(Vocabulary, AValueMeansWhatItsTextIsMappedTo) {
  mcp_hints::Field field;
  const std::vector<std::pair<std::string, json>> keyed = {
      {"2", 2},
      {"0", 0},
      {"-7", -7},
      {"9223372036854775807", std::numeric_limits<std::int64_t>::max()},
      {"-9223372036854775808", std::numeric_limits<std::int64_t>::min()},
      {"18446744073709551615", std::numeric_limits<std::uint64_t>::max()},
      {"2.5", 2.5},
      {"true", true},
      {"null", nullptr},
      {"read", "read"}};
  for (const auto& [key, value] : keyed) field.map[key] = {{"facet", key}};
  field.map["*"] = {{"facet", "*"}};
  for (const auto& [key, value] : keyed) {
    const auto meant = field.meaning(value);
    ASSERT_NE(meant.values, nullptr) << key;
    EXPECT_FALSE(meant.wildcard) << key;
    EXPECT_EQ(meant.values->front().value, key) << "the entry of " << value.dump();
  }
  for (const json& other : {json(3), json(-8), json(2.0), json("2"), json("true"), json(false), json("-7"), json(20)}) {
    const auto meant = field.meaning(other);
    ASSERT_NE(meant.values, nullptr) << other.dump();
    EXPECT_TRUE(meant.wildcard) << other.dump() << " is no mapped value";
  }
}
