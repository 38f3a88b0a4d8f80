#pragma once
// The normalized hint model: every hint of every vocabulary on a tool, as claims on facets,
// each remembering which key of which proposal asserted it. Knows nothing of the wire.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints {

// Where a claim comes from. Points into the tool and the vocabulary it was read with, which
// must outlive it.
struct HintSource {
  const Field* field = nullptr;                  // the crosswalk entry
  const VocabularyRevision* revision = nullptr;  // e.g. risk-metadata@sep-2793
  const nlohmann::json* raw = nullptr;           // the field's value as given (or its default)

  // Where the value stands, relative to the tool.
  const std::string& pointer() const { return field->pointer_text; }
};

struct Claim {
  std::string_view facet;  // a facet name owned by the vocabulary
  nlohmann::json value;
  HintSource source;
  bool defaulted = false;  // a specification default, not something the server said
};

// A hint whose value the crosswalk does not know (wrong type or value): treated as absent.
struct UnreadHint {
  HintSource source;
  nlohmann::json value;
};

class ToolHints {
 public:
  std::vector<Claim> claims;
  std::vector<UnreadHint> unread;

  // Claims the server made on a facet (specification defaults excluded).
  std::vector<const Claim*> asserted(std::string_view facet) const;
  // The first asserted claim of a facet with this value, if any.
  const Claim* asserting(std::string_view facet, const nlohmann::json& value) const;
  // The same for a string value, compared as text.
  const Claim* asserting(std::string_view facet, std::string_view text) const;
  const Claim* asserting(std::string_view facet, const char* text) const {
    return asserting(facet, std::string_view(text));
  }
  // The claim a given field made, if that field asserted anything.
  const Claim* claim_of(std::string_view vocabulary_id, std::string_view key) const;
  // The value a client should act on: the most cautious asserted claim, else the default.
  std::optional<nlohmann::json> resolved(std::string_view facet, const Vocabulary& vocabulary) const;
};

// Reads every vocabulary's hints from one tool object (any JSON value is accepted).
ToolHints read_tool_hints(const nlohmann::json& tool, const Vocabulary& vocabulary, std::string_view spec_revision);
// The same, of a tool the vocabulary has located.
ToolHints read_tool_hints(const LocatedFields& tool, const Vocabulary& vocabulary, std::string_view spec_revision);
// The same, the specification's revision looked up before (Vocabulary::active_revision("spec", ...)):
// a linter reads every tool of a catalog under one.
ToolHints read_tool_hints(const LocatedFields& tool, const Vocabulary& vocabulary, const VocabularyRevision& spec);

// How one facet's resolved value differs between two readings of a tool.
struct HintChange {
  std::string facet;
  std::optional<nlohmann::json> before, after;  // nullopt: no claim
  bool weakened = false;  // the value a client acts on became less cautious (or the claim vanished)
};

// Every facet whose resolved value differs between two readings of the same tool.
std::vector<HintChange> hint_changes(const ToolHints& before, const ToolHints& after, const Vocabulary& vocabulary);

// "readOnlyHint" or "risk-metadata riskLevel" style name of the key behind a claim, for messages.
std::string describe_source(const HintSource& source);

}  // namespace mcp_hints
