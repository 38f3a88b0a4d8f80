#include "mcp_hints/checks/findings.hpp"

#include <algorithm>

namespace mcp_hints {

std::string_view level_name(Level level) {
  switch (level) {
    case Level::error: return "error";
    case Level::warning: return "warning";
    case Level::info: return "info";
  }
  return "error";
}

bool Finding::baselined() const {
  return std::any_of(suppressions.begin(), suppressions.end(),
                     [](const Suppression& s) { return s.source == Suppression::Source::baseline; });
}

std::optional<Level> parse_level(std::string_view name) {
  for (Level l : {Level::info, Level::warning, Level::error})
    if (level_name(l) == name) return l;
  return std::nullopt;
}

}  // namespace mcp_hints
