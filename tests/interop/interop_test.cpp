// check-server against real servers from npm (pinned in node/package-lock.json), over stdio and
// Streamable HTTP: no false error, and the report lists exactly the tools the official
// TypeScript SDK client lists. Skipped, saying why, when Node or the packages are missing.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <regex>
#include <set>

#include "listening_child.hpp"
#include "mcp_hints/wire/child_process.hpp"
#include "test_support.hpp"
#include "time_bounds.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

fs::path node_dir() { return test_support::source_dir() / "node"; }
std::string package_entry(const std::string& name) {
  return (node_dir() / "node_modules" / "@modelcontextprotocol" / name / "dist" / "index.js").string();
}

bool node_ready() {
  const fs::path packages = node_dir() / "node_modules" / "@modelcontextprotocol";
  return std::system("command -v node >/dev/null 2>&1") == 0 && fs::exists(package_entry("server-everything")) &&
         fs::exists(packages / "sdk") && fs::exists(packages / "client") && fs::exists(packages / "server") &&
         fs::exists(node_dir() / "node_modules" / ".bin" / "mcp-inspector");
}

// The Inspector CLI, on the Node 22 pinned beside it.
json inspector(const std::vector<std::string>& args) {
  const fs::path bin = node_dir() / "node_modules" / ".bin";
  std::vector<std::string> argv = {(bin / "mcp-inspector").string(), "--cli"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = test_support::run_command(argv, "/dev/null", "PATH=" + bin.string() + ":\"$PATH\"", 60);
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out.substr(0, 500);
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

const json* tool_named(const json& tools, const std::string& name) {
  for (const auto& t : tools)
    if (t["name"] == name) return &t;
  return nullptr;
}

// What survives of hints in mock.basic through a client: the specification's annotation keys and
// every _meta key; the proposals' annotation keys (riskLevel, approvalRecommendation, inputMetadata,
// agencyHint) are dropped. This is the finding docs/mock.md reports; a client that changes shows here.
void expect_hint_survival(const json& tools, const std::string& client) {
  const json* del = tool_named(tools, "delete_file");
  ASSERT_NE(del, nullptr) << client;
  EXPECT_EQ((*del)["annotations"], json({{"destructiveHint", true}})) << client << " kept unknown annotation keys";
  EXPECT_EQ((*del)["_meta"]["com.example/riskLevel"], "high") << client << " dropped _meta";
  EXPECT_EQ((*del)["_meta"]["mcp.dev/requiresConfirmation"], true) << client;
  const json* mail = tool_named(tools, "send_email");
  ASSERT_NE(mail, nullptr);
  EXPECT_FALSE((*mail)["annotations"].contains("inputMetadata")) << client;
  EXPECT_EQ((*mail)["_meta"]["com.example/inputMetadata"]["Destination"], "Public") << client;
  const json* plan = tool_named(tools, "plan_trip");
  ASSERT_NE(plan, nullptr);
  EXPECT_FALSE((*plan)["annotations"].contains("agencyHint")) << client;
  EXPECT_EQ((*plan)["annotations"]["readOnlyHint"], true) << client;
}

const std::vector<std::string> kBasicTools = {"read_file", "delete_file", "send_email", "plan_trip", "no_hints"};

#define REQUIRE_NODE() \
  if (!node_ready()) GTEST_SKIP() << "node or node/node_modules missing (make deps installs them when npm is present)"

// What the official TypeScript SDK client received: {"tools": [...], "call": ...}.
json sdk_client(const std::vector<std::string>& args, const std::string& env = "") {
  std::vector<std::string> argv = {"node", (node_dir() / "sdk_client.mjs").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = test_support::run_command(argv, "/dev/null", env, 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json{{"tools", json::array()}};
}

std::vector<std::string> names_of(const json& tools) {
  std::vector<std::string> names;
  for (const auto& t : tools) names.push_back(t["name"]);
  return names;
}

std::vector<std::string> sdk_tool_names(const std::vector<std::string>& args, const std::string& env = "") {
  return names_of(sdk_client(args, env)["tools"]);
}

// The TypeScript SDK v2 server (node/sdk2_server.mjs) with its hinted catalog: what a 2025-era
// opening gets is `legacy` (serve or reject).
std::vector<std::string> sdk2_server_command(const std::string& legacy) {
  return {"node", (node_dir() / "sdk2_server.mjs").string(), "--legacy", legacy};
}
test_support::ListeningChild start_sdk2_server_over_http(const std::string& legacy) {
  mcp_hints::ProcessOptions options;
  options.argv = sdk2_server_command(legacy);
  options.argv.insert(options.argv.end(), {"--transport", "http"});
  return test_support::start_listening(options);
}
const std::vector<std::string> kSdk2Tools = {"read_file", "delete_file", "send_email"};

// Runs check-server; expects `errors` error findings (none unless told) and returns the report.
json check(const std::vector<std::string>& args, const std::string& env = "", int errors = 0) {
  std::vector<std::string> all = {"check-server", "--format", "json", "--observe", "300ms", "--timeout", "60s"};
  all.insert(all.end(), args.begin(), args.end());
  auto r = test_support::run_cli(all, "/dev/null", env);
  EXPECT_EQ(r.exit_code, errors ? 1 : 0) << r.err << r.out.substr(0, 2000);
  const json report = json::parse(r.out.empty() ? "{}" : r.out);
  EXPECT_EQ(report["summary"]["error"], errors) << report.dump(1).substr(0, 3000);
  return report;
}

}  // namespace

TEST(Interop, ServerEverythingOverStdio) {
  REQUIRE_NODE();
  const auto report = check({"--", "node", package_entry("server-everything"), "stdio"});
  const auto expected = sdk_tool_names({"stdio", "node", package_entry("server-everything"), "stdio"});
  EXPECT_GE(expected.size(), 10u);
  EXPECT_EQ(report["files"][0]["tools"].get<std::vector<std::string>>(), expected);
}

TEST(Interop, ServerFilesystemOverStdio) {
  REQUIRE_NODE();
  test_support::TempDir dir;
  const auto report = check({"--", "node", package_entry("server-filesystem"), dir.path().string()});
  const auto expected = sdk_tool_names({"stdio", "node", package_entry("server-filesystem"), dir.path().string()});
  EXPECT_GE(expected.size(), 10u);
  EXPECT_EQ(report["files"][0]["tools"].get<std::vector<std::string>>(), expected);
}

TEST(Interop, ServerMemoryOverStdio) {
  REQUIRE_NODE();
  test_support::TempDir dir;
  const std::string memory = "MEMORY_FILE_PATH=" + (dir.path() / "memory.json").string();
  const auto report = check({"--env", memory, "--", "node", package_entry("server-memory")});
  const auto expected = sdk_tool_names({"stdio", "node", package_entry("server-memory")}, memory);
  EXPECT_GE(expected.size(), 5u);
  EXPECT_EQ(report["files"][0]["tools"].get<std::vector<std::string>>(), expected);
}

TEST(Interop, ServerEverythingOverStreamableHttpOnLoopback) {
  REQUIRE_NODE();
  mcp_hints::ProcessOptions options;
  // The preload keeps the server on 127.0.0.1 (it would listen on every interface), and says the
  // port the system gave it for port 0.
  options.argv = {"node", "-r", (test_support::source_dir() / "tests" / "interop" / "loopback.js").string(),
                  package_entry("server-everything"), "streamableHttp"};
  options.env = {{"PORT", "0"}};
  mcp_hints::ChildProcess server(options);
  const std::regex listening("loopback: listening on port (\\d+)");
  std::smatch port;
  std::string log = server.stderr_log();
  for (const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
       !std::regex_search(log, port, listening) && !server.exited() && std::chrono::steady_clock::now() < until;
       log = server.stderr_log())
    usleep(20000);
  ASSERT_TRUE(std::regex_search(log, port, listening)) << log;
  const std::string url = "http://127.0.0.1:" + port[1].str() + "/mcp";
  const auto report = check({"--url", url});
  const auto expected = sdk_tool_names({"http", url});
  EXPECT_GE(expected.size(), 10u);
  EXPECT_EQ(report["files"][0]["tools"].get<std::vector<std::string>>(), expected);
}

TEST(Interop, TheSdkClientReadsOurSampleServerToo) {
  REQUIRE_NODE();
  const auto names = sdk_tool_names(
      {"stdio", MCP_HINTS_SAMPLE_SERVER, "--catalog",
       (test_support::source_dir() / "examples" / "catalogs" / "good-catalog.json").string(), "--page-size", "2"});
  EXPECT_EQ(names, (std::vector<std::string>{"list_pods", "delete_pod", "read_inbox", "send_email", "research"}));
}

TEST(Interop, TheSdkClientAgainstTheMockServerOverStdioAndHttp) {
  REQUIRE_NODE();
  const json over_stdio =
      sdk_client({"stdio", MCP_HINTS_BIN, "mock", "--scenario", "mock.basic", "--call", "read_file={\"id\":\"7\"}"});
  EXPECT_EQ(names_of(over_stdio["tools"]), kBasicTools);  // all pages of two
  EXPECT_EQ(over_stdio["call"]["content"][0]["text"], "done");
  expect_hint_survival(over_stdio["tools"], "TypeScript SDK client (stdio)");

  mcp_hints::ProcessOptions options;
  options.argv = {MCP_HINTS_BIN, "mock", "--scenario", "mock.basic", "--transport", "http"};
  const auto mock = test_support::start_listening(options);
  const std::string& url = mock.url;
  const json over_http = sdk_client({"http", url, "--call", "delete_file={}"});
  EXPECT_EQ(names_of(over_http["tools"]), kBasicTools);
  EXPECT_EQ(over_http["call"]["content"][0]["text"], "done");
  expect_hint_survival(over_http["tools"], "TypeScript SDK client (HTTP)");
}

TEST(Interop, TheInspectorCliAgainstTheMockServerOverStdioAndHttp) {
  REQUIRE_NODE();
  const std::vector<std::string> server = {"--", MCP_HINTS_BIN, "mock", "--scenario", "mock.basic"};
  auto with = [](std::vector<std::string> head, const std::vector<std::string>& tail) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
  };
  const json listed = inspector(with({"--method", "tools/list"}, server));
  EXPECT_EQ(names_of(listed["tools"]), kBasicTools);
  expect_hint_survival(listed["tools"], "Inspector CLI (stdio)");
  const json called =
      inspector(with({"--method", "tools/call", "--tool-name", "read_file", "--tool-arg", "id=7"}, server));
  EXPECT_EQ(called["content"][0]["text"], "done");

  mcp_hints::ProcessOptions options;
  options.argv = {MCP_HINTS_BIN, "mock", "--scenario", "mock.basic", "--transport", "http"};
  const auto mock = test_support::start_listening(options);
  const std::string& url = mock.url;
  const json over_http = inspector({url, "--transport", "http", "--method", "tools/list"});
  EXPECT_EQ(names_of(over_http["tools"]), kBasicTools);
  expect_hint_survival(over_http["tools"], "Inspector CLI (HTTP)");
}

// check-server speaking `protocol` (auto, legacy or a revision) to the SDK v2 server (legacy: what
// a 2025-era opening gets, serve or reject), over stdio or HTTP: no error, the era it should reach,
// and the tools the SDK v2 client pinned to 2026-07-28 lists.
void expect_check_server_reads_sdk2_server(const std::string& legacy, const std::string& transport,
                                           const std::string& protocol, const std::string& era) {
  REQUIRE_NODE();
  std::vector<std::string> target, witness = {"--negotiation", "pin", transport};
  test_support::ListeningChild http;
  if (transport == "http") {
    http = start_sdk2_server_over_http(legacy);
    ASSERT_EQ(http.url.rfind("http://127.0.0.1:", 0), 0u) << http.process->stderr_log();
    target = {"--url", http.url};
    witness.push_back(http.url);
  } else {
    const auto server = sdk2_server_command(legacy);
    target = {"--"};
    target.insert(target.end(), server.begin(), server.end());
    witness.insert(witness.end(), server.begin(), server.end());
  }
  std::vector<std::string> args = {"--protocol", protocol};
  args.insert(args.end(), target.begin(), target.end());
  // The SDK's own handling of the eras passes the behavioural checks of each but one, a true
  // finding: over stdio (SDK 2.4.0's serveStdio) the first request pins the connection's era and
  // revision, and later requests go to the server instance unchecked, so a tools/list naming
  // revision 1900-01-01 is answered with the catalog where RequestMetaObject.protocolVersion says
  // a revision the server does not support MUST get -32022 (over HTTP, where each request is
  // classified on its own, it does).
  const bool pinned = transport == "stdio" && era == "stateless";
  const auto report = check(args, "", pinned ? 1 : 0);
  const std::string what = legacy + " over " + transport + ", --protocol " + protocol;
  EXPECT_EQ(report["protocol"]["era"], era) << what;
  std::set<std::string> era_findings;
  for (const auto& finding : report["findings"]) {
    const std::string id = finding["check"];
    if (id.starts_with("stateless.") || id.starts_with("era.")) era_findings.insert(id);
  }
  EXPECT_EQ(era_findings, pinned ? std::set<std::string>{"stateless.version-unsupported"} : std::set<std::string>{})
      << what << ": " << report["findings"].dump(1);
  EXPECT_EQ(report["files"][0]["tools"].get<std::vector<std::string>>(), kSdk2Tools) << what;
  EXPECT_EQ(sdk_tool_names(witness), kSdk2Tools) << what;
}

// Insisting on the legacy era, check-server holds a 2025-era session with a server that serves it.
TEST(Interop, CheckServerAgainstTheSdkV2ServerServingThe2025EraOverStdio) {
  expect_check_server_reads_sdk2_server("serve", "stdio", "legacy", "legacy");
}
TEST(Interop, CheckServerAgainstTheSdkV2ServerServingThe2025EraOverHttp) {
  expect_check_server_reads_sdk2_server("serve", "http", "legacy", "legacy");
}
// A server that refuses the 2025 era is read in the stateless one, negotiated or insisted on.
TEST(Interop, CheckServerAgainstTheSdkV2ServerRejectingThe2025EraOverStdio) {
  expect_check_server_reads_sdk2_server("reject", "stdio", "auto", "stateless");
  expect_check_server_reads_sdk2_server("reject", "stdio", "2026-07-28", "stateless");
}
TEST(Interop, CheckServerAgainstTheSdkV2ServerRejectingThe2025EraOverHttp) {
  expect_check_server_reads_sdk2_server("reject", "http", "auto", "stateless");
  expect_check_server_reads_sdk2_server("reject", "http", "2026-07-28", "stateless");
}
// The control: insisting on the 2025 era with that server is an incomplete run (exit 3) whose one
// finding says why; the server did nothing wrong ("SHOULD disconnect" is the client's part), so
// the finding is info.
TEST(Interop, CheckServerInsistingOnThe2025EraIsRefusedByTheSdkV2ServerRejectingIt) {
  REQUIRE_NODE();
  std::vector<std::string> args = {"check-server", "--format",  "json", "--protocol",
                                   "legacy",       "--timeout", "60s",  "--"};
  const auto server = sdk2_server_command("reject");
  args.insert(args.end(), server.begin(), server.end());
  const auto r = test_support::run_cli(args);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  const json report = json::parse(r.out.empty() ? "{}" : r.out);
  ASSERT_EQ(report["findings"].size(), 1u) << r.out;
  EXPECT_EQ(report["findings"][0]["check"], "server.protocol-version");
  EXPECT_EQ(report["findings"][0]["level"], "info");
  EXPECT_EQ(report["summary"]["verdict"], "incomplete");
  EXPECT_NE(report["findings"][0]["message"].get<std::string>().find("-32022"), std::string::npos) << r.out;
}

// A copy of the scenario file `source`, in `dir`, whose every server speaks only `versions`.
std::string scenario_speaking(const test_support::TempDir& dir, const fs::path& source,
                              const std::vector<std::string>& versions) {
  json scenario = test_support::read_json(source);
  for (auto& [name, server] : scenario["servers"].items()) server["protocolVersions"] = versions;
  return dir.write(source.filename().string(), scenario.dump(2)).string();
}
fs::path builtin_scenario(const std::string& id) { return test_support::source_dir() / "scenarios" / (id + ".json"); }

// What the SDK v2 client negotiating `negotiation` (pin or auto) reads from the mock serving
// `scenario` (mock.basic, in one era or both), over stdio and HTTP: every page, the call's result,
// and the hints as the v1 client keeps them.
void expect_sdk2_client_reads_the_mock(const std::string& negotiation, const std::string& scenario) {
  REQUIRE_NODE();
  const json over_stdio = sdk_client({"--negotiation", negotiation, "stdio", MCP_HINTS_BIN, "mock", "--scenario",
                                      scenario, "--call", "read_file={\"id\":\"7\"}"});
  EXPECT_EQ(names_of(over_stdio["tools"]), kBasicTools);
  EXPECT_EQ(over_stdio["call"]["content"][0]["text"], "done");
  expect_hint_survival(over_stdio["tools"], "TypeScript SDK v2 client (stdio, " + negotiation + ")");

  mcp_hints::ProcessOptions options;
  options.argv = {MCP_HINTS_BIN, "mock", "--scenario", scenario, "--transport", "http"};
  const auto mock = test_support::start_listening(options);
  const json over_http = sdk_client({"--negotiation", negotiation, "http", mock.url, "--call", "delete_file={}"});
  EXPECT_EQ(names_of(over_http["tools"]), kBasicTools);
  EXPECT_EQ(over_http["call"]["content"][0]["text"], "done");
  expect_hint_survival(over_http["tools"], "TypeScript SDK v2 client (HTTP, " + negotiation + ")");
}

// Negotiating 'auto', it probes the mock with server/discover, is refused, and falls back to the
// 2025 handshake.
TEST(Interop, TheSdkV2ClientFallsBackToThe2025EraWithTheMockServerOverStdioAndHttp) {
  expect_sdk2_client_reads_the_mock("auto", "mock.basic");
}
// Pinned to 2026-07-28 it has no fallback: a mock speaking only that revision (which refuses
// initialize) serves it in the stateless era.
TEST(Interop, TheSdkV2ClientPinnedTo20260728ReadsTheMockServerOverStdioAndHttp) {
  test_support::TempDir dir;
  expect_sdk2_client_reads_the_mock("pin", scenario_speaking(dir, builtin_scenario("mock.basic"), {"2026-07-28"}));
}

// What a certification run adds to the v1 adapter's expected-failures list: the scenarios it runs
// (files; none: every built-in one), more listed failures (SCENARIO[:CHECK] REASON) and how many
// failing checks the list then covers.
struct Certification {
  std::vector<std::string> scenarios;
  std::vector<std::string> more_expected_failures;
  int expected_failures = 2;
  std::string protocol = "2025-11-25";  // the era the mock servers speak (the v1 list is for this one)
};

// A TypeScript SDK adapter certified over each transport: what it fails is exactly the v1
// adapter's expected-failures list, plus what the run adds (a new failure, or an entry that starts
// passing, fails this test); both SDKs' adapters share one policy, so one list serves both. The
// docs/interop.md shows the results.
void expect_certified_as_listed(const std::string& adapter, const std::string& options, const char* transport,
                                const Certification& run = {}) {
  REQUIRE_NODE();
  const auto adapters = test_support::source_dir() / "examples" / "adapters";
  test_support::TempDir dir;
  std::string list = test_support::read_file(adapters / "typescript-sdk-client.expected-failures");
  for (const auto& line : run.more_expected_failures) list += line + "\n";
  const auto expected = dir.write("expected-failures", list);
  const std::string client = "node " + test_support::shell_quote((adapters / adapter).string()) + options;
  std::vector<std::string> argv = {MCP_HINTS_BIN,         "certify",         "--client", client,
                                   "--transport",         transport,         "--output", (dir.path() / "out").string(),
                                   "--expected-failures", expected.string(), "--format", "json",
                                   "--protocol",          run.protocol};
  for (const auto& scenario : run.scenarios) argv.insert(argv.end(), {"--scenario", scenario});
  // Node starts once per scenario (twice over stdio when the SDK probes): minutes under load.
  const auto r = test_support::run_command(argv, "/dev/null", "", 280);
  EXPECT_EQ(r.exit_code, 0) << client << " over " << transport << "\n" << r.err << r.out.substr(0, 2000);
  const json results = json::parse(r.out.empty() ? "{}" : r.out);
  std::size_t passed = 0;
  for (const auto& s : results["scenarios"]) {
    EXPECT_FALSE(s["couldNotRun"].get<bool>()) << s["id"];
    for (const auto& c : s["results"]) passed += c["verdict"] == "pass";
  }
  // It does what its simple policy says: spec-hint confirmation, propagation, relisting.
  EXPECT_GE(passed, 20u) << client << " over " << transport;
  EXPECT_EQ(results["counts"]["expected failure"], run.expected_failures) << client << " over " << transport;
  // Its listed failures keep the run green but never earn it the tier.
  EXPECT_EQ(results["tier"], "not certified") << client << " over " << transport;
  EXPECT_GE(results["blockingNextTier"].size(), static_cast<std::size_t>(run.expected_failures))
      << client << " over " << transport;
  // What it does with #711 is its profile, not the tier: it carries on tools/call, not on every
  // request (the first tools/list to a second server goes without), so partially.
  for (const auto& profile : results["profiles"])
    if (profile["id"] == "trust-annotations" && run.scenarios.empty()) {
      EXPECT_EQ(profile["status"], "partial") << client << " over " << transport << ": " << profile.dump();
    }
}

// Why the six adapter certifications skip under the sanitizers (tests/conformance runs every
// scenario against the reference client there; each certification would only add a minute of Node).
constexpr const char* kEveryScenarioWithANodeClient =
    "every scenario runs against the reference client, and the mock meets Node clients in both eras in the SDK v2 "
    "client's and the official suite's runs";

TEST(Interop, TheTypeScriptSdkAdapterIsCertifiedAsItsListSaysOverStdio) {
  MCP_HINTS_SKIP_SWEEP_UNDER_SANITIZERS(kEveryScenarioWithANodeClient);
  expect_certified_as_listed("typescript-sdk-client.mjs", "", "stdio");
}
TEST(Interop, TheTypeScriptSdkAdapterIsCertifiedAsItsListSaysOverHttp) {
  MCP_HINTS_SKIP_SWEEP_UNDER_SANITIZERS(kEveryScenarioWithANodeClient);
  expect_certified_as_listed("typescript-sdk-client.mjs", "", "http");
}
// The SDK v2 adapter negotiating 'auto' meets the mock in the 2025 era (its server/discover is
// refused).
TEST(Interop, TheTypeScriptSdkV2AdapterNegotiatingAutoIsCertifiedAsItsListSaysOverHttp) {
  MCP_HINTS_SKIP_SWEEP_UNDER_SANITIZERS(kEveryScenarioWithANodeClient);
  expect_certified_as_listed("typescript-sdk-v2-client.mjs", " --negotiation auto", "http");
}

TEST(Interop, TheTypeScriptSdkV2AdapterNegotiatingAutoIsCertifiedAsItsListSaysOverStdio) {
  MCP_HINTS_SKIP_SWEEP_UNDER_SANITIZERS(kEveryScenarioWithANodeClient);
  expect_certified_as_listed("typescript-sdk-v2-client.mjs", " --negotiation auto", "stdio");
}
// Pinned to 2026-07-28 against mocks that speak only that revision: the stateless era end to end
// (over stdio the SDK probes server/discover on a server process of its own; over HTTP its agent
// sessions are what its new_session events divide): it fails what it fails in the session era; the
// stateless era's confirm.input-required is info (it shows no input request to the user and sends
// the call again without an answer: the request is left unfulfilled, which the text allows).
TEST(Interop, TheTypeScriptSdkV2AdapterPinnedIsCertifiedAsItsListSaysOverStdio) {
  MCP_HINTS_SKIP_SWEEP_UNDER_SANITIZERS(kEveryScenarioWithANodeClient);
  expect_certified_as_listed("typescript-sdk-v2-client.mjs", " --negotiation pin", "stdio", {{}, {}, 2, "2026-07-28"});
}
TEST(Interop, TheTypeScriptSdkV2AdapterPinnedIsCertifiedAsItsListSaysOverHttp) {
  MCP_HINTS_SKIP_SWEEP_UNDER_SANITIZERS(kEveryScenarioWithANodeClient);
  expect_certified_as_listed("typescript-sdk-v2-client.mjs", " --negotiation pin", "http", {{}, {}, 2, "2026-07-28"});
}

// The official conformance suite's server scenarios against the mock over HTTP, serving the
// suite's fixture tools, prompts and resources (tests/fixtures/interop/official-suite-tools.json):
// each in-scope scenario gives exactly the checks and statuses listed, in order. Out of scope,
// never run: what the mock does not serve (completion-complete, resources-subscribe,
// resources-unsubscribe, logging-set-level: it declares none of completions, resources.subscribe
// and logging), what needs a session-era server to send the client a request or a log
// (tools-call-with-logging, -sampling, -elicitation, elicitation-sep1034-defaults,
// elicitation-sep1330-enums: the mock asks for input only by the stateless era's
// InputRequiredResult), and the extensions (sep-2640-skills-*, tasks-*). OAuth is a client matter.
struct SuiteScenario {
  std::string name;
  std::vector<std::string> checks;  // "STATUS check-id", in the order the suite reports them
};

// Runs the official suite `package` (conformance: 0.1.16; conformance-next: 0.2.0-alpha.12) on its
// Node 22, with one server scenario against `url`; "STATUS check-id" per check, and its exit code
// agrees with them (1 when one fails).
std::vector<std::string> official_server_checks(const std::string& package, const std::string& url,
                                                const std::string& scenario, const std::string& spec_version) {
  test_support::TempDir out;
  std::vector<std::string> argv = {(node_dir() / "node_modules" / ".bin" / "node").string(),
                                   package_entry(package),
                                   "server",
                                   "--url",
                                   url,
                                   "--scenario",
                                   scenario,
                                   "-o",
                                   out.path().string()};
  if (!spec_version.empty()) argv.insert(argv.end(), {"--spec-version", spec_version});
  const auto r = test_support::run_command(argv, "/dev/null", "", 120);
  std::vector<std::string> checks;
  bool failed = false;
  for (const auto& run : fs::directory_iterator(out.path()))
    for (const auto& check : test_support::read_json(run.path() / "checks.json")) {
      checks.push_back(check["status"].get<std::string>() + " " + check["id"].get<std::string>());
      failed = failed || check["status"] == "FAILURE";
    }
  EXPECT_FALSE(checks.empty()) << scenario << ": no results\n" << r.err << r.out.substr(0, 2000);
  EXPECT_EQ(r.exit_code, failed ? 1 : 0) << scenario << "\n" << r.err;
  return checks;
}

// The mock serving the fixture tools in `versions`, and each scenario of `suite` against it.
void expect_official_suite_results(const std::string& package, const std::string& spec_version,
                                   const std::vector<std::string>& versions, const std::vector<SuiteScenario>& suite) {
  REQUIRE_NODE();
  if (!fs::exists(package_entry(package))) GTEST_SKIP() << package << " is not in node/node_modules";
  test_support::TempDir dir;
  mcp_hints::ProcessOptions options;
  options.argv = {
      MCP_HINTS_BIN, "mock",
      "--scenario",  scenario_speaking(dir, test_support::fixture("interop/official-suite-tools.json"), versions),
      "--transport", "http"};
  const auto mock = test_support::start_listening(options);
  ASSERT_EQ(mock.url.rfind("http://127.0.0.1:", 0), 0u) << mock.process->stderr_log();
  for (const auto& scenario : suite)
    EXPECT_EQ(official_server_checks(package, mock.url, scenario.name, spec_version), scenario.checks)
        << package << " " << scenario.name;
}

// conformance 0.2.0-alpha.12, --spec-version 2026-07-28, against a mock speaking only that
// revision. Every check passes, the subscription checks and the diagnostic tools' (a step that
// requires a client capability, an input request) among them, but for one SKIPPED (said beside it).
TEST(Interop, TheOfficialSuite2026ServerScenariosAgainstTheMockPinnedTo20260728OverHttp) {
  expect_official_suite_results(
      "conformance-next", "2026-07-28", {"2026-07-28"},
      {
          {"server-stateless",
           {"SUCCESS sep-2575-request-meta-invalid-missing-meta", "SUCCESS sep-2575-http-server-meta-invalid-400",
            "SUCCESS sep-2575-request-meta-invalid-missing-protocol-version",
            "SUCCESS sep-2575-http-server-meta-invalid-400",
            "SUCCESS sep-2575-request-meta-invalid-missing-client-capabilities",
            "SUCCESS sep-2575-http-server-meta-invalid-400", "SUCCESS sep-2575-request-meta-client-info-optional",
            "SUCCESS sep-2575-server-implements-discover", "SUCCESS sep-2575-server-identifies-in-result-meta",
            "SUCCESS sep-2575-server-declares-prompts-in-discover",
            "SUCCESS sep-2575-discover-capabilities-match-handlers",
            "SUCCESS sep-2575-server-unsupported-version-error", "SUCCESS sep-2575-http-server-unsupported-version-400",
            "SUCCESS sep-2575-http-server-header-mismatch-400",
            // test_missing_capability's step requires sampling, which the suite does not declare
            "SUCCESS sep-2575-server-rejects-undeclared-capability", "SUCCESS sep-2575-missing-capability-http-400",
            "SUCCESS sep-2575-http-server-method-not-found-404-initialize",
            "SUCCESS sep-2575-http-server-method-not-found-404-ping",
            "SUCCESS sep-2575-http-server-method-not-found-404-logging-setlevel",
            "SUCCESS sep-2575-http-server-method-not-found-404-resources-subscribe",
            "SUCCESS sep-2575-http-server-method-not-found-404-resources-unsubscribe",
            "SUCCESS sep-2575-http-server-method-not-found-404",
            // test_streaming_elicitation asks by an InputRequiredResult (its step requires elicitation,
            // which the suite declares for that call); test_logging_tool answers, and the mock never logs
            "SUCCESS sep-2575-http-server-no-independent-requests-on-stream",
            "SUCCESS sep-2575-server-no-log-without-loglevel",
            // test_trigger_tool_change's steps announce a change on the subscriptions/listen streams
            "SUCCESS sep-2575-server-sends-subscription-ack", "SUCCESS sep-2575-server-tags-subscription-id",
            "SUCCESS sep-2575-server-honors-notification-filter",
            // its prompts never change, so it declares no prompts.listChanged
            "SKIPPED sep-2575-server-sends-prompts-list-changed-on-subscription",
            "SUCCESS sep-2575-server-sends-tools-list-changed-on-subscription",
            "SUCCESS sep-2575-http-server-error-jsonrpc-id"}},
          {"caching",
           {"SUCCESS sep-2549-tools-list-caching-hints", "SUCCESS sep-2549-prompts-list-caching-hints",
            "SUCCESS sep-2549-resources-list-caching-hints", "SUCCESS sep-2549-resources-templates-list-caching-hints",
            "SUCCESS sep-2549-resources-read-caching-hints", "SUCCESS sep-2549-ttl-non-negative",
            "SUCCESS sep-2549-cache-scope-valid", "SUCCESS wire-schema-valid"}},
          {"http-header-validation",
           {"SUCCESS sep-2243-server-reject-invalid-headers", "SUCCESS sep-2243-server-reject-error-code",
            "SUCCESS sep-2243-server-reject-invalid-headers", "SUCCESS sep-2243-server-reject-error-code",
            "SUCCESS sep-2243-server-reject-invalid-headers", "SUCCESS sep-2243-server-reject-error-code",
            "SUCCESS sep-2243-server-accepts-whitespace-header-value", "SUCCESS sep-2243-server-reject-invalid-headers",
            "SUCCESS sep-2243-server-reject-error-code", "SUCCESS sep-2243-header-name-case-insensitive",
            "SUCCESS sep-2243-header-name-case-insensitive", "SUCCESS sep-2243-server-reject-invalid-headers",
            "SUCCESS sep-2243-server-reject-error-code", "SUCCESS wire-schema-valid"}},
          // test_custom_headers mirrors its region in Mcp-Param-Region: decoded strictly, taken
          // literally without the whole sentinel, required when the body gives the value.
          {"http-custom-header-server-validation",
           {"SUCCESS sep-2243-server-decode-base64", "SUCCESS sep-2243-server-reject-invalid-param-chars",
            "SUCCESS sep-2243-server-reject-param-mismatch", "SUCCESS sep-2243-server-reject-invalid-param-chars",
            "SUCCESS sep-2243-server-reject-param-mismatch", "SUCCESS sep-2243-server-validate-param-match",
            "SUCCESS sep-2243-server-validate-param-match", "SUCCESS sep-2243-server-validate-param-match",
            "SUCCESS sep-2243-server-reject-param-mismatch", "SUCCESS wire-schema-valid"}},
          {"tools-list",
           {"SUCCESS tools-list", "SUCCESS tools-name-format", "SUCCESS tools-list-deterministic-order",
            "SUCCESS wire-schema-valid"}},
          {"tools-call-simple-text", {"SUCCESS tools-call-simple-text", "SUCCESS wire-schema-valid"}},
          {"tools-call-image", {"SUCCESS tools-call-image", "SUCCESS wire-schema-valid"}},
          {"tools-call-audio", {"SUCCESS tools-call-audio", "SUCCESS wire-schema-valid"}},
          {"tools-call-embedded-resource", {"SUCCESS tools-call-embedded-resource", "SUCCESS wire-schema-valid"}},
          {"tools-call-mixed-content", {"SUCCESS tools-call-mixed-content", "SUCCESS wire-schema-valid"}},
          {"tools-call-error", {"SUCCESS tools-call-error", "SUCCESS wire-schema-valid"}},
          {"tools-call-with-progress", {"SUCCESS tools-call-with-progress", "SUCCESS wire-schema-valid"}},
          {"json-schema-2020-12",
           {"SUCCESS json-schema-2020-12-tool-found", "SUCCESS json-schema-2020-12-$schema",
            "SUCCESS json-schema-2020-12-$defs", "SUCCESS json-schema-2020-12-additionalProperties",
            "SUCCESS sep-2106-composition-keywords-preserved", "SUCCESS sep-2106-conditional-keywords-preserved",
            "SUCCESS sep-2106-anchor-keyword-preserved", "SUCCESS wire-schema-valid"}},
          {"dns-rebinding-protection",
           {"SUCCESS localhost-host-rebinding-rejected", "SUCCESS localhost-host-valid-accepted"}},
          {"server-sse-multiple-streams",
           {"SUCCESS server-accepts-multiple-post-streams", "INFO server-sse-streams-functional"}},
      });
}

// SEP-2322's input requests (2026-07-28), each scripted as a step of the tool the scenario calls
// (or on the prompt it gets): asked, asked again until answered in full with the requestState
// given (a changed one refused), over several rounds, and only of a client that declares the
// capability the step requires.
TEST(Interop, TheOfficialSuiteInputRequiredScenariosAgainstTheMockPinnedTo20260728OverHttp) {
  const auto suite = [](const std::string& name, std::vector<std::string> checks) {
    checks.push_back("SUCCESS wire-schema-valid");
    return SuiteScenario{name, checks};
  };
  expect_official_suite_results(
      "conformance-next", "2026-07-28", {"2026-07-28"},
      {
          suite("input-required-result-basic-elicitation",
                {"SUCCESS sep-2322-elicitation-incomplete", "SUCCESS sep-2322-elicitation-complete"}),
          suite("input-required-result-basic-sampling",
                {"SUCCESS sep-2322-sampling-incomplete", "SUCCESS sep-2322-sampling-complete"}),
          suite("input-required-result-basic-list-roots",
                {"SUCCESS sep-2322-list-roots-incomplete", "SUCCESS sep-2322-list-roots-complete"}),
          suite("input-required-result-request-state",
                {"SUCCESS sep-2322-request-state-incomplete", "SUCCESS sep-2322-request-state-complete"}),
          suite("input-required-result-multiple-input-requests",
                {"SUCCESS sep-2322-multiple-inputs-incomplete", "SUCCESS sep-2322-multiple-inputs-complete"}),
          suite("input-required-result-multi-round",
                {"SUCCESS sep-2322-multi-round-r1", "SUCCESS sep-2322-multi-round-r2",
                 "SUCCESS sep-2322-multi-round-r3"}),
          suite("input-required-result-missing-input-response", {"SUCCESS sep-2322-missing-response-rerequests"}),
          suite("input-required-result-result-type", {"SUCCESS sep-2322-result-type-included"}),
          suite("input-required-result-tampered-state", {"SUCCESS sep-2322-reject-tampered-state"}),
          suite("input-required-result-ignore-extra-params", {"SUCCESS sep-2322-ignore-unexpected-params"}),
          suite("input-required-result-validate-input",
                {"SUCCESS sep-2322-validate-input-responses", "SUCCESS sep-2322-error-on-protocol-error"}),
          suite("input-required-result-capability-check", {"SUCCESS sep-2322-respect-client-capabilities"}),
          suite("input-required-result-unsupported-methods", {"SUCCESS sep-2322-not-on-unsupported-requests"}),
          suite("input-required-result-non-tool-request",
                {"SUCCESS sep-2322-non-tool-incomplete", "SUCCESS sep-2322-non-tool-complete"}),
      });
}

// The prompts and resources scenarios, which the mock passes as a scenario scripts them: both
// suites, each against a mock speaking its era (a test of its own, so that it runs beside the others).
TEST(Interop, TheOfficialSuitePromptAndResourceScenariosAgainstTheMockInBothErasOverHttp) {
  const std::vector<std::string> names = {"prompts-list",
                                          "prompts-get-simple",
                                          "prompts-get-with-args",
                                          "prompts-get-embedded-resource",
                                          "prompts-get-with-image",
                                          "resources-list",
                                          "resources-read-text",
                                          "resources-read-binary",
                                          "resources-templates-read"};
  std::vector<SuiteScenario> suite;
  for (const auto& name : names) suite.push_back({name, {"SUCCESS " + name}});
  expect_official_suite_results("conformance", "", {"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"}, suite);
  for (auto& scenario : suite) scenario.checks.push_back("SUCCESS wire-schema-valid");
  suite.push_back({"sep-2164-resource-not-found",
                   {"SUCCESS sep-2164-no-empty-contents", "SUCCESS sep-2164-error-code", "SUCCESS sep-2164-data-uri",
                    "SUCCESS wire-schema-valid"}});
  expect_official_suite_results("conformance-next", "2026-07-28", {"2026-07-28"}, suite);
}

// conformance 0.1.16 (the 2025 revisions) against a mock speaking both eras: it is served the
// legacy one. Every check passes (the INFO ones only describe the streams).
TEST(Interop, TheOfficialSuite2025ServerScenariosAgainstTheMockSpeakingBothErasOverHttp) {
  expect_official_suite_results(
      "conformance", "", {"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"},
      {
          {"server-initialize", {"SUCCESS server-initialize"}},
          {"ping", {"SUCCESS ping"}},
          {"tools-list", {"SUCCESS tools-list"}},
          {"tools-call-simple-text", {"SUCCESS tools-call-simple-text"}},
          {"tools-call-image", {"SUCCESS tools-call-image"}},
          {"tools-call-audio", {"SUCCESS tools-call-audio"}},
          {"tools-call-embedded-resource", {"SUCCESS tools-call-embedded-resource"}},
          {"tools-call-mixed-content", {"SUCCESS tools-call-mixed-content"}},
          {"tools-call-error", {"SUCCESS tools-call-error"}},
          {"tools-call-with-progress", {"SUCCESS tools-call-with-progress"}},
          {"json-schema-2020-12",
           {"SUCCESS json-schema-2020-12-tool-found", "SUCCESS json-schema-2020-12-$schema",
            "SUCCESS json-schema-2020-12-$defs", "SUCCESS json-schema-2020-12-additionalProperties"}},
          {"dns-rebinding-protection",
           {"SUCCESS localhost-host-rebinding-rejected", "SUCCESS localhost-host-valid-accepted"}},
          {"server-sse-multiple-streams",
           {"SUCCESS server-accepts-multiple-post-streams", "INFO server-sse-streams-functional"}},
          {"server-sse-polling", {"INFO outgoing-request", "INFO incoming-response", "INFO server-sse-content-type"}},
      });
  // The session's lifecycle over HTTP (initialized accepted, DELETE ends it, then 404), which
  // only the newer suite has, at the revision it names.
  expect_official_suite_results(
      "conformance-next", "2025-11-25", {"2026-07-28", "2025-11-25"},
      {{"server-session-lifecycle",
        {"SUCCESS server-session-initialized-accepted", "SUCCESS server-session-delete-accepted",
         "SUCCESS server-session-terminated-returns-404"}}});
}

// The official suite's client scenarios against the reference client, which acts as a plain client
// when given no task of ours: the suite starts its own server, appends its URL to the command and
// names the revision in MCP_CONFORMANCE_PROTOCOL_VERSION. Out of scope: auth/* (OAuth), the
// extension scenarios.
std::vector<std::string> official_client_checks(const std::string& scenario, const std::string& spec_version) {
  test_support::TempDir out;
  const std::vector<std::string> argv = {(node_dir() / "node_modules" / ".bin" / "node").string(),
                                         package_entry("conformance-next"),
                                         "client",
                                         "--command",
                                         MCP_HINTS_REFERENCE_CLIENT,
                                         "--scenario",
                                         scenario,
                                         "--spec-version",
                                         spec_version,
                                         "-o",
                                         out.path().string()};
  const auto r = test_support::run_command(argv, "/dev/null", "", 120);
  std::vector<std::string> checks;
  for (const auto& run : fs::recursive_directory_iterator(out.path()))
    if (run.path().filename() == "checks.json")
      for (const auto& check : test_support::read_json(run.path()))
        checks.push_back(check["status"].get<std::string>() + " " + check["id"].get<std::string>());
  EXPECT_FALSE(checks.empty()) << scenario << ": no results\n" << r.err << r.out.substr(0, 2000);
  return checks;
}

// The checks that judge, without the INFO lines that only log the traffic (their number and order
// follow the run's timing).
std::vector<std::string> judged(std::vector<std::string> checks) {
  std::erase_if(checks, [](const std::string& check) { return check.starts_with("INFO "); });
  return checks;
}

TEST(Interop, TheOfficialSuiteClientScenariosPassTheReferenceClient) {
  REQUIRE_NODE();
  if (!fs::exists(package_entry("conformance-next"))) GTEST_SKIP() << "conformance-next is not in node/node_modules";
  const std::vector<std::string> tools_call = {"SUCCESS tool-add-numbers", "SUCCESS wire-schema-valid"};
  // It declares elicitation (form), which it answers in both eras; the capabilities it does not
  // declare are skipped. The suite refuses its first request (-32022) and it asks again with the
  // version the refusal lists.
  const std::vector<std::string> request_metadata = {"SUCCESS sep-2575-http-client-sends-version-header",
                                                     "SUCCESS sep-2575-client-populates-meta",
                                                     "SUCCESS sep-2575-client-sends-client-info",
                                                     "SUCCESS sep-2575-http-version-header-matches-meta",
                                                     "SKIPPED sep-2575-client-declares-roots-capability",
                                                     "SKIPPED sep-2575-client-declares-sampling-capability",
                                                     "SUCCESS sep-2575-client-declares-elicitation-capability",
                                                     "SUCCESS sep-2575-client-retry-supported-version"};
  // Mcp-Method on tools/list and tools/call, Mcp-Name on tools/call; the methods it never sends
  // (initialize in this era, resources, prompts) are skipped.
  std::vector<std::string> headers(3, "SUCCESS sep-2243-client-includes-standard-headers");
  headers.resize(11, "SKIPPED sep-2243-client-includes-standard-headers");
  EXPECT_EQ(official_client_checks("tools_call", "2026-07-28"), tools_call);
  EXPECT_EQ(official_client_checks("tools_call", "2025-11-25"), tools_call);
  EXPECT_EQ(official_client_checks("request-metadata", "2026-07-28"), request_metadata);
  EXPECT_EQ(official_client_checks("http-standard-headers", "2026-07-28"), headers);
  // An input_required result is answered by a new request (its own id) echoing requestState as
  // given, never inventing one, and parallel calls keep their own state.
  EXPECT_EQ(official_client_checks("sep-2322-client-request-state", "2026-07-28"),
            (std::vector<std::string>{
                "SUCCESS sep-2322-client-request-state-echoed", "SUCCESS sep-2322-client-jsonrpc-id-different",
                "SUCCESS sep-2322-default-result-type-complete", "SUCCESS sep-2322-client-no-state-omitted",
                "SUCCESS sep-2322-client-parallel-isolation"}));
  // A network $ref in a listed schema is never fetched (SEP-2106).
  EXPECT_EQ(official_client_checks("json-schema-ref-no-deref", "2026-07-28"),
            (std::vector<std::string>{"SUCCESS sep-2106-no-network-ref-deref"}));
  // A listed schema is handed back as it came: the 2020-12 keywords of SEP-1613 and those of SEP-2106
  // ($anchor, allOf/anyOf, if/then/else) all kept, in either revision.
  const std::vector<std::string> preserved = {"SUCCESS json-schema-2020-12-client-tool-found",
                                              "SUCCESS json-schema-2020-12-client-echo-completed",
                                              "SUCCESS json-schema-2020-12-client-$schema-preserved",
                                              "SUCCESS json-schema-2020-12-client-$defs-preserved",
                                              "SUCCESS json-schema-2020-12-client-additionalProperties-preserved",
                                              "SUCCESS sep-2106-client-composition-keywords-preserved",
                                              "SUCCESS sep-2106-client-conditional-keywords-preserved",
                                              "SUCCESS sep-2106-client-anchor-keyword-preserved",
                                              "SUCCESS wire-schema-valid"};
  EXPECT_EQ(official_client_checks("json-schema-2020-12-preservation", "2026-07-28"), preserved);
  EXPECT_EQ(official_client_checks("json-schema-2020-12-preservation", "2025-11-25"), preserved);
  // Over Streamable HTTP, a tool whose x-mcp-header breaks a SEP-2243 constraint is left out of the
  // listing and never called; the valid one beside them is.
  std::vector<std::string> rejected = {"SUCCESS sep-2243-client-reject-invalid-tool",
                                       "SUCCESS sep-2243-x-mcp-header-not-empty"};
  rejected.insert(rejected.end(), 4, "SUCCESS sep-2243-x-mcp-header-primitive-only");
  rejected.insert(rejected.end(), 2, "SUCCESS sep-2243-x-mcp-header-unique");
  rejected.insert(rejected.end(), 4, "SUCCESS sep-2243-x-mcp-header-charset");
  EXPECT_EQ(official_client_checks("http-invalid-tool-headers", "2026-07-28"), rejected);
  // A tools/call mirrors each x-mcp-header parameter in an Mcp-Param header, Base64 where the value
  // is not plain ASCII, and none for a null one (the calls are those the suite's context lists).
  std::vector<std::string> mirrored = {"SUCCESS sep-2243-client-supports-custom-headers",
                                       "SUCCESS sep-2243-client-mirrors-designated-params"};
  mirrored.insert(mirrored.end(), 3, "SUCCESS sep-2243-client-encode-values");
  mirrored.insert(mirrored.end(), 3, "SUCCESS sep-2243-client-mirrors-designated-params");
  mirrored.insert(mirrored.end(), 4, "SUCCESS sep-2243-client-base64-unsafe");
  mirrored.push_back("SUCCESS sep-2243-client-mirrors-designated-params");
  mirrored.insert(mirrored.end(), 3, "SUCCESS sep-2243-client-base64-unsafe");
  mirrored.insert(mirrored.end(),
                  {"SUCCESS sep-2243-client-mirrors-designated-params", "SUCCESS sep-2243-client-omit-null"});
  EXPECT_EQ(official_client_checks("http-custom-headers", "2026-07-28"), mirrored);
  EXPECT_EQ(official_client_checks("initialize", "2025-11-25"),
            (std::vector<std::string>{"SUCCESS mcp-client-initialization", "INFO server-info"}));
  // A tools/call stream the server ends after its priming event is resumed with GET and
  // Last-Event-ID, no sooner than its retry field says.
  EXPECT_EQ(judged(official_client_checks("sse-retry", "2025-11-25")),
            (std::vector<std::string>{"SUCCESS client-sse-graceful-reconnect", "SUCCESS client-sse-retry-timing",
                                      "SUCCESS client-sse-last-event-id"}));
  // The suite's server asks for a form on the standalone GET stream while the call waits: the
  // client, listening there during the call, accepts it with every field's default (SEP-1034).
  EXPECT_EQ(
      judged(official_client_checks("elicitation-sep1034-client-defaults", "2025-11-25")),
      (std::vector<std::string>{
          "SUCCESS client-elicitation-sep1034-string-default", "SUCCESS client-elicitation-sep1034-integer-default",
          "SUCCESS client-elicitation-sep1034-number-default", "SUCCESS client-elicitation-sep1034-enum-default",
          "SUCCESS client-elicitation-sep1034-boolean-default"}));
}
