#include "mcp_hints/mock/scenario.hpp"

#include <gtest/gtest.h>

#include "mcp_hints/json/embedded.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/schema_registry.hpp"
#include "test_support.hpp"

namespace mcp_hints {
// Compiled into the mock role (mock-servers/CMakeLists.txt), as scenario.cpp declares them.
std::span<const EmbeddedFile> embedded_scenarios();
std::span<const EmbeddedFile> embedded_scenario_schema();
}  // namespace mcp_hints

using json = nlohmann::json;
using mcp_hints::mock::ScenarioError;

namespace {

std::string error_of(const std::string& file_or_id) {
  try {
    mcp_hints::mock::load_scenario(file_or_id);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(Scenario, EveryBuiltInScenarioLoads) {
  const auto ids = mcp_hints::mock::builtin_scenario_ids();
  EXPECT_GE(ids.size(), 3u);
  for (const auto& id : ids) {
    const auto s = mcp_hints::mock::load_scenario(id);
    EXPECT_EQ(s.id, id);
    EXPECT_FALSE(s.servers.empty());
  }
}

// Every built-in scenario is found valid by the schema registry's first look, without valijson:
// a mock server, started for each scenario run, then never compiles the scenario schema. The
// control: a scenario broken where the first look reads (a retryAfterMs without fail, which
// `dependencies` forbids) is found invalid by it.
TEST(Scenario, TheFirstLookFindsEveryBuiltInScenarioValid) {
  mcp_hints::SchemaRegistry registry;
  for (const auto& file : mcp_hints::embedded_scenario_schema())
    registry.add_lazily(file.name, mcp_hints::parse_json(file.content));
  std::size_t scenarios = 0;
  for (const auto& file : mcp_hints::embedded_scenarios()) {
    EXPECT_TRUE(registry.validate("scenario.schema.json", mcp_hints::parse_json(file.content)).empty()) << file.name;
    ++scenarios;
  }
  EXPECT_GE(scenarios, 30u);
  auto counts = registry.first_look_counts("scenario.schema.json");
  EXPECT_EQ(counts.valid, scenarios);
  EXPECT_EQ(counts.undecided, 0u);
  json broken = mcp_hints::parse_json(mcp_hints::embedded_scenarios()[0].content);
  json& server = broken["servers"].begin().value();
  server["scripts"] = {{"any_tool", {{{"retryAfterMs", 100}, {"result", {{"content", json::array()}}}}}}};
  EXPECT_FALSE(registry.validate("scenario.schema.json", broken).empty());
  counts = registry.first_look_counts("scenario.schema.json");
  EXPECT_EQ(counts.invalid, 1u);
  EXPECT_EQ(counts.undecided, 0u);
}

// One edit fixes a scenario: every schema violation is named, none summarised as "and N more".
TEST(Scenario, EverySchemaViolationIsListed) {
  json doc = json::parse(mcp_hints::mock::load_scenario("mock.basic").document.dump());
  doc.erase("title");
  doc["level"] = "SOMETIMES";
  doc["id"] = 5;
  try {
    mcp_hints::mock::parse_scenario(doc, "broken.json");
    FAIL() << "a broken scenario loaded";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("broken.json: 3 problems: "), std::string::npos) << what;
    for (const char* named : {"title", "/level", "/id"}) EXPECT_NE(what.find(named), std::string::npos) << what;
    EXPECT_EQ(what.find("more)"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(Scenario, AMistypedIdGetsADidYouMean) {
  EXPECT_NE(error_of("mock.basik").find("did you mean 'mock.basic'?"), std::string::npos) << error_of("mock.basik");
}

TEST(Scenario, ReadsStepsByCallNumber) {
  const auto s = mcp_hints::mock::load_scenario("mock.script-steps");
  const auto& steps = s.servers.at("main").scripts.at("fetch_record");
  ASSERT_EQ(steps.size(), 4u);
  using Kind = mcp_hints::mock::Step::Kind;
  EXPECT_EQ(steps[0].kind, Kind::transient_failure);
  EXPECT_EQ(steps[1].kind, Kind::result);
  EXPECT_EQ(steps[1].delay.count(), 100);
  EXPECT_EQ(steps[2].kind, Kind::error);
  EXPECT_EQ(steps[2].payload["code"], -32000);
  ASSERT_TRUE(steps[3].list_changed);
  EXPECT_EQ((*steps[3].list_changed)[0]["annotations"]["destructiveHint"], true);
  EXPECT_EQ(s.servers.at("main").scripts.at("hang_up")[0].kind, Kind::close);
}

TEST(Scenario, ReadsAnInputRequiredStep) {
  const auto s = mcp_hints::mock::load_scenario("confirm.input-required");
  const auto& steps = s.servers.at("main").scripts.at("archive_project");
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].kind, mcp_hints::mock::Step::Kind::input_required);
  EXPECT_EQ(steps[0].payload["inputRequests"]["confirm_archive"]["method"], "elicitation/create");
  EXPECT_TRUE(steps[0].payload.contains("requestState"));
  EXPECT_EQ(steps[1].kind, mcp_hints::mock::Step::Kind::result);
  // A step does one thing: an input request and a result at once is refused.
  json doc = s.document;
  doc["servers"]["main"]["scripts"]["archive_project"][0]["result"] = {{"content", json::array()}};
  EXPECT_THROW(mcp_hints::mock::parse_scenario(doc, "both"), ScenarioError);
  doc["servers"]["main"]["scripts"]["archive_project"][0] = {{"inputRequired", json::object()}};
  EXPECT_THROW(mcp_hints::mock::parse_scenario(doc, "empty"), ScenarioError);
}

TEST(Scenario, ErrorsNameTheFileAndThePointer) {
  test_support::TempDir dir;
  json doc = test_support::read_json(test_support::source_dir() / "scenarios" / "mock.basic.json");
  doc["servers"]["main"]["scripts"] = {{"read_file", json::array({{{"fail", "permanent"}}})}};
  const auto bad = dir.write("bad.json", doc.dump());
  const std::string err = error_of(bad.string());
  EXPECT_NE(err.find(bad.string() + ": /servers/main/scripts/read_file/0"), std::string::npos) << err;

  doc["servers"]["main"]["scripts"] = {{"nonesuch", json::array({{{"close", true}}})}};
  const auto orphan = dir.write("orphan.json", doc.dump());
  EXPECT_NE(
      error_of(orphan.string()).find("/servers/main/scripts/nonesuch: a script for a tool the server does not list"),
      std::string::npos);
  EXPECT_NE(error_of(dir.write("broken.json", "{").string()).find("broken.json: not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("no.such-scenario").find("mock.basic"), std::string::npos);
}

TEST(Scenario, ReadsErasAndAuthorizationContextsAndRefusesAnUndeclaredOne) {
  const auto s = mcp_hints::mock::load_scenario("gateway.cache-scope-per-context");
  EXPECT_EQ(s.eras, std::vector<std::string>{"stateless"});
  EXPECT_TRUE(s.applies_to_era("stateless"));
  EXPECT_FALSE(s.applies_to_era("legacy"));
  EXPECT_TRUE(mcp_hints::mock::load_scenario("mock.basic").applies_to_era("legacy"));
  const auto& server = s.servers.at("workspace");
  EXPECT_EQ(server.authorizations,
            (std::map<std::string, std::string>{{"alice", "alice-7f3a9c"}, {"bob", "bob-c91e04"}}));
  ASSERT_EQ(server.tools_by_authorization.count("bob"), 1u);
  test_support::TempDir dir;
  json document = s.document;
  document["task"][1]["authorization"] = "carol";
  EXPECT_NE(error_of(dir.write("task.json", document.dump()).string())
                .find("/task/1/authorization: an authorization context the scenario does not declare ('carol'; "
                      "declared: alice, bob)"),
            std::string::npos);
  document = s.document;
  document["servers"]["workspace"]["toolsByAuthorization"]["carol"] = json::array();
  EXPECT_NE(error_of(dir.write("tools.json", document.dump()).string())
                .find("/servers/workspace/toolsByAuthorization/carol: an authorization context"),
            std::string::npos);
  document.erase("authorizations");
  EXPECT_NE(error_of(dir.write("none.json", document.dump()).string()).find("declared: none"), std::string::npos);
}

// Integer fields are read without narrowing: 4294967297 is not 1 and 18446744073709551615 is not
// -1. Each boundary of each integer field of the schema, in range and one past it; a value out of
// range is refused on one line that gives the range.
TEST(Scenario, IntegerFieldsAreReadWithoutNarrowingAndRefusedOutOfRange) {
  const json base = json::parse(mcp_hints::mock::load_scenario("confirm.no-over-prompting").document.dump());
  struct Field {
    json::json_pointer at;
    long long least;
    unsigned long long most;
  };
  const std::vector<Field> fields = {
      {json::json_pointer("/servers/main/pageSize"), 1, 1000000},
      {json::json_pointer("/servers/main/ttlMs"), 0, 9007199254740991ULL},
      {json::json_pointer("/expect/0/promptsAtMost"), 1, 100},
      {json::json_pointer("/expect/0/confirmations"), 1, 3},
  };
  const json past_every_range[] = {json(2147483647), json(4294967297ULL), json(18446744073709551615ULL),
                                   json(-1),         json(1.5),           json("3")};
  for (const auto& field : fields) {
    const std::string where = field.at.to_string();
    for (const json& fine : {json(field.least), json(field.most)}) {
      json doc = base;
      doc[field.at] = fine;
      EXPECT_NO_THROW(mcp_hints::mock::parse_scenario(doc, "s.json")) << where << " = " << fine;
    }
    std::vector<json> refused(std::begin(past_every_range), std::end(past_every_range));
    refused.push_back(field.least - 1);
    refused.push_back(field.most + 1);
    for (const json& bad : refused) {
      if (bad.is_number_integer() && bad.get<long double>() >= field.least && bad.get<long double>() <= field.most)
        continue;
      json doc = base;
      doc[field.at] = bad;
      try {
        mcp_hints::mock::parse_scenario(doc, "s.json");
        ADD_FAILURE() << where << " = " << bad << " was accepted";
      } catch (const ScenarioError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        EXPECT_NE(what.find(where), std::string::npos) << what;
        if (bad.is_number_integer())
          EXPECT_NE(
              what.find(": out of range (" + std::to_string(field.least) + " to " + std::to_string(field.most) + ")"),
              std::string::npos)
              << where << " = " << bad << ": " << what;
        else
          EXPECT_NE(what.find("expected type \"integer\""), std::string::npos) << where << " = " << bad << ": " << what;
      }
    }
  }
  // What is read is the value given.
  json doc = base;
  doc["/servers/main/pageSize"_json_pointer] = 1000000;
  EXPECT_EQ(mcp_hints::mock::parse_scenario(doc, "s.json").servers.at("main").page_size, 1000000u);
}

// A scenario is input this suite acts on: a member given twice is refused, on one line.
TEST(Scenario, AMemberGivenTwiceInAScenarioFileIsRefused) {
  test_support::TempDir dir;
  std::string text = mcp_hints::mock::load_scenario("mock.basic").document.dump(2);
  text.replace(text.find("\"title\""), 0, "\"title\": \"first\",\n  ");
  const auto path = dir.write("twice.json", text);
  try {
    mcp_hints::mock::load_scenario(path.string());
    FAIL() << "no error";
  } catch (const mcp_hints::Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.category(), mcp_hints::Error::Category::bad_input);
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find("member \"title\" given twice in the top-level object: first \"first\""), std::string::npos)
        << what;
  }
}
