// The HTTP module (core/wire/src/http_module.hpp): loaded by a process the first time it speaks
// Streamable HTTP, and only then; without it, HTTP ends the run with one clear line.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "mcp_hints/wire/child_process.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using test_support::read_file;
using test_support::run_command;
using test_support::TempDir;

namespace {

// The files a running mock has mapped (/proc/PID/maps), once it has written its first line: over
// stdio its answer to initialize, over HTTP its URL.
struct Mapped {
  std::string maps;
  std::string first_line;
};

Mapped mapped_by_mock(const std::string& transport) {
  mcp_hints::ChildProcess mock(
      {{MCP_HINTS_BIN, "mock", "--scenario", "mock.basic", "--transport", transport}, {}, std::size_t{64} * 1024});
  const auto deadline = mcp_hints::Clock::now() + std::chrono::seconds(20);
  if (transport == "stdio")
    mock.write(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",)"
               R"("capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
               "\n",
               deadline);
  Mapped found;
  std::string out;
  while (out.find('\n') == std::string::npos &&
         mock.read(out, 65536, deadline) == mcp_hints::ChildProcess::ReadStatus::data) {
  }
  found.first_line = out.substr(0, out.find('\n'));
  found.maps = read_file("/proc/" + std::to_string(mock.pid()) + "/maps");
  mock.kill_group();
  return found;
}

// A shared object this process has mapped that is not the module (the C++ runtime).
std::string some_other_shared_object() {
  std::istringstream maps(read_file("/proc/self/maps"));
  for (std::string line; std::getline(maps, line);)
    if (const auto at = line.find('/'); at != std::string::npos && line.find("libstdc++") != std::string::npos)
      return line.substr(at);
  return {};
}

}  // namespace

// A mock over stdio answers without ever loading cpp-httplib or OpenSSL; the same mock over HTTP
// has loaded the module and, through it, cpp-httplib (the control: the maps are read truly).
TEST(HttpModule, IsLoadedOnlyByAProcessThatSpeaksHttp) {
  const auto over_stdio = mapped_by_mock("stdio");
  ASSERT_NE(over_stdio.first_line.find("\"result\""), std::string::npos) << over_stdio.first_line;
  ASSERT_NE(over_stdio.maps.find("libstdc++"), std::string::npos);
  for (const char* library : {"mcp-hints-http.so", "libcpp-httplib", "libssl", "libcrypto"})
    EXPECT_EQ(over_stdio.maps.find(library), std::string::npos) << library << " is mapped by a stdio mock";

  const auto over_http = mapped_by_mock("http");
  ASSERT_EQ(over_http.first_line.rfind("http://127.0.0.1:", 0), 0u) << over_http.first_line;
  for (const char* library : {"mcp-hints-http.so", "libcpp-httplib"})
    EXPECT_NE(over_http.maps.find(library), std::string::npos) << library << " is not mapped by an HTTP mock";
}

// The command alone, without its module beside it or where it installs, says so in one line of its
// report when asked for HTTP (exit 3: the run could not be made), and still does everything else.
// A file by the module's name that is not it (another shared object, or no ELF at all) is refused
// by name.
TEST(HttpModule, WithoutItHttpEndsInOneLineThatSaysWhy) {
  for (const char* installed : {MCP_HINTS_HTTP_MODULE_INSTALLED, MCP_HINTS_HTTP_MODULE_PACKAGED})
    if (fs::exists(fs::path(installed) / "mcp-hints-http.so"))
      GTEST_SKIP() << "an installed module at " << installed << " would be found";
  TempDir dir;
  const auto alone = dir.path() / "mcp-hints";
  fs::copy_file(MCP_HINTS_BIN, alone);
  // What check-server says of the server, in one line of its report ("incomplete: ...").
  struct Said {
    int exit_code;
    std::string line;
  };
  const auto check = [&] {
    const auto r = run_command({alone.string(), "check-server", "--url", "http://127.0.0.1:9/mcp"});
    const auto at = r.out.find("incomplete: ");
    return Said{r.exit_code, at == std::string::npos ? r.out + r.err : r.out.substr(at, r.out.find('\n', at) - at)};
  };
  const auto missing = check();
  EXPECT_EQ(missing.exit_code, 3) << missing.line;
  EXPECT_NE(missing.line.find("Streamable HTTP is not available: the HTTP module mcp-hints-http.so was not found"),
            std::string::npos)
      << missing.line;
  EXPECT_NE(missing.line.find((dir.path() / "mcp-hints-http.so").string() + " (none)"), std::string::npos)
      << missing.line;
  const auto lint = run_command(
      {alone.string(), "lint", (test_support::source_dir() / "examples/catalogs/good-catalog.json").string()});
  EXPECT_EQ(lint.exit_code, 0) << lint.err;

  std::ofstream(dir.path() / "mcp-hints-http.so") << "not a shared object\n";
  const auto garbage = check();
  EXPECT_EQ(garbage.exit_code, 3) << garbage.line;
  EXPECT_NE(garbage.line.find("cannot load " + (dir.path() / "mcp-hints-http.so").string()), std::string::npos)
      << garbage.line;

  fs::remove(dir.path() / "mcp-hints-http.so");
  fs::copy_file(fs::path(MCP_HINTS_BIN).parent_path() / "mcp-hints-http.so", dir.path() / "real.so");
  const auto other_object = some_other_shared_object();
  ASSERT_FALSE(other_object.empty());
  fs::create_symlink(other_object, dir.path() / "mcp-hints-http.so");
  const auto other = check();
  EXPECT_EQ(other.exit_code, 3) << other.line;
  EXPECT_NE(other.line.find("is not the HTTP module of mcp-hints"), std::string::npos) << other.line;

  // The control: the real module beside it, and the same command reaches the network (nothing
  // listens on port 9: a connection failure, not a missing module).
  fs::remove(dir.path() / "mcp-hints-http.so");
  fs::rename(dir.path() / "real.so", dir.path() / "mcp-hints-http.so");
  const auto found = check();
  EXPECT_EQ(found.exit_code, 3) << found.line;
  EXPECT_EQ(found.line.find("not available"), std::string::npos) << found.line;
  EXPECT_NE(found.line.find("127.0.0.1:9"), std::string::npos) << found.line;
}

// The module refers to nothing of the library by name (what it uses is handed to it as it is
// loaded), so that an executable need not carry or export any part of the library for it. The
// control: it does refer to cpp-httplib, so the listing is read truly.
TEST(HttpModule, RefersToNothingOfTheLibraryByName) {
  const auto module = (fs::path(MCP_HINTS_BIN).parent_path() / "mcp-hints-http.so").string();
  const auto undefined = run_command({"nm", "-D", "--undefined-only", module});
  ASSERT_EQ(undefined.exit_code, 0) << undefined.err;
  EXPECT_NE(undefined.out.find("httplib"), std::string::npos) << undefined.out;
  EXPECT_EQ(undefined.out.find("mcp_hints"), std::string::npos) << undefined.out;
  const auto exported = run_command({"nm", "-D", "--defined-only", module});
  EXPECT_NE(exported.out.find(" T mcp_hints_http_module\n"), std::string::npos) << exported.out;
  EXPECT_EQ(exported.out.find("_ZN9mcp_hints"), std::string::npos) << exported.out;
}
