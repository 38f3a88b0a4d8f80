#pragma once
// Rewriting a tool's hints into another vocabulary revision or placement: every hint the target
// can express is written in the target's keys (and removed from where it was), with a report of
// what could not be carried over. Knows nothing of the wire.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/error.hpp"

#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints {

struct TranslateOptions {
  const VocabularyRevision* target = nullptr;
  enum class Placement { annotations, meta, both } placement = Placement::annotations;
  // For a target that lives in annotations and defines no _meta home, the prefix of its mirror
  // keys in _meta (com.example -> _meta["com.example/riskLevel"]).
  std::string meta_prefix;
  std::string spec_revision{kDefaultSpecRevision};
};

// Something the target cannot say as the source said it.
struct TranslationLoss {
  std::string key;      // the source key, as reached ("_meta[\"mcp.dev/effect\"]")
  std::string message;  // what was lost and what was done instead
};

struct TranslatedTool {
  nlohmann::json tool;
  std::vector<TranslationLoss> losses;
  std::size_t written = 0;  // target keys written
};

// A placement by its name: "annotations", "meta" or "both" (nullopt for any other), and back.
std::optional<TranslateOptions::Placement> placement_named(std::string_view name);
std::string placement_name(TranslateOptions::Placement placement);

// Throws OptionError when the options cannot work: naming "target" (none, the specification's, a
// message-only one) or "meta_prefix" (a _meta placement without a home or a prefix).
void validate_translate_options(const TranslateOptions& options);
TranslatedTool translate_tool(const nlohmann::json& tool, const TranslateOptions& options,
                              const Vocabulary& vocabulary = Vocabulary::builtin());

}  // namespace mcp_hints
