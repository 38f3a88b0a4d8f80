#pragma once
// Streams the tools out of a saved tools/list: one tool at a time is in memory, so a catalog of
// any size is read in bounded memory.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/input.hpp"

namespace mcp_hints {

// The accepted shapes of a saved tools/list.
enum class CatalogShape { list_result, jsonrpc_response, bare_array };

// Where each value of one tool starts, by its JSON pointer below the tool ("" is the tool).
class ValuePositions {
 public:
  // Where the value at pointer starts. A member given again (`replaces`: the builder knows) takes
  // the place of the value it replaces and of everything inside it, and the earlier start is
  // returned.
  TextPosition add(std::string pointer, TextPosition at, bool replaces);
  // The value's position; for a pointer to something the tool does not have (a missing key),
  // that of the nearest enclosing value it has.
  TextPosition at(std::string_view pointer) const;

 private:
  // In document order, as added: appending is all most values cost; a lookup (a finding's) sorts
  // an index once.
  std::vector<std::pair<std::string, TextPosition>> positions_;
  mutable std::vector<std::uint32_t> sorted_;  // positions_ by pointer; rebuilt when stale
};

struct CatalogTool {
  nlohmann::json tool;                      // the tool object as given (may be any JSON value if the file is wrong)
  std::string pointer;                      // where it stands in the document, e.g. "/result/tools/3"
  std::size_t index;                        // position in the tools array
  std::size_t line;                         // line of the document where the tool starts (1-based)
  ValuePositions positions;                 // where each of its values starts
  std::vector<DuplicateMember> duplicates;  // members given twice in one of its objects (the last value is kept)
};

struct CatalogSummary {
  CatalogShape shape;
  std::size_t tool_count = 0;
};

// Calls on_tool for each tool in document order. Throws InputError for input that is not JSON,
// breaks a limit, is not one of the accepted shapes, or repeats a member outside the tools (which
// tools array counts would be a guess); a member repeated inside a tool is the tool's to report.
CatalogSummary read_catalog(std::istream& in, const InputLimits& limits,
                            const std::function<void(CatalogTool&&)>& on_tool);

}  // namespace mcp_hints
