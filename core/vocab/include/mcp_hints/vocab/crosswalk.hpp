#pragma once
// The crosswalk for spec editors: every field of every vocabulary revision with where it lives,
// its type, its values and the facets they mean; where vocabularies overlap (same meaning,
// different key) and conflict (same key, different meaning); what changed between two
// revisions; and what a new draft schema duplicates or collides with. Knows nothing of the wire.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints {

struct CrosswalkRow {
  const VocabularyRevision* revision = nullptr;
  const Field* field = nullptr;
  std::string placement;  // "tool annotations", "tool _meta", "result _meta", "request params._meta"
  std::string type;       // from the revision's schema: "boolean", "string", "string or array of string" ...
  std::vector<std::pair<std::string, std::string>> values;  // value as written -> "facet=value" (or "" when unmapped)
  std::vector<std::string> facets;                          // the facets its values mean
  std::vector<std::string> overlaps;   // other revisions' keys with the same facet ("risk-metadata@sep-2793 category")
  std::vector<std::string> conflicts;  // notes of same-key, different-meaning conflicts it is part of
  // Message fields: how a claim travels ("same-or-higher, MUST"), and how each of its facets
  // stands to the facets tools declare ("at most result-sensitivity: policy-hints@seed
  // mcp.dev/resultSensitivity"); tool fields: the message claims their facets bound.
  std::string propagation;
  std::vector<std::string> relations;
};

// One row per field per revision that has it, in the crosswalk's order.
std::vector<CrosswalkRow> crosswalk_rows(const Vocabulary& vocabulary);

// The rule the suite applies when hints disagree, and why.
const char* precedence_rule();
// How message-scope claims combine, travel and stand to a tool's declaration, and why.
const char* message_scope_rule();

struct FieldChange {
  std::string key;            // the field (the new key for a rename)
  std::string before, after;  // old and new key, type or values, in words
};

struct RevisionDiff {
  std::string from, to;                     // refs
  std::vector<std::string> added, removed;  // keys
  std::vector<FieldChange> renamed;         // same facets, another key
  std::vector<FieldChange> retyped;         // same field, another type
  std::vector<FieldChange> values;          // same field, enum values added or removed
  std::vector<std::string> notes;           // what changed besides fields (the _meta reservation)
  bool empty() const {
    return added.empty() && removed.empty() && renamed.empty() && retyped.empty() && values.empty() && notes.empty();
  }
};

// What changed from one revision to another (of one vocabulary, or one that replaced another).
RevisionDiff diff_revisions(const Vocabulary& vocabulary, const VocabularyRevision& from, const VocabularyRevision& to);

struct DraftFinding {
  std::string kind;     // "duplicate-facet", "value-collision", "meta-key"
  std::string pointer;  // in the draft schema
  std::string message;
};

// Reads a draft schema for tool hints (fields under properties.annotations and
// properties._meta, or at its root) and reports what duplicates an existing facet, enum values
// that already mean something else in another vocabulary, and _meta keys that break the
// specification's naming rule (under the latest revision's reservation). Throws InputError for
// a document that is not a draft of hints: not an object, no field declared, or a field whose
// schema is neither an object nor a boolean.
std::vector<DraftFinding> check_draft_schema(const Vocabulary& vocabulary, const nlohmann::json& draft);

}  // namespace mcp_hints
