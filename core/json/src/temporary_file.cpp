#include "mcp_hints/json/temporary_file.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>

#include "mcp_hints/json/error.hpp"

namespace mcp_hints {

namespace {

Error failed(const std::string& what) { return Error(Error::Category::incomplete, what + ": " + std::strerror(errno)); }

}  // namespace

TemporaryFile::TemporaryFile() {
  std::error_code ec;
  auto directory = std::filesystem::temp_directory_path(ec);
  if (ec) directory = "/tmp";
  std::string name = (directory / "mcp-hints-spill-XXXXXX").string();
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) throw failed("cannot make a temporary file in " + directory.string());
  ::unlink(name.c_str());
}

TemporaryFile::~TemporaryFile() {
  if (fd_ >= 0) ::close(fd_);
}

TemporaryFile::TemporaryFile(TemporaryFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(std::exchange(other.size_, 0)) {}

TemporaryFile& TemporaryFile::operator=(TemporaryFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void TemporaryFile::append(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(size_));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw failed("cannot write a temporary file (is the disk full?)");
    size_ += static_cast<std::uint64_t>(n);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

std::size_t TemporaryFile::read_at(std::uint64_t offset, char* into, std::size_t size) const {
  std::size_t done = 0;
  while (done < size && offset + done < size_) {
    const ssize_t n = ::pread(fd_, into + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw failed("cannot read a temporary file");
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

}  // namespace mcp_hints
