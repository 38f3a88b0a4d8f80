#pragma once
// Helpers shared by the test files: paths of the source tree, files, and running the CLI.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace test_support {

inline std::filesystem::path source_dir() { return MCP_HINTS_SOURCE_DIR; }
inline std::filesystem::path shared_dir() { return MCP_HINTS_SHARED_DIR; }
// The reference client's command line (certify --client).
inline const std::string kReference = MCP_HINTS_REFERENCE_CLIENT;
inline std::filesystem::path fixture(const std::string& relative) {
  return source_dir() / "tests" / "fixtures" / relative;
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline nlohmann::json read_json(const std::filesystem::path& path) { return nlohmann::json::parse(read_file(path)); }

// A scratch folder removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "mcp-hints-test-XXXXXX").string();
    path_ = mkdtemp(templ.data());
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path write(const std::string& name, const std::string& content) const {
    auto p = path_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }

 private:
  std::filesystem::path path_;
};

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a command (stdin from a file when given), bounded by timeout(1).
inline RunResult run_command(const std::vector<std::string>& argv, const std::string& stdin_path = "/dev/null",
                             const std::string& env = "", int timeout_seconds = 60) {
  TempDir dir;
  std::string cmd = env + " timeout " + std::to_string(timeout_seconds);
  // Appended piece by piece: gcc 12 warns (-Wrestrict, a false positive) on "literal" + temporary.
  for (const auto& a : argv) {
    cmd += ' ';
    cmd += shell_quote(a);
  }
  for (const auto& [redirect, path] : {std::pair<const char*, std::string>{" <", stdin_path},
                                       {" >", (dir.path() / "out").string()},
                                       {" 2>", (dir.path() / "err").string()}}) {
    cmd += redirect;
    cmd += shell_quote(path);
  }
  int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(dir.path() / "out");
  r.err = read_file(dir.path() / "err");
  return r;
}

// Runs the mcp-hints binary with arguments.
inline RunResult run_cli(const std::vector<std::string>& args, const std::string& stdin_path = "/dev/null",
                         const std::string& env = "") {
  std::vector<std::string> argv = {MCP_HINTS_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv, stdin_path, env);
}

// Compares what `mcp-hints ARGS` prints (run in the source tree, so file names in its output are
// stable) with tests/golden/NAME; MCP_HINTS_UPDATE_GOLDEN=1 rewrites the file instead.
inline void expect_golden(const std::vector<std::string>& args, const std::string& golden, int exit_code = 0) {
  const auto r = run_cli(args, "/dev/null", "cd " + shell_quote(source_dir().string()) + " &&");
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  const auto path = source_dir() / "tests" / "golden" / golden;
  if (std::getenv("MCP_HINTS_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << r.out;
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " (MCP_HINTS_UPDATE_GOLDEN=1 writes it)";
  EXPECT_EQ(r.out, read_file(path)) << "mcp-hints differs from " << golden
                                    << " (MCP_HINTS_UPDATE_GOLDEN=1 rewrites it)";
}

inline std::size_t count_lines(const std::string& s);

// `mcp-hints ARGS` refuses its input: exit 2 and one line on stderr that says `message`.
inline void expect_usage_error(const std::vector<std::string>& args, const std::string& message) {
  const auto r = run_cli(args);
  EXPECT_EQ(r.exit_code, 2) << message << "\n" << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
}

// Every running process's pid and command line (arguments separated by NUL), from /proc. Read
// with read(2): a process that ends while it is read fails with ESRCH, which an ifstream turns
// into an exception; such a process is simply left out.
inline std::vector<std::pair<pid_t, std::string>> process_command_lines() {
  std::vector<std::pair<pid_t, std::string>> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const int fd = ::open((entry.path() / "cmdline").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    std::string cmdline;
    char buffer[4096];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) cmdline.append(buffer, static_cast<std::size_t>(n));
    ::close(fd);
    found.emplace_back(static_cast<pid_t>(std::stol(name)), std::move(cmdline));
  }
  return found;
}

inline std::size_t count_lines(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// How many processes have `marker` in their command line, this one excepted.
inline std::size_t processes_with(const std::string& marker) {
  std::size_t found = 0;
  for (auto [pid, cmdline] : process_command_lines()) {
    if (pid == ::getpid()) continue;
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    if (cmdline.find(marker) != std::string::npos) ++found;
  }
  return found;
}

// A JSON-RPC response wrapping n tools, one a line, that between them make lint findings of most
// kinds, for runs on several threads to be compared with runs on one: contradicting hints, hints
// against the name, values outside the schemas, a _meta key against the key pattern, members
// given twice, a tool that is not an object.
inline std::string varied_catalog(std::size_t n) {
  std::string text = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {\"tools\": [\n";
  for (std::size_t i = 0; i < n; ++i) {
    const std::string id = std::to_string(i);
    const std::string schema = R"("inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}})";
    switch (i % 8) {
      case 0:
        text += R"({"name": "get_user_)" + id + R"(", )" + schema + R"(, "annotations": {"readOnlyHint": true}})";
        break;
      case 1:
        text += R"({"name": "delete_file_)" + id + R"(", )" + schema +
                R"(, "annotations": {"readOnlyHint": true, "destructiveHint": true}})";
        break;
      case 2:
        text += R"({"name": "send_message_)" + id + R"(", )" + schema +
                R"(, "annotations": {"readOnlyHint": false,
  "readOnlyHint": true, "openWorldHint": true}, "name": "send_message_)" +
                id + R"(_again"})";
        break;
      case 3: text += R"({"name": "update_ticket_)" + id + R"(", "annotations": {"readOnlyHint": "no"}})"; break;
      case 4:
        text += R"({"name": "list_pods_)" + id + R"(", )" + schema +
                R"(, "annotations": {"readOnlyHint": true, "riskLevel": "extreme", "category": "mutate"}})";
        break;
      case 5:
        text +=
            R"({"name": "sync_repo_)" + id + R"(", )" + schema + R"(, "_meta": {"com.example.gateway/-pack": "p"}})";
        break;
      case 6: text += "42"; break;
      default:
        text +=
            R"({"name": "search_records_)" + id + R"(", )" + schema +
            R"(, "annotations": {"readOnlyHint": true}, "_meta": {"mcp.dev/effect": "delete", "mcp.dev/requiresConfirmation": false}})";
    }
    text += i + 1 < n ? ",\n" : "\n";
  }
  return text + "]}}\n";
}

}  // namespace test_support
