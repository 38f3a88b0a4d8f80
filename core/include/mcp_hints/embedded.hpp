#pragma once
// The files of schemas/, compiled into the library so the product needs no data files at run time.
#include <optional>
#include <span>
#include <string_view>

namespace mcp_hints {

struct EmbeddedFile {
  std::string_view name;     // file name inside schemas/, e.g. "vocabulary.json"
  std::string_view content;
};

// schemas/*.json
std::span<const EmbeddedFile> embedded_files();
std::optional<std::string_view> embedded_file(std::string_view name);
// scenarios/*.json (in the mock-server library)
std::span<const EmbeddedFile> embedded_scenarios();

}  // namespace mcp_hints
