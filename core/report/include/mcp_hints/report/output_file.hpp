#pragma once
// Writing a report or a catalog to a file: never left half-written.
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "mcp_hints/json/error.hpp"
#include "mcp_hints/json/temporary_file.hpp"

namespace mcp_hints {

// An output that could not be written: the run did not finish (its results are lost).
class OutputError : public Error {
 public:
  explicit OutputError(const std::string& what) : Error(Category::incomplete, what) {}
};

// Writes `content` to a temporary file beside `path` and renames it over `path`, so a reader sees
// the old file or the whole new one. Throws OutputError saying which file and why.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);
// The same, with the content written by `write` as it is made (never held whole in memory); an
// exception from `write` leaves the old file and no temporary one, and is thrown again.
void write_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

// An output file written over a whole run: stream() fills a temporary file beside `path`, and
// commit() renames it over `path`. Until then (and when the run ends without commit, by an error
// or an exception) the old file stands and the temporary one is removed.
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path path);  // OutputError when it cannot be created
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return out_; }
  void commit();  // OutputError saying which file and why

 private:
  std::filesystem::path path_, temporary_;
  std::ofstream out_;
  bool committed_ = false;
};

// A stream buffer that gathers what is written into chunks and hands each whole to `sink`: many
// small writes (a report's pieces) cost one a chunk. A chunk the sink refuses (it returns false)
// marks the stream bad.
class ChunkedBuffer : public std::streambuf {
 public:
  explicit ChunkedBuffer(std::function<bool(std::string_view)> sink, std::size_t chunk = std::size_t{64} << 10);
  int_type overflow(int_type c) override;
  int sync() override;

 private:
  std::function<bool(std::string_view)> sink_;
  std::vector<char> area_;
};

// Standard output, or any stream, written a chunk at a time (flush() hands over the rest).
class ChunkedOutput : public std::ostream {
 public:
  explicit ChunkedOutput(std::ostream& out);

 private:
  ChunkedBuffer buffer_;
};

// Text kept on disk rather than in memory until it can be written where it goes: what follows a
// header that counts it, or standard output of a command that writes all or nothing. The file has
// no name and is gone with the object.
class SpillFile {
 public:
  SpillFile();  // Error(incomplete) when no temporary file can be made
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;
  std::ostream& stream() { return stream_; }
  // Writes everything written so far to `out` (OutputError when the spill could not keep it).
  void copy_to(std::ostream& out);

 private:
  TemporaryFile file_;
  ChunkedBuffer buffer_;
  std::ostream stream_{&buffer_};
};

}  // namespace mcp_hints
