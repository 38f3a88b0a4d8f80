#include "mcp_hints/vocab/hint_model.hpp"

#include <algorithm>

#include "mcp_hints/json/member.hpp"

namespace mcp_hints {

using json = nlohmann::json;

namespace {

// Returns false when the value is not one the crosswalk knows (then nothing is claimed).
bool add_claims(ToolHints& hints, const Field& field, const HintSource& source, const json& value, bool defaulted) {
  const bool each = field.set_valued && value.is_array();
  if (each && value.empty()) {
    hints.unread.push_back({source, value});
    return false;
  }
  // A field is read whole or not at all: one unknown element makes the whole value unread,
  // so a malformed hint is never half-believed.
  const std::size_t before = hints.claims.size();
  const auto claim = [&](const json& element) {
    const Field::Meaning meant = field.meaning(element);
    if (!meant.values) return false;
    // The facet's name is the vocabulary's, so claims hold a view, not a copy.
    for (const auto& fv : *meant.values)
      hints.claims.push_back(
          Claim{fv.facet, meant.wildcard && fv.value == "*" ? element : fv.value, source, defaulted});
    return true;
  };
  if (each ? std::all_of(value.begin(), value.end(), claim) : claim(value)) return true;
  hints.claims.erase(hints.claims.begin() + static_cast<std::ptrdiff_t>(before), hints.claims.end());
  hints.unread.push_back({source, value});
  return false;
}

}  // namespace

std::vector<const Claim*> ToolHints::asserted(std::string_view facet) const {
  std::vector<const Claim*> out;
  for (const auto& c : claims)
    if (!c.defaulted && c.facet == facet) out.push_back(&c);
  return out;
}

const Claim* ToolHints::asserting(std::string_view facet, const json& value) const {
  for (const auto& c : claims)
    if (!c.defaulted && c.facet == facet && c.value == value) return &c;
  return nullptr;
}

const Claim* ToolHints::asserting(std::string_view facet, std::string_view text) const {
  for (const auto& c : claims)
    if (!c.defaulted && c.facet == facet && text_is(c.value, text)) return &c;
  return nullptr;
}

const Claim* ToolHints::claim_of(std::string_view vocabulary_id, std::string_view key) const {
  // The key first: keys differ from one another more often than vocabularies do.
  for (const auto& c : claims)
    if (!c.defaulted && c.source.field->key == key && c.source.field->vocabulary == vocabulary_id) return &c;
  return nullptr;
}

std::optional<json> ToolHints::resolved(std::string_view facet, const Vocabulary& vocabulary) const {
  const Facet& f = vocabulary.facet(facet);
  const bool set = f.kind == "set", integer = f.kind == "integer";
  for (bool defaults : {false, true}) {
    if (set) {
      std::optional<json> values;
      for (const auto& c : claims) {
        if (c.defaulted != defaults || c.facet != facet) continue;
        if (!values) values = json::array();
        if (std::find(values->begin(), values->end(), c.value) == values->end()) values->push_back(c.value);
      }
      if (values) return values;
      continue;
    }
    // The best claim is pointed at, and copied once: it is asked of every tool linted.
    const json* best = nullptr;
    int best_rank = -1;
    for (const auto& c : claims) {
      if (c.defaulted != defaults || c.facet != facet) continue;
      if (integer) {
        if (!best || c.value > *best) best = &c.value;
      } else if (const int rank = f.rank(c.value); !best || rank > best_rank) {
        best = &c.value;
        best_rank = rank;
      }
    }
    if (best) return *best;
  }
  return std::nullopt;
}

ToolHints read_tool_hints(const json& tool, const Vocabulary& vocabulary, std::string_view spec_revision) {
  return read_tool_hints(vocabulary.locate(tool), vocabulary, spec_revision);
}

ToolHints read_tool_hints(const LocatedFields& tool, const Vocabulary& vocabulary, std::string_view spec_revision) {
  return read_tool_hints(tool, vocabulary, vocabulary.active_revision("spec", spec_revision));
}

ToolHints read_tool_hints(const LocatedFields& tool, const Vocabulary& vocabulary, const VocabularyRevision& spec) {
  ToolHints hints;
  hints.claims.reserve(16);  // a tool's claims, defaults among them: room made once, not grown
  for (const auto& field : vocabulary.fields()) {
    if (field.is_message_field) continue;
    HintSource source{&field, field.vocabulary == "spec" ? &spec : field.latest, nullptr};
    if (field.meaningful_when) {
      const auto& cond = *field.meaningful_when;
      const json* other = tool.condition(field);
      const json& effective = (other && other->is_boolean()) ? *other : cond.when_absent;
      if (effective != cond.equals) continue;
    }
    // An unreadable value counts as absent, so the specification default (the cautious reading)
    // applies to it as to a missing one.
    const json* value = tool.value(field);
    bool read = false;
    if (value) {
      source.raw = value;
      read = add_claims(hints, field, source, *value, false);
    }
    if (!read && field.default_value) {
      source.raw = &*field.default_value;
      add_claims(hints, field, source, *field.default_value, true);
    }
  }
  return hints;
}

std::vector<HintChange> hint_changes(const ToolHints& before, const ToolHints& after, const Vocabulary& vocabulary) {
  std::vector<HintChange> out;
  for (const auto& [name, facet] : vocabulary.facets()) {
    auto b = before.resolved(name, vocabulary);
    auto a = after.resolved(name, vocabulary);
    if (b == a) continue;
    HintChange change{name, b, a, false};
    if (b && !a) {
      change.weakened = true;  // a claim (or default) the client acted on is gone
    } else if (b && a && facet.kind == "enum") {
      change.weakened = facet.rank(*a) < facet.rank(*b);
    } else if (b && a && facet.kind == "integer") {
      change.weakened = *a < *b;
    } else if (b && a && facet.kind == "set") {
      // A class of data no longer declared is a weaker claim.
      for (const auto& v : *b)
        if (std::find(a->begin(), a->end(), v) == a->end()) change.weakened = true;
    }
    out.push_back(std::move(change));
  }
  return out;
}

std::string describe_source(const HintSource& source) {
  // Written as the member is reached: annotations.inputMetadata.Destination,
  // _meta["mcp.dev/effect"], _meta["io.modelcontextprotocol/action-metadata"].requiresReview.
  const auto& tokens = source.field->tokens;
  std::string key;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i == 1 && tokens[0] == "_meta")
      key += "[\"" + tokens[i] + "\"]";
    else
      key += (i ? "." : "") + tokens[i];
  }
  return key + " (" + source.revision->ref() + ")";
}

}  // namespace mcp_hints
