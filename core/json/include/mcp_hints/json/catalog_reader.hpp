#pragma once
// Streams the tools out of a saved tools/list: one tool at a time is in memory, so a catalog of
// any size is read in bounded memory.
#include <cstddef>
#include <functional>
#include <istream>
#include <string>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/input.hpp"

namespace mcp_hints {

// The accepted shapes of a saved tools/list.
enum class CatalogShape { list_result, jsonrpc_response, bare_array };

struct CatalogTool {
  nlohmann::json tool;  // the tool object as given (may be any JSON value if the file is wrong)
  std::string pointer;  // where it stands in the document, e.g. "/result/tools/3"
  std::size_t index;    // position in the tools array
  std::size_t line;     // line of the document where the tool starts (1-based)
};

struct CatalogSummary {
  CatalogShape shape;
  std::size_t tool_count = 0;
};

// Calls on_tool for each tool in document order. Throws InputError for input that is not JSON,
// breaks a limit, or is not one of the accepted shapes.
CatalogSummary read_catalog(std::istream& in, const InputLimits& limits,
                            const std::function<void(CatalogTool&&)>& on_tool);

}  // namespace mcp_hints
