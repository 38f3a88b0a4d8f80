// Negative controls: every registered check is shown to fire on a fixture made to break it,
// and to stay quiet on a clean catalog and on catalogs shaped like real servers' output.
#include "mcp_hints/checks/checks.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>

#include "mcp_hints/checks/lint.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"
#include "test_support.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Lints a fixture with the revision it names; returns the set of check ids that fired.
std::multiset<std::string> fired(const fs::path& path, std::vector<mcp_hints::Finding>* out = nullptr) {
  const json doc = test_support::read_json(path);
  mcp_hints::LintOptions options;
  if (doc.contains("spec_revision")) options.spec_revision = doc["spec_revision"];
  if (doc.contains("vocab")) options.pinned = doc["vocab"].get<std::vector<std::string>>();
  mcp_hints::Linter linter(options);
  mcp_hints::FindingList findings;
  std::ifstream in(path);
  auto result = linter.lint_stream(in, path.string(), findings);
  EXPECT_FALSE(result.error) << path << ": " << result.error.value_or("");
  std::multiset<std::string> ids;
  for (const auto& f : findings) ids.insert(f.check);
  if (out) out->assign(findings.begin(), findings.end());
  return ids;
}

std::set<std::string> as_set(const std::multiset<std::string>& m) { return {m.begin(), m.end()}; }

}  // namespace

TEST(Checks, IdsAreUniqueStableAndWellFormed) {
  std::set<std::string> ids;
  for (const auto& c : mcp_hints::lint_checks()) {
    const std::string id(c.info.id);
    EXPECT_TRUE(ids.insert(id).second) << "duplicate " << id;
    EXPECT_NE(id.find('.'), std::string::npos) << id;
    EXPECT_FALSE(c.info.proposal.empty()) << id;
    EXPECT_FALSE(c.info.summary.empty()) << id;
    const auto found = mcp_hints::find_check(id);
    ASSERT_TRUE(found) << id;
    EXPECT_EQ(found->level, c.info.level);
    EXPECT_EQ(found->scope, mcp_hints::Scope::tool);
  }
  for (const auto& c : mcp_hints::server_checks()) {
    const auto found = mcp_hints::find_check(c.id);
    ASSERT_TRUE(found) << c.id;
    EXPECT_EQ(found->scope, mcp_hints::Scope::server);
  }
  EXPECT_FALSE(mcp_hints::find_check("no.such-check"));
  EXPECT_FALSE(mcp_hints::find_check(""));
}

// The rules the registry holds its ids to at compile time (registry.cpp, server_checks.hpp), shown
// to reject what they are there to reject.
TEST(Checks, TheRegistryRejectsMalformedDuplicateAndScatteredIds) {
  using mcp_hints::CheckInfo;
  auto info = [](std::string_view id) { return CheckInfo{id, mcp_hints::Level::info, "p", "s"}; };
  for (const char* id : {"schema.spec-tool", "open-world.contradiction", "a1.b-2"})
    EXPECT_TRUE(mcp_hints::is_check_id(id)) << id;
  for (const char* id :
       {"", "schema", "schema.", ".spec-tool", "Schema.spec-tool", "schema.spec_tool", "a.b.c", "1a.b", "a.-b", "a .b"})
    EXPECT_FALSE(mcp_hints::is_check_id(id)) << id;
  const std::array good = {info("a.one"), info("a.two"), info("b.one")};
  EXPECT_TRUE(mcp_hints::all_check_ids(good));
  EXPECT_TRUE(mcp_hints::unique_ids(good));
  EXPECT_TRUE(mcp_hints::grouped_by_area(good));
  EXPECT_FALSE(mcp_hints::all_check_ids(std::array{info("a.one"), info("b")}));
  EXPECT_FALSE(mcp_hints::unique_ids(std::array{info("a.one"), info("b.one"), info("a.one")}));
  EXPECT_FALSE(mcp_hints::grouped_by_area(std::array{info("a.one"), info("b.one"), info("a.two")}));
}

TEST(Checks, EveryCheckHasANegativeControlThatMakesItFire) {
  for (const auto& c : mcp_hints::lint_checks()) {
    const std::string id(c.info.id);
    const fs::path path = test_support::fixture("lint/negative/" + id + ".json");
    ASSERT_TRUE(fs::exists(path)) << "check " << id << " has no negative control at " << path;
    const json doc = test_support::read_json(path);
    std::set<std::string> expected;
    for (const auto& e : doc["expect"]) expected.insert(e.get<std::string>());
    EXPECT_TRUE(expected.count(id)) << path << " must expect " << id;
    std::vector<mcp_hints::Finding> findings;
    EXPECT_EQ(as_set(fired(path, &findings)), expected) << "negative control of " << id;
    // Each tool of the control is there to break the check: each must be caught.
    std::set<std::string> tools_caught;
    for (const auto& f : findings)
      if (f.check == id) {
        tools_caught.insert(f.tool);
        EXPECT_EQ(f.level, c.info.level);
        EXPECT_FALSE(f.message.empty());
        EXPECT_EQ(f.proposal, c.info.proposal);
      }
    EXPECT_EQ(tools_caught.size(), doc["tools"].size()) << id << ": not every tool of its control was caught";
  }
}

// agency.undeclared at its edges: what merely mentions agents (a user agent, a list of agents, a
// word that starts with agent) or declares agencyHint true is not caught; its negative control
// shows what is.
TEST(Checks, AgencyUndeclaredLeavesToolsThatOnlyMentionAgentsAlone) {
  auto tool = [](const std::string& name, const std::string& description, bool agentic) {
    json t = {{"name", name},
              {"description", description},
              {"inputSchema", {{"type", "object"}}},
              {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}}};
    if (agentic) {
      t["annotations"]["agencyHint"] = true;
      t["_meta"] = {{"com.example/agencyHint", true}};
    }
    return t;
  };
  const json catalog = {{"tools",
                         {tool("parse_user_agent", "Parses a User-Agent header", false),
                          tool("list_agents", "Lists the agents registered with the gateway", false),
                          tool("agentless_scan", "Scans hosts without installing an agent", false),
                          tool("research_agent", "An agent that plans and acts autonomously", true)}}};
  test_support::TempDir dir;
  std::vector<mcp_hints::Finding> findings;
  const auto ids = fired(dir.write("catalog.json", catalog.dump()), &findings);
  EXPECT_EQ(ids.count("agency.undeclared"), 0u);
  // Nor any of the real tools of public servers (among them "Sentry's agentic onboarding UI" and a
  // Notion tool "designed for agentic and developer tools").
  std::vector<mcp_hints::Finding> real;
  fired(test_support::fixture("infer/real-tools.json"), &real);
  for (const auto* list : {&findings, &real})
    for (const auto& f : *list)
      if (f.check == "agency.undeclared") ADD_FAILURE() << f.tool << ": " << f.message;
}

// agency.undeclared reads names and descriptions sixteen places at a time, for the first two letters
// of its stems (agent, autonom, plan, chain): each phrase, in every case, is found at every place of
// such a block and past its last one; with one letter of its stem changed, none is.
TEST(Checks, AgencyUndeclaredFindsEachPhraseWhereverItStands) {
  auto tool = [](const std::string& name, const std::string& description) {
    return json{{"name", name},
                {"description", description},
                {"inputSchema", {{"type", "object"}}},
                {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}}};
  };
  auto spelled = [](std::string text, int how) {
    for (std::size_t i = 0; i < text.size(); ++i)
      if (how == 1 || (how == 2 && i == 0)) text[i] = static_cast<char>(std::toupper(text[i]));
    return text;
  };
  // Each phrase, and the place of a letter of its stem.
  const std::vector<std::pair<std::string, std::size_t>> phrases = {{"runs an agent loop", 8},
                                                                    {"works autonomously", 8},
                                                                    {"plans and executes", 2},
                                                                    {"does tool chaining", 11},
                                                                    {"plan-act-observe", 1}};
  for (const bool changed : {false, true}) {
    json tools = json::array();
    for (std::size_t pad = 1; pad < 40; ++pad) {
      const std::string filler(pad, 'x');
      for (int how = 0; how < 3; ++how) {
        std::string agent = spelled("agent", how);
        if (changed) agent[3] = 'q';
        tools.push_back(tool(filler + "_" + agent, "Does its work"));
        for (const auto& [phrase, stem_letter] : phrases) {
          std::string said = spelled(phrase, how);
          if (changed) said[stem_letter] = 'q';
          tools.push_back(tool("tool_" + std::to_string(tools.size()), filler + " " + said));
        }
      }
    }
    test_support::TempDir dir;
    std::vector<mcp_hints::Finding> findings;
    fired(dir.write("catalog.json", json{{"tools", tools}}.dump()), &findings);
    std::set<std::string> caught;
    for (const auto& f : findings)
      if (f.check == "agency.undeclared") caught.insert(f.tool);
    EXPECT_EQ(caught.size(), changed ? 0u : tools.size()) << (changed ? "a letter changed" : "as spelled");
  }
}

TEST(Checks, NoNegativeControlWithoutACheck) {
  for (const auto& entry : fs::directory_iterator(test_support::fixture("lint/negative"))) {
    const std::string stem = entry.path().stem().string();
    const auto check = mcp_hints::find_check(stem);
    EXPECT_TRUE(check && check->scope == mcp_hints::Scope::tool) << "orphan control " << entry.path();
  }
}

TEST(Checks, TheCleanCatalogTriggersNothing) {
  std::vector<mcp_hints::Finding> findings;
  auto ids = fired(test_support::fixture("lint/clean.json"), &findings);
  for (const auto& f : findings) ADD_FAILURE() << f.check << " " << f.tool << " " << f.pointer << ": " << f.message;
  EXPECT_TRUE(ids.empty());
}

TEST(Checks, RealServersUseOfTheSpecHintsTriggersNothingUnderAnyRevision) {
  for (const char* rev : {"2025-06-18", "2025-11-25", "2026-07-28"}) {
    mcp_hints::LintOptions options;
    options.spec_revision = rev;
    mcp_hints::FindingList findings;
    std::ifstream in(test_support::fixture("lint/spec-hints-only.json"));
    auto result = mcp_hints::Linter(options).lint_stream(in, "spec-hints-only.json", findings);
    EXPECT_FALSE(result.error);
    EXPECT_EQ(result.tool_count, 10u);
    for (const auto& f : findings) ADD_FAILURE() << rev << ": " << f.check << " " << f.tool << ": " << f.message;
  }
}

TEST(Checks, ProposalOnesPrefixIsReservedUnder2025_06_18Only) {
  EXPECT_EQ(as_set(fired(test_support::fixture("lint/meta.reserved-prefix.2025-06-18.json"))),
            std::set<std::string>{"meta.reserved-prefix"});
}

TEST(Checks, MessagesSayWhatWasExpectedAndWhatWasSeen) {
  std::vector<mcp_hints::Finding> findings;
  fired(test_support::fixture("lint/negative/confirmation.contradiction.json"), &findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].pointer, "/tools/0/_meta/mcp.dev~1requiresConfirmation");
  EXPECT_NE(findings[0].message.find("requiresConfirmation\"] (policy-hints@seed) = false"), std::string::npos)
      << findings[0].message;
  EXPECT_NE(findings[0].message.find("approvalRecommendation (risk-metadata@sep-2793) = \"multi\""), std::string::npos)
      << findings[0].message;
}

TEST(Checks, NoValueOfAnyTypeInAnyHintFieldBreaksAnyCheck) {
  // Every crosswalk field, and the containers above it, given a value of every JSON type.
  const std::vector<json> values = {
      nullptr,        true,          false, 0, -1, 2.5, "", "yes", "read", json::array(), json::array({"PII", 1}),
      json::object(), json{{"a", 1}}};
  std::vector<json::json_pointer> places = {json::json_pointer("/annotations"), json::json_pointer("/_meta"),
                                            json::json_pointer("/annotations/inputMetadata"),
                                            json::json_pointer("/annotations/returnMetadata")};
  for (const auto& field : mcp_hints::Vocabulary::builtin().fields()) places.emplace_back(field.pointer_text);
  mcp_hints::Linter linter({});
  std::size_t runs = 0;
  for (const auto& place : places) {
    for (const auto& value : values) {
      // Alone, and beside a tool that asserts a hint of every vocabulary.
      json bare = {{"name", "t"}, {"inputSchema", {{"type", "object"}}}};
      json full = test_support::read_json(test_support::fixture("lint/clean.json"))["tools"][2];
      for (json tool : {bare, full}) {
        try {
          tool[place] = value;
        } catch (const json::exception&) {
          continue;  // the container above is not an object in this variant
        }
        std::vector<mcp_hints::Finding> findings;
        EXPECT_NO_THROW(linter.lint_tool(tool, "f", "/0", nullptr, findings))
            << place.to_string() << " = " << value.dump();
        ++runs;
      }
    }
  }
  EXPECT_GT(runs, 500u);
}

TEST(Checks, McpsOwnExtensionsMayUseItsReservedPrefix) {
  const json tool = {{"name", "t"},
                     {"inputSchema", {{"type", "object"}}},
                     {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}},
                     {"_meta",
                      {{"io.modelcontextprotocol/action-metadata", {{"requiresReview", false}}},
                       {"io.modelcontextprotocol/made-up", 1}}}};
  std::vector<mcp_hints::Finding> findings;
  mcp_hints::Linter(mcp_hints::LintOptions{}).lint_tool(tool, "f", "/0", nullptr, findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "meta.reserved-prefix");
  EXPECT_EQ(findings[0].pointer, "/0/_meta/io.modelcontextprotocol~1made-up");
}

TEST(Checks, EachToolSaysWhichRevisionsItSpeaks) {
  std::ifstream in(test_support::fixture("lint/negative/vocab.mixed-revisions.json"));
  mcp_hints::FindingList findings;
  const auto result = mcp_hints::Linter(mcp_hints::LintOptions{}).lint_stream(in, "f", findings);
  const auto& revisions = mcp_hints::Vocabulary::builtin().revisions();
  auto refs = [&](std::uint32_t bits) {
    std::set<std::string> out;
    for (std::size_t i = 0; i < revisions.size(); ++i)
      if (bits & (1u << i)) out.insert(revisions[i].ref());
    return out;
  };
  ASSERT_EQ(result.tool_revisions.size(), 2u);
  EXPECT_EQ(refs(result.tool_revisions[0]),
            (std::set<std::string>{"action-security@seed", "trust-annotations@sep-1913"}));
  EXPECT_EQ(refs(result.tool_revisions[1]),
            (std::set<std::string>{"action-security@seed", "trust-annotations@sep-1913"}));
  // An unknown or message-only revision cannot be pinned.
  for (const char* bad : {"trust-annotations@issue-711", "nope@1", "trust-annotations", "spec@2025-11-25"}) {
    mcp_hints::LintOptions options;
    options.pinned = {bad};
    EXPECT_THROW(mcp_hints::Linter{options}, mcp_hints::OptionError) << bad;
  }
  mcp_hints::LintOptions options;
  options.pinned = {"risk-metadata"};  // a single revision needs no name
  EXPECT_NO_THROW(mcp_hints::Linter{options});
}
