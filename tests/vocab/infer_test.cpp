// Inference: splitting names, the 38-tool fixture's expected results (verb classes, risky
// flags, scope parameters, confirmation), writing the result in each vocabulary, and the command.
#include "mcp_hints/vocab/infer.hpp"

#include <gtest/gtest.h>

#include <random>

#include "mcp_hints/vocab/hint_model.hpp"
#include "schema_check.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using namespace mcp_hints;

TEST(Infer, NamesSplitIntoWords) {
  EXPECT_EQ(name_words("deletePod"), (std::vector<std::string>{"delete", "pod"}));
  EXPECT_EQ(name_words("delete_pod"), (std::vector<std::string>{"delete", "pod"}));
  EXPECT_EQ(name_words("k8s.getNodes"), (std::vector<std::string>{"k8s", "get", "nodes"}));
  EXPECT_EQ(name_words("HTTPRequestSend"), (std::vector<std::string>{"http", "request", "send"}));
  EXPECT_EQ(name_words("delete-all--items"), (std::vector<std::string>{"delete", "all", "items"}));
  EXPECT_TRUE(name_words("").empty());
}

// name_words against its definition, a character at a time (a capital starts a word after a
// lower-case letter or digit, or before a lower-case letter after capitals; any other character
// than an ASCII letter or digit ends one), over random names of every kind of character.
TEST(Infer, NamesSplitAsTheirDefinitionSaysOverRandomNames) {
  const auto defined = [](const std::string& name) {
    const auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
    const auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    std::vector<std::string> words;
    std::string word;
    for (std::size_t i = 0; i < name.size(); ++i) {
      const char c = name[i];
      if (!upper(c) && !lower(c) && !digit(c)) {
        if (!word.empty()) words.push_back(word);
        word.clear();
        continue;
      }
      if (upper(c) && !word.empty() &&
          (lower(name[i - 1]) || digit(name[i - 1]) || (i + 1 < name.size() && lower(name[i + 1])))) {
        words.push_back(word);
        word.clear();
      }
      word += upper(c) ? static_cast<char>(c - 'A' + 'a') : c;
    }
    if (!word.empty()) words.push_back(word);
    return words;
  };
  const std::string alphabet = "aAzZbQ09_-. /@\xc3\xa9\x7f\x01";
  std::mt19937 random(17);
  for (int n = 0; n < 20000; ++n) {
    std::string name(random() % 14, ' ');
    for (char& c : name) c = alphabet[random() % alphabet.size()];
    ASSERT_EQ(name_words(name), defined(name)) << "name: " << name;
  }
}

TEST(Infer, TheFixtureCatalogGivesItsExpectedResults) {
  const json catalog = test_support::read_json(test_support::fixture("infer/catalog.json"));
  const json expected = test_support::read_json(test_support::fixture("infer/expected.json"))["expected"];
  ASSERT_GE(catalog["tools"].size(), 30u);
  ASSERT_EQ(catalog["tools"].size(), expected.size());
  for (const auto& tool : catalog["tools"]) {
    const std::string name = tool["name"];
    ASSERT_TRUE(expected.contains(name)) << name;
    const json& want = expected[name];
    const auto got = infer_tool(tool);
    auto value = [&](const char* facet) { return got.find(facet) ? got.find(facet)->value : json(); };
    EXPECT_EQ(value("effect"), want["effect"]) << name;
    EXPECT_EQ(value("risk"), want["risk"]) << name;
    EXPECT_EQ(value("blast-radius"), want["blast-radius"]) << name;
    EXPECT_EQ(value("confirmation"), want["confirmation"]) << name;
    EXPECT_EQ(got.strong, want["strong"].get<bool>()) << name;
    for (const auto& v : got.values) EXPECT_FALSE(v.evidence.empty()) << name << " " << v.facet;
  }
}

TEST(Infer, WrittenInEachVocabularyWithoutOverwriting) {
  const json tool = json::parse(R"({"name": "delete_pods", "inputSchema": {"type": "object",
    "properties": {"namespace": {"type": "string"}, "force": {"type": "boolean"}}}})");
  const auto inference = infer_tool(tool);
  const json risk = apply_inference(tool, inference, "risk-metadata@sep-2793");
  EXPECT_EQ(
      risk["annotations"],
      json::parse(
          R"({"category":"delete","riskLevel":"critical","blastRadius":"namespace","approvalRecommendation":"multi"})"));
  const json policy = apply_inference(tool, inference, "policy-hints@seed");
  EXPECT_EQ(policy["_meta"], json::parse(R"({"mcp.dev/effect":"delete","mcp.dev/requiresConfirmation":true})"));
  const json spec = apply_inference(tool, inference, "spec");
  EXPECT_EQ(spec["annotations"], json::parse(R"({"readOnlyHint":false,"destructiveHint":true})"));
  // Whatever vocabulary, a client reads back what was inferred.
  for (const json& written : {risk, policy, spec})
    EXPECT_EQ(*read_tool_hints(written, Vocabulary::builtin(), "2025-11-25").resolved("effect", Vocabulary::builtin()),
              "delete");
  // A key already there is never overwritten.
  json declared = tool;
  declared["annotations"] = {{"riskLevel", "low"}};
  EXPECT_EQ(apply_inference(declared, inference, "risk-metadata@sep-2793")["annotations"]["riskLevel"], "low");
  // Nothing inferred, nothing written.
  const json magic = {{"name", "do_magic"}, {"inputSchema", {{"type", "object"}}}};
  EXPECT_EQ(apply_inference(magic, infer_tool(magic), "risk-metadata@sep-2793"), magic);
  EXPECT_THROW(apply_inference(tool, inference, "nope@1"), OptionError);
  EXPECT_TRUE(infer_tool(json::array()).values.empty());
}

TEST(InferCommand, ReportsEvidenceAppliesAndRefusesBadInput) {
  test_support::TempDir dir;
  const auto catalog = test_support::fixture("infer/catalog.json").string();
  const auto applied = (dir.path() / "applied.json").string();
  auto r = test_support::run_cli({"infer", catalog, "--format", "json", "--apply", applied});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = test_support::expect_matches_schema("infer-report.schema.json", r.out);
  for (const auto& [pointer, broken] : std::vector<std::pair<std::string, json>>{
           {"/skippedDeclared", "0"},
           {"/tools/0/inferred/effect/inferred", false},
           {"/tools/0/inferred/blast_radius", out["tools"][0]["inferred"]["effect"]},
           {"/tools/0/verb_evidence", "delete class"}})
    test_support::expect_schema_refuses("infer-report.schema.json", out, pointer, broken);
  EXPECT_EQ(out["tools"].size(), 38u);
  const auto& first = out["tools"][0];
  EXPECT_EQ(first["inferred"]["effect"]["inferred"], true);
  EXPECT_FALSE(first["inferred"]["effect"]["evidence"].empty());
  EXPECT_EQ(first["keys"]["/annotations"]["category"], "read");
  EXPECT_EQ(first["keys"]["/_meta"]["mcp-hints.inferred/category"], "read");  // mirrored by default
  // The applied catalog lints without error, and its delete tools now ask for confirmation.
  const auto lint = test_support::run_cli({"lint", applied, "--format", "json"});
  EXPECT_EQ(lint.exit_code, 0) << lint.out.substr(0, 2000);
  EXPECT_EQ(test_support::read_json(applied)["tools"][4]["annotations"]["approvalRecommendation"], "single");
  // ... and without a placement finding; annotations only, as before, gets one per tool.
  auto placement_findings = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"infer", catalog, "--apply", applied};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto infer = test_support::run_cli(args);
    EXPECT_EQ(infer.exit_code, 0) << infer.err;
    const json lint = json::parse(test_support::run_cli({"lint", applied, "--format", "json"}).out);
    std::size_t count = 0;
    for (const auto& f : lint["findings"]) count += f["check"].get<std::string>().rfind("placement.", 0) == 0;
    return count;
  };
  EXPECT_EQ(placement_findings({}), 0u);
  EXPECT_EQ(placement_findings({"--placement", "meta", "--meta-prefix", "com.example"}), 0u);
  EXPECT_EQ(placement_findings({"--to", "policy-hints@seed"}), 0u);
  EXPECT_GT(placement_findings({"--placement", "annotations"}), 30u);
  // Tools that declare hints are left alone unless --all.
  const auto good = (test_support::source_dir() / "examples" / "catalogs" / "good-catalog.json").string();
  EXPECT_EQ(test_support::expect_matches_schema(
                "infer-report.schema.json",
                test_support::run_cli({"infer", good, "--format", "json"}).out)["skippedDeclared"],
            5);
  EXPECT_EQ(
      test_support::expect_matches_schema(
          "infer-report.schema.json", test_support::run_cli({"infer", good, "--format", "json", "--all"}).out)["tools"]
          .size(),
      5u);
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"infer"}, "give one catalog FILE"},
           {{"infer", catalog, "--to", "nope@1"}, "--to: 'nope@1' names no vocabulary revision"},
           {{"infer", catalog, "--format", "xml"}, "unknown --format 'xml'"},
           {{"infer", catalog, "--placement", "sideways"}, "unknown --placement 'sideways'"},
           {{"infer", catalog, "--meta-prefix", "a/b"}, "--meta-prefix: 'a/b' is not a prefix of your own"},
           {{"infer", catalog, "--placement", "meta", "--meta-prefix", ""},
            "--meta-prefix: risk-metadata@sep-2793 defines no _meta home"},
           {{"infer", dir.write("bad.json", "[").string()}, "bad.json: "},
       }) {
    test_support::expect_usage_error(args, message);
  }
}

}  // namespace
