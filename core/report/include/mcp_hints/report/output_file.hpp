#pragma once
// Writing a report or a catalog to a file: never left half-written.
#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include "mcp_hints/json/error.hpp"

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

// Text kept on disk rather than in memory until it can be written where it goes: what follows a
// header that counts it, or standard output of a command that writes all or nothing. The file has
// no name (it is unlinked once open) and is gone with the object.
class SpillFile {
 public:
  SpillFile();  // OutputError when no temporary file can be made
  std::ostream& stream() { return file_; }
  // Writes everything written so far to `out` (the spill is read from its start).
  void copy_to(std::ostream& out);

 private:
  std::fstream file_;
};

}  // namespace mcp_hints
