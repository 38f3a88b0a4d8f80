#pragma once
// Linting saved tools/list results: every check on every tool, file by file.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/checks/checks.hpp"
#include "mcp_hints/checks/findings.hpp"
#include "mcp_hints/json/catalog_reader.hpp"
#include "mcp_hints/json/error.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints {

struct LintOptions {
  std::string spec_revision{kDefaultSpecRevision};
  std::vector<std::string> pinned;  // NAME@REV: revisions the catalog must use
  InputLimits limits;
  // Threads that lint a file's tools while it is read (1: one after another); the report is the
  // same for any number.
  std::size_t jobs = 1;
  // Called after each tool (file, tools done in that file), e.g. to show progress: on the calling
  // thread, in document order.
  std::function<void(const std::string&, std::size_t)> progress;
};

struct FileResult {
  std::string file;
  std::size_t tool_count = 0;
  std::optional<std::string> error;     // set when the file could not be read as a tool list
  std::vector<std::string> tool_names;  // in document order (for per-tool reports)
  // Per tool, the vocabulary revisions whose keys it carries (bit i: Vocabulary::revisions()[i]).
  std::vector<std::uint32_t> tool_revisions;
  std::string limit;  // the member of InputLimits the file passed, when that is why it could not be read
};

// A tool call check-server made on request, and how it went: every report format shows each.
struct ToolCallRecord {
  enum class Outcome {
    succeeded,   // a result, not an error
    tool_error,  // a result with isError true: the tool says the call failed
    failed,      // a JSON-RPC error, or no answer
  };
  std::string tool;
  nlohmann::json arguments;  // as sent; reports show their shape only (values may be secrets)
  Outcome outcome = Outcome::succeeded;
  std::string detail;  // the result's text for a tool error, the error for a failed call
};

// "succeeded", "tool-error", "failed": the outcome's name in every report.
const char* outcome_name(ToolCallRecord::Outcome outcome);

struct LintReport {
  std::string spec_revision;
  std::vector<FileResult> files;
  FindingList findings;
  bool server_checks_ran = false;         // a check-server run: server checks apply too
  std::optional<std::string> incomplete;  // why the run could not finish (check-server)
  std::string diagnostics;                // what the server said besides protocol (stderr tail)
  std::string protocol_version;           // check-server: the revision spoken, once connected
  std::string protocol_era;               // ... and its era ("legacy", "stateless")
  std::string protocol_fallback;          // ... why negotiation fell back to the legacy era, if it did
  std::vector<ToolCallRecord> calls;      // check-server: the tools called, in order
  // A baseline or a suppressions file was applied (suppressions.hpp): every finding has been
  // judged for suppression, so an empty Finding::suppressions says "not suppressed".
  bool suppressions_applied = false;
  bool baseline_applied = false;  // ... and a baseline among them (SARIF: each result's baselineState)

  std::size_t tool_count() const;
  // Findings at this level that count (suppressed ones do not).
  std::size_t count(Level level) const;
  // Findings that do not count, and those of them in a baseline.
  std::size_t suppressed_count() const;
  std::size_t baselined_count() const;
  bool has_input_error() const;
  // True when some finding is at or above the level (nullopt: never fail on findings).
  bool fails(std::optional<Level> fail_on) const;
};

class Linter {
 public:
  // Throws OptionError for an unknown specification revision ("spec_revision") or pinned
  // vocabulary revision ("pinned").
  explicit Linter(LintOptions options);

  // Lints one tool; pointer says where it stands in its file, and positions (when the tool was
  // read from a file) where each of its values starts, and duplicates the members its text gave
  // twice. Returns the revisions the tool uses (as FileResult::tool_revisions).
  std::uint32_t lint_tool(const nlohmann::json& tool, const std::string& file, const std::string& pointer,
                          const ValuePositions* positions, std::vector<Finding>& out,
                          std::span<const DuplicateMember> duplicates = {}) const;
  // Lints a whole document read from a stream; input errors end up in the FileResult.
  FileResult lint_stream(std::istream& in, const std::string& file, FindingList& out) const;
  // Lints files by path ("-" is standard input).
  LintReport lint_files(const std::vector<std::string>& paths) const;

  const LintOptions& options() const { return options_; }

 private:
  LintOptions options_;
  std::vector<const VocabularyRevision*> pinned_;
  const VocabularyRevision* spec_ = nullptr;  // the specification's revision the options name
};

}  // namespace mcp_hints
