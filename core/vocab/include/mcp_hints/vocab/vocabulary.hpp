#pragma once
// The crosswalk (schemas/vocabulary.json) as typed data: facets, vocabulary revisions, fields.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/member.hpp"

namespace mcp_hints {

// The specification revision a tool's hints are read under when nobody chooses one: the newest of
// the session era, the one the SDKs and clients negotiate today. The tool annotations are the same
// in every revision; what changes is the rule for _meta key names.
inline constexpr std::string_view kDefaultSpecRevision = "2025-11-25";

// The value at a path of member names below a JSON value, or null (any value is safe to walk).
const nlohmann::json* find_member(const nlohmann::json& root, const std::vector<std::string>& tokens,
                                  std::size_t depth = SIZE_MAX);

struct Facet {
  std::string name;
  std::string kind;                    // "enum", "set" or "integer"
  std::vector<nlohmann::json> values;  // least to most cautious ("enum", "set")
  std::string description;
  std::optional<int> minimum, maximum;  // "integer": the range
  std::string scope = "tool";           // who claims it: "tool", "message" or "tool+message"

  // Position of a value in the caution order; -1 when the value is not one of the facet's.
  int rank(const nlohmann::json& value) const;
};

struct FacetValue {
  std::string facet;
  nlohmann::json value;  // "*" means: the field's own value
};

struct Condition {
  std::vector<std::string> tokens;  // of the other field's pointer
  nlohmann::json equals;
  nlohmann::json when_absent;  // the specification default of the other field
};

// How a message-scope claim travels: "same-or-higher" (carried on every later request at its
// level or a more cautious one), "union" (sets only grow), "within-result" (folded over a
// result's content blocks, strengthened never weakened) or "none"; with the proposal's word.
struct Propagation {
  std::string rule, level, words;
};

struct Field {
  std::string vocabulary;
  std::string key;
  std::string pointer_text;
  std::vector<std::string> tokens;  // the pointer's reference tokens, unescaped
  std::string section;
  std::optional<nlohmann::json> default_value;  // the specification's default, if any
  std::optional<Condition> meaningful_when;
  bool set_valued = false;                                        // a value or an array of values
  bool array_only = false;                                        // ... always an array, even of one value
  std::map<std::string, std::vector<FacetValue>, NameOrder> map;  // by value ("true", "read", "*")
  bool is_message_field = false;                                  // lives on requests/results, not on tools
  std::vector<std::string> carried_on;                // message fields: "request", "result", "content block"
  std::optional<Propagation> propagation;             // message fields: how a claim travels
  std::vector<std::string> revisions;                 // the revisions of its vocabulary that have it (empty: all)
  const struct VocabularyRevision* latest = nullptr;  // the newest revision that has it

  bool in_revision(std::string_view revision) const;
  // The facets its values mean, in the order the map first names them.
  std::vector<std::string> facets() const;

  // What one element of this field's value means, as the crosswalk maps it: the facet values of
  // its entry (null when the value is unknown); `wildcard` when that entry is "*", whose "*"
  // values stand for the element itself.
  struct Meaning {
    const std::vector<FacetValue>* values = nullptr;
    bool wildcard = false;
  };
  Meaning meaning(const nlohmann::json& element) const;
  // The facet values one element of this field's value asserts; nullopt if the value is unknown.
  std::optional<std::vector<FacetValue>> facet_values(const nlohmann::json& element) const;
};

struct VocabularyRevision {
  std::string id;
  std::string revision;
  std::string title;
  std::string status;
  std::string source;
  std::string schema;                   // file name in schemas/
  std::string meta_reservation;         // spec only: "any-label" or "second-label"
  std::string scope;                    // "tool", "message" or "tool+message"
  std::vector<std::string> supersedes;  // refs of the revisions it replaced (SEP-1913: the seeds)
  std::string extension;                // an MCP extension's _meta key (io.modelcontextprotocol/...), if it is one
  // The strongest word the proposal uses for what a client does with its values ("MUST", "SHOULD",
  // "MAY"), and those words: a check that rests on this revision's values is no stronger.
  std::string client_level = "SHOULD";
  std::string client_words;
  std::string client_basis;  // the sentence of the traceability data that sets client_level (DOCUMENT/ID)

  std::string ref() const { return id + "@" + revision; }
};

struct VocabularyRevision;

// Where one tool carries the crosswalk's fields: what Vocabulary::locate found in one walk of the
// tool's members. Valid while the tool and the vocabulary are.
class LocatedFields {
 public:
  // The field's value in the tool, or null (what find_member(tool, field.tokens) finds).
  const nlohmann::json* value(const Field& field) const { return slots_[2 * index(field)]; }
  // The value of the member the field's meaningful_when names, or null.
  const nlohmann::json* condition(const Field& field) const { return slots_[2 * index(field) + 1]; }
  // Whether the tool has the field's first member and, inside it, its second (one member: that one).
  bool mentioned(const Field& field) const { return mentioned_[index(field)]; }

 private:
  friend class Vocabulary;
  std::size_t index(const Field& field) const { return static_cast<std::size_t>(&field - fields_); }
  const Field* fields_ = nullptr;             // the vocabulary's fields, which the indexes count from
  std::vector<const nlohmann::json*> slots_;  // two a field: its value, its condition's value
  std::vector<char> mentioned_;               // one a field
};

// Whether a _meta key's prefix is one the specification reserves for MCP under a revision's rule
// ("any-label": mcp or modelcontextprotocol before the last label, as 2025-06-18; "second-label":
// as the second label, as 2025-11-25 and later).
bool meta_key_reserved(std::string_view rule, std::string_view key);

// Same key, different meaning, as the crosswalk records it.
struct Conflict {
  std::vector<std::string> keys;  // "vocabulary:key"
  std::string facet;
  std::string note;
};

// How a message-scope facet stands to a facet a tool declares: "at-most" (a message's claim never
// exceeds the tool's most cautious declared value), "implies" (the tool facet puts a floor under
// the other), "supports", "distinct" or "none"; the checks that enforce it.
struct Relation {
  std::string message_facet, tool_facet, rule, words;
  std::vector<std::string> checks;
};

class Vocabulary {
 public:
  // The crosswalk compiled into the library.
  static const Vocabulary& builtin();
  explicit Vocabulary(const nlohmann::json& document);
  Vocabulary(const Vocabulary&) = delete;  // fields point at its revisions
  Vocabulary& operator=(const Vocabulary&) = delete;

  const std::map<std::string, Facet, std::less<>>& facets() const { return facets_; }
  const Facet& facet(std::string_view name) const;
  const std::vector<VocabularyRevision>& revisions() const { return revisions_; }
  const std::vector<Field>& fields() const { return fields_; }
  const std::vector<Conflict>& conflicts() const { return conflicts_; }
  const std::vector<Relation>& relations() const { return relations_; }
  const VocabularyRevision* revision(std::string_view id, std::string_view revision) const;
  std::vector<std::string> spec_revisions() const;
  // The specification's revision whose tools a server speaking `protocol_version` lists: the
  // latest of spec_revisions() that is not later (revisions are dates), else the earliest.
  std::string spec_revision_spoken(std::string_view protocol_version) const;
  // Where a tool (any JSON value) carries each field: one walk of its members beside the fields'
  // member names, instead of a look-up per field; what follows asks it, not the tool.
  LocatedFields locate(const nlohmann::json& tool) const;
  // Whether a tool carries any member of a vocabulary (its fields' first two pointer tokens).
  bool mentions(const LocatedFields& tool, std::string_view vocabulary_id) const;
  // Whether a tool carries a tool-level field of this revision (the field itself, so the seed's
  // inputMetadata.Destination and SEP-1913's inputMetadata.destination are told apart).
  // The revision is one of this vocabulary's.
  bool uses(const LocatedFields& tool, const VocabularyRevision& revision) const;
  // The revisions whose tool-level keys a tool carries, in the crosswalk's order (the
  // specification excluded: its revision is chosen, not detected).
  std::vector<const VocabularyRevision*> detect(const LocatedFields& tool) const;
  // "id@revision" (or a bare id with a single revision) to a revision; nullptr if unknown.
  const VocabularyRevision* find(std::string_view ref) const;
  // Every revision's ref ("id@revision"), in the crosswalk's order.
  std::vector<std::string> refs() const;
  // The refs of the proposals' tool hints: neither the specification's own nor message-scoped.
  std::vector<std::string> tool_hint_refs() const;
  // Why `find` finds nothing for `ref` among the refs `known` (those a command accepts): a bare
  // id of several revisions lists them; an unknown revision of a known id lists its revisions;
  // anything else says "did you mean" when one is close, and lists what is known.
  std::string not_found(std::string_view ref, std::span<const std::string> known) const;
  // The fields a revision has.
  std::vector<const Field*> fields_of(const VocabularyRevision& revision) const;
  // The fields of a vocabulary, of all its revisions (none for an unknown id).
  std::span<const Field* const> vocabulary_fields(std::string_view vocabulary_id) const;
  // The revision of a vocabulary a lint run applies (the chosen one for the specification).
  const VocabularyRevision& active_revision(std::string_view id, std::string_view spec_revision) const;
  const VocabularyRevision& active_revision(const Field& field, std::string_view spec_revision) const;
  // The lowest result-sensitivity level a returned data class allows, if it constrains one.
  std::optional<std::string> minimum_result_sensitivity(std::string_view data_class) const;

 private:
  std::map<std::string, Facet, std::less<>> facets_;
  std::vector<VocabularyRevision> revisions_;
  std::vector<Field> fields_;
  // By vocabulary id: a few, looked up for every tool by several checks, so searched in a list
  // (names of other lengths passed over at once) rather than a map's nodes.
  std::vector<std::pair<std::string, std::vector<const Field*>>> fields_by_vocabulary_;
  std::vector<std::vector<const Field*>> tool_fields_by_revision_;  // like revisions_: its tool-level fields
  // The fields' member names as a tree: a node is a path of names from the tool; its children are
  // in the order of a JSON object's members, so one walk of both pairs them (locate).
  struct MemberNode {
    std::vector<std::pair<std::string, std::uint32_t>> children;  // name, node
    std::vector<std::uint32_t> slots;                             // LocatedFields slots the path ends
    std::vector<std::uint32_t> mentions;                          // fields whose first two names end here
  };
  std::vector<MemberNode> member_tree_;
  std::uint32_t member_node(const std::vector<std::string>& tokens, std::size_t depth);
  void locate_below(std::uint32_t node, const nlohmann::json& value, LocatedFields& out) const;
  std::vector<Conflict> conflicts_;
  std::vector<Relation> relations_;
  std::map<std::string, std::string> data_class_minimum_;
};

}  // namespace mcp_hints
