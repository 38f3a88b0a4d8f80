#include "mcp_hints/report/output_file.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>

namespace mcp_hints {

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  write_file_atomically(
      path, [&](std::ostream& out) { out.write(content.data(), static_cast<std::streamsize>(content.size())); });
}

void write_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw OutputError("cannot write " + path.string() + ": it is a directory");
  static std::atomic<unsigned> counter{0};
  // Beside the target, so the rename stays on one file system and is atomic.
  fs::path temporary = path;
  temporary += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw OutputError("cannot write " + path.string() + ": " + std::strerror(errno));
    try {
      write(out);
    } catch (...) {
      out.close();
      fs::remove(temporary, ec);
      throw;
    }
    out.close();
    if (!out) {
      const std::string why = std::strerror(errno);
      fs::remove(temporary, ec);
      throw OutputError("cannot write " + path.string() + ": " + why);
    }
  }
  fs::rename(temporary, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw OutputError("cannot write " + path.string() + ": " + ec.message());
  }
}

}  // namespace mcp_hints
