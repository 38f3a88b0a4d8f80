// The crosswalk for spec editors: rows, overlaps and conflicts; diffs between revisions; checks
// of a draft schema; and the vocab command's outputs against golden files
// (MCP_HINTS_UPDATE_GOLDEN=1 rewrites them).
#include "mcp_hints/vocab/crosswalk.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "schema_check.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints;

const CrosswalkRow* row(const std::vector<CrosswalkRow>& rows, const std::string& ref, const std::string& key) {
  for (const auto& r : rows)
    if (r.revision->ref() == ref && r.field->key == key) return &r;
  return nullptr;
}

TEST(Crosswalk, EveryFieldOfEveryRevisionWithItsTypeMeaningOverlapsAndConflicts) {
  const auto rows = crosswalk_rows(Vocabulary::builtin());
  std::size_t fields = 0;
  for (const auto& r : Vocabulary::builtin().revisions()) fields += Vocabulary::builtin().fields_of(r).size();
  EXPECT_EQ(rows.size(), fields);
  for (const auto& r : rows) EXPECT_NE(r.type, "any") << r.revision->ref() << " " << r.field->key << ": no schema node";

  const auto* destination = row(rows, "trust-annotations@sep-1913", "inputMetadata.destination");
  ASSERT_NE(destination, nullptr);
  EXPECT_EQ(destination->placement, "tool annotations");
  EXPECT_EQ(destination->type, "string or array of string");
  EXPECT_EQ(destination->facets, std::vector<std::string>{"destination"});
  const auto has = [](const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  };
  EXPECT_TRUE(has(destination->overlaps, "action-security@seed inputMetadata.Destination"));
  EXPECT_TRUE(has(destination->overlaps, "action-metadata@ext-2026-06 inputMetadata.destination"));

  const auto* idempotent = row(rows, "policy-hints@seed", "mcp.dev/idempotent");
  ASSERT_NE(idempotent, nullptr);
  ASSERT_EQ(idempotent->conflicts.size(), 1u);  // same word as the specification's, another meaning
  EXPECT_NE(idempotent->conflicts[0].find("same input gives the same result"), std::string::npos);
  EXPECT_TRUE(has(idempotent->overlaps, "spec@2026-07-28 idempotentHint"));

  const auto* sensitive = row(rows, "trust-annotations@ext-2026-06", "sensitive");
  ASSERT_NE(sensitive, nullptr);
  EXPECT_EQ(sensitive->placement, "result _meta and content block _meta");
  EXPECT_EQ(sensitive->type, "boolean");
  const auto* review = row(rows, "action-metadata@ext-2026-06", "requiresReview");
  ASSERT_NE(review, nullptr);
  EXPECT_EQ(review->placement, "tool _meta");
  EXPECT_TRUE(has(review->overlaps, "risk-metadata@sep-2793 approvalRecommendation"));
  EXPECT_NE(std::string(precedence_rule()).find("most cautious"), std::string::npos);
}

// The trust annotations on requests and results claim facets too: each value a floor on the
// facet's scale; keys that say the same in other words overlap, whichever revision says them, and
// never a tool key; each names how it travels and the tool keys that bound it.
TEST(Crosswalk, MessageFieldsClaimFacetsOverlapEachOtherAndStandToToolDeclarations) {
  const auto rows = crosswalk_rows(Vocabulary::builtin());
  const auto has = [](const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  };
  const auto means = [](const CrosswalkRow& r, const std::string& value) {
    for (const auto& [v, m] : r.values)
      if (v == value) return m;
    return std::string("(no such value)");
  };
  const auto* level = row(rows, "trust-annotations@issue-711", "sensitiveHint");
  ASSERT_NE(level, nullptr);
  EXPECT_EQ(level->placement, "request params._meta and result _meta");
  EXPECT_EQ(level->facets, std::vector<std::string>{"result-sensitivity"});
  EXPECT_EQ(means(*level, "low"), "result-sensitivity ≥ internal");
  EXPECT_EQ(means(*level, "medium"), "result-sensitivity ≥ confidential");
  EXPECT_EQ(means(*level, "high"), "result-sensitivity ≥ restricted");
  EXPECT_EQ(level->values.front().first, "low");  // from least to most cautious
  EXPECT_EQ(level->values.back().first, "high");
  EXPECT_EQ(level->overlaps, (std::vector<std::string>{"trust-annotations@issue-711 privateHint",
                                                       "trust-annotations@ext-2026-06 sensitive"}));
  EXPECT_EQ(level->propagation, "same-or-higher (MUST)");
  EXPECT_TRUE(has(level->relations, "at most result-sensitivity: policy-hints@seed mcp.dev/resultSensitivity"))
      << ::testing::PrintToString(level->relations);

  const auto* sensitive = row(rows, "trust-annotations@ext-2026-06", "sensitive");
  ASSERT_NE(sensitive, nullptr);
  EXPECT_EQ(means(*sensitive, "true"), "result-sensitivity ≥ internal");
  EXPECT_EQ(means(*sensitive, "false"), "no claim");  // a floor at the bottom says nothing
  EXPECT_EQ(sensitive->propagation, "within-result (MUST NOT weaken)");

  const auto* untrusted = row(rows, "trust-annotations@ext-2026-06", "untrusted");
  ASSERT_NE(untrusted, nullptr);
  EXPECT_EQ(means(*untrusted, "true"), "result-source ≥ untrusted-public");
  EXPECT_TRUE(has(untrusted->overlaps, "trust-annotations@sep-1913 openWorldHint"));
  EXPECT_FALSE(has(untrusted->overlaps, "spec@2026-07-28 openWorldHint"));  // a tool key: another scope
  bool bounded_by_sources = false;
  for (const auto& r : untrusted->relations)
    bounded_by_sources |= r.starts_with("at most result-source: ") &&
                          r.find("action-security@seed returnMetadata.Source") != std::string::npos &&
                          r.find("trust-annotations@sep-1913 returnMetadata.source") != std::string::npos;
  EXPECT_TRUE(bounded_by_sources) << ::testing::PrintToString(untrusted->relations);

  // #711's openWorldHint is about the data's origin, the specification's about the tool's reach.
  const auto* origin = row(rows, "trust-annotations@issue-711", "openWorldHint");
  const auto* reach = row(rows, "spec@2025-11-25", "openWorldHint");
  ASSERT_TRUE(origin && reach);
  EXPECT_EQ(origin->facets, std::vector<std::string>{"result-source"});
  EXPECT_EQ(reach->facets, std::vector<std::string>{"open-world"});
  EXPECT_FALSE(origin->conflicts.empty());
  EXPECT_FALSE(reach->conflicts.empty());
  EXPECT_FALSE(has(origin->overlaps, "trust-annotations@sep-1913 openWorldHint"));  // the same key, revised

  const auto* attribution = row(rows, "trust-annotations@sep-1913", "attribution");
  ASSERT_NE(attribution, nullptr);
  EXPECT_EQ(attribution->propagation, "union (SHOULD)");
  EXPECT_EQ(row(rows, "trust-annotations@issue-711", "attribution")->propagation, "union (MUST)");
  EXPECT_EQ(row(rows, "trust-annotations@sep-1913", "maliciousActivityHint")->propagation, "none");

  // The tool side names the message claims it bounds; a tool field never overlaps a message one.
  const auto* declared = row(rows, "policy-hints@seed", "mcp.dev/resultSensitivity");
  ASSERT_NE(declared, nullptr);
  ASSERT_FALSE(declared->relations.empty());
  EXPECT_TRUE(declared->relations[0].starts_with("bounds message claims of result-sensitivity: "));
  EXPECT_NE(declared->relations[0].find("trust-annotations@issue-711 sensitiveHint"), std::string::npos);
  for (const auto& r : rows)
    for (const auto& o : r.overlaps) {
      const auto* other = row(rows, o.substr(0, o.find(' ')), o.substr(o.find(' ') + 1));
      ASSERT_NE(other, nullptr) << o;
      EXPECT_EQ(other->field->is_message_field, r.field->is_message_field) << r.field->key << " ~ " << o;
    }
  EXPECT_NE(std::string(message_scope_rule()).find("Absence is no claim"), std::string::npos);
}

TEST(Crosswalk, DiffsNameRenamesRetypingsAndValueChanges) {
  const auto& v = Vocabulary::builtin();
  const auto seed_to_1913 = diff_revisions(v, *v.find("action-security@seed"), *v.find("trust-annotations@sep-1913"));
  EXPECT_EQ(seed_to_1913.renamed.size(), 5u);
  EXPECT_EQ(seed_to_1913.renamed[0].before, "inputMetadata.Destination (tool annotations)");
  EXPECT_EQ(seed_to_1913.renamed[0].after, "inputMetadata.destination (tool annotations)");
  EXPECT_EQ(seed_to_1913.retyped[0].before, "string");
  EXPECT_EQ(seed_to_1913.retyped[0].after, "string or array of string");
  EXPECT_EQ(seed_to_1913.values[0].before, "removed Ephemeral, Internal, Public, System, User");
  EXPECT_TRUE(seed_to_1913.removed.empty());

  const auto t711_to_1913 =
      diff_revisions(v, *v.find("trust-annotations@issue-711"), *v.find("trust-annotations@sep-1913"));
  EXPECT_EQ(t711_to_1913.removed, (std::vector<std::string>{"privateHint (request params._meta and result _meta)",
                                                            "sensitiveHint (request params._meta and result _meta)"}));

  const auto spec = diff_revisions(v, *v.find("spec@2025-06-18"), *v.find("spec@2025-11-25"));
  EXPECT_TRUE(spec.added.empty() && spec.removed.empty() && spec.renamed.empty());
  ASSERT_EQ(spec.notes.size(), 1u);  // the _meta reservation moved
  EXPECT_TRUE(diff_revisions(v, *v.find("spec@2025-11-25"), *v.find("spec@2026-07-28")).empty());
  EXPECT_TRUE(diff_revisions(v, *v.find("risk-metadata"), *v.find("risk-metadata")).empty());
}

TEST(Crosswalk, ADraftIsCheckedForDuplicatesCollisionsAndMetaKeys) {
  const json draft = test_support::read_json(test_support::fixture("vocab/draft-tool-safety.schema.json"));
  const auto findings = check_draft_schema(Vocabulary::builtin(), draft);
  std::multiset<std::string> kinds;
  std::map<std::string, std::string> by_pointer;
  for (const auto& f : findings) {
    kinds.insert(f.kind);
    by_pointer[f.pointer + " " + f.kind] = f.message;
  }
  EXPECT_EQ(kinds.count("duplicate-facet"), 5u);
  EXPECT_EQ(kinds.count("meta-key"), 3u);
  EXPECT_NE(by_pointer["/properties/annotations/properties/destructive duplicate-facet"].find("effect"),
            std::string::npos);
  EXPECT_NE(by_pointer["/properties/annotations/properties/impact duplicate-facet"].find("outcome"), std::string::npos);
  EXPECT_NE(by_pointer["/properties/_meta/properties/com.example~1approval duplicate-facet"].find("confirmation"),
            std::string::npos);
  EXPECT_NE(by_pointer["/properties/_meta/properties/approval meta-key"].find("no prefix"), std::string::npos);
  EXPECT_NE(by_pointer["/properties/_meta/properties/io.modelcontextprotocol~1safety meta-key"].find("reserves"),
            std::string::npos);
  EXPECT_NE(by_pointer["/properties/_meta/properties/-bad key~1x meta-key"].find("not a valid _meta key"),
            std::string::npos);
  EXPECT_FALSE(
      by_pointer.count("/properties/annotations/properties/retryBudget duplicate-facet"));  // new: nothing like it
  // A draft that adds nothing existing says nothing.
  const json fresh = {
      {"type", "object"},
      {"properties", {{"_meta", {{"properties", {{"com.example/retryBudget", {{"type", "integer"}}}}}}}}}};
  EXPECT_TRUE(check_draft_schema(Vocabulary::builtin(), fresh).empty());
}

// A draft that says again what a trust annotation says, by its name or by its values, duplicates
// a message facet as it would a tool one.
TEST(Crosswalk, ADraftRepeatingAMessageFacetIsCaught) {
  const json draft = {{"type", "object"},
                      {"properties",
                       {{"_meta",
                         {{"properties",
                           {{"com.example/sensitive", {{"type", "boolean"}}},
                            {"com.example/dataLevel", {{"enum", {"low", "medium", "high"}}}},
                            {"com.example/retryBudget", {{"type", "integer"}}}}}}}}}};
  std::map<std::string, std::string> duplicates;
  for (const auto& f : check_draft_schema(Vocabulary::builtin(), draft))
    if (f.kind == "duplicate-facet") duplicates[f.pointer] = f.message;
  ASSERT_EQ(duplicates.size(), 2u) << ::testing::PrintToString(duplicates);
  const std::string by_name = duplicates["/properties/_meta/properties/com.example~1sensitive"];
  EXPECT_NE(by_name.find("result-sensitivity"), std::string::npos) << by_name;
  EXPECT_NE(by_name.find("trust-annotations@ext-2026-06 sensitive"), std::string::npos) << by_name;
  const std::string by_values = duplicates["/properties/_meta/properties/com.example~1dataLevel"];
  EXPECT_NE(by_values.find("result-sensitivity (3 of its 3 values)"), std::string::npos) << by_values;
}

TEST(VocabCommand, OutputsMatchTheirGoldenFiles) {
  test_support::expect_golden({"vocab", "list"}, "vocab-list.txt");
  test_support::expect_golden({"vocab", "table", "--format", "markdown"}, "vocab-table.md");
  test_support::expect_golden({"vocab", "table"}, "vocab-table.txt");
  test_support::expect_golden({"vocab", "table", "--format", "html"}, "vocab-table.html");
  test_support::expect_golden({"vocab", "trace"}, "vocab-trace.txt");
  test_support::expect_golden({"vocab", "trace", "--format", "markdown"}, "vocab-trace.md");
  test_support::expect_golden({"vocab", "trace", "--format", "html"}, "vocab-trace.html");
  test_support::expect_golden({"vocab", "diff", "action-security@seed", "trust-annotations@sep-1913"},
                              "vocab-diff-action-security.txt");
  test_support::expect_golden({"vocab", "diff", "trust-annotations@issue-711", "trust-annotations@sep-1913"},
                              "vocab-diff-trust-annotations.txt");
  const auto draft = test_support::fixture("vocab/draft-tool-safety.schema.json");
  const auto r = test_support::run_cli({"vocab", "check", draft.string(), "--format", "json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(json::parse(r.out)["findings"].size(), 10u);
  const auto table = json::parse(test_support::run_cli({"vocab", "table", "--format", "json"}).out);
  EXPECT_EQ(table["fields"].size(), crosswalk_rows(Vocabulary::builtin()).size());
  EXPECT_FALSE(table["conflicts"].empty());
}

// The coverage table of docs/vocab.md is the command's, so it cannot drift.
TEST(VocabCommand, TheDocsCoverageTableIsTraceOutput) {
  const auto r = test_support::run_cli({"vocab", "trace", "--format", "markdown"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto start = r.out.find("| proposal |");
  ASSERT_NE(start, std::string::npos);
  const std::string table = r.out.substr(start, r.out.find("\n\n", start) - start + 1);
  EXPECT_NE(table.find("| policy-hints@seed |"), std::string::npos) << table;
  EXPECT_NE(test_support::read_file(test_support::source_dir() / "docs" / "vocab.md").find(table), std::string::npos)
      << "docs/vocab.md: replace the traceability coverage table by the one `mcp-hints vocab trace --format markdown` "
         "prints:\n"
      << table;
}

// Each JSON output of vocab, from the real command, matches its published schema; broken in one
// member (a wrong type, an unknown enum value, a member in snake_case) it does not.
TEST(VocabCommand, EveryJsonOutputMatchesItsPublishedSchema) {
  const auto draft = test_support::fixture("vocab/draft-tool-safety.schema.json").string();
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string schema, pointer;
    json broken;
    std::string object;  // an object of ours in the output, which takes no member of another casing
  };
  const std::vector<Case> cases = {
      {{"vocab", "list"}, 0, "vocab-list.schema.json", "/0/scope", "everywhere", "/0"},
      {{"vocab", "table"}, 0, "vocab-table.schema.json", "/fields/0/placement", "tool _metadata", "/fields/0"},
      {{"vocab", "diff", "action-security@seed", "trust-annotations@sep-1913"},
       0,
       "vocab-diff.schema.json",
       "/renamed/0/before",
       json::array(),
       "/renamed/0"},
      {{"vocab", "check", draft}, 1, "vocab-check.schema.json", "/findings/0/kind", "typo", "/findings/0"},
      {{"vocab", "trace"},
       0,
       "vocab-trace.schema.json",
       "/documents/0/sentences/0/status",
       "uncovered",
       "/documents/0/sentences/0"},
      {{"vocab", "trace"}, 0, "vocab-trace.schema.json", "/documents/0/coverage/covered", "4", "/documents/0/coverage"},
  };
  for (auto c : cases) {
    c.args.insert(c.args.end(), {"--format", "json"});
    const auto r = test_support::run_cli(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args[1] << ": " << r.err;
    const json out = test_support::expect_matches_schema(c.schema, r.out);
    ASSERT_TRUE(out.contains(json::json_pointer(c.object))) << c.args[1] << ": the output has no " << c.object;
    test_support::expect_schema_refuses(c.schema, out, c.pointer, c.broken);
    test_support::expect_schema_refuses(c.schema, out, c.object + "/snake_case", 1);
  }
}

TEST(VocabCommand, BadInputIsAOneLineUsageError) {
  test_support::TempDir dir;
  const auto not_json = dir.write("x.json", "{nope");
  const auto array = dir.write("a.json", "[]");
  // JSON that is not a draft of hints: a catalog, and a schema whose field is not a schema.
  const auto catalog = test_support::source_dir() / "examples" / "catalogs" / "good-catalog.json";
  const auto no_fields = dir.write("n.json", R"({"tools": []})");
  const auto bad_field = dir.write("b.json", R"({"properties": {"annotations": {"properties": {"x": 5}}}})");
  // The reader's limits hold in vocab check: a 20 MB string, a member given twice.
  const auto long_string = dir.write(
      "long.json", R"({"properties": {"annotations": {"description": ")" + std::string(20 << 20, 'x') + "\"}}}");
  const auto twice =
      dir.write("twice.json", R"({"properties": {"annotations": {"type": "object", "type": "string"}}})");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"vocab"}, "say what: list, table, diff, check or trace"},
      {{"vocab", "fly"}, "unknown 'vocab fly'"},
      {{"vocab", "table", "--format", "pdf"}, "unknown --format 'pdf' for table"},
      {{"vocab", "trace", "--format", "sarif"}, "unknown --format 'sarif' for trace (text, markdown, json, html)"},
      {{"vocab", "trace", "policy-hints@seed"}, "trace takes no argument"},
      {{"vocab", "diff", "spec@2025-06-18"}, "diff takes two revisions"},
      {{"vocab", "diff", "spec", "risk-metadata"}, "'spec' has several revisions: name one (spec@2025-06-18"},
      {{"vocab", "diff", "nope@1", "risk-metadata"}, "'nope@1' names no vocabulary revision"},
      {{"vocab", "diff", "risk-metadata@sep-9999", "spec@2025-11-25"},
       "'risk-metadata@sep-9999' names no revision of risk-metadata (its revisions: risk-metadata@sep-2793)"},
      {{"vocab", "diff", "risk-metdata@sep-2793", "spec@2025-11-25"}, "did you mean 'risk-metadata@sep-2793'?"},
      {{"vocab", "check", (dir.path() / "none.json").string()}, "cannot open"},
      {{"vocab", "check", not_json.string()}, "x.json: "},
      {{"vocab", "check", array.string()}, "a JSON Schema is an object"},
      {{"vocab", "check", catalog.string()},
       "good-catalog.json: not a draft schema of tool hints: it declares no field"},
      {{"vocab", "check", no_fields.string()}, "n.json: not a draft schema of tool hints"},
      {{"vocab", "check", long_string.string()},
       "long.json: a string longer than the limit of 16777216 bytes at /properties/annotations"},
      {{"vocab", "check", twice.string()},
       "twice.json: member \"type\" given twice in the object at /properties/annotations: first \"object\", then "
       "\"string\""},
      {{"vocab", "check", bad_field.string()},
       "b.json: not a JSON Schema: the schema of \"x\" is number (a schema is an object or a boolean) at "
       "/properties/annotations/properties/x"},
  };
  for (const auto& [args, message] : cases) {
    test_support::expect_usage_error(args, message);
  }
}

}  // namespace
