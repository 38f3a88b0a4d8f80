#pragma once
// The registry of lint checks: each a stable id, a level, the proposal section it enforces, and
// a function that inspects one tool.
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/checks/findings.hpp"
#include "mcp_hints/vocab/hint_model.hpp"
#include "mcp_hints/json/schema_registry.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints {

// Tool checks judge one tool of a catalog (lint and check-server); server checks judge what a
// live server did (check-server only).
enum class Scope { tool, server };

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
  const ToolHints& hints;
  const Vocabulary& vocabulary;
  const SchemaRegistry& schemas;
  std::string_view spec_revision;
  const std::vector<const VocabularyRevision*>& detected;  // the revisions whose keys the tool carries
  const std::vector<const VocabularyRevision*>& pinned;    // --vocab NAME@REV: the revisions a catalog must use
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

// Every tool check, in a stable order.
std::span<const Check> lint_checks();
const Check* find_check(std::string_view id);
// Every server check (run by check-server), in a stable order.
std::span<const CheckInfo> server_checks();
// The one registry: tool checks then server checks.
std::vector<CheckInfo> all_checks();
const CheckInfo* find_check_info(std::string_view id);

}  // namespace mcp_hints
