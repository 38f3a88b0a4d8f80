#pragma once
// Bytes kept on disk rather than in memory while a run makes them: what outgrows memory (findings
// of a huge catalog), or what must wait for a header that counts it.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mcp_hints {

// A file with no name (it is unlinked as soon as it is open, in TMPDIR or else /tmp): nothing is
// left behind, whatever ends the run. Errors are Error(incomplete) saying what failed.
class TemporaryFile {
 public:
  TemporaryFile();  // when no temporary file can be made
  ~TemporaryFile();
  TemporaryFile(TemporaryFile&& other) noexcept;
  TemporaryFile& operator=(TemporaryFile&& other) noexcept;
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  // Adds the bytes at the end (a full device is an error, not a short file).
  void append(std::string_view bytes);
  // Reads up to `size` bytes from `offset` into `into`; returns how many there were.
  std::size_t read_at(std::uint64_t offset, char* into, std::size_t size) const;
  std::uint64_t size() const { return size_; }

 private:
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

}  // namespace mcp_hints
