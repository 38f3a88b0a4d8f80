#include "mcp_hints/embedded.hpp"

namespace mcp_hints {

std::optional<std::string_view> embedded_file(std::string_view name) {
  for (const auto& file : embedded_files())
    if (file.name == name) return file.content;
  return std::nullopt;
}

}  // namespace mcp_hints
