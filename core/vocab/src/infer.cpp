#include "mcp_hints/vocab/infer.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include <boost/container/small_vector.hpp>

#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"
#include "mcp_hints/vocab/translate.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints {

using json = nlohmann::json;

namespace {

// The name model, schemas/verbs.json compiled in: verb classes, the groups of words that make a
// verb of a class (each with its evidence), the inputs that choose an operation, raise the risk
// or scope a call.
struct VerbClass {
  std::string name;  // an effect facet value
  std::string risk;  // its base risk grade
};

struct VerbGroup {
  std::string verb_class;
  std::set<std::string> words;
  std::set<std::string> objects;       // applies only with one of these among the name's other words
  std::vector<std::string> described;  // applies only when the description contains one of these
  bool noun = false;                   // also a common noun: decides only when no other word is a verb
  std::string evidence;
};

struct Scope {
  std::string radius;
  std::set<std::string> words;
};

struct NameModel {
  std::vector<VerbClass> classes;  // most consequential first
  std::vector<VerbGroup> groups;   // tried in order for each word
  // What the model says of a word of a name: the groups that list it, in order, and whether it
  // joins two actions ("and", "or"). A word is looked up once, not per group.
  struct Word {
    std::vector<std::size_t> groups;
    bool conjunction = false;
  };
  std::unordered_map<std::string, Word> words;
  std::set<std::string> operation_inputs, risky_inputs;
  std::vector<Scope> scopes;  // narrowest first

  // The class's rank: 0 is the most consequential.
  std::size_t rank(const std::string& verb_class) const {
    for (std::size_t i = 0; i < classes.size(); ++i)
      if (classes[i].name == verb_class) return i;
    return classes.size();
  }
};

std::set<std::string> word_set(const json& words) {
  std::set<std::string> out;
  for (const auto& w : words) out.insert(w.get<std::string>());
  return out;
}

const NameModel& name_model() {
  static const NameModel model = [] {
    const json doc = parse_json(*embedded_schema("verbs.json"));
    NameModel m;
    for (const auto& c : doc["classes"]) m.classes.push_back({c["class"], c["risk"]});
    for (const auto& g : doc["verbs"]) {
      VerbGroup group{g["class"], word_set(g["words"]),   word_set(g.value("objects", json::array())),
                      {},         g.value("noun", false), g["evidence"]};
      for (const auto& phrase : g.value("described", json::array())) group.described.push_back(phrase);
      if (m.rank(group.verb_class) == m.classes.size())
        throw std::runtime_error("verbs.json: unknown class " + group.verb_class);
      for (const auto& word : group.words) m.words[word].groups.push_back(m.groups.size());
      m.groups.push_back(std::move(group));
    }
    for (const auto& word : doc["conjunctions"]) m.words[word.get<std::string>()].conjunction = true;
    m.operation_inputs = word_set(doc["operationInputs"]["words"]);
    m.risky_inputs = word_set(doc["riskyInputs"]["words"]);
    for (const auto& s : doc["scopes"]) m.scopes.push_back({s["radius"], word_set(s["words"])});
    return m;
  }();
  return model;
}

std::string compact(const std::string& s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const std::vector<std::string>& risk_grades() {
  static const std::vector<std::string> grades = {"low", "medium", "high", "critical"};
  return grades;
}

// A word of the name as a verb: the group that applies to it, and what made it apply. Its texts
// are views of the name's words and of the model: it lives only within classify, while the words
// stand unchanged.
struct VerbWord {
  std::size_t index = 0;
  const VerbGroup* group = nullptr;
  std::string_view object;  // the name's word that qualified the group, "" when none was needed
  std::string_view phrase;  // the description's phrase that qualified it, "" when none was needed
};

// The word at `index` as a verb, given what the model says of it (null: nothing).
std::optional<VerbWord> as_verb(const std::vector<std::string>& words, std::size_t index, const NameModel::Word* listed,
                                const std::string& description) {
  if (!listed) return std::nullopt;
  const auto& model = name_model();
  for (const std::size_t g : listed->groups) {
    const VerbGroup& group = model.groups[g];
    VerbWord verb{index, &group, {}, {}};
    if (!group.objects.empty()) {
      for (std::size_t j = 0; j < words.size() && verb.object.empty(); ++j)
        if (j != index && group.objects.count(words[j])) verb.object = words[j];
      if (verb.object.empty()) continue;
    }
    if (!group.described.empty()) {
      for (const auto& phrase : group.described)
        if (description.find(phrase) != std::string::npos) {
          verb.phrase = phrase;
          break;
        }
      if (verb.phrase.empty()) continue;
    }
    return verb;
  }
  return std::nullopt;
}

std::string joined(const std::vector<std::string>& words, std::size_t count, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += (i ? separator : "") + words[i];
  return out;
}

// What the name says, from its action verb (see schemas/verbs.json), with the evidence in words.
Inference classify(const std::string& name, const std::string& description, bool with_evidence = true) {
  Inference out;
  out.words = name_words(name);
  const std::string text = ascii_lower(description);
  const auto& model = name_model();
  // What the model says of each word, looked up once (null: nothing).
  boost::container::small_vector<const NameModel::Word*, 8> listed;
  for (const auto& word : out.words) {
    const auto found = model.words.find(word);
    listed.push_back(found == model.words.end() ? nullptr : &found->second);
  }
  // The action: the first word some group lists and not every such group calls also a noun;
  // failing that, the first noun-like word that is a verb here ("slack_post_message").
  std::optional<VerbWord> action;
  const auto plain = std::find_if(listed.begin(), listed.end(), [&](const NameModel::Word* word) {
    return word &&
           std::any_of(word->groups.begin(), word->groups.end(), [&](std::size_t g) { return !model.groups[g].noun; });
  });
  if (plain != listed.end()) {
    const auto index = static_cast<std::size_t>(plain - listed.begin());
    action = as_verb(out.words, index, *plain, text);
    if (!action) return out;  // a verb whose conditions do not hold ("browser_drop"): unsure, so nothing
  }
  bool conjoined = false;
  std::vector<VerbWord> verbs;
  for (std::size_t i = 0; i < out.words.size(); ++i) {
    conjoined = conjoined || (listed[i] && listed[i]->conjunction);
    if (action && i == action->index)
      verbs.push_back(*action);  // the same word read the same way: not looked up again
    else if (auto verb = as_verb(out.words, i, listed[i], text))
      verbs.push_back(*verb);
  }
  if (!action && !verbs.empty()) action = verbs.front();
  if (!action) return out;
  // "sync_and_delete", "create_or_update_file": every action counts, the most consequential wins.
  const VerbWord* chosen = &*action;
  if (conjoined)
    for (const auto& v : verbs)
      if (!v.group->noun && model.rank(v.group->verb_class) < model.rank(chosen->group->verb_class)) chosen = &v;
  const VerbWord& verb = *chosen;
  out.verb = out.words[verb.index];
  out.verb_class = verb.group->verb_class;
  out.strong = true;
  if (!with_evidence) return out;
  out.verb_evidence = verb.group->evidence;
  // Appended to one string: a tool's name is classified for every tool linted.
  std::string& said = out.name_evidence;
  if (verb.index == 0) {
    said.append("the name starts with '").append(out.verb).append("'");
  } else {
    said.append("the name's verb '").append(out.verb).append("' (after '");
    said.append(joined(out.words, verb.index, " ")).append("')");
  }
  if (!verb.object.empty()) said.append(" with '").append(verb.object).append("'");
  if (!verb.phrase.empty()) said.append(" and the description says '").append(verb.phrase).append("'");
  said.append(" (").append(out.verb_class).append(" verbs)");
  return out;
}

// An input that chooses among operations ("method": ["get", "delete_run_logs"]): its most
// consequential listed value read as a name.
std::optional<std::pair<Inference, std::string>> operation_input(const json& props) {
  std::optional<std::pair<Inference, std::string>> worst;
  for (const auto& [param, schema] : props.items()) {
    if (!name_model().operation_inputs.count(compact(param)) || !schema.is_object() || !schema.contains("enum") ||
        !schema["enum"].is_array())
      continue;
    for (const auto& value : schema["enum"]) {
      if (!value.is_string()) continue;
      Inference op = classify(value.get<std::string>(), "");
      if (op.verb_class.empty()) continue;
      if (!worst || name_model().rank(op.verb_class) < name_model().rank(worst->first.verb_class))
        worst = std::make_pair(
            op, "input '" + param + "' offers '" + value.get<std::string>() + "' (" + op.verb_class + " verbs)");
    }
  }
  return worst;
}

}  // namespace

const InferredValue* Inference::find(std::string_view facet) const {
  for (const auto& v : values)
    if (v.facet == facet) return &v;
  return nullptr;
}

std::vector<std::string> name_words(const std::string& name) {
  // ASCII alone: the command runs in the C locale, where <cctype> knows nothing past it, and a
  // name is split for every tool linted (std::isalnum and the like are calls, these are not).
  const auto lower_case = [](char c) { return c >= 'a' && c <= 'z'; };
  const auto upper_case = [](char c) { return c >= 'A' && c <= 'Z'; };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::vector<std::string> words;
  words.reserve(4);
  // A word is a run of the name's letters and digits, made at once when it ends, in lower case.
  constexpr std::size_t none = std::string::npos;
  std::size_t start = none;
  const auto flush = [&](std::size_t end) {
    if (start == none) return;
    std::string& word = words.emplace_back(name, start, end - start);
    for (char& c : word)
      if (upper_case(c)) c = static_cast<char>(c - 'A' + 'a');
    start = none;
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool upper = upper_case(c);
    if (!upper && !lower_case(c) && !digit(c)) {
      flush(i);
      continue;
    }
    // A capital starts a word after a lower-case letter or digit (deletePod), or before a
    // lower-case letter after capitals (HTTPRequest -> http request).
    if (upper && start != none &&
        (lower_case(name[i - 1]) || digit(name[i - 1]) || (i + 1 < name.size() && lower_case(name[i + 1]))))
      flush(i);
    if (start == none) start = i;
  }
  flush(name.size());
  return words;
}

Inference classify_name(const std::string& name, bool with_evidence) { return classify(name, "", with_evidence); }

Inference infer_tool(const json& tool) {
  if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string()) return {};
  const std::string description =
      tool.contains("description") && tool["description"].is_string() ? tool["description"].get<std::string>() : "";
  Inference out = classify(tool["name"].get<std::string>(), description);
  const json* props = tool.contains("inputSchema") && tool["inputSchema"].is_object() &&
                              tool["inputSchema"].contains("properties") &&
                              tool["inputSchema"]["properties"].is_object()
                          ? &tool["inputSchema"]["properties"]
                          : nullptr;
  std::string because = out.name_evidence;
  if (const auto op = props ? operation_input(*props) : std::nullopt;
      op && (out.verb_class.empty() || name_model().rank(op->first.verb_class) < name_model().rank(out.verb_class))) {
    out.verb_class = op->first.verb_class;
    out.verb_evidence = op->first.verb_evidence;
    because = because.empty() ? op->second : because + "; " + op->second;
  }
  if (out.verb_class.empty()) return out;
  const VerbClass& found = name_model().classes[name_model().rank(out.verb_class)];
  out.values.push_back({"effect", found.name, {because}});

  // The input schema: risky flags and scope parameters.
  std::vector<std::string> flags;
  std::string radius;
  std::string radius_param;
  const auto& scopes = name_model().scopes;
  if (props) {
    for (const auto& [param, schema] : props->items()) {
      const std::string key = compact(param);
      if (name_model().risky_inputs.count(key)) flags.push_back(param);
      for (std::size_t rank = 0; rank < scopes.size(); ++rank)
        if (scopes[rank].words.count(key)) {
          const auto current =
              std::find_if(scopes.begin(), scopes.end(), [&](const Scope& s) { return s.radius == radius; });
          if (radius.empty() || static_cast<std::size_t>(current - scopes.begin()) < rank) {
            radius = scopes[rank].radius;
            radius_param = param;
          }
        }
    }
  }
  auto grade = std::find(risk_grades().begin(), risk_grades().end(), found.risk) - risk_grades().begin();
  std::vector<std::string> risk_evidence = {because + ": " + found.risk};
  if (!flags.empty() && found.name != "read") {  // a read with --recursive reads more, it does not break more
    grade = std::min<long>(grade + 1, static_cast<long>(risk_grades().size()) - 1);
    std::string list;
    for (const auto& f : flags) list += (list.empty() ? "" : ", ") + ("'" + f + "'");
    risk_evidence.push_back("input " + list + " raises it one grade");
  }
  const std::string risk = risk_grades()[static_cast<std::size_t>(grade)];
  out.values.push_back({"risk", risk, risk_evidence});
  if (!radius.empty())
    out.values.push_back({"blast-radius", radius, {"input '" + radius_param + "' scopes a call to a " + radius}});
  // Confirmation follows the risk; sending outside asks too.
  const std::string confirmation = risk == "critical"                             ? "multi"
                                   : (risk == "high" || found.name == "external") ? "single"
                                                                                  : "none";
  out.values.push_back(
      {"confirmation",
       confirmation,
       {"from the risk (" + risk + ")" + (found.name == "external" ? " and the external effect" : "")}});
  if (found.name == "read") out.values.push_back({"idempotent", true, {"reads repeat without effect"}});
  return out;
}

void validate_inference_target(const std::string& revision_ref, const TranslateOptions& placement) {
  const auto* revision = Vocabulary::builtin().find(revision_ref);
  if (revision_ref == "spec" || (revision && revision->id == "spec")) return;
  if (!revision) {
    std::vector<std::string> known = Vocabulary::builtin().tool_hint_refs();
    known.insert(known.begin(), "spec");
    throw OptionError("target", Vocabulary::builtin().not_found(revision_ref, known));
  }
  if (revision->ref() == "policy-hints@seed") return;  // its keys live in _meta: no placement to choose
  TranslateOptions options = placement;
  options.target = revision;
  validate_translate_options(options);  // the others are reached by translation
}

json apply_inference(const json& tool, const Inference& inference, const std::string& revision_ref,
                     const TranslateOptions& placement) {
  json out = tool;
  if (inference.values.empty() || !out.is_object()) return out;
  auto value_of = [&](const char* facet) -> json {
    const auto* v = inference.find(facet);
    return v ? v->value : json();
  };
  const std::string effect = value_of("effect").get<std::string>();
  auto set_if_absent = [&](const std::vector<std::string>& path, const json& value) {
    if (value.is_null()) return;
    json* at = &out;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
      if (!(*at)[path[i]].is_object()) (*at)[path[i]] = json::object();
      at = &(*at)[path[i]];
    }
    if (!at->contains(path.back())) (*at)[path.back()] = value;
  };
  const auto* revision = Vocabulary::builtin().find(revision_ref);
  if (revision_ref == "spec" || (revision && revision->id == "spec")) {
    set_if_absent({"annotations", "readOnlyHint"}, effect == "read");
    if (effect != "read") set_if_absent({"annotations", "destructiveHint"}, effect == "delete");
    if (effect == "external") set_if_absent({"annotations", "openWorldHint"}, true);
    return out;
  }
  if (!revision) throw OptionError("target", "no vocabulary revision '" + revision_ref + "'");
  if (revision->ref() == "policy-hints@seed") {
    set_if_absent({"_meta", "mcp.dev/effect"}, effect);
    set_if_absent({"_meta", "mcp.dev/idempotent"}, value_of("idempotent"));
    const json confirmation = value_of("confirmation");
    if (!confirmation.is_null()) set_if_absent({"_meta", "mcp.dev/requiresConfirmation"}, confirmation != "none");
    return out;
  }
  // SEP-2793 is the inference's own vocabulary; others are reached by translating from it.
  static const std::map<std::string, std::string> category = {
      {"read", "read"}, {"write", "mutate"}, {"external", "mutate"}, {"delete", "delete"}};
  set_if_absent({"annotations", "category"}, category.at(effect));
  set_if_absent({"annotations", "riskLevel"}, value_of("risk"));
  set_if_absent({"annotations", "blastRadius"}, value_of("blast-radius"));
  set_if_absent({"annotations", "approvalRecommendation"}, value_of("confirmation"));
  // Translation writes them in the target's keys and places them (into itself for SEP-2793).
  TranslateOptions options = placement;
  options.target = revision;
  validate_translate_options(options);
  return translate_tool(out, options).tool;
}

}  // namespace mcp_hints
