#include "mcp_hints/report/output_file.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

namespace mcp_hints {

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  write_file_atomically(
      path, [&](std::ostream& out) { out.write(content.data(), static_cast<std::streamsize>(content.size())); });
}

void write_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
  AtomicFile file(path);
  write(file.stream());
  file.commit();
}

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path_, ec)) throw OutputError("cannot write " + path_.string() + ": it is a directory");
  static std::atomic<unsigned> counter{0};
  // Beside the target, so the rename stays on one file system and is atomic.
  temporary_ = path_;
  temporary_ += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  out_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!out_) throw OutputError("cannot write " + path_.string() + ": " + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  out_.close();
  std::error_code ignored;
  std::filesystem::remove(temporary_, ignored);
}

void AtomicFile::commit() {
  namespace fs = std::filesystem;
  std::error_code ec;
  out_.close();
  if (!out_) {
    const std::string why = std::strerror(errno);
    fs::remove(temporary_, ec);
    committed_ = true;
    throw OutputError("cannot write " + path_.string() + ": " + why);
  }
  fs::rename(temporary_, path_, ec);
  committed_ = true;
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary_, ignored);
    throw OutputError("cannot write " + path_.string() + ": " + ec.message());
  }
}

SpillFile::SpillFile() {
  std::string name = (std::filesystem::temp_directory_path() / "mcp-hints-spill-XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd < 0) throw OutputError(std::string("cannot make a temporary file: ") + std::strerror(errno));
  ::close(fd);
  file_.open(name, std::ios::binary | std::ios::in | std::ios::out | std::ios::trunc);
  ::unlink(name.c_str());
  if (!file_) throw OutputError("cannot open the temporary file " + name);
}

void SpillFile::copy_to(std::ostream& out) {
  file_.flush();
  if (!file_) throw OutputError("cannot write a temporary file (is the disk full?)");
  file_.seekg(0);
  // Chunk by chunk with write(), which marks `out` bad when its device refuses the bytes
  // (`out << rdbuf()` does not, once some were taken: a full disk would pass unseen).
  std::vector<char> chunk(std::size_t{64} << 10);
  while (file_.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || file_.gcount() > 0)
    if (!out.write(chunk.data(), file_.gcount())) break;
  file_.clear();
}

}  // namespace mcp_hints
