#pragma once
// Writing a report or a catalog to a file: never left half-written.
#include <filesystem>
#include <string_view>

namespace mcp_hints {

// Writes `content` to a temporary file beside `path` and renames it over `path`, so a reader sees
// the old file or the whole new one. Throws std::runtime_error saying which file and why.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace mcp_hints
