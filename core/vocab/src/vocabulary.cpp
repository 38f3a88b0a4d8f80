#include "mcp_hints/vocab/vocabulary.hpp"

#include <cctype>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "mcp_hints/json/embedded.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/member.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"

namespace mcp_hints {

using json = nlohmann::json;

int Facet::rank(const json& value) const {
  auto it = std::find(values.begin(), values.end(), value);
  return it == values.end() ? -1 : static_cast<int>(it - values.begin());
}

const json* find_member(const json& root, const std::vector<std::string>& tokens, std::size_t depth) {
  const json* node = &root;
  for (std::size_t i = 0; i < tokens.size() && i < depth && node; ++i) node = member(*node, tokens[i]);
  return node;
}

namespace {

std::vector<std::string> pointer_tokens(const std::string& text) {
  json::json_pointer p(text);
  std::vector<std::string> tokens;
  while (!p.empty()) {
    tokens.insert(tokens.begin(), p.back());
    p.pop_back();
  }
  return tokens;
}

}  // namespace

Field::Meaning Field::meaning(const json& element) const {
  // Map keys are the value itself for strings and its JSON text for anything else.
  std::string text;
  std::string_view key;
  std::optional<IntegerText> integer;
  if (element.is_string()) {
    key = element.get_ref<const std::string&>();
  } else if (element.is_boolean()) {
    key = element.get<bool>() ? "true" : "false";
  } else if (element.is_number_integer()) {  // signed or unsigned
    key = integer.emplace(element).view();
  } else {
    text = element.dump();
    key = text;
  }
  // The string "true" is not the boolean true: a string never matches the key of a literal.
  const bool literal_text =
      element.is_string() && (key == "true" || key == "false" || key == "null" ||
                              (!key.empty() && (std::isdigit(static_cast<unsigned char>(key[0])) || key[0] == '-')));
  if (auto it = map.find(key); it != map.end() && !literal_text) return {&it->second, false};
  // A one-member object such as SEP-1913's {"regulated": {"scopes": [...]}} matches "{regulated}".
  if (element.is_object() && element.size() == 1)
    if (auto it = map.find("{" + element.begin().key() + "}"); it != map.end()) return {&it->second, false};
  if (auto any = map.find("*"); any != map.end()) return {&any->second, true};
  return {};
}

std::optional<std::vector<FacetValue>> Field::facet_values(const json& element) const {
  const Meaning meant = meaning(element);
  if (!meant.values) return std::nullopt;
  std::vector<FacetValue> out;
  for (const auto& fv : *meant.values)
    out.push_back({fv.facet, meant.wildcard && fv.value == "*" ? element : fv.value});
  return out;
}

namespace {

bool is_mcp_label(std::string_view label) { return label == "mcp" || label == "modelcontextprotocol"; }

}  // namespace

bool meta_key_reserved(std::string_view rule, std::string_view key) {
  const auto slash = key.find('/');
  if (slash == std::string_view::npos) return false;
  // The prefix's labels, between its dots: the second alone counts, or any but the last.
  const std::string_view prefix = key.substr(0, slash);
  const bool second_only = rule == "second-label";
  for (std::size_t start = 0, index = 0;; ++index) {
    const auto dot = prefix.find('.', start);
    const bool last = dot == std::string_view::npos;
    const std::string_view label = prefix.substr(start, last ? std::string_view::npos : dot - start);
    if (second_only ? index == 1 : !last) {
      if (is_mcp_label(label)) return true;
      if (second_only) return false;
    }
    if (last) return false;
    start = dot + 1;
  }
}

std::vector<std::string> Field::facets() const {
  std::vector<std::string> out;
  for (const auto& [value, targets] : map)
    for (const auto& t : targets)
      if (std::find(out.begin(), out.end(), t.facet) == out.end()) out.push_back(t.facet);
  return out;
}

bool Field::in_revision(std::string_view revision) const {
  return revisions.empty() || std::find(revisions.begin(), revisions.end(), revision) != revisions.end();
}

const Vocabulary& Vocabulary::builtin() {
  static const Vocabulary vocabulary(parse_json(*embedded_schema("vocabulary.json")));
  return vocabulary;
}

Vocabulary::Vocabulary(const json& doc) {
  for (const auto& [name, f] : doc.at("facets").items()) {
    Facet facet{name, f.at("kind").get<std::string>(), {}, f.value("description", ""), {}, {}};
    if (f.contains("values")) facet.values = f.at("values").get<std::vector<json>>();
    if (f.contains("minimum")) facet.minimum = f.at("minimum").get<int>();
    if (f.contains("maximum")) facet.maximum = f.at("maximum").get<int>();
    facet.scope = f.value("scope", "tool");
    facets_.emplace(name, std::move(facet));
  }
  for (const auto& v : doc.at("vocabularies")) {
    revisions_.push_back(VocabularyRevision{
        v.at("id"), v.at("revision"), v.at("title"), v.at("status"), v.at("source"), v.at("schema"),
        v.value("metaReservation", ""), v.value("scope", "tool"), v.value("supersedes", std::vector<std::string>{}),
        v.value("extension", std::string()), v.value("clientLevel", "SHOULD"), v.value("clientWords", std::string()),
        v.value("clientBasis", std::string())});
  }
  for (const auto& f : doc.at("fields")) {
    Field field;
    field.vocabulary = f.at("vocabulary");
    field.key = f.at("key");
    field.pointer_text = f.at("pointer");
    field.tokens = pointer_tokens(field.pointer_text);
    field.section = f.value("section", "");
    if (f.contains("default")) field.default_value = f.at("default");
    if (f.contains("meaningfulWhen")) {
      const auto& c = f.at("meaningfulWhen");
      field.meaningful_when =
          Condition{pointer_tokens(c.at("pointer").get<std::string>()), c.at("equals"), c.value("default", json())};
    }
    field.set_valued = f.value("setValued", false);
    field.array_only = f.value("arrayOnly", false);
    if (f.contains("map")) {
      for (const auto& [value, targets] : f.at("map").items()) {
        auto& out = field.map[value];
        for (const auto& t : targets) {
          const std::string facet = t.at(0);
          if (!facets_.count(facet)) throw std::runtime_error("vocabulary.json: unknown facet " + facet);
          out.push_back({facet, t.at(1)});
        }
      }
    }
    auto rev =
        std::find_if(revisions_.begin(), revisions_.end(), [&](const auto& r) { return r.id == field.vocabulary; });
    if (rev == revisions_.end())
      throw std::runtime_error("vocabulary.json: field of unknown vocabulary " + field.vocabulary);
    if (f.contains("revisions")) field.revisions = f.at("revisions").get<std::vector<std::string>>();
    for (const auto& r : field.revisions)
      if (!revision(field.vocabulary, r))
        throw std::runtime_error("vocabulary.json: field " + field.key + " of unknown revision " + field.vocabulary +
                                 "@" + r);
    // A field's scope is its own, else that of the first revision that has it.
    const VocabularyRevision* first =
        field.revisions.empty() ? &*rev : revision(field.vocabulary, field.revisions.front());
    field.is_message_field = f.value("scope", first->scope) == "message";
    field.carried_on = f.value("carriedOn", std::vector<std::string>{});
    if (f.contains("propagation")) {
      const auto& p = f.at("propagation");
      field.propagation = Propagation{p.at("rule"), p.value("level", ""), p.value("words", "")};
    }
    fields_.push_back(std::move(field));
  }
  for (auto& field : fields_) {
    for (const auto& r : revisions_)
      if (r.id == field.vocabulary && field.in_revision(r.revision)) field.latest = &r;
    if (field.tokens.empty()) throw std::runtime_error("vocabulary.json: field " + field.key + " names no member");
    auto listed = std::find_if(fields_by_vocabulary_.begin(), fields_by_vocabulary_.end(),
                               [&](const auto& entry) { return entry.first == field.vocabulary; });
    if (listed == fields_by_vocabulary_.end()) listed = fields_by_vocabulary_.insert(listed, {field.vocabulary, {}});
    listed->second.push_back(&field);
  }
  for (const auto& r : revisions_) {
    auto& fields = tool_fields_by_revision_.emplace_back();
    for (const auto& field : fields_)
      if (field.vocabulary == r.id && !field.is_message_field && field.in_revision(r.revision))
        fields.push_back(&field);
  }
  member_tree_.emplace_back();  // the tool
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const auto& field = fields_[i];
    member_tree_[member_node(field.tokens, SIZE_MAX)].slots.push_back(static_cast<std::uint32_t>(2 * i));
    if (field.meaningful_when)
      member_tree_[member_node(field.meaningful_when->tokens, SIZE_MAX)].slots.push_back(
          static_cast<std::uint32_t>(2 * i + 1));
    member_tree_[member_node(field.tokens, 2)].mentions.push_back(static_cast<std::uint32_t>(i));
  }
  for (const auto& [k, v] : doc.at("dataClassMinimumResultSensitivity").items())
    if (v.is_string()) data_class_minimum_[k] = v.get<std::string>();
  for (const auto& r : doc.value("relations", json::array())) {
    Relation relation{r.at("message"), r.value("tool", ""), r.at("rule"), r.value("words", ""),
                      r.value("checks", std::vector<std::string>{})};
    for (const auto& facet : {relation.message_facet, relation.tool_facet})
      if (!facet.empty() && !facets_.count(facet))
        throw std::runtime_error("vocabulary.json: relation of unknown facet " + facet);
    relations_.push_back(std::move(relation));
  }
  for (const auto& c : doc.value("conflicts", json::array()))
    conflicts_.push_back({c.at("keys").get<std::vector<std::string>>(), c.value("facet", ""), c.value("note", "")});
}

std::uint32_t Vocabulary::member_node(const std::vector<std::string>& tokens, std::size_t depth) {
  std::uint32_t node = 0;
  for (std::size_t i = 0; i < tokens.size() && i < depth; ++i) {
    auto& children = member_tree_[node].children;
    auto at = std::lower_bound(children.begin(), children.end(), tokens[i],
                               [](const auto& child, const std::string& name) { return child.first < name; });
    if (at == children.end() || at->first != tokens[i]) {
      const auto added = static_cast<std::uint32_t>(member_tree_.size());
      at = children.insert(at, {tokens[i], added});
      member_tree_.emplace_back();  // `children` and `at` are not used after this
      node = added;
    } else {
      node = at->second;
    }
  }
  return node;
}

void Vocabulary::locate_below(std::uint32_t node, const json& value, LocatedFields& out) const {
  const MemberNode& here = member_tree_[node];
  for (const auto slot : here.slots) out.slots_[slot] = &value;
  for (const auto field : here.mentions) out.mentioned_[field] = 1;
  if (here.children.empty() || !value.is_object()) return;
  // The object's members and the node's children, both in the order of their names: one walk
  // pairs them.
  const auto& members = value.get_ref<const json::object_t&>();
  auto member = members.begin();
  auto child = here.children.begin();
  while (member != members.end() && child != here.children.end()) {
    const int order = compare_names(member->first, child->first);
    if (order < 0) {
      ++member;
    } else if (order > 0) {
      ++child;
    } else {
      locate_below(child->second, member->second, out);
      ++member;
      ++child;
    }
  }
}

LocatedFields Vocabulary::locate(const json& tool) const {
  LocatedFields out;
  out.fields_ = fields_.data();
  out.slots_.assign(2 * fields_.size(), nullptr);
  out.mentioned_.assign(fields_.size(), 0);
  locate_below(0, tool, out);
  return out;
}

std::span<const Field* const> Vocabulary::vocabulary_fields(std::string_view vocabulary_id) const {
  for (const auto& [id, fields] : fields_by_vocabulary_)
    if (id == vocabulary_id) return fields;
  return {};
}

bool Vocabulary::mentions(const LocatedFields& tool, std::string_view vocabulary_id) const {
  const auto fields = vocabulary_fields(vocabulary_id);
  return std::any_of(fields.begin(), fields.end(), [&](const Field* field) { return tool.mentioned(*field); });
}

bool Vocabulary::uses(const LocatedFields& tool, const VocabularyRevision& revision) const {
  const auto& fields = tool_fields_by_revision_.at(static_cast<std::size_t>(&revision - revisions_.data()));
  return std::any_of(fields.begin(), fields.end(), [&](const Field* field) { return tool.value(*field); });
}

std::vector<const VocabularyRevision*> Vocabulary::detect(const LocatedFields& tool) const {
  std::vector<const VocabularyRevision*> out;
  for (const auto& r : revisions_)
    if (r.id != "spec" && uses(tool, r)) out.push_back(&r);
  return out;
}

const VocabularyRevision* Vocabulary::find(std::string_view ref) const {
  const auto at = ref.find('@');
  if (at != std::string_view::npos) return revision(ref.substr(0, at), ref.substr(at + 1));
  const VocabularyRevision* only = nullptr;
  for (const auto& r : revisions_) {
    if (r.id != ref) continue;
    if (only) return nullptr;  // several: the revision must be named
    only = &r;
  }
  return only;
}

std::vector<std::string> Vocabulary::refs() const {
  std::vector<std::string> out;
  for (const auto& r : revisions_) out.push_back(r.ref());
  return out;
}

std::vector<std::string> Vocabulary::tool_hint_refs() const {
  std::vector<std::string> out;
  for (const auto& r : revisions_)
    if (r.id != "spec" && r.scope != "message") out.push_back(r.ref());
  return out;
}

std::string Vocabulary::not_found(std::string_view ref, std::span<const std::string> known) const {
  const std::string id(ref.substr(0, ref.find('@')));
  std::vector<std::string> of_id;
  for (const auto& k : known)
    if (k.starts_with(id + "@")) of_id.push_back(k);
  const std::string quoted = "'" + std::string(ref) + "'";
  if (!of_id.empty() && id.size() == ref.size())
    return of_id.size() > 1 ? quoted + " has several revisions: name one (" + join(of_id, ", ") + ")"
                            : quoted + " needs its revision: " + of_id.front();
  if (!of_id.empty()) return quoted + " names no revision of " + id + " (its revisions: " + join(of_id, ", ") + ")";
  return quoted + " names no vocabulary revision" + did_you_mean(ref, known) + " (known: " + join(known, ", ") + ")";
}

std::vector<const Field*> Vocabulary::fields_of(const VocabularyRevision& revision) const {
  std::vector<const Field*> out;
  for (const auto& f : fields_)
    if (f.vocabulary == revision.id && f.in_revision(revision.revision)) out.push_back(&f);
  return out;
}

const Facet& Vocabulary::facet(std::string_view name) const {
  auto it = facets_.find(name);
  if (it == facets_.end()) throw std::out_of_range("unknown facet " + std::string(name));
  return it->second;
}

const VocabularyRevision* Vocabulary::revision(std::string_view id, std::string_view revision) const {
  for (const auto& r : revisions_)
    if (r.id == id && r.revision == revision) return &r;
  return nullptr;
}

std::vector<std::string> Vocabulary::spec_revisions() const {
  std::vector<std::string> out;
  for (const auto& r : revisions_)
    if (r.id == "spec") out.push_back(r.revision);
  return out;
}

std::string Vocabulary::spec_revision_spoken(std::string_view protocol_version) const {
  auto revisions = spec_revisions();
  std::ranges::sort(revisions);
  if (revisions.empty()) throw std::out_of_range("the vocabulary lists no specification revision");
  std::string chosen = revisions.front();
  for (const auto& revision : revisions)
    if (revision <= protocol_version) chosen = revision;
  return chosen;
}

const VocabularyRevision& Vocabulary::active_revision(std::string_view id, std::string_view spec_revision) const {
  if (id == "spec") {
    if (const auto* r = revision(id, spec_revision)) return *r;
    throw std::out_of_range("unknown specification revision " + std::string(spec_revision));
  }
  // The last listed revision is the current one.
  const VocabularyRevision* found = nullptr;
  for (const auto& r : revisions_)
    if (r.id == id) found = &r;
  if (!found) throw std::out_of_range("unknown vocabulary " + std::string(id));
  return *found;
}

const VocabularyRevision& Vocabulary::active_revision(const Field& field, std::string_view spec_revision) const {
  return field.vocabulary == "spec" ? active_revision(field.vocabulary, spec_revision) : *field.latest;
}

std::optional<std::string> Vocabulary::minimum_result_sensitivity(std::string_view data_class) const {
  auto it = data_class_minimum_.find(std::string(data_class));
  if (it == data_class_minimum_.end()) return std::nullopt;
  return it->second;
}

}  // namespace mcp_hints
