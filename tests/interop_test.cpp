// check-server against real servers from npm (pinned in node/package-lock.json), over stdio and
// Streamable HTTP: no false error, and the report lists exactly the tools the official
// TypeScript SDK client lists. Skipped, saying why, when Node or the packages are missing.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>

#include "mcp_hints/child_process.hpp"
#include "test_support.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

fs::path node_dir() { return test_support::source_dir() / "node"; }
std::string package_entry(const std::string& name) {
  return (node_dir() / "node_modules" / "@modelcontextprotocol" / name / "dist" / "index.js").string();
}

bool node_ready() {
  return std::system("command -v node >/dev/null 2>&1") == 0 && fs::exists(package_entry("server-everything")) &&
         fs::exists(node_dir() / "node_modules" / "@modelcontextprotocol" / "sdk");
}

#define REQUIRE_NODE() \
  if (!node_ready()) GTEST_SKIP() << "node or node/node_modules missing (make deps installs them when npm is present)"

std::vector<std::string> sdk_tool_names(const std::vector<std::string>& args, const std::string& env = "") {
  std::vector<std::string> argv = {"node", (node_dir() / "sdk_list_tools.mjs").string()};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = test_support::run_command(argv, "/dev/null", env, 60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out).get<std::vector<std::string>>() : std::vector<std::string>{};
}

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
  const auto names = sdk_tool_names({"stdio", MCP_HINTS_SAMPLE_SERVER, "--catalog",
                                     (test_support::source_dir() / "examples" / "catalogs" / "good-catalog.json").string(),
                                     "--page-size", "2"});
  EXPECT_EQ(names, (std::vector<std::string>{"list_pods", "delete_pod", "read_inbox", "send_email", "research"}));
}
