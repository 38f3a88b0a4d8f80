#include "mcp_hints/vocab/translate.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/hint_model.hpp"

namespace mcp_hints {

using json = nlohmann::json;

namespace {

using Tokens = std::vector<std::string>;

std::vector<const Field*> tool_fields(const Vocabulary& vocabulary, const VocabularyRevision& revision) {
  std::vector<const Field*> out;
  for (const Field* f : vocabulary.fields_of(revision))
    if (!f->is_message_field) out.push_back(f);
  return out;
}

// An MCP extension that holds, in _meta, the same members a revision puts in annotations
// (SEP-1913's inputMetadata -> io.modelcontextprotocol/action-metadata): its home in _meta.
std::optional<Tokens> meta_home(const Field& field, const Vocabulary& vocabulary) {
  if (field.tokens.size() < 2 || field.tokens.front() != "annotations") return std::nullopt;
  const Tokens rest(field.tokens.begin() + 1, field.tokens.end());
  for (const auto& r : vocabulary.revisions()) {
    if (r.extension.empty()) continue;
    for (const Field* f : tool_fields(vocabulary, r))
      if (f->tokens.size() == rest.size() + 2 && f->tokens[0] == "_meta" && f->tokens[1] == r.extension &&
          Tokens(f->tokens.begin() + 2, f->tokens.end()) == rest)
        return f->tokens;
  }
  return std::nullopt;
}

// Where a target field is written under the chosen placement.
std::vector<Tokens> destinations(const Field& field, const TranslateOptions& options, const Vocabulary& vocabulary) {
  if (field.tokens.empty() || field.tokens.front() != "annotations")
    return {field.tokens};  // _meta fields stay in _meta
  std::vector<Tokens> out;
  if (options.placement != TranslateOptions::Placement::meta) out.push_back(field.tokens);
  if (options.placement != TranslateOptions::Placement::annotations) {
    if (auto home = meta_home(field, vocabulary)) {
      out.push_back(*home);
    } else {
      Tokens mirror = {"_meta", options.meta_prefix + "/" + field.tokens[1]};
      mirror.insert(mirror.end(), field.tokens.begin() + 2, field.tokens.end());
      out.push_back(mirror);
    }
  }
  return out;
}

// The scopes of a {"regulated": {"scopes": [...]}} in a raw value, if any.
json regulated_scopes(const json* raw) {
  if (!raw) return json();
  auto from = [](const json& v) -> json {
    if (v.is_object() && v.contains("regulated") && v["regulated"].is_object() && v["regulated"].contains("scopes"))
      return v["regulated"]["scopes"];
    return json();
  };
  if (raw->is_array())
    for (const auto& v : *raw)
      if (auto s = from(v); !s.is_null()) return s;
  return from(*raw);
}

// The value a target field writes for a facet value, if one of its values means exactly that.
std::optional<json> inverse(const Field& field, std::string_view facet, const json& value, const json* raw,
                            std::string& note) {
  // A value as written that the target has too, meaning the same, is kept (SEP-2793's category
  // "read" stays "read", not the "observe" that means the same effect).
  if (raw)
    for (const json& w : raw->is_array() ? *raw : json::array({*raw})) {
      if (!w.is_string()) continue;
      auto it = field.map.find(w.get<std::string>());
      if (it != field.map.end() && it->second.size() == 1 && it->second[0].facet == facet &&
          it->second[0].value == value)
        return w;
    }
  for (const auto& [key, targets] : field.map) {
    if (targets.size() != 1 || targets[0].facet != facet) continue;
    if (targets[0].value == "*") return value;
    if (targets[0].value != value) continue;
    if (key == "true" || key == "false") return key == "true";
    if (key.size() > 2 && key.front() == '{' && key.back() == '}') {  // {regulated}: an object with scopes
      json scopes = regulated_scopes(raw);
      if (scopes.is_null()) {
        scopes = json::array({"unspecified"});
        note = "the source names no regulatory scopes; wrote scopes [\"unspecified\"]";
      }
      return json{{key.substr(1, key.size() - 2), {{"scopes", scopes}}}};
    }
    if (!regulated_scopes(raw).is_null() && value == "regulated")
      note = "the target cannot carry the regulatory scopes " + regulated_scopes(raw).dump();
    return json(key);
  }
  return std::nullopt;
}

json* at_path(json& root, const Tokens& tokens, bool create) {
  json* at = &root;
  for (const auto& t : tokens) {
    if (!at->is_object()) {
      if (!create || !at->is_null()) return nullptr;
      *at = json::object();
    }
    auto it = at->find(t);
    if (it == at->end()) {
      if (!create) return nullptr;
      it = at->emplace(t, json()).first;
    }
    at = &*it;
  }
  return at;
}

// Removes the member at tokens, then every container left empty on the way up.
void erase_path(json& root, const Tokens& tokens) {
  for (std::size_t depth = tokens.size(); depth > 0; --depth) {
    json* parent = at_path(root, Tokens(tokens.begin(), tokens.begin() + static_cast<long>(depth) - 1), false);
    if (!parent || !parent->is_object()) return;
    const auto& key = tokens[depth - 1];
    const bool emptied = parent->contains(key) && (*parent)[key].is_object() && (*parent)[key].empty();
    if (depth != tokens.size() && !emptied) return;
    parent->erase(key);
  }
}

}  // namespace

std::optional<TranslateOptions::Placement> placement_named(std::string_view name) {
  if (name == "annotations") return TranslateOptions::Placement::annotations;
  if (name == "meta") return TranslateOptions::Placement::meta;
  if (name == "both") return TranslateOptions::Placement::both;
  return std::nullopt;
}

std::string placement_name(TranslateOptions::Placement placement) {
  switch (placement) {
    case TranslateOptions::Placement::meta: return "meta";
    case TranslateOptions::Placement::both: return "both";
    case TranslateOptions::Placement::annotations: break;
  }
  return "annotations";
}

void validate_translate_options(const TranslateOptions& options) {
  if (!options.target) throw OptionError("target", "no target revision");
  const auto& vocabulary = Vocabulary::builtin();
  const auto& target = *options.target;
  if (target.id == "spec")
    throw OptionError("target", target.ref() +
                                    " is the specification's: its hints are the baseline every catalog keeps; "
                                    "translate into a proposal's revision");
  const auto fields = tool_fields(vocabulary, target);
  if (fields.empty())
    throw OptionError("target", target.ref() + " has no tool hints (it annotates requests and results)");
  if (options.placement == TranslateOptions::Placement::annotations) return;
  for (const Field* f : fields)
    if (!f->tokens.empty() && f->tokens.front() == "annotations" && !meta_home(*f, vocabulary)) {
      if (options.meta_prefix.empty())
        throw OptionError("meta_prefix",
                          target.ref() + " defines no _meta home for " + f->key +
                              ": its mirror in _meta needs a prefix of your own (reverse-DNS, e.g. com.example)");
      const std::string probe = options.meta_prefix + "/x";
      if (options.meta_prefix.find('/') != std::string::npos || meta_key_reserved("second-label", probe) ||
          meta_key_reserved("any-label", probe))
        throw OptionError("meta_prefix",
                          "'" + options.meta_prefix +
                              "' is not a prefix of your own (no slash, no mcp or modelcontextprotocol label)");
      return;
    }
}

TranslatedTool translate_tool(const json& tool, const TranslateOptions& options, const Vocabulary& vocabulary) {
  TranslatedTool out{tool, {}, 0};
  if (!tool.is_object()) return out;
  const auto& target = *options.target;
  const auto target_fields = tool_fields(vocabulary, target);
  const ToolHints hints = read_tool_hints(tool, vocabulary, options.spec_revision);

  // Every claim of a proposal (the specification's hints stay as they are), by facet.
  std::map<std::string, std::vector<const Claim*>, std::less<>> by_facet;
  std::set<const Field*> sources;
  for (const auto& c : hints.claims) {
    if (c.defaulted || c.source.field->vocabulary == "spec") continue;
    by_facet[std::string(c.facet)].push_back(&c);
    sources.insert(c.source.field);
  }
  std::set<const Field*> kept;  // source fields with something the target did not take
  std::set<const Claim*> taken, reported;
  auto lose = [&](const Claim* c, std::string message) {
    out.losses.push_back({describe_source(c->source), std::move(message)});
    reported.insert(c);
  };
  // A key the target is meant to take over (same vocabulary, one it replaced or that replaced it,
  // or one that shares a facet with it) but cannot express whole: said. Other vocabularies' keys
  // are left alone, and not a loss.
  auto related = [&](const Field* source) {
    const auto* rev = source->latest;
    if (rev->id == target.id) return true;
    for (const auto& old : target.supersedes)
      if (old == rev->ref()) return true;
    for (const auto& old : rev->supersedes)
      if (old == target.ref()) return true;
    const auto theirs = source->facets();
    return std::any_of(target_fields.begin(), target_fields.end(), [&](const Field* ft) {
      const auto ours = ft->facets();
      return std::any_of(ours.begin(), ours.end(), [&](const std::string& f) {
        return std::find(theirs.begin(), theirs.end(), f) != theirs.end();
      });
    });
  };
  // A value the crosswalk cannot read is not translated: it stays where it was, said, so a member
  // left behind (and what its schema then misses) is never a surprise.
  std::set<const Field*> unread;
  for (const auto& u : hints.unread) {
    if (!u.source.field || u.source.field->vocabulary == "spec" || !related(u.source.field)) continue;
    unread.insert(u.source.field);
    out.losses.push_back({describe_source(u.source), value_text(u.value) + " is not a value of " + u.source.field->key +
                                                         " the crosswalk knows: kept as it was, not translated"});
  }
  json result = tool;
  for (const Field* ft : target_fields) {
    std::vector<json> written;
    for (const auto& facet : ft->facets()) {
      auto it = by_facet.find(facet);
      if (it == by_facet.end()) continue;
      const Facet& f = vocabulary.facet(facet);
      // Distinct values, most cautious first.
      std::vector<const Claim*> claims = it->second;
      std::stable_sort(claims.begin(), claims.end(),
                       [&](const Claim* a, const Claim* b) { return f.rank(a->value) > f.rank(b->value); });
      std::vector<json> values;
      for (const Claim* c : claims) {
        std::string note;
        auto v = inverse(*ft, facet, c->value, c->source.raw, note);
        if (!v) {
          lose(c, "no value of " + ft->key + " (" + target.ref() + ") means " + facet + " " + value_text(c->value) +
                      ": kept as it was");
          kept.insert(c->source.field);
          continue;
        }
        if (!note.empty()) lose(c, note);
        if (!ft->set_valued && !values.empty() && *v != values.front()) {
          lose(c, ft->key + " (" + target.ref() + ") takes one value: wrote " + value_text(values.front()) +
                      " (the most cautious), not " + value_text(*v));
          if (c->source.field->latest != &target) kept.insert(c->source.field);
          continue;
        }
        if (std::find(values.begin(), values.end(), *v) == values.end()) values.push_back(*v);
        taken.insert(c);
      }
      written.insert(written.end(), values.begin(), values.end());
    }
    if (written.empty()) continue;
    // The target's schema decides the shape: a key that is always an array stays one.
    const json value = written.size() == 1 && !ft->array_only ? written.front() : json(written);
    for (const auto& tokens : destinations(*ft, options, vocabulary)) {
      json* slot = at_path(result, tokens, true);
      if (!slot) {
        out.losses.push_back({ft->key, "cannot write " + ft->key + ": a member on its way is not an object"});
        continue;
      }
      *slot = value;
      ++out.written;
    }
  }
  // The target's own keys in annotations leave when the placement is _meta only.
  if (options.placement == TranslateOptions::Placement::meta)
    for (const Field* ft : target_fields)
      if (!ft->tokens.empty() && ft->tokens.front() == "annotations" && !unread.count(ft))
        erase_path(result, ft->tokens);
  // A source key whose every claim the target took is moved, not copied.
  for (const Field* source : sources) {
    if (source->latest == &target || kept.count(source) || unread.count(source)) continue;
    const bool all_taken = std::all_of(hints.claims.begin(), hints.claims.end(), [&](const Claim& c) {
      return c.source.field != source || c.defaulted || taken.count(&c);
    });
    if (all_taken) {
      erase_path(result, source->tokens);
      continue;
    }
    if (!related(source)) continue;
    for (const auto& c : hints.claims)  // what nothing in the target means
      if (c.source.field == source && !c.defaulted && !taken.count(&c) && !reported.count(&c))
        lose(&c, target.ref() + " has no field for " + std::string(c.facet) + " (" + value_text(c.value) +
                     "): kept as it was");
  }
  out.tool = std::move(result);
  return out;
}

}  // namespace mcp_hints
