// Inference measured on real tools: tests/fixtures/infer/real-tools.json holds tools of public MCP
// servers, each labelled by hand with its effect and why. An inference counts only when infer
// claims an effect; precision is the share of claims that match the label, recall the share of
// tools whose label infer finds. A regression prints the confusion and every wrong claim.
#include <gtest/gtest.h>

#include <iomanip>
#include <map>
#include <sstream>

#include "mcp_hints/vocab/infer.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;

// Measured when the corpus was labelled (tool count, precision, recall), so that a change of the
// name model or of the corpus that lowers either shows here.
constexpr std::size_t kMinimumTools = 400;
constexpr double kMinimumPrecision = 0.97;
constexpr double kMinimumRecall = 0.90;

struct Measure {
  std::size_t tools = 0, claims = 0, correct = 0;
  std::map<std::string, std::map<std::string, std::size_t>> confusion;  // label -> inferred ("-": none)
  std::vector<std::string> wrong;
  double precision() const { return claims ? static_cast<double>(correct) / static_cast<double>(claims) : 0; }
  double recall() const { return tools ? static_cast<double>(correct) / static_cast<double>(tools) : 0; }

  std::string explained() const {
    static const std::vector<std::string> effects = {"read", "write", "external", "delete", "-"};
    std::ostringstream out;
    out << tools << " tools, " << claims << " claims, " << correct << " correct: precision " << std::fixed
        << std::setprecision(3) << precision() << ", recall " << recall() << "\nlabel \\ inferred";
    for (const auto& e : effects) out << std::setw(9) << e;
    for (const auto& label : effects) {
      if (!confusion.count(label)) continue;
      out << "\n" << std::setw(16) << std::left << label << std::right;
      for (const auto& inferred : effects) {
        const auto& row = confusion.at(label);
        out << std::setw(9) << (row.count(inferred) ? row.at(inferred) : 0);
      }
    }
    for (const auto& w : wrong) out << "\n  wrong: " << w;
    return out.str();
  }
};

json corpus() { return test_support::read_json(test_support::fixture("infer/real-tools.json")); }

Measure measure(const json& tools) {
  Measure m;
  for (const auto& tool : tools) {
    ++m.tools;
    const std::string label = tool["effect"];
    const auto inference = mcp_hints::infer_tool(tool);
    const auto* effect = inference.find("effect");
    const std::string inferred = effect ? effect->value.get<std::string>() : "-";
    ++m.confusion[label][inferred];
    if (!effect) continue;
    ++m.claims;
    if (inferred == label)
      ++m.correct;
    else
      m.wrong.push_back(tool["name"].get<std::string>() + ": inferred " + inferred + " (" + effect->evidence[0] +
                        "), labelled " + label + " (" + tool["reason"].get<std::string>() + ")");
  }
  return m;
}

TEST(InferCorpus, EveryToolIsLabelledWithItsEffectReasonAndSource) {
  const json doc = corpus();
  ASSERT_GE(doc["tools"].size(), kMinimumTools);
  std::map<std::string, std::size_t> sources;
  for (const auto& tool : doc["tools"]) {
    const std::string name = tool.value("name", "");
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(tool["effect"] == "read" || tool["effect"] == "write" || tool["effect"] == "external" ||
                tool["effect"] == "delete")
        << name;
    EXPECT_FALSE(tool.value("reason", "").empty()) << name;
    const std::string source = tool.value("source", "");
    ++sources[source.substr(0, source.find_first_of("@:"))];
  }
  EXPECT_GE(sources.size(), 8u);  // not one server's naming habits
}

TEST(InferCorpus, PrecisionAndRecallOnRealTools) {
  const Measure m = measure(corpus()["tools"]);
  std::cout << m.explained() << "\n";
  EXPECT_GE(m.precision(), kMinimumPrecision) << m.explained();
  EXPECT_GE(m.recall(), kMinimumRecall) << m.explained();
}

TEST(InferCorpus, TheIssuesMisreadingsAreGone) {
  auto effect = [](const json& tool) {
    const auto inference = mcp_hints::infer_tool(tool);
    const auto* e = inference.find("effect");
    return e ? e->value : json();
  };
  auto named = [](const std::string& name, const std::string& description = "") {
    json tool = json::object();
    tool["name"] = name;
    if (!description.empty()) tool["description"] = description;
    return tool;
  };
  // Missing verbs, and verbs behind a vendor prefix or after the object.
  EXPECT_EQ(effect(named("slack_post_message")), "external");
  EXPECT_EQ(effect(named("fork_repository")), "write");
  EXPECT_EQ(effect(named("rerun_workflow")), "write");
  for (const char* name : {"browser_navigate", "browser_click", "puppeteer_fill", "browser_type"})
    EXPECT_EQ(effect(named(name)), "write") << name;
  EXPECT_EQ(effect(named("issue_delete")), "delete");
  EXPECT_EQ(effect(named("acme-update-y")), "write");
  EXPECT_EQ(effect(named("createIssue")), "write");
  // Drag-and-drop is not a deletion; a dropped table is.
  EXPECT_EQ(effect(named("browser_drop")), json());
  EXPECT_EQ(effect(named("drop_table")), "delete");
  // Stopping a port forward sends nothing; forwarding a message does.
  EXPECT_EQ(effect(named("stop_port_forward")), "write");
  EXPECT_EQ(effect(named("forward_message")), "external");
  // A download that saves a file writes; one that returns the content says nothing by its name.
  EXPECT_EQ(effect(named("download_file", "Download a URL and save it to disk")), "write");
  EXPECT_EQ(effect(named("download_file")), json());
  // A reset that loses data deletes; one that does not writes.
  EXPECT_EQ(effect(named("reset_branch", "Any untracked changes will be lost.")), "delete");
  EXPECT_EQ(effect(named("git_reset", "Unstages all staged changes")), "write");
  // An input that chooses among operations counts with its most consequential one.
  EXPECT_EQ(effect(json::parse(R"({"name": "label_write", "inputSchema": {"type": "object", "properties":
    {"method": {"type": "string", "enum": ["create", "update", "delete"]}}}})")),
            "delete");
  // A region or an enterprise says where, not how far.
  for (const std::string param : {"region", "enterprise"}) {
    const json tool = json::parse(R"({"name": "delete_thing", "inputSchema": {"type": "object", "properties": {")" +
                                  param + R"(": {"type": "string"}}}})");
    const auto inference = mcp_hints::infer_tool(tool);
    ASSERT_NE(inference.find("effect"), nullptr) << param;
    EXPECT_EQ(inference.find("blast-radius"), nullptr) << param;
  }
}

TEST(InferCorpus, EveryVerbClassHasItsEvidence) {
  for (const char* name : {"acme_delete_x", "acme-post-message", "createIssue", "repos_fork", "github.list_issues"}) {
    const auto inference = mcp_hints::classify_name(name);
    EXPECT_TRUE(inference.strong) << name;
    EXPECT_FALSE(inference.verb_evidence.empty()) << name;
    EXPECT_NE(inference.name_evidence.find("'" + inference.verb + "'"), std::string::npos) << name;
  }
  EXPECT_EQ(mcp_hints::classify_name("acme_delete_x").name_evidence,
            "the name's verb 'delete' (after 'acme') (delete verbs)");
}

// Without its evidence a name is classified alike: only the words of evidence are left out.
TEST(InferCorpus, ANameClassifiedWithoutEvidenceIsClassifiedAlike) {
  for (const char* name : {"acme_delete_x", "acme-post-message", "createIssue", "repos_fork", "github.list_issues",
                           "sync_and_delete", "browser_drop", "get_weather", "x", "", "slack_post_message"}) {
    const auto full = mcp_hints::classify_name(name);
    const auto bare = mcp_hints::classify_name(name, false);
    EXPECT_EQ(bare.words, full.words) << name;
    EXPECT_EQ(bare.verb, full.verb) << name;
    EXPECT_EQ(bare.verb_class, full.verb_class) << name;
    EXPECT_EQ(bare.strong, full.strong) << name;
    EXPECT_TRUE(bare.verb_evidence.empty()) << name;
    EXPECT_TRUE(bare.name_evidence.empty()) << name;
  }
}

}  // namespace
