#pragma once
// The safety table of a catalog (proposal 1's "documentation generators producing safety
// tables"): one row per tool with what it does, whether it asks for confirmation, whether it is
// safe to repeat, how sensitive its results are, where its input goes, its risk and agency —
// each value with the key that says it — and the lint findings on the tool.
#include <functional>
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "mcp_hints/checks/findings.hpp"
#include "mcp_hints/checks/lint.hpp"
#include "mcp_hints/report/output_file.hpp"

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

// Reads a catalog (any shape lint reads) and gives each tool's row as it is read; throws
// InputError for bad input. With infer, a facet no hint asserts is filled from the tool's name and
// input schema (see infer.hpp), its source saying "inferred" and why. Rows are made on
// options.jobs threads and given on the calling thread, in document order.
void for_each_safety_row(std::istream& in, const std::string& file, const LintOptions& options, bool infer,
                         const std::function<void(SafetyRow&&)>& row);
// Every row, kept: for_each_safety_row into a table.
SafetyTable build_safety_table(std::istream& in, const std::string& file, const LintOptions& options,
                               bool infer = false);

// Writes a table as its rows come, holding none: each row goes to a spill on disk until the head,
// which counts them, is written (HTML: one spill per worst level, as its rows are ordered).
class SafetyTableWriter {
 public:
  enum class Format { text, markdown, html };  // text: a block per tool, for a terminal
  explicit SafetyTableWriter(Format format);
  void add(const SafetyRow& row);
  // The whole table: its head, then the rows added.
  void finish(std::ostream& out, const std::string& file, const std::string& spec_revision, bool inferred);
  // Whether a finding added so far fails a run at `fail_on` (as fails_at on every row's findings).
  bool fails_at(Level fail_on) const;

 private:
  Format format_;
  std::size_t rows_ = 0;
  std::size_t counts_[3] = {0, 0, 0};               // findings by level
  int worst_counting_ = -1;                         // the worst level of a finding not suppressed
  std::vector<std::unique_ptr<SpillFile>> spills_;  // markdown: one; HTML: error, warning, info, none
};

// A kept table, written whole (the writer above, fed its rows).
std::string safety_table_text(const SafetyTable& table);
std::string safety_table_markdown(const SafetyTable& table);
std::string safety_table_html(const SafetyTable& table);

}  // namespace mcp_hints
