#include "mcp_hints/vocab/crosswalk.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/schema_registry.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"

namespace mcp_hints {

using json = nlohmann::json;

namespace {

// The published schemas, by file name and by $id, for walking to a field's definition.
const json* published_schema(const std::string& name_or_id) { return published_schemas().document(name_or_id); }

// A schema node with its document, so local $refs resolve against the right one.
struct Node {
  const json* node = nullptr;
  const json* doc = nullptr;
};

// Follows $refs: local ones in the node's document, "urn:...#/..." ones (to another published
// schema) when `across` is set; a draft's refs stay local.
Node deref(Node n, bool across = true) {
  for (int hops = 0; n.node && n.node->is_object() && n.node->contains("$ref") && hops < 32; ++hops) {
    const std::string ref = (*n.node)["$ref"].is_string() ? (*n.node)["$ref"].get<std::string>() : "";
    const auto hash = ref.find('#');
    if (hash == std::string::npos) return {};
    if (hash > 0) {
      if (!across) return {};
      n.doc = published_schema(ref.substr(0, hash));
      if (!n.doc) return {};
    }
    try {
      n.node = &n.doc->at(json::json_pointer(ref.substr(hash + 1)));
    } catch (const json::exception&) {
      return {};
    }
  }
  return n;
}

// The schema of a member: through properties, and into allOf/oneOf branches that have it.
Node member(Node n, const std::string& name, bool across = true) {
  n = deref(n, across);
  if (!n.node || !n.node->is_object()) return {};
  if (n.node->contains("properties") && (*n.node)["properties"].contains(name))
    return deref({&(*n.node)["properties"][name], n.doc}, across);
  for (const char* group : {"allOf", "oneOf", "anyOf"})
    if (n.node->contains(group))
      for (const auto& branch : (*n.node)[group])
        if (Node found = member({&branch, n.doc}, name, across); found.node) return found;
  return {};
}

std::string describe(Node n, int depth = 0, bool across = true) {
  n = deref(n, across);
  if (!n.node || !n.node->is_object() || depth > 6) return "any";
  const json& s = *n.node;
  for (const char* group : {"oneOf", "anyOf"}) {
    if (!s.contains(group)) continue;
    std::vector<std::string> parts;
    for (const auto& branch : s[group]) {
      const std::string d = describe({&branch, n.doc}, depth + 1, across);
      if (std::find(parts.begin(), parts.end(), d) == parts.end()) parts.push_back(d);
    }
    return join(parts, " or ");
  }
  if (s.contains("const")) return std::string(s["const"].type_name());
  if (s.contains("type") && s["type"].is_array()) {  // ["string", "boolean"]: one of several types
    std::vector<std::string> types;
    for (const auto& t : s["type"])
      if (t.is_string()) types.push_back(t.get<std::string>());
    if (!types.empty()) return join(types, " or ");
  }
  std::string type = s.contains("type") && s["type"].is_string() ? s["type"].get<std::string>() : "";
  if (type.empty() && s.contains("enum") && !s["enum"].empty()) type = s["enum"][0].type_name();
  if (type == "array") {
    const std::string items =
        s.contains("items") ? describe({&s["items"], n.doc}, depth + 1, across) : std::string("any");
    return "array of " + (items.find(" or ") != std::string::npos ? "(" + items + ")" : items);
  }
  if (type == "object" && s.contains("required") && s["required"].size() == 1 && s.contains("properties"))
    return "object {" + s["required"][0].get<std::string>() + "}";
  if ((type == "integer" || type == "number") && s.contains("minimum") && s.contains("maximum"))
    return type + " " + s["minimum"].dump() + "-" + s["maximum"].dump();
  return type.empty() ? "any" : type;
}

void collect_enum(Node n, std::vector<std::string>& out, int depth = 0, bool across = true) {
  n = deref(n, across);
  if (!n.node || !n.node->is_object() || depth > 6) return;
  const json& s = *n.node;
  if (s.contains("enum"))
    for (const auto& v : s["enum"]) {
      const std::string text = v.is_string() ? v.get<std::string>() : v.dump();
      if (std::find(out.begin(), out.end(), text) == out.end()) out.push_back(text);
    }
  for (const char* group : {"oneOf", "anyOf", "allOf"})
    if (s.contains(group))
      for (const auto& branch : s[group]) collect_enum({&branch, n.doc}, out, depth + 1, across);
  if (s.contains("items")) collect_enum({&s["items"], n.doc}, out, depth + 1, across);
  if (s.contains("required") && s["required"].size() == 1 && s.contains("properties") &&
      s.value("type", "") == "object")
    out.push_back("{" + s["required"][0].get<std::string>() + "}");
}

// The schema node of a field in a revision's schema.
Node field_node(const Field& field, const VocabularyRevision& revision) {
  const json* doc = published_schema(revision.schema);
  if (!doc) return {};
  Node n{doc, doc};
  for (const auto& token : field.tokens) {
    n = member(n, token);
    if (!n.node) return {};
  }
  return n;
}

std::string placement_of(const Field& field) {
  if (field.is_message_field) {
    std::vector<std::string> where;
    for (const auto& on : field.carried_on) where.push_back(on == "request" ? "request params._meta" : on + " _meta");
    return where.empty() ? "result _meta" : join(where, " and ");
  }
  return field.tokens.empty() ? "" : field.tokens.front() == "_meta" ? "tool _meta" : "tool " + field.tokens.front();
}

// Value as written -> "facet=value", from the map, else the schema's enum (unmapped). A message
// field's value is a floor ("facet ≥ value") on an ordered scale; a value that claims nothing
// says so.
std::vector<std::pair<std::string, std::string>> values_of(const Field& field, const VocabularyRevision& revision,
                                                           const Vocabulary& vocabulary) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [value, targets] : field.map) {
    std::string meaning = targets.empty() ? "no claim" : "";
    for (const auto& t : targets) {
      const Facet& facet = vocabulary.facet(t.facet);
      const bool floor = field.is_message_field && facet.kind == "enum" && !t.value.is_boolean();
      meaning += (meaning.empty() ? "" : ", ") + t.facet + (floor ? " ≥ " : "=") +
                 (t.value == "*"        ? std::string("the value")
                  : t.value.is_string() ? t.value.get<std::string>()
                                        : t.value.dump());
    }
    out.emplace_back(value, meaning);
  }
  // A message field's claims read from least to most cautious (low, medium, high), not alphabetically.
  if (field.is_message_field) {
    auto rank = [&](const std::string& value) {
      const auto& targets = field.map.at(value);
      return targets.empty() ? -1 : vocabulary.facet(targets.front().facet).rank(targets.front().value);
    };
    std::stable_sort(out.begin(), out.end(),
                     [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); });
  }
  if (out.empty()) {
    std::vector<std::string> enums;
    collect_enum(field_node(field, revision), enums);
    for (const auto& e : enums) out.emplace_back(e, "");
  }
  return out;
}

// A key as a name to compare: its last segment, lower case, letters and digits only, without
// a trailing "hint" (destructiveHint ~ destructive).
std::string normalized_name(const std::string& key) {
  std::string last = key.substr(key.find_last_of("./") == std::string::npos ? 0 : key.find_last_of("./") + 1);
  std::string out;
  for (char c : ascii_lower(last))
    if (std::isalnum(static_cast<unsigned char>(c))) out += c;
  if (out.size() > 4 && out.ends_with("hint")) out.resize(out.size() - 4);
  return out;
}

// The keys of one scope whose values mean a facet, each once ("policy-hints@seed mcp.dev/resultSensitivity").
std::vector<std::string> keys_meaning(const Vocabulary& vocabulary, const std::string& facet, bool message) {
  std::vector<std::string> out;
  for (const auto& other : vocabulary.fields()) {
    const auto facets = other.facets();
    if (other.is_message_field != message || std::find(facets.begin(), facets.end(), facet) == facets.end()) continue;
    const std::string ref = other.latest->ref() + " " + other.key;
    if (std::find(out.begin(), out.end(), ref) == out.end()) out.push_back(ref);
  }
  return out;
}

// How a field's facets stand to the other scope's, from the crosswalk's relations: a message
// field names the tool keys that bound or relate to its claims; a tool field, the message claims
// it bounds or puts a floor under.
std::vector<std::string> relations_of(const Vocabulary& vocabulary, const Field& field,
                                      const std::vector<std::string>& facets) {
  std::vector<std::string> out;
  auto has = [&](const std::string& f) { return std::find(facets.begin(), facets.end(), f) != facets.end(); };
  for (const auto& r : vocabulary.relations()) {
    if (field.is_message_field && has(r.message_facet)) {
      const auto keys =
          r.tool_facet.empty() ? std::vector<std::string>{} : keys_meaning(vocabulary, r.tool_facet, false);
      const std::string how = r.rule == "at-most"    ? "at most "
                              : r.rule == "implies"  ? "floor from "
                              : r.rule == "supports" ? "supports the claims on "
                              : r.rule == "distinct" ? "distinct from "
                                                     : "unordered beside ";
      out.push_back(r.tool_facet.empty() ? std::string("no tool side")
                                         : how + r.tool_facet + (keys.empty() ? "" : ": " + join(keys, ", ")));
    } else if (!field.is_message_field && has(r.tool_facet) && (r.rule == "at-most" || r.rule == "implies")) {
      out.push_back((r.rule == "at-most" ? "bounds message claims of " : "puts a floor under message claims of ") +
                    r.message_facet + ": " + join(keys_meaning(vocabulary, r.message_facet, true), ", "));
    }
  }
  return out;
}

}  // namespace

std::vector<CrosswalkRow> crosswalk_rows(const Vocabulary& vocabulary) {
  std::vector<CrosswalkRow> rows;
  for (const auto& revision : vocabulary.revisions()) {
    for (const Field* field : vocabulary.fields_of(revision)) {
      CrosswalkRow row;
      row.revision = &revision;
      row.field = field;
      row.placement = placement_of(*field);
      row.type = describe(field_node(*field, revision));
      row.values = values_of(*field, revision, vocabulary);
      row.facets = field->facets();
      for (const auto& other : vocabulary.fields()) {
        // Overlaps are across vocabularies: another key of another proposal with the same facet
        // (in one proposal, two tool keys on one facet complement each other: readOnlyHint and
        // destructiveHint). Message keys overlap whatever their proposal: #711's sensitiveHint and
        // the extension's sensitive are revisions of one proposal that say the same in other words.
        if (other.is_message_field != field->is_message_field) continue;
        if (field->is_message_field ? other.key == field->key : other.vocabulary == field->vocabulary) continue;
        const auto theirs = other.facets();
        const bool shared = std::any_of(row.facets.begin(), row.facets.end(), [&](const std::string& f) {
          return std::find(theirs.begin(), theirs.end(), f) != theirs.end();
        });
        if (shared) row.overlaps.push_back(other.latest->ref() + " " + other.key);
      }
      for (const auto& c : vocabulary.conflicts())
        if (std::find(c.keys.begin(), c.keys.end(), field->vocabulary + ":" + field->key) != c.keys.end())
          row.conflicts.push_back(c.note);
      if (field->propagation)
        row.propagation = field->propagation->rule +
                          (field->propagation->level.empty() ? "" : " (" + field->propagation->level + ")");
      row.relations = relations_of(vocabulary, *field, row.facets);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

const char* precedence_rule() {
  return "When hints disagree, the most cautious asserted value wins, whichever vocabulary says it (a delete "
         "effect over a write, a confirmation over none, the higher risk, the more public destination, the higher "
         "sensitivity); the specification's defaults (destructive, open-world) apply only when no vocabulary says "
         "anything; a malformed or unknown value counts as absent, never as safe. Why: hints are untrusted advice "
         "(\"clients MUST consider tool annotations to be untrusted\"), a client that under-reacts fails open while "
         "one "
         "that over-reacts only asks once more, and no proposal ranks itself above another.";
}

const char* message_scope_rule() {
  return "A trust annotation on a request or result is a claim about that message's data, and each value is a floor: "
         "the data is at least this sensitive or this untrusted. Claims on one facet combine as tool hints do (the "
         "most cautious wins, sets union) and travel as their proposal says: #711 carries every annotation on all "
         "later requests of the session at the same or a higher level (MUST), SEP-1913 only openWorldHint (MUST) "
         "and the union of attribution (SHOULD), and the extension folds a result's content blocks, which may "
         "strengthen its claim, never weaken it. Absence is no claim, never an asserted false or a lower level. A "
         "tool's declaration is the ceiling of what its results claim on the same facet (at-most): a result that "
         "claims more shows the declaration understated; a tool that declares nothing bounds nothing.";
}

RevisionDiff diff_revisions(const Vocabulary& vocabulary, const VocabularyRevision& from,
                            const VocabularyRevision& to) {
  RevisionDiff diff{from.ref(), to.ref(), {}, {}, {}, {}, {}, {}};
  if (from.meta_reservation != to.meta_reservation)
    diff.notes.push_back(
        "_meta prefixes reserved for MCP: " + from.meta_reservation + " -> " + to.meta_reservation +
        " (any-label: mcp or modelcontextprotocol before the last label; second-label: as the second label)");
  auto before = vocabulary.fields_of(from), after = vocabulary.fields_of(to);
  std::set<const Field*> matched_before, matched_after;
  auto compare = [&](const Field* a, const Field* b) {
    const std::string ta = describe(field_node(*a, from)), tb = describe(field_node(*b, to));
    if (ta != tb) diff.retyped.push_back({b->key, ta, tb});
    std::set<std::string> va, vb;
    for (const auto& [v, m] : values_of(*a, from, vocabulary)) va.insert(v);
    for (const auto& [v, m] : values_of(*b, to, vocabulary)) vb.insert(v);
    if (va == vb) return;
    std::vector<std::string> gone, new_values;
    std::set_difference(va.begin(), va.end(), vb.begin(), vb.end(), std::back_inserter(gone));
    std::set_difference(vb.begin(), vb.end(), va.begin(), va.end(), std::back_inserter(new_values));
    diff.values.push_back(
        {b->key, gone.empty() ? "" : "removed " + join(gone), new_values.empty() ? "" : "added " + join(new_values)});
  };
  // The same key, or the same pointer: the same field.
  for (const Field* a : before)
    for (const Field* b : after)
      if (!matched_after.count(b) && (a == b || a->key == b->key || a->pointer_text == b->pointer_text) &&
          !matched_before.count(a)) {
        matched_before.insert(a);
        matched_after.insert(b);
        compare(a, b);
      }
  // Another key with the same meaning: renamed.
  for (const Field* a : before) {
    if (matched_before.count(a) || a->facets().empty()) continue;
    for (const Field* b : after) {
      if (matched_after.count(b) || a->facets() != b->facets() || a->is_message_field != b->is_message_field) continue;
      matched_before.insert(a);
      matched_after.insert(b);
      diff.renamed.push_back({b->key, a->key + " (" + placement_of(*a) + ")", b->key + " (" + placement_of(*b) + ")"});
      compare(a, b);
      break;
    }
  }
  for (const Field* a : before)
    if (!matched_before.count(a)) diff.removed.push_back(a->key + " (" + placement_of(*a) + ")");
  for (const Field* b : after)
    if (!matched_after.count(b)) diff.added.push_back(b->key + " (" + placement_of(*b) + ")");
  return diff;
}

std::vector<DraftFinding> check_draft_schema(const Vocabulary& vocabulary, const json& draft) {
  std::vector<DraftFinding> findings;
  if (!draft.is_object()) throw InputError(std::string("a JSON Schema is an object, this is ") + draft.type_name());
  struct DraftField {
    std::string key, pointer;
    bool in_meta = false;
    Node node;
  };
  std::vector<DraftField> fields;
  const Node root{&draft, &draft};
  // Members of a container, and one level into objects of members (inputMetadata.destination).
  auto gather = [&](Node container, const std::string& pointer, const std::string& prefix, bool in_meta) {
    container = deref(container, false);
    if (!container.node || !container.node->contains("properties")) return;
    for (const auto& [name, schema] : (*container.node)["properties"].items()) {
      const std::string at = pointer + "/properties/" + escape_pointer_token(name);
      Node n = deref({&schema, container.doc}, false);
      const bool nested =
          !in_meta && n.node && n.node->is_object() && n.node->contains("properties") && !n.node->contains("enum");
      if (nested) {
        for (const auto& [inner, inner_schema] : (*n.node)["properties"].items())
          fields.push_back({prefix + name + "." + inner,
                            at + "/properties/" + escape_pointer_token(inner),
                            in_meta,
                            {&inner_schema, n.doc}});
      } else {
        fields.push_back({prefix + name, at, in_meta, n});
      }
    }
  };
  const Node annotations = member(root, "annotations", false), meta = member(root, "_meta", false);
  if (annotations.node) gather(annotations, "/properties/annotations", "", false);
  if (meta.node) gather(meta, "/properties/_meta", "", true);
  if (!annotations.node && !meta.node) gather(root, "", "", false);
  // A file that declares no field is not a draft of hints (a catalog, a report, another schema):
  // "no findings" would say it was read and is fine.
  if (fields.empty())
    throw InputError(
        "not a draft schema of tool hints: it declares no field (expected properties at its root, under "
        "properties.annotations or under properties._meta)");
  for (const auto& f : fields)
    if (f.node.node && !f.node.node->is_object() && !f.node.node->is_boolean())
      throw InputError("not a JSON Schema: the schema of \"" + f.key + "\" is " + f.node.node->type_name() +
                           " (a schema is an object or a boolean)",
                       f.pointer);

  // The latest specification revision's naming rule and reservation.
  std::string spec_rule, latest_spec;
  for (const auto& r : vocabulary.revisions())
    if (r.id == "spec") {
      spec_rule = r.meta_reservation;
      latest_spec = r.schema;
    }
  const auto& registry = published_schemas();

  for (const auto& f : fields) {
    std::vector<std::string> values;
    collect_enum(f.node, values, 0, false);
    // Which existing facets the field's name or values repeat.
    std::set<std::string> matched_facets;
    std::vector<std::string> by_name;
    for (const auto& existing : vocabulary.fields()) {
      // Message keys count too: a draft's "sensitive" repeats the extension's, whatever its placement.
      if (normalized_name(existing.key) != normalized_name(f.key)) continue;
      for (const auto& facet : existing.facets()) matched_facets.insert(facet);
      const std::string ref = existing.latest->ref() + " " + existing.key;
      if (std::find(by_name.begin(), by_name.end(), ref) == by_name.end()) by_name.push_back(ref);
    }
    // value (lower case) -> the facet values it already means, and where.
    std::map<std::string, std::map<std::string, std::set<std::string>>> meanings;  // value -> facet -> refs
    for (const auto& existing : vocabulary.fields())
      for (const auto& [value, targets] : existing.map)
        for (const auto& t : targets)
          meanings[ascii_lower(value)]
                  [t.facet + "=" + (t.value.is_string() ? t.value.get<std::string>() : t.value.dump())]
                      .insert(existing.latest->ref() + " " + existing.key);
    std::map<std::string, std::size_t> facet_hits;
    for (const auto& v : values)
      for (const auto& [meaning, refs] : meanings[ascii_lower(v)]) ++facet_hits[meaning.substr(0, meaning.find('='))];
    std::vector<std::string> by_values;
    for (const auto& [facet, hits] : facet_hits)
      if (hits >= 2 && hits * 2 >= values.size() && !matched_facets.count(facet)) {
        matched_facets.insert(facet);
        by_values.push_back(facet + " (" + std::to_string(hits) + " of its " + std::to_string(values.size()) +
                            " values)");
      }
    if (!by_name.empty() || !by_values.empty()) {
      std::string message = "\"" + f.key + "\" duplicates the facet" + (matched_facets.size() > 1 ? "s " : " ") +
                            join(std::vector<std::string>(matched_facets.begin(), matched_facets.end()));
      if (!by_name.empty())
        message += ", which " + join(by_name) + " already express" + (by_name.size() > 1 ? "" : "es");
      if (!by_values.empty()) message += "; its values are those of " + join(by_values);
      findings.push_back({"duplicate-facet", f.pointer, message});
    }
    // Values that already mean something else.
    for (const auto& v : values) {
      std::vector<std::string> elsewhere;
      for (const auto& [meaning, refs] : meanings[ascii_lower(v)]) {
        const std::string facet = meaning.substr(0, meaning.find('='));
        if (matched_facets.count(facet)) continue;
        elsewhere.push_back(meaning + " in " + join(std::vector<std::string>(refs.begin(), refs.end()), " and "));
      }
      if (!elsewhere.empty())
        findings.push_back({"value-collision", f.pointer,
                            "the value \"" + v + "\" of \"" + f.key + "\" already means " + join(elsewhere, "; ") +
                                ": say which, or pick another word"});
    }
    if (!f.in_meta) continue;
    // The _meta naming rule of the latest specification revision.
    const auto violations = registry.validate(latest_spec + "#/definitions/MetaKey", json(f.key));
    if (!violations.empty())
      findings.push_back({"meta-key", f.pointer,
                          "the _meta key \"" + f.key +
                              "\" is not a valid _meta key name (an optional "
                              "prefix of dot-separated labels and a slash, then a name of letters, digits, "
                              "hyphens, underscores and dots, starting and ending alphanumeric)"});
    else if (meta_key_reserved(spec_rule, f.key))
      findings.push_back({"meta-key", f.pointer,
                          "the _meta key \"" + f.key +
                              "\" uses a prefix the specification reserves "
                              "for MCP: only an official MCP extension may; otherwise use your own "
                              "reverse-DNS prefix"});
    else if (f.key.find('/') == std::string::npos)
      findings.push_back({"meta-key", f.pointer,
                          "the _meta key \"" + f.key +
                              "\" has no prefix: unprefixed names in _meta "
                              "collide across proposals; use a reverse-DNS prefix (com.example/" +
                              f.key + ")"});
  }
  return findings;
}

}  // namespace mcp_hints
