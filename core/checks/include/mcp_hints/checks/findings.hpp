#pragma once
// What a check reports, and how severe it is.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp_hints {

// Ordered by severity. The level of a check follows the proposal's words: MUST or a
// contradiction between hints -> error, SHOULD -> warning, MAY or advice -> info.
enum class Level { info, warning, error };

std::string_view level_name(Level level);
std::optional<Level> parse_level(std::string_view name);

// Why a finding does not count towards the verdict, as SARIF says it (result.suppressions, kind
// "external": the reason is kept outside the input): a suppression of the suppressions file, with
// its reason, or an entry of a baseline.
struct Suppression {
  enum class Source { config, baseline };
  Source source;
  std::string justification;  // the suppression's reason, or "in the baseline FILE"
};

struct Finding {
  std::string check;  // stable id, "area.name"
  Level level;
  std::string file;                       // the input it came from ("-" for stdin)
  std::string tool;                       // tool name, or "" when the tool has none
  std::string pointer;                    // JSON pointer into the input document
  std::size_t line = 0;                   // where the pointer's value starts (for a missing member, its nearest
  std::size_t column = 0;                 // enclosing value): 1-based line and UTF-16 column; 0 when unknown
  std::string message;                    // what was expected and what was seen
  std::string proposal;                   // the proposal and section enforced
  std::size_t tool_line = 0;              // line where the tool starts, 0 when unknown
  std::string tool_pointer;               // where the finding's tool stands in the input ("" when none)
  std::vector<Suppression> suppressions;  // empty: the finding counts

  bool suppressed() const { return !suppressions.empty(); }
  bool baselined() const;  // one of its suppressions is a baseline's
};

// Whether any finding that counts (not suppressed) is at or above the level that fails a run
// (nullopt: nothing fails it).
bool fails_at(const std::vector<Finding>& findings, std::optional<Level> fail_on);

}  // namespace mcp_hints
