#pragma once
// For tests of the roles that start servers (wire and above).
#include <chrono>
#include <memory>
#include <string>

#include "mcp_hints/wire/child_process.hpp"

namespace test_support {

// A shell command line as a child's argv.
inline mcp_hints::ProcessOptions sh(const std::string& script) {
  mcp_hints::ProcessOptions o;
  o.argv = {"/bin/sh", "-c", script};
  return o;
}

// A server started as a child that prints its URL as the first line of stdout (the mock and
// sample servers over HTTP): kept running, and its whole group killed, for the test's length.
struct ListeningChild {
  std::unique_ptr<mcp_hints::ChildProcess> process;
  std::string url;
};

// A child's stdout up to its first line, read within 10 s: however busy the machine, and no longer
// than the child takes to write it.
inline std::string first_line(mcp_hints::ChildProcess& child) {
  std::string out;
  const auto deadline = mcp_hints::Clock::now() + std::chrono::seconds(10);
  while (out.find('\n') == std::string::npos &&
         child.read(out, 4096, deadline) == mcp_hints::ChildProcess::ReadStatus::data) {
  }
  return out.substr(0, out.find('\n'));
}

inline ListeningChild start_listening(const mcp_hints::ProcessOptions& options) {
  ListeningChild child{std::make_unique<mcp_hints::ChildProcess>(options), {}};
  child.url = first_line(*child.process);
  return child;
}

}  // namespace test_support
