#include "mcp_hints/json/schema_registry.hpp"

#include "mcp_hints/vocab/published_schemas.hpp"

#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

using json = nlohmann::json;
using mcp_hints::SchemaRegistry;

namespace {
const SchemaRegistry& registry() { return mcp_hints::published_schemas(); }
const json kTool = {{"name", "t"}, {"inputSchema", {{"type", "object"}}}};
}  // namespace

TEST(SchemaRegistry, KnowsEveryPublishedSchemaByFileNameAndId) {
  for (const char* name : {"policy-hints.seed.schema.json",
                           "risk-metadata.sep-2793.schema.json",
                           "trust-annotations.issue-711.schema.json",
                           "action-security.seed.schema.json",
                           "agency-hint.sep-1938.schema.json",
                           "spec-tool.2025-06-18.schema.json",
                           "spec-tool.2025-11-25.schema.json",
                           "spec-tool.2026-07-28.schema.json",
                           "lint-report.schema.json",
                           "certify-report.schema.json",
                           "lint-checks.schema.json",
                           "infer-report.schema.json",
                           "translate-report.schema.json",
                           "vocab-list.schema.json",
                           "vocab-table.schema.json",
                           "vocab-diff.schema.json",
                           "vocab-check.schema.json",
                           "mock-record.schema.json",
                           "lint-baseline.schema.json",
                           "config.schema.json"})
    EXPECT_TRUE(registry().contains(name)) << name;
  EXPECT_TRUE(registry().contains("urn:mcp-hints:schema:risk-metadata:sep-2793"));
  // Every published schema compiles (the registry compiles each on first use), its references
  // to others included.
  for (const auto& name : registry().names()) EXPECT_NO_THROW(registry().validate(name, kTool)) << name;
  EXPECT_FALSE(registry().contains("nonesuch.schema.json"));
  EXPECT_THROW(registry().validate("nonesuch.schema.json", kTool), std::runtime_error);
}

TEST(SchemaRegistry, ReportsViolationsAtTheirPointerWithWhatWasExpected) {
  json tool = kTool;
  tool["annotations"] = {{"riskLevel", "extreme"}, {"minTrustLevel", "3"}};
  auto v = registry().validate("risk-metadata.sep-2793.schema.json", tool);
  ASSERT_EQ(v.size(), 2u);
  std::map<std::string, std::string> by_pointer;
  for (const auto& x : v) by_pointer[x.pointer] = x.message;
  EXPECT_EQ(by_pointer["/annotations/riskLevel"], R"(expected one of "low", "medium", "high", "critical")");
  EXPECT_EQ(by_pointer["/annotations/minTrustLevel"], R"(expected type "number")");
}

TEST(SchemaRegistry, ReportsEveryMissingRequiredMemberBesideDeeperErrors) {
  json tool = kTool;
  tool["annotations"] = {{"inputMetadata", {{"Destination", "Mars"}}}};
  auto v = registry().validate("action-security.seed.schema.json", tool);
  std::set<std::string> messages;
  for (const auto& x : v) messages.insert(x.pointer + " " + x.message);
  EXPECT_TRUE(messages.count("/annotations/inputMetadata Missing required property 'Outcomes'."));
  EXPECT_TRUE(messages.count("/annotations/inputMetadata Missing required property 'Sensitivity'."));
  EXPECT_EQ(messages.size(), 3u);
}

TEST(SchemaRegistry, NamesEachMetaKeyThatBreaksTheKeyFormat) {
  json tool = kTool;
  tool["_meta"] = {{"com.example/ok", 1}, {"bad key", 2}, {"9lives.com/x", 3}};
  auto v = registry().validate("spec-tool.2025-11-25.schema.json", tool);
  std::set<std::string> pointers;
  for (const auto& x : v) pointers.insert(x.pointer);
  EXPECT_EQ(pointers, (std::set<std::string>{"/_meta/bad key", "/_meta/9lives.com~1x"}));
}

TEST(SchemaRegistry, ValidatesADefinitionByFragment) {
  EXPECT_TRUE(registry()
                  .validate("policy-hints.seed.schema.json#/definitions/PolicyHints", json{{"mcp.dev/effect", "read"}})
                  .empty());
  EXPECT_EQ(registry()
                .validate("policy-hints.seed.schema.json#/definitions/PolicyHints", json{{"mcp.dev/effect", "x"}})
                .size(),
            1u);
}

TEST(SchemaRegistry, ValidatesADefinitionOfEitherDialectByFragmentAndSaysWhatItExpected) {
  for (const std::string definitions : {"definitions", "$defs"}) {
    SchemaRegistry own;
    own.add_lazily(
        "d.json",
        {{definitions,
          {{"A", {{"properties", {{"x", {{"$ref", "#/" + definitions + "/B"}}}}}}}, {"B", {{"type", "string"}}}}}});
    const auto found = own.validate("d.json#/" + definitions + "/A", json{{"x", 1}});
    ASSERT_EQ(found.size(), 1u) << definitions;
    EXPECT_EQ(found[0].pointer, "/x");
    EXPECT_EQ(found[0].message, "expected type \"string\"") << definitions;  // read from B, through A
    EXPECT_TRUE(own.validate("d.json#/" + definitions + "/A", json{{"x", "y"}}).empty());
  }
}

TEST(SchemaRegistry, LongStringsNeverReachTheRegexEngine) {
  // std::regex recurses per character; a 1 MB key checked by a pattern would overflow the stack.
  json tool = kTool;
  const std::string huge(1 << 20, 'a');
  tool["_meta"] = {{huge, 1}};
  auto v = registry().validate("spec-tool.2025-11-25.schema.json", tool);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].message.find("too long to check"), std::string::npos) << v[0].message;
  // The same through an inline schema with a pattern on a value.
  json schema = {{"type", "object"}, {"properties", {{"id", {{"type", "string"}, {"pattern", "^(a|b)*$"}}}}}};
  auto w = registry().validate_inline(schema, json{{"id", huge}});
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].pointer, "/id");
  EXPECT_TRUE(registry().validate_inline(schema, json{{"id", "abab"}}).empty());
  EXPECT_EQ(registry().validate_inline(schema, json{{"id", "abc"}}).size(), 1u);
  // Just under the limit still gets the real pattern check.
  EXPECT_TRUE(
      registry().validate_inline(schema, json{{"id", std::string(SchemaRegistry::pattern_length_limit, 'a')}}).empty());
}

TEST(SchemaRegistry, RefusesSchemasItCannotRunSafely) {
  SchemaRegistry r;
  EXPECT_THROW(r.add("x.schema.json", json{{"patternProperties", {{"^a", json::object()}}}}), std::runtime_error);
  EXPECT_THROW(r.add("y.schema.json", json::array()), std::runtime_error);
  EXPECT_NO_THROW(r.add("z.schema.json", json{{"type", "string"}}));
  EXPECT_TRUE(r.validate("z.schema.json", json("s")).empty());
}

TEST(SchemaRegistry, NeverFollowsAReferenceOutOfTheDocument) {
  json schema = {{"$ref", "https://example.com/remote.json"}};
  EXPECT_ANY_THROW(registry().validate_inline(schema, json(1)));
  // A reference to another registered schema by its $id is followed; anything else is not.
  const json via_id = {
      {"properties", {{"x", {{"$ref", "urn:mcp-hints:schema:trust-annotations:sep-1913#/definitions/Destination"}}}}}};
  EXPECT_TRUE(registry().validate_inline(via_id, {{"x", "public"}}).empty());
  EXPECT_FALSE(registry().validate_inline(via_id, {{"x", "Public"}}).empty());
  const json elsewhere = {{"properties", {{"x", {{"$ref", "urn:nowhere#/definitions/X"}}}}}};
  EXPECT_ANY_THROW(registry().validate_inline(elsewhere, {{"x", 1}}));
}

namespace {

// The first look at a document is made for its first validation: validated once, a document is
// judged by it from then on.
void warm_up(const SchemaRegistry& registry, const std::string& name) { registry.validate(name, json::object()); }

std::vector<std::string> said(const std::vector<mcp_hints::SchemaViolation>& violations) {
  std::vector<std::string> out;
  for (const auto& v : violations) out.push_back(v.pointer + " " + v.message);
  return out;
}

}  // namespace

// The first look judges a registered document's member names one distinct name at a time, each
// verdict remembered; what it says is what valijson says. The differential: each document both
// registered and given inline (which takes no first look), over instances with names good and bad
// at every place a propertyNames applies (twice over, so a remembered verdict is used), where none
// does, and where the value is no object. The $ref cases are valijson's own: a recursion through
// "#" or "#/properties/..." reaches a propertyNames twice, and valijson judges the names of an
// object whose schema a $ref names against that schema itself.
TEST(SchemaRegistry, TheFirstLookAtMemberNamesSaysWhatValijsonSays) {
  const json names_a = {{"pattern", "^a[a-z]*$"}};
  const json names_b = {{"maxLength", 3}};
  const std::vector<json> documents = {
      // Names at the root, one level down and two levels down.
      {{"type", "object"},
       {"propertyNames", names_a},
       {"properties",
        {{"meta", {{"type", "object"}, {"propertyNames", names_b}}},
         {"outer", {{"properties", {{"inner", {{"propertyNames", names_a}}}}}}}}}},
      // A recursion through the root: the names of every level's meta are judged.
      {{"properties", {{"meta", {{"propertyNames", names_a}}}, {"child", {{"$ref", "#"}}}}}},
      // A recursion into the inline properties.
      {{"properties",
        {{"meta", {{"propertyNames", names_a}, {"properties", {{"again", {{"$ref", "#/properties/meta"}}}}}}}}}},
      // propertyNames beside a $ref, and a definition's names reached by $ref.
      {{"definitions", {{"Named", {{"type", "object"}, {"propertyNames", names_b}}}, {"Short", {{"maxLength", 4}}}}},
       {"properties",
        {{"refd", {{"$ref", "#/definitions/Named"}}},
         {"both", {{"$ref", "#/definitions/Named"}, {"propertyNames", names_a}}},
         {"meta", {{"propertyNames", {{"$ref", "#/definitions/Short"}}}}}}}},
      // A names schema that itself refers to a definition.
      {{"definitions", {{"Key", {{"type", "string"}, {"pattern", "^[a-z]+/[a-z]+$"}}}}},
       {"properties", {{"meta", {{"propertyNames", {{"$ref", "#/definitions/Key"}}}}}}}},
  };
  const std::vector<json> instances = {
      json::object(),
      {{"abc", 1}, {"axe", 2}},
      {{"abc", 1}, {"bad", 2}},
      {{"meta", {{"ok", 1}, {"toolong", 2}}}},
      {{"meta", {{"ok", 1}, {"ab", 2}}}},
      {{"meta", {{"a/b", 1}, {"x/y", 2}}}},
      {{"meta", {{"a/b", 1}, {"X/y", 2}, {"nope", 3}}}},
      {{"meta", "not an object"}},
      {{"meta", json::array({1, 2})}},
      {{"outer", {{"inner", {{"apple", 1}, {"pear", 2}}}}}},
      {{"outer", {{"inner", {{"apple", 1}}}, {"other", {{"pear", 1}}}}}},
      {{"outer", "x"}},
      {{"child", {{"meta", {{"apple", 1}}}}}},
      {{"child", {{"child", {{"meta", {{"pear", 1}}}}}}}},
      {{"meta", {{"again", {{"pear", 1}}}}}},
      {{"meta", {{"again", {{"apple", 1}}}}}},
      {{"refd", {{"abcd", 1}}}},
      {{"refd", {{"abc", 1}}}},
      {{"both", {{"abcd", 1}}}},
      {{"both", {{"pear", 1}}}},
      {{"both", {{"ab", 1}}}},
      {{"unrelated", {{"anything goes", 1}}}},
  };
  for (std::size_t d = 0; d < documents.size(); ++d) {
    SchemaRegistry registry;
    const std::string name = "first-pass-" + std::to_string(d) + ".json";
    registry.add(name, documents[d]);
    warm_up(registry, name);
    for (int round = 0; round < 2; ++round)
      for (const auto& instance : instances)
        EXPECT_EQ(said(registry.validate(name, instance)), said(registry.validate_inline(documents[d], instance)))
            << "document " << d << ", instance " << instance.dump();
  }
  // The controls: the recursions do reach the deep names, and a bad name at each plain place below
  // the root fails. (valijson does not apply a propertyNames at a document's root; none of ours has
  // one, and the first look leaves such a document to valijson.)
  SchemaRegistry registry;
  registry.add("root.json", documents[0]);
  registry.add("recursive.json", documents[1]);
  warm_up(registry, "root.json");
  warm_up(registry, "recursive.json");
  EXPECT_FALSE(registry.validate("recursive.json", instances[13]).empty());
  EXPECT_TRUE(registry.validate("recursive.json", instances[12]).empty());
  for (const std::size_t bad : {3, 9})
    EXPECT_FALSE(registry.validate("root.json", instances[bad]).empty()) << instances[bad].dump();
  for (const std::size_t good : {1, 4, 10, 11})
    EXPECT_TRUE(registry.validate("root.json", instances[good]).empty()) << instances[good].dump();
}

// A verdict on a name is remembered for one propertyNames schema only: the same name is judged
// again under another registry's schema, even one made where an earlier one stood.
TEST(SchemaRegistry, AVerdictOnANameBelongsToItsSchemaAlone) {
  const json instance = {{"meta", {{"apple", 1}}}};
  for (int i = 0; i < 3; ++i) {
    SchemaRegistry allows, refuses;
    allows.add("names.json", {{"properties", {{"meta", {{"propertyNames", {{"pattern", "^a"}}}}}}}});
    refuses.add("names.json", {{"properties", {{"meta", {{"propertyNames", {{"pattern", "^b"}}}}}}}});
    warm_up(allows, "names.json");
    warm_up(refuses, "names.json");
    EXPECT_TRUE(allows.validate("names.json", instance).empty());
    EXPECT_EQ(said(refuses.validate("names.json", instance)),
              std::vector<std::string>{"/meta/apple the member name \"apple\" is not of the form the schema allows"});
  }
}

namespace {

// Values at the edges of every keyword the first look reads: each type, numbers of both kinds and
// on either side of the bounds below, strings counted in code points (and one with a NUL, which
// valijson counts only up to), arrays with elements equal across kinds, objects by their names.
std::vector<json> edge_values() {
  return {nullptr,
          true,
          false,
          0,
          1,
          -1,
          1.0,
          1.5,
          2,
          3,
          3.0,
          json(std::numeric_limits<std::uint64_t>::max()),
          json(std::numeric_limits<std::int64_t>::max()),
          json(std::numeric_limits<std::int64_t>::min()),
          "",
          "a",
          "ab",
          "abc",
          "abcd",
          "\xc3\xa9\xc3\xa9",                  // two code points, four bytes
          "\xf0\x9f\x98\x80\xf0\x9f\x98\x80",  // two code points, eight bytes
          std::string("a\0bcd", 5),
          "2024-01-31",
          "2024-02-30T10:00:00Z",
          "https://example.com/x",
          "Ab",
          "1",
          json::array(),
          {1},
          {1, 1},
          {1, 1.0},
          {1, "1"},
          {json::array({1}), json::array({1})},
          {json::object({{"a", 1}}), json::object({{"a", 1.0}})},
          {1, 2, 3},
          {"a", "b"},
          json::object(),
          {{"a", 1}},
          {{"a", 1}, {"b", 2}},
          {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::uint64_t>::max()},
          {{"b", "x"}},
          {{"x", 1}},
          {{"x", "abc"}},
          {{"x", json::array({1})}},
          {{"a", "x"}, {"x", nullptr}},
          {{"Ab", 1}},
          {{"abcd", 1}},
          {{"", 1}}};
}

// One schema per keyword the first look reads, and some it leaves to valijson; each is also
// judged under `not`, in a oneOf, as an if, in anyOf, below a member and below an element, so
// that a wrong "invalid" (not only a wrong "valid") would change what is said.
std::vector<json> keyword_schemas() {
  return {
      {{"type", "integer"}},
      {{"type", "number"}},
      {{"type", json::array({"string", "null"})}},
      {{"type", "boolean"}},
      {{"type", "array"}},
      {{"type", "object"}},
      // A type beside words that check nothing is judged by its types alone; beside any keyword
      // that checks, by the whole walk.
      {{"type", "integer"}, {"title", "t"}, {"description", "d"}, {"x-vendor", 1}},
      {{"type", "integer"}, {"minimum", 2}},
      {{"type", "string"}, {"maxLength", 2}},
      {{"type", "string"}, {"pattern", "^[a-z]+$"}},
      {{"type", "string"}, {"format", "date"}},
      {{"type", json::array({"string", "null"})}, {"enum", {"a", nullptr}}},
      {{"type", "integer"}, {"const", 1}},
      {{"type", "object"}, {"required", {"a"}}},
      {{"type", "object"}, {"properties", {{"a", {{"type", "integer"}}}}}, {"additionalProperties", false}},
      {{"type", "object"}, {"propertyNames", {{"maxLength", 1}}}},
      {{"type", "array"}, {"items", {{"type", "integer"}}}},
      {{"type", "array"}, {"uniqueItems", true}},
      {{"type", "number"}, {"not", {{"type", "integer"}}}},
      {{"type", "integer"}, {"anyOf", {{{"minimum", 3}}, {{"maximum", 1}}}}},
      {{"const", 1}},
      {{"const", 1.0}},
      {{"const", "a"}},
      {{"const", json::array({1, 1})}},
      {{"const", {{"a", 1}}}},
      {{"enum", {1, "a", nullptr}}},
      {{"enum", {1.5, json::array({1})}}},
      {{"enum", {false}}},
      {{"properties", {{"a", {{"type", "integer"}}}, {"x", {{"type", "string"}}}}}},
      {{"properties", {{"a", {{"type", "integer"}}}}}, {"additionalProperties", false}},
      {{"properties", {{"a", {{"type", "integer"}}}}}, {"additionalProperties", {{"type", "string"}}}},
      {{"additionalProperties", {{"type", "integer"}}}},
      {{"required", {"a"}}},
      {{"required", {"a", "b"}}},
      {{"properties", {{"x", {{"propertyNames", {{"maxLength", 1}}}}}}}},
      {{"minProperties", 1}},
      {{"maxProperties", 1}},
      {{"items", {{"type", "integer"}}}},
      {{"items", false}},
      {{"items", true}},
      {{"minItems", 2}},
      {{"maxItems", 1}},
      {{"uniqueItems", true}},
      {{"minLength", 2}},
      {{"maxLength", 2}},
      {{"pattern", "^[a-z]+$"}},
      {{"pattern", "b"}},
      {{"format", "date"}},
      {{"format", "date-time"}},
      {{"format", "uri"}},
      {{"minimum", 1}},
      {{"maximum", 2}},
      {{"exclusiveMinimum", 1}},
      {{"exclusiveMaximum", 3}},
      {{"minimum", 1.5}, {"maximum", 2.5}},
      // An integer past int64 is judged as the largest valijson reads: equal to it, and within
      // a bound at it.
      {{"const", std::numeric_limits<std::int64_t>::max()}},
      {{"enum", {std::numeric_limits<std::int64_t>::max(), "a"}}},
      {{"maximum", std::numeric_limits<std::int64_t>::max()}},
      {{"uniqueItems", true}, {"items", {{"minimum", 0}}}},
      {{"allOf", {{{"type", "integer"}}, {{"minimum", 2}}}}},
      {{"anyOf", {{{"type", "string"}}, {{"minimum", 2}}}}},
      {{"oneOf", {{{"type", "integer"}}, {{"minimum", 2}}}}},
      {{"not", {{"type", "string"}}}},
      {{"if", {{"type", "integer"}}}, {"then", {{"minimum", 2}}}, {"else", {{"type", "string"}}}},
      {{"if", {{"type", "integer"}}}, {"then", {{"minimum", 2}}}},
      {{"then", {{"type", "string"}}}},  // no if: not read
      {{"definitions", {{"Short", {{"maxLength", 1}}}}}, {"$ref", "#/definitions/Short"}},
      {{"definitions", {{"Short", {{"maxLength", 1}}}}}, {"properties", {{"x", {{"$ref", "#/definitions/Short/"}}}}}},
      {{"properties", {{"x", {{"$ref", "#"}}}}}, {"maxProperties", 2}},
      // dependencies: names a member needs beside it, or a schema the whole object then meets.
      {{"dependencies", {{"a", {"b"}}}}},
      {{"dependencies", {{"a", {"b", "x"}}, {"x", json::array()}}}},
      {{"dependencies", {{"a", {{"required", {"b"}}}}}}},
      {{"dependencies", {{"x", {{"properties", {{"x", {{"type", "string"}}}}}}}}}},
      {{"dependencies", {{"a", false}, {"b", true}}}},
      {{"dependencies", {{"a", json::object()}}}},
      true,
      false,
      // What the first look leaves to valijson.
      {{"contains", {{"type", "string"}}}},
      {{"multipleOf", 2}},
      {{"items", {{{"type", "integer"}}}}, {"additionalItems", false}},
      // valijson builds each dependent schema at the path of `dependencies`, where a reference into
      // it may have put another schema first ("not": true stands in for a's "not").
      {{"definitions",
        {{"D",
          {{"allOf", {{{"$ref", "#/definitions/D/dependencies/not"}}}},
           {"dependencies", {{"not", true}, {"a", {{"not", {{"required", {"q"}}}}}}}}}}}},
       {"$ref", "#/definitions/D"}},
      {{"definitions",
        {{"D", {{"allOf", {{{"$ref", "#/definitions/D/dependencies"}}}}, {"dependencies", {{"a", false}}}}}}},
       {"$ref", "#/definitions/D"}},
      // valijson cuts a name at a NUL ("a\0b" is "a" to it), and reads a string "true" as a schema.
      {{"dependencies", {{std::string("a\0b", 3), {"b"}}}}},
      {{"dependencies", {{"a", {std::string("b\0c", 3)}}}}},
      {{"dependencies", {{"a", "true"}}}},
      {{"title", "only words"}, {"description", "nothing to check"}, {"x-vendor", 1}}};
}

// What a validation says, or the error it throws (valijson cannot read a non-empty array or
// object as the text a `format` checks).
template <typename Validation>
std::vector<std::string> outcome(const Validation& validation) {
  try {
    return said(validation());
  } catch (const std::exception& e) {
    return {std::string("threw: ") + e.what()};
  }
}

// Each context is a document of its own; a keyword's definitions stand at its root.
std::vector<json> in_contexts(json schema) {
  json definitions;
  if (schema.is_object() && schema.contains("definitions")) {
    definitions = schema["definitions"];
    schema.erase("definitions");
  }
  std::vector<json> documents = {
      schema.is_object() ? schema : json{{"allOf", {schema}}},
      {{"not", schema}},
      {{"oneOf", {schema, {{"type", "string"}}}}},
      {{"anyOf", {schema, {{"type", "null"}}}}},
      {{"if", schema}, {"then", {{"type", "object"}}}, {"else", {{"type", json::array({"array", "string"})}}}},
      {{"properties", {{"x", schema}}}},
      {{"items", schema}}};
  if (!definitions.is_null())
    for (auto& document : documents) document["definitions"] = definitions;
  return documents;
}

}  // namespace

// The first look (a registered schema compiled for a quick verdict) says what valijson says: each
// keyword's schema in each context, registered (judged first by the first look from its second
// validation on) and given inline (valijson alone), over every edge value, itself and as a member
// and an element. Its verdicts are counted, so the test shows that it did decide, both ways.
TEST(SchemaRegistry, TheFirstLookSaysWhatValijsonSays) {
  std::vector<json> instances = edge_values();
  for (const auto& value : edge_values()) {
    instances.push_back({{"x", value}});
    instances.push_back(json::array({value}));
  }
  std::uint64_t valid = 0, invalid = 0, undecided = 0;
  int document = 0;
  for (const auto& keyword : keyword_schemas()) {
    for (const auto& registered : in_contexts(keyword)) {
      SchemaRegistry registry;
      const std::string name = "first-look-" + std::to_string(document++) + ".json";
      registry.add(name, registered);
      for (const auto& instance : instances)
        ASSERT_EQ(outcome([&] { return registry.validate(name, instance); }),
                  outcome([&] { return registry.validate_inline(registered, instance); }))
            << "schema " << registered.dump() << ", instance " << instance.dump();
      const auto counts = registry.first_look_counts(name);
      EXPECT_EQ(counts.valid + counts.invalid + counts.undecided, instances.size()) << registered.dump();
      valid += counts.valid;
      invalid += counts.invalid;
      undecided += counts.undecided;
    }
  }
  // Most verdicts are the first look's; what it leaves to valijson is the keywords it does not read.
  EXPECT_GT(valid, 25000u);
  EXPECT_GT(invalid, 15000u);
  EXPECT_GT(undecided, 3000u);
  EXPECT_LT(undecided, (valid + invalid) / 4);
}

// A pattern's bracket expressions are compiled by the first look with quicker regex traits than
// valijson's: every character, alone and in a few strings, matches as valijson matches it, through
// ranges, negations, character classes, equivalence classes and collating elements.
TEST(SchemaRegistry, APatternMatchesEveryCharacterAsValijsonDoes) {
  const std::vector<std::string> patterns = {"^[a-z0-9-]+$",
                                             "^[A-Za-z0-9._~+/-]+=*$",
                                             "[^a-z]",
                                             "^[[:alpha:]]$",
                                             "[[:punct:][:space:]]",
                                             "[\\w.]",
                                             "[\\d\\s]",
                                             "[\\W]",
                                             "[^\\D]",
                                             "[[=a=]]",
                                             "[[=e=]x]",
                                             "[^[=a=][:digit:]_]",
                                             "[[.hyphen.]]",
                                             "[\\x00-\\x1f\\x7f]",
                                             "[\\]\\\\-]",
                                             "[\xc3\xa9]",
                                             "^[^\\s]{2}$"};
  std::vector<json> instances;
  for (int c = 0; c < 256; ++c) instances.push_back(std::string(1, static_cast<char>(c)));
  for (const char* text : {"", "ab", "a-b", "AZ09", "_", "\xc3\xa9", "a b", "x=", "\\]"})
    instances.push_back(std::string(text));
  instances.push_back(std::string("a\0", 2));
  int document = 0;
  for (const auto& pattern : patterns) {
    const json schema = {{"type", "string"}, {"pattern", pattern}};
    SchemaRegistry registry;
    const std::string name = "pattern-" + std::to_string(document++) + ".json";
    registry.add(name, schema);
    std::size_t matched = 0;
    std::uint64_t undecided_before = 0;
    std::vector<std::string> left_to_valijson;
    for (const auto& instance : instances) {
      const auto first_look = outcome([&] { return registry.validate(name, instance); });
      ASSERT_EQ(first_look, outcome([&] { return registry.validate_inline(schema, instance); }))
          << "pattern " << pattern << ", instance " << instance.dump();
      matched += first_look.empty();
      const auto now = registry.first_look_counts(name);
      if (now.undecided != undecided_before) left_to_valijson.push_back(instance.dump());
      undecided_before = now.undecided;
    }
    // Every verdict is the first look's but on text holding a NUL (valijson reads text up to it).
    EXPECT_EQ(left_to_valijson, (std::vector<std::string>{"\"\\u0000\"", "\"a\\u0000\""})) << pattern;
    EXPECT_GT(matched, 0u) << pattern;
    EXPECT_LT(matched, instances.size()) << pattern;
  }
}

// What the first look does not read it leaves to valijson, whatever the instance: a keyword it
// does not know, a reference to another document, an integer against a float in `enum`.
TEST(SchemaRegistry, TheFirstLookLeavesWhatItDoesNotReadToValijson) {
  SchemaRegistry registry;
  registry.add("other.json", {{"definitions", {{"Short", {{"maxLength", 1}}}}}});
  registry.add("contains.json", {{"contains", {{"type", "string"}}}});
  registry.add("elsewhere.json", {{"properties", {{"x", {{"$ref", "other.json#/definitions/Short"}}}}}});
  registry.add("kinds.json", {{"enum", {1.0}}});
  for (const auto& [name, instance] : std::vector<std::pair<std::string, json>>{
           {"contains.json", json::array({1})}, {"elsewhere.json", {{"x", "ab"}}}, {"kinds.json", 1}}) {
    for (int i = 0; i < 3; ++i) registry.validate(name, instance);
    const auto counts = registry.first_look_counts(name);
    EXPECT_EQ(counts.undecided, 3u) << name;
    EXPECT_EQ(counts.valid + counts.invalid, 0u) << name;
  }
  // The controls: the same instances, judged by valijson, fail (the reference is followed).
  EXPECT_FALSE(registry.validate("contains.json", json::array({1})).empty());
  EXPECT_FALSE(registry.validate("elsewhere.json", {{"x", "ab"}}).empty());
  // And a valid instance of a schema it reads is its own, from the first validation on; an
  // invalid one it finds so, and valijson (compiled then, and only then) words why.
  registry.add_lazily("reads.json", {{"type", "integer"}});
  EXPECT_TRUE(registry.validate("reads.json", 1).empty());
  EXPECT_EQ(registry.first_look_counts("reads.json").valid, 1u);
  const auto refused = registry.validate("reads.json", "x");
  EXPECT_EQ(registry.first_look_counts("reads.json").invalid, 1u);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_NE(refused[0].message.find("integer"), std::string::npos) << refused[0].message;
}

// The published schemas are read whole by the first look: no tool of the bundled example catalogs
// is left to valijson by it.
TEST(SchemaRegistry, TheFirstLookReadsThePublishedSchemasWhole) {
  SchemaRegistry own;
  for (const auto& name : {"spec-tool.2025-11-25.schema.json", "risk-metadata.sep-2793.schema.json",
                           "policy-hints.seed.schema.json", "action-security.seed.schema.json"})
    own.add(name, *registry().document(name));
  const std::vector<json> tools = {
      kTool,
      {{"name", "t"},
       {"inputSchema", {{"type", "object"}}},
       {"annotations", {{"readOnlyHint", true}, {"riskLevel", "low"}}},
       {"_meta", {{"mcp.dev/effect", "read"}, {"com.example/key", 1}}},
       {"icons", {{{"src", "https://example.com/i.png"}, {"mimeType", "image/png"}}}}},
      {{"name", "t"}, {"inputSchema", {{"type", "object"}}}, {"_meta", {{"bad key", 1}}}},
      {{"name", 1}},
  };
  for (const auto& name : own.names()) {
    for (int round = 0; round < 2; ++round)
      for (const auto& tool : tools) own.validate(name, tool);
    const auto counts = own.first_look_counts(name);
    EXPECT_EQ(counts.undecided, 0u) << name;
    EXPECT_GT(counts.valid, 0u) << name;
  }
  EXPECT_GT(own.first_look_counts("spec-tool.2025-11-25.schema.json").invalid, 0u);
}

// What the first look compiled points into its document: a name or $id stands for one document.
TEST(SchemaRegistry, ANameOrIdStandsForOneDocument) {
  SchemaRegistry registry;
  registry.add("a.json", {{"$id", "urn:a"}, {"type", "string"}});
  EXPECT_NO_THROW(registry.add("a.json", {{"$id", "urn:a"}, {"type", "string"}}));
  EXPECT_THROW(registry.add("a.json", {{"$id", "urn:a"}, {"type", "integer"}}), std::runtime_error);
  EXPECT_THROW(registry.add("b.json", {{"$id", "urn:a"}, {"type", "integer"}}), std::runtime_error);
  EXPECT_TRUE(registry.validate("urn:a", "x").empty());
  EXPECT_FALSE(registry.validate("a.json", 1).empty());
}

// `format` is checked on strings only (JSON Schema draft-07, 7.1): an object or an array where a
// string of some format belongs breaks the schema's `type`, not the validation (valijson, which
// reads the value as the text a format checks, throws on a non-empty container); a date is still
// checked as a date; and a value of another type passes a schema that gives a format alone.
TEST(SchemaRegistry, AFormatIsCheckedOnStringsOnly) {
  const json schema = {{"properties",
                        {{"u", {{"type", "string"}, {"format", "uri"}}},
                         {"d", {{"format", "date"}}},
                         {"s", {{"type", json::array({"string", "object"})}, {"format", "date-time"}}}}}};
  SchemaRegistry registry;
  registry.add("formats.json", schema);
  const auto pointers = [](const std::vector<mcp_hints::SchemaViolation>& violations) {
    std::set<std::string> out;
    for (const auto& v : violations) out.insert(v.pointer);
    return out;
  };
  const std::vector<std::pair<json, std::set<std::string>>> cases = {
      {{{"u", {{"href", "x"}}}}, {"/u"}},
      {{{"u", {1}}}, {"/u"}},
      {{{"u", json::array()}}, {"/u"}},
      {{{"u", 1}}, {"/u"}},
      {{{"u", "not a uri at all"}}, {}},  // uri is not checked
      {{{"d", "2024-02-30"}}, {"/d"}},
      {{{"d", "2024-02-28"}}, {}},
      {{{"d", {{"a", 1}}}}, {}},
      {{{"d", {1, 2}}}, {}},
      {{{"d", 5}}, {}},
      {{{"s", {{"a", 1}}}}, {}},
      {{{"s", "2024-02-28T10:00:00Z"}}, {}},
      {{{"s", "yesterday"}}, {"/s"}},
  };
  for (int round = 0; round < 2; ++round)  // the second time, the first look judges first
    for (const auto& [instance, expected] : cases) {
      EXPECT_EQ(pointers(registry.validate("formats.json", instance)), expected) << instance.dump();
      EXPECT_EQ(pointers(registry.validate_inline(schema, instance)), expected) << instance.dump();
    }
}
