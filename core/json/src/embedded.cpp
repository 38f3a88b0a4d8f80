#include "mcp_hints/json/embedded.hpp"

namespace mcp_hints {

std::optional<std::string_view> find_embedded(std::span<const EmbeddedFile> files, std::string_view name) {
  for (const auto& file : files)
    if (file.name == name) return file.content;
  return std::nullopt;
}

}  // namespace mcp_hints
