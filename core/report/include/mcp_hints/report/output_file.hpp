#pragma once
// Writing a report or a catalog to a file: never left half-written.
#include <filesystem>
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

}  // namespace mcp_hints
