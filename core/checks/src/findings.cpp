#include "mcp_hints/checks/findings.hpp"

namespace mcp_hints {

std::string_view level_name(Level level) {
  switch (level) {
    case Level::error: return "error";
    case Level::warning: return "warning";
    case Level::info: return "info";
  }
  return "error";
}

std::optional<Level> parse_level(std::string_view name) {
  for (Level l : {Level::info, Level::warning, Level::error})
    if (level_name(l) == name) return l;
  return std::nullopt;
}

}  // namespace mcp_hints
