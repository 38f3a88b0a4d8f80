#pragma once
// The registry of checks, each a stable id, a level and the proposal section it enforces: the lint
// checks, each with a function that inspects one tool (core/checks/src/rules/, one header per
// area), and the server checks check-server runs (server_checks.hpp).
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/checks/findings.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/schema_registry.hpp"
#include "mcp_hints/vocab/hint_model.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints {

// Tool checks judge one tool of a catalog (lint and check-server); server checks judge what a
// live server did (check-server only); run checks judge the run's own files, the baseline and the
// suppressions file (lint and check-server, suppressions.hpp).
enum class Scope { tool, server, run };

// "tool", "server", "run": the scope's name in --list-checks.
constexpr std::string_view scope_name(Scope scope) {
  return scope == Scope::tool ? "tool" : scope == Scope::server ? "server" : "run";
}

struct CheckInfo {
  std::string_view id;
  Level level;
  std::string_view proposal;  // proposal and section
  std::string_view summary;   // one line: what the check expects
  Scope scope = Scope::tool;
};

// Everything a check may look at for one tool.
struct ToolContext {
  const nlohmann::json& tool;
  const LocatedFields& located;  // where the tool carries the crosswalk's fields
  const ToolHints& hints;
  const Vocabulary& vocabulary;
  const SchemaRegistry& schemas;
  std::string_view spec_revision;
  const VocabularyRevision& spec;                          // the specification's revision spec_revision names
  const std::vector<const VocabularyRevision*>& detected;  // the revisions whose keys the tool carries
  const std::vector<const VocabularyRevision*>& pinned;    // --vocab NAME@REV: the revisions a catalog must use
  std::span<const DuplicateMember> duplicates;             // members the tool's text gives twice (pointers below it)
};

// Collects findings of one check on one tool; pointers are relative to the tool.
class FindingSink {
 public:
  using Emit = std::function<void(const CheckInfo&, std::string pointer, std::string message)>;
  FindingSink(const CheckInfo& check, const Emit& emit) : check_(check), emit_(emit) {}
  void report(std::string pointer, std::string message) const { emit_(check_, std::move(pointer), std::move(message)); }

 private:
  const CheckInfo& check_;
  const Emit& emit_;
};

struct Check {
  CheckInfo info;
  void (*run)(const ToolContext&, const FindingSink&);
};

// Every tool check, in a stable order: area by area, as --list-checks shows them.
std::span<const Check> lint_checks();
// Every server check (run by check-server), in a stable order (server_checks.hpp).
std::span<const CheckInfo> server_checks();
// The one registry: tool checks, server checks, then run checks.
std::span<const CheckInfo> all_checks();
// The check, tool or server, with this id; nothing when no check has it (an id read from a
// finding or a file can be anything).
[[nodiscard]] std::optional<CheckInfo> find_check(std::string_view id);

// ---- what the registry holds its ids to, at compile time ----------------------------------------

// "area.name": two lowercase words (letters, digits, '-') joined by one dot. The area groups
// related checks; a finding's id names both.
constexpr bool is_check_id(std::string_view id) {
  const auto dot = id.find('.');
  if (dot == std::string_view::npos) return false;
  auto is_word = [](std::string_view word) {
    if (word.empty() || word.front() < 'a' || word.front() > 'z') return false;
    for (char c : word)
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    return true;
  };
  return is_word(id.substr(0, dot)) && is_word(id.substr(dot + 1));
}

constexpr std::string_view check_area(std::string_view id) { return id.substr(0, id.find('.')); }

constexpr bool all_check_ids(std::span<const CheckInfo> checks) {
  for (const auto& c : checks)
    if (!is_check_id(c.id)) return false;
  return true;
}

constexpr bool unique_ids(std::span<const CheckInfo> checks) {
  for (std::size_t i = 0; i < checks.size(); ++i)
    for (std::size_t j = i + 1; j < checks.size(); ++j)
      if (checks[i].id == checks[j].id) return false;
  return true;
}

// The checks of one area sit together: an area, once left, does not come back.
constexpr bool grouped_by_area(std::span<const CheckInfo> checks) {
  for (std::size_t i = 1; i < checks.size(); ++i) {
    const auto area = check_area(checks[i].id);
    if (area == check_area(checks[i - 1].id)) continue;
    for (std::size_t j = 0; j + 1 < i; ++j)
      if (check_area(checks[j].id) == area) return false;
  }
  return true;
}

}  // namespace mcp_hints
