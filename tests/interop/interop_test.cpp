// check-server against real servers from npm (pinned in node/package-lock.json), over stdio and
// Streamable HTTP: no false error, and the report lists exactly the tools the official
// TypeScript SDK client lists. Skipped, saying why, when Node or the packages are missing.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>

#include "listening_child.hpp"
#include "mcp_hints/wire/child_process.hpp"
#include "test_support.hpp"

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
// agencyHint) are dropped. This is the finding the README reports; a client that changes shows here.
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

// Runs check-server; expects no error finding and returns the report.
json check(const std::vector<std::string>& args, const std::string& env = "") {
  std::vector<std::string> all = {"check-server", "--format", "json", "--observe", "300", "--timeout", "60"};
  all.insert(all.end(), args.begin(), args.end());
  auto r = test_support::run_cli(all, "/dev/null", env);
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out.substr(0, 2000);
  const json report = json::parse(r.out.empty() ? "{}" : r.out);
  EXPECT_EQ(report["summary"]["error"], 0) << report.dump(1).substr(0, 3000);
  return report;
}

int free_loopback_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

bool accepting(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
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
  const int port = free_loopback_port();
  mcp_hints::ProcessOptions options;
  // The preload keeps the server on 127.0.0.1 (it would listen on every interface).
  options.argv = {"node", "-r", (test_support::source_dir() / "tests" / "interop" / "loopback.js").string(),
                  package_entry("server-everything"), "streamableHttp"};
  options.env = {{"PORT", std::to_string(port)}};
  mcp_hints::ChildProcess server(options);
  for (int i = 0; i < 300 && !accepting(port); ++i) usleep(20000);
  ASSERT_TRUE(accepting(port)) << server.stderr_log();
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/mcp";
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

// check-server reads the SDK v2 server (legacy: what a 2025-era opening gets) and lists what the
// SDK v2 client lists in the 2026-07-28 era, with no error.
void expect_check_server_reads_sdk2_server_over_stdio(const std::string& legacy) {
  REQUIRE_NODE();
  std::vector<std::string> args = {"--"};
  const auto server = sdk2_server_command(legacy);
  args.insert(args.end(), server.begin(), server.end());
  const auto report = check(args);
  std::vector<std::string> witness = {"--negotiation", "pin", "stdio"};
  witness.insert(witness.end(), server.begin(), server.end());
  EXPECT_EQ(sdk_tool_names(witness), kSdk2Tools) << legacy;
  EXPECT_EQ(report["files"][0]["tools"].get<std::vector<std::string>>(), kSdk2Tools) << legacy;
}

void expect_check_server_reads_sdk2_server_over_http(const std::string& legacy) {
  REQUIRE_NODE();
  const auto server = start_sdk2_server_over_http(legacy);
  ASSERT_EQ(server.url.rfind("http://127.0.0.1:", 0), 0u) << server.process->stderr_log();
  const auto report = check({"--url", server.url});
  EXPECT_EQ(sdk_tool_names({"--negotiation", "pin", "http", server.url}), kSdk2Tools) << legacy;
  EXPECT_EQ(report["files"][0]["tools"].get<std::vector<std::string>>(), kSdk2Tools) << legacy;
}

TEST(Interop, CheckServerAgainstTheSdkV2ServerServingThe2025EraOverStdio) {
  expect_check_server_reads_sdk2_server_over_stdio("serve");
}
TEST(Interop, CheckServerAgainstTheSdkV2ServerServingThe2025EraOverHttp) {
  expect_check_server_reads_sdk2_server_over_http("serve");
}

// What the SDK v2 client negotiating `negotiation` (pin or auto) reads from the mock, over stdio
// and HTTP: every page, the call's result, and the hints as the v1 client keeps them.
void expect_sdk2_client_reads_the_mock(const std::string& negotiation) {
  REQUIRE_NODE();
  const json over_stdio = sdk_client({"--negotiation", negotiation, "stdio", MCP_HINTS_BIN, "mock", "--scenario",
                                      "mock.basic", "--call", "read_file={\"id\":\"7\"}"});
  EXPECT_EQ(names_of(over_stdio["tools"]), kBasicTools);
  EXPECT_EQ(over_stdio["call"]["content"][0]["text"], "done");
  expect_hint_survival(over_stdio["tools"], "TypeScript SDK v2 client (stdio, " + negotiation + ")");

  mcp_hints::ProcessOptions options;
  options.argv = {MCP_HINTS_BIN, "mock", "--scenario", "mock.basic", "--transport", "http"};
  const auto mock = test_support::start_listening(options);
  const json over_http = sdk_client({"--negotiation", negotiation, "http", mock.url, "--call", "delete_file={}"});
  EXPECT_EQ(names_of(over_http["tools"]), kBasicTools);
  EXPECT_EQ(over_http["call"]["content"][0]["text"], "done");
  expect_hint_survival(over_http["tools"], "TypeScript SDK v2 client (HTTP, " + negotiation + ")");
}

// Negotiating 'auto', it probes the mock with server/discover, is refused, and falls back to the
// 2025 handshake.
TEST(Interop, TheSdkV2ClientFallsBackToThe2025EraWithTheMockServerOverStdioAndHttp) {
  expect_sdk2_client_reads_the_mock("auto");
}

// A TypeScript SDK adapter certified over each transport: what it fails is exactly the v1
// adapter's expected-failures list (a new failure, or an entry that starts passing, fails this
// test); both SDKs' adapters share one policy, so one list serves both. The README shows the results.
void expect_certified_as_listed(const std::string& adapter, const std::string& options, const char* transport) {
  REQUIRE_NODE();
  const auto adapters = test_support::source_dir() / "examples" / "adapters";
  const auto expected = adapters / "typescript-sdk-client.expected-failures";
  const std::string client = "node " + test_support::shell_quote((adapters / adapter).string()) + options;
  test_support::TempDir dir;
  // Node starts once per scenario (about a second each): longer than run_cli's minute under load.
  const auto r =
      // The session era: these adapters' expected failures are listed for it (the v2 adapter's
      // stateless-era certification is a test of its own).
      test_support::run_command(
          {MCP_HINTS_BIN, "certify", "--client", client, "--transport", transport, "--protocol", "2025-11-25",
           "--output", dir.path().string(), "--expected-failures", expected.string(), "--format", "json"},
          "/dev/null", "", 110);
  EXPECT_EQ(r.exit_code, 0) << client << " over " << transport << "\n" << r.err << r.out.substr(0, 2000);
  const json results = json::parse(r.out);
  std::size_t passed = 0;
  for (const auto& s : results["scenarios"]) {
    EXPECT_FALSE(s["couldNotRun"].get<bool>()) << s["id"];
    for (const auto& c : s["results"]) passed += c["verdict"] == "pass";
  }
  // It does what its simple policy says: spec-hint confirmation, propagation, relisting.
  EXPECT_GE(passed, 20u) << client << " over " << transport;
  EXPECT_EQ(results["counts"]["expected failure"], 7) << client << " over " << transport;
  // Its listed failures keep the run green but never earn it the tier.
  EXPECT_EQ(results["tier"], "not certified") << client << " over " << transport;
  EXPECT_GE(results["blockingNextTier"].size(), 7u) << client << " over " << transport;
}

TEST(Interop, TheTypeScriptSdkAdapterIsCertifiedAsItsListSaysOverStdio) {
  expect_certified_as_listed("typescript-sdk-client.mjs", "", "stdio");
}
TEST(Interop, TheTypeScriptSdkAdapterIsCertifiedAsItsListSaysOverHttp) {
  expect_certified_as_listed("typescript-sdk-client.mjs", "", "http");
}
// The SDK v2 adapter negotiating 'auto' meets the mock in the 2025 era (its server/discover is
// refused). Over stdio the SDK probes on a separate server process, which the harness counts as a
// session: see the interop-wip tests.
TEST(Interop, TheTypeScriptSdkV2AdapterNegotiatingAutoIsCertifiedAsItsListSaysOverHttp) {
  expect_certified_as_listed("typescript-sdk-v2-client.mjs", " --negotiation auto", "http");
}
