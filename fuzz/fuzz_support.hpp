#pragma once
// What every harness shares. The one rule of the harnesses: the library may refuse an input only
// with its own error root (mcp_hints::Error, which the command turns into one line and exit 2 or
// 3); any other exception escapes the harness and libFuzzer reports it as a crash, as it reports
// every sanitizer finding, hang and leak.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace mcp_hints::fuzz {

inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// An input of several requests: up to `most`, separated by a line "---".
inline std::vector<std::string_view> requests_of(std::string_view input, std::size_t most = 8) {
  std::vector<std::string_view> requests;
  while (requests.size() < most && !input.empty()) {
    const std::size_t separator = input.find("\n---\n");
    requests.push_back(input.substr(0, separator));
    input = separator == std::string_view::npos ? std::string_view() : input.substr(separator + 5);
  }
  return requests;
}

// A file rewritten with each input, for the readers that take a path (as the command gives them
// one); removed when the harness exits.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& stem) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/mcp-hints-fuzz-" + stem + "-XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) std::abort();
    ::close(fd);
    path_ = pattern;
  }
  ~ScratchFile() { std::remove(path_.c_str()); }
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  const std::string& write(std::string_view content) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out.flush()) std::abort();
    return path_;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace mcp_hints::fuzz
