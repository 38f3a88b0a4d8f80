#pragma once
// The safety table of a catalog (proposal 1's "documentation generators producing safety
// tables"): one row per tool with what it does, whether it asks for confirmation, whether it is
// safe to repeat, how sensitive its results are, where its input goes, its risk and agency —
// each value with the key that says it — and the lint findings on the tool.
#include <istream>
#include <string>
#include <vector>

#include "mcp_hints/checks/findings.hpp"
#include "mcp_hints/checks/lint.hpp"

namespace mcp_hints {

struct SafetyCell {
  std::string value;   // "delete", "single", "pii, credentials", "—" when nothing is known
  std::string source;  // "annotations.destructiveHint (spec@2025-11-25)", "default", "" when nothing
};

struct SafetyRow {
  std::string name;
  std::vector<SafetyCell> cells;  // in safety_columns() order
  std::vector<Finding> findings;
};

// The columns: their titles and the facets each shows.
struct SafetyColumn {
  std::string title;
  std::vector<std::string> facets;
};
const std::vector<SafetyColumn>& safety_columns();

struct SafetyTable {
  std::string file;
  std::string spec_revision;
  std::vector<SafetyRow> rows;
  bool inferred = false;  // built with infer
};

// Reads a catalog (any shape lint reads) and builds its table; throws InputError for bad input.
// With infer, a facet no hint asserts is filled from the tool's name and input schema (see
// infer.hpp), its source saying "inferred" and why.
SafetyTable build_safety_table(std::istream& in, const std::string& file, const LintOptions& options,
                               bool infer = false);

std::string safety_table_markdown(const SafetyTable& table);
std::string safety_table_html(const SafetyTable& table);

}  // namespace mcp_hints
