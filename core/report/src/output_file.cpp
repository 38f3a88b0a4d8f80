#include "mcp_hints/report/output_file.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>
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

ChunkedBuffer::ChunkedBuffer(std::function<bool(std::string_view)> sink, std::size_t chunk)
    : sink_(std::move(sink)), area_(chunk) {
  setp(area_.data(), area_.data() + area_.size());
}

ChunkedBuffer::int_type ChunkedBuffer::overflow(int_type c) {
  if (sync() != 0) return traits_type::eof();
  if (!traits_type::eq_int_type(c, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int ChunkedBuffer::sync() {
  const std::string_view chunk(pbase(), static_cast<std::size_t>(pptr() - pbase()));
  if (!chunk.empty() && !sink_(chunk)) return -1;
  setp(area_.data(), area_.data() + area_.size());
  return 0;
}

ChunkedOutput::ChunkedOutput(std::ostream& out)
    : std::ostream(nullptr), buffer_([&out](std::string_view chunk) {
        return static_cast<bool>(out.write(chunk.data(), static_cast<std::streamsize>(chunk.size())));
      }) {
  rdbuf(&buffer_);
}

SpillFile::SpillFile()
    : buffer_([this](std::string_view chunk) {
        try {
          file_.append(chunk);
          return true;
        } catch (const Error&) {
          return false;
        }
      }) {}

void SpillFile::copy_to(std::ostream& out) {
  if (!stream_.flush()) throw OutputError("cannot write a temporary file (is the disk full?)");
  // Chunk by chunk with write(), which marks `out` bad when its device refuses the bytes.
  std::vector<char> chunk(std::size_t{64} << 10);
  std::uint64_t at = 0;
  while (const std::size_t n = file_.read_at(at, chunk.data(), chunk.size())) {
    if (!out.write(chunk.data(), static_cast<std::streamsize>(n))) break;
    at += n;
  }
}

}  // namespace mcp_hints
