#include "mcp_hints/checks/lint.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "mcp_hints/json/catalog_reader.hpp"
#include "mcp_hints/json/member.hpp"
#include "mcp_hints/json/parallel_catalog.hpp"
#include "mcp_hints/json/recorded_input.hpp"
#include "mcp_hints/json/schema_registry.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/hint_model.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints {
namespace {

std::string tool_name(const nlohmann::json& tool) {
  const std::string* name = string_member(tool, "name");
  return name ? *name : std::string();
}

}  // namespace

const char* outcome_name(ToolCallRecord::Outcome outcome) {
  switch (outcome) {
    case ToolCallRecord::Outcome::succeeded: return "succeeded";
    case ToolCallRecord::Outcome::tool_error: return "tool-error";
    case ToolCallRecord::Outcome::failed: return "failed";
  }
  return "failed";
}

std::size_t LintReport::tool_count() const {
  std::size_t n = 0;
  for (const auto& f : files) n += f.tool_count;
  return n;
}

std::size_t LintReport::count(Level level) const { return findings.counting(level); }

std::size_t LintReport::suppressed_count() const { return findings.suppressed(); }

std::size_t LintReport::baselined_count() const { return findings.baselined(); }

bool LintReport::has_input_error() const {
  for (const auto& f : files)
    if (f.error) return true;
  return false;
}

bool LintReport::fails(std::optional<Level> fail_on) const {
  if (!fail_on) return false;
  for (Level level : {Level::info, Level::warning, Level::error})
    if (level >= *fail_on && findings.counting(level) > 0) return true;
  return false;
}

Linter::Linter(LintOptions options) : options_(std::move(options)) {
  const auto revisions = Vocabulary::builtin().spec_revisions();
  if (std::find(revisions.begin(), revisions.end(), options_.spec_revision) == revisions.end()) {
    throw OptionError("spec_revision", "unknown specification revision '" + options_.spec_revision +
                                           "' (known: " + join(revisions) + ")");
  }
  const auto& vocabulary = Vocabulary::builtin();
  spec_ = &vocabulary.active_revision("spec", options_.spec_revision);  // looked up once, not once a tool
  for (const auto& ref : options_.pinned) {
    const auto* rev = vocabulary.find(ref);
    if (!rev || rev->id == "spec" || rev->scope == "message") {
      if (ref.starts_with("spec"))
        throw OptionError("pinned",
                          "the specification's own revision is not pinned but chosen as the specification revision");
      throw OptionError("pinned", vocabulary.not_found(ref, vocabulary.tool_hint_refs()));
    }
    for (const auto* other : pinned_)
      if (other->id == rev->id) throw OptionError("pinned", rev->id + " is pinned twice");
    pinned_.push_back(rev);
  }
}

std::uint32_t Linter::lint_tool(const nlohmann::json& tool, const std::string& file, const std::string& pointer,
                                const ValuePositions* positions, std::vector<Finding>& out,
                                std::span<const DuplicateMember> duplicates) const {
  const auto& vocabulary = Vocabulary::builtin();
  const LocatedFields located = vocabulary.locate(tool);
  const ToolHints hints = read_tool_hints(located, vocabulary, *spec_);
  const auto detected = vocabulary.detect(located);
  const ToolContext ctx{tool,   located,  hints,   vocabulary, published_schemas(), options_.spec_revision,
                        *spec_, detected, pinned_, duplicates};
  const std::string* name = string_member(tool, "name");  // copied into a finding, if any
  const FindingSink::Emit emit = [&](const CheckInfo& check, const std::string& relative, std::string message) {
    const TextPosition at = positions ? positions->at(relative) : TextPosition{};
    const std::size_t tool_line = positions ? positions->at("").line : 0;
    out.push_back(Finding{std::string(check.id),
                          check.level,
                          file,
                          name ? *name : std::string(),
                          pointer + relative,
                          at.line,
                          at.column,
                          std::move(message),
                          std::string(check.proposal),
                          tool_line,
                          pointer,
                          {}});
  };
  for (const auto& check : lint_checks()) check.run(ctx, FindingSink(check.info, emit));
  std::uint32_t used = 0;
  for (const auto* rev : detected) used |= std::uint32_t{1} << (rev - vocabulary.revisions().data());
  return used;
}

FileResult Linter::lint_stream(std::istream& in, const std::string& file, FindingList& out) const {
  FileResult result{file, 0, std::nullopt, {}, {}, {}};
  struct LintedTool {
    std::vector<Finding> findings;
    std::uint32_t revisions = 0;
    std::string name;
  };
  const std::function<LintedTool(CatalogTool &&)> lint = [&](CatalogTool&& entry) {
    LintedTool linted;
    linted.revisions = lint_tool(entry.tool, file, entry.pointer, &entry.positions, linted.findings, entry.duplicates);
    linted.name = tool_name(entry.tool);
    return linted;
  };
  const std::function<void(LintedTool &&)> keep = [&](LintedTool&& linted) {
    // Not moved: a spilled list encodes them, and the worker that made them frees them.
    for (const auto& finding : linted.findings) out.push_back(finding);
    result.tool_revisions.push_back(linted.revisions);
    result.tool_names.push_back(std::move(linted.name));
    if (options_.progress) options_.progress(file, result.tool_names.size());
  };
  try {
    result.tool_count = read_catalog_in_parallel(in, options_.limits, options_.jobs, lint, keep).tool_count;
  } catch (const InputError& e) {
    std::string where;
    if (!e.pointer().empty()) where += " at " + e.pointer();
    if (e.line() > 0 && e.pointer().empty() && std::string(e.what()).find("line") == std::string::npos)
      where += " (line " + std::to_string(e.line()) + ")";
    result.error = std::string(e.what()) + where;
    result.limit = e.limit();
  }
  return result;
}

LintReport Linter::lint_files(const std::vector<std::string>& paths) const {
  LintReport report;
  report.spec_revision = options_.spec_revision;
  for (const auto& path : paths) {
    if (path == "-") {
      std::unique_ptr<RecordedStream> recorded;  // a pipe, kept as it is read: the fast reader reads it
      report.files.push_back(lint_stream(seekable(std::cin, recorded), "-", report.findings));
      continue;
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      report.files.push_back(FileResult{path, 0, "is a directory, not a file", {}, {}, {}});
      continue;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      report.files.push_back(FileResult{path, 0, "cannot open: " + std::generic_category().message(errno), {}, {}, {}});
      continue;
    }
    report.files.push_back(lint_stream(in, path, report.findings));
  }
  return report;
}

}  // namespace mcp_hints
