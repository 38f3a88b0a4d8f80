// Translation between vocabulary revisions and placements: the seed's action metadata to SEP-1913
// and back, a property test that a round trip keeps every facet both revisions express, the
// losses reported, _meta placements, and the command.
#include "mcp_hints/vocab/translate.hpp"

#include <gtest/gtest.h>

#include <random>

#include "mcp_hints/vocab/hint_model.hpp"
#include "schema_check.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints;

TranslateOptions to(const std::string& ref,
                    TranslateOptions::Placement placement = TranslateOptions::Placement::annotations,
                    const std::string& prefix = "") {
  TranslateOptions o;
  o.target = Vocabulary::builtin().find(ref);
  o.placement = placement;
  o.meta_prefix = prefix;
  validate_translate_options(o);
  return o;
}

json resolved_facets(const json& tool) {
  const auto hints = read_tool_hints(tool, Vocabulary::builtin(), "2025-11-25");
  json out = json::object();
  for (const auto& [name, facet] : Vocabulary::builtin().facets())
    if (!hints.asserted(name).empty()) out[name] = *hints.resolved(name, Vocabulary::builtin());
  return out;
}

TEST(Translate, SeedActionMetadataToSep1913AndBack) {
  const json catalog =
      test_support::read_json(test_support::source_dir() / "examples" / "catalogs" / "good-catalog.json");
  const json& tools = catalog.contains("tools") ? catalog["tools"] : catalog["result"]["tools"];
  for (const auto& tool : tools) {
    const auto there = translate_tool(tool, to("trust-annotations@sep-1913"));
    EXPECT_TRUE(there.losses.empty()) << tool["name"];
    const auto back = translate_tool(there.tool, to("action-security@seed"));
    EXPECT_TRUE(back.losses.empty()) << tool["name"];
    EXPECT_EQ(back.tool, tool) << tool["name"];  // lossless both ways
    EXPECT_EQ(resolved_facets(there.tool), resolved_facets(tool)) << tool["name"];
  }
  const auto send = translate_tool(tools[3], to("trust-annotations@sep-1913")).tool;
  EXPECT_EQ(send["annotations"]["inputMetadata"],
            json::parse(R"({"destination":"public","sensitivity":["pii","user"],"outcomes":"irreversible"})"));
  EXPECT_FALSE(send["annotations"]["inputMetadata"].contains("Destination"));
}

// Random tools in one revision, translated to another and back: every facet both express keeps
// its value whenever the first translation reported no loss.
void round_trip_property(const std::string& a_ref, const std::string& b_ref, std::mt19937& rng) {
  const auto& vocabulary = Vocabulary::builtin();
  const auto* a = vocabulary.find(a_ref);
  std::vector<const Field*> fields;
  for (const Field* f : vocabulary.fields_of(*a))
    if (!f->is_message_field && !f->map.empty() && !f->map.count("*")) fields.push_back(f);
  ASSERT_FALSE(fields.empty());
  std::size_t compared = 0;
  for (int round = 0; round < 300; ++round) {
    json tool = {{"name", "t"}, {"inputSchema", {{"type", "object"}}}, {"annotations", {{"readOnlyHint", false}}}};
    for (const Field* f : fields) {
      if (rng() % 2) continue;
      std::vector<std::string> keys;
      for (const auto& [k, v] : f->map) keys.push_back(k);
      const std::string key = keys[rng() % keys.size()];
      json value = key == "true"        ? json(true)
                   : key == "false"     ? json(false)
                   : key.front() == '{' ? json{{key.substr(1, key.size() - 2), {{"scopes", {"gdpr"}}}}}
                                        : json(key);
      json* slot = &tool;
      for (const auto& t : f->tokens) slot = &(*slot)[t];
      *slot = value;
    }
    const auto there = translate_tool(tool, to(b_ref));
    const auto back = translate_tool(there.tool, to(a_ref));
    if (!there.losses.empty()) continue;
    const json before = resolved_facets(tool), after = resolved_facets(back.tool);
    EXPECT_EQ(after, before) << a_ref << " -> " << b_ref << " -> back\n"
                             << tool.dump() << "\n"
                             << there.tool.dump() << "\n"
                             << back.tool.dump();
    ++compared;
  }
  EXPECT_GT(compared, 50u) << a_ref << " -> " << b_ref;
}

TEST(Translate, RoundTripsKeepEveryFacetBothExpress) {
  std::mt19937 rng(1913);
  round_trip_property("action-security@seed", "trust-annotations@sep-1913", rng);
  round_trip_property("trust-annotations@sep-1913", "action-security@seed", rng);
  round_trip_property("trust-annotations@sep-1913", "action-metadata@ext-2026-06", rng);
  round_trip_property("action-metadata@ext-2026-06", "action-security@seed", rng);
  round_trip_property("policy-hints@seed", "risk-metadata@sep-2793", rng);
  round_trip_property("risk-metadata@sep-2793", "policy-hints@seed", rng);
}

TEST(Translate, WhatTheTargetCannotSayIsReportedAndKept) {
  // Several destinations into the seed's single one: the most cautious, and a loss.
  const json many = json::parse(R"({"name":"t","inputSchema":{"type":"object"},
    "annotations":{"inputMetadata":{"destination":["internal","public"],"sensitivity":{"regulated":{"scopes":["hipaa"]}}}}})");
  const auto seed = translate_tool(many, to("action-security@seed"));
  EXPECT_EQ(seed.tool["annotations"]["inputMetadata"]["Destination"], "Public");
  EXPECT_EQ(seed.tool["annotations"]["inputMetadata"]["Sensitivity"], "Regulated");
  ASSERT_EQ(seed.losses.size(), 2u);
  EXPECT_NE(seed.losses[0].message.find("takes one value: wrote Public (the most cautious), not Internal"),
            std::string::npos)
      << seed.losses[0].message;
  EXPECT_NE(seed.losses[1].message.find("cannot carry the regulatory scopes [\"hipaa\"]"), std::string::npos)
      << seed.losses[1].message;
  // The lost destination stays where it was, so nothing is silently dropped.
  EXPECT_TRUE(seed.tool["annotations"]["inputMetadata"].contains("destination"));
  // The seed's Regulated has no scopes to give SEP-1913.
  const json regulated = json::parse(R"({"name":"t","inputSchema":{"type":"object"},
    "annotations":{"returnMetadata":{"Source":"Internal","Sensitivity":"Regulated"}}})");
  const auto camel = translate_tool(regulated, to("trust-annotations@sep-1913"));
  EXPECT_EQ(camel.tool["annotations"]["returnMetadata"]["sensitivity"],
            json::parse(R"({"regulated":{"scopes":["unspecified"]}})"));
  ASSERT_EQ(camel.losses.size(), 1u);
  // An effect risk metadata has no word for.
  const json external = {{"name", "t"},
                         {"inputSchema", {{"type", "object"}}},
                         {"_meta", {{"mcp.dev/effect", "external"}, {"mcp.dev/resultSensitivity", "public"}}}};
  const auto risk = translate_tool(external, to("risk-metadata@sep-2793"));
  ASSERT_EQ(risk.losses.size(), 1u);  // resultSensitivity is not risk metadata's business: no loss
  EXPECT_NE(risk.losses[0].message.find("no value of category (risk-metadata@sep-2793) means effect external"),
            std::string::npos);
  EXPECT_EQ(risk.tool["_meta"]["mcp.dev/effect"], "external");
}

TEST(Translate, ValuesItCannotReadAreReportedAndKeptAndOwnValuesStayAsWritten) {
  // "Secret" is no seed sensitivity: it stays, said, and Source still moves.
  const json secret = json::parse(R"({"name":"t","inputSchema":{"type":"object"},
    "annotations":{"returnMetadata":{"Source":"System","Sensitivity":["Secret"]}}})");
  const auto camel = translate_tool(secret, to("trust-annotations@sep-1913"));
  EXPECT_EQ(camel.tool["annotations"]["returnMetadata"]["Sensitivity"], json::array({"Secret"}));
  EXPECT_EQ(camel.tool["annotations"]["returnMetadata"]["source"], "system");
  ASSERT_EQ(camel.losses.size(), 1u);
  EXPECT_NE(camel.losses[0].message.find("[\"Secret\"] is not a value of returnMetadata.Sensitivity"),
            std::string::npos)
      << camel.losses[0].message;
  // Into its own revision, mirrored: category "read" stays "read" (not "observe", which means the same).
  const json read = json::parse(R"({"name":"t","inputSchema":{"type":"object"},
    "annotations":{"category":"read","sideEffects":["cache"]}})");
  const auto both =
      translate_tool(read, to("risk-metadata@sep-2793", TranslateOptions::Placement::both, "com.example"));
  EXPECT_EQ(both.tool["annotations"]["category"], "read");
  EXPECT_EQ(both.tool["_meta"]["com.example/category"], "read");
  EXPECT_EQ(both.tool["_meta"]["com.example/sideEffects"], json::array({"cache"}));
  EXPECT_TRUE(both.losses.empty());
}

TEST(Translate, PlacementsInMetaAndBoth) {
  const json tool = json::parse(R"({"name":"t","inputSchema":{"type":"object"},
    "annotations":{"readOnlyHint":false,"riskLevel":"high","inputMetadata":{"Destination":"Public","Sensitivity":"None","Outcomes":"Irreversible"}}})");
  const auto meta = translate_tool(tool, to("trust-annotations@sep-1913", TranslateOptions::Placement::meta));
  EXPECT_FALSE(meta.tool["annotations"].contains("inputMetadata"));
  EXPECT_EQ(meta.tool["_meta"]["io.modelcontextprotocol/action-metadata"]["inputMetadata"]["destination"], "public");
  EXPECT_EQ(resolved_facets(meta.tool)["destination"], "public");  // clients that read the extension see it
  const auto both =
      translate_tool(tool, to("risk-metadata@sep-2793", TranslateOptions::Placement::both, "com.example"));
  EXPECT_EQ(both.tool["annotations"]["riskLevel"], "high");
  EXPECT_EQ(both.tool["_meta"]["com.example/riskLevel"], "high");
  // Each refusal names the option at fault.
  auto refused = [](auto&& translate) -> std::string {
    try {
      translate();
    } catch (const OptionError& e) {
      return e.option();
    }
    return "(accepted)";
  };
  EXPECT_EQ(refused([&] { to("risk-metadata@sep-2793", TranslateOptions::Placement::meta); }),
            "meta_prefix");  // no home, no prefix
  EXPECT_EQ(
      refused([&] { to("risk-metadata@sep-2793", TranslateOptions::Placement::meta, "io.modelcontextprotocol"); }),
      "meta_prefix");
  EXPECT_EQ(refused([&] { to("trust-annotations@issue-711"); }), "target");  // messages, not tools
  EXPECT_EQ(refused([&] { to("spec@2025-11-25"); }), "target");
}

TEST(TranslateCommand, ExitCodesOutputAndReport) {
  test_support::TempDir dir;
  const auto good = (test_support::source_dir() / "examples" / "catalogs" / "good-catalog.json").string();
  const auto out = (dir.path() / "out.json").string(), report = (dir.path() / "report.json").string();
  auto r = test_support::run_cli(
      {"translate", good, "--to", "trust-annotations@sep-1913", "--output", out, "--report", report});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("5 tool(s), 10 key(s) written in trust-annotations@sep-1913, 0 loss(es)"), std::string::npos)
      << r.err;
  EXPECT_EQ(test_support::read_json(out)["tools"].size(), 5u);
  EXPECT_EQ(
      test_support::expect_matches_schema("translate-report.schema.json", test_support::read_file(report))["losses"]
          .size(),
      0u);
  const auto many = dir.write("many.json", R"({"tools":[{"name":"t","inputSchema":{"type":"object"},
    "annotations":{"inputMetadata":{"destination":["internal","public"]}}}]})");
  r = test_support::run_cli({"translate", many.string(), "--to", "action-security@seed", "--report", report});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(json::parse(r.out)["tools"][0]["annotations"]["inputMetadata"]["Destination"], "Public");
  const json lost =
      test_support::expect_matches_schema("translate-report.schema.json", test_support::read_file(report));
  EXPECT_EQ(lost["losses"][0]["tool"], "t");
  for (const auto& [pointer, broken] : std::vector<std::pair<std::string, json>>{
           {"/placement", "sideways"}, {"/written", -1}, {"/losses/0/tool", 5}, {"/losses/0/tool_name", "t"}})
    test_support::expect_schema_refuses("translate-report.schema.json", lost, pointer, broken);
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"translate", good}, "--to NAME@REV is required"},
           {{"translate", good, "--to", "nope@1"}, "names no vocabulary revision"},
           {{"translate", good, "--to", "trust-annotations"},
            "'trust-annotations' has several revisions: name one (trust-annotations@issue-711, "
            "trust-annotations@sep-1913, trust-annotations@ext-2026-06)"},
           {{"translate", good, "--to", "risk-metadata", "--placement", "sideways"}, "unknown --placement 'sideways'"},
           {{"translate", good, "--to", "risk-metadata", "--placement", "meta"},
            "--meta-prefix: risk-metadata@sep-2793 defines no _meta home"},
           {{"translate", good, "--to", "risk-metadata", "--placement", "meta", "--meta-prefix", "a/b"},
            "--meta-prefix: 'a/b' is not a prefix of your own"},
           {{"translate", good, "--to", "spec@2025-11-25"},
            "--to: spec@2025-11-25 is the specification's: its hints are the baseline"},
           {{"translate", (dir.path() / "none.json").string(), "--to", "risk-metadata"}, "cannot open"},
           {{"translate", dir.write("bad.json", "{").string(), "--to", "risk-metadata"}, "bad.json: "},
       }) {
    test_support::expect_usage_error(args, message);
  }
}

}  // namespace
