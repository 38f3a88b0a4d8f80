#pragma once
// Data files compiled into a library (cmake/EmbedFiles.cmake), so the product needs no data
// files at run time. Each library that embeds a folder declares its own accessor.
#include <optional>
#include <span>
#include <string_view>

namespace mcp_hints {

struct EmbeddedFile {
  std::string_view name;  // file name inside the embedded folder, e.g. "vocabulary.json"
  std::string_view content;
};

// The content of the file called `name`, if the set holds one.
std::optional<std::string_view> find_embedded(std::span<const EmbeddedFile> files, std::string_view name);

}  // namespace mcp_hints
