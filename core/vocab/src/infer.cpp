#include "mcp_hints/vocab/infer.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "mcp_hints/vocab/translate.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints {

using json = nlohmann::json;

namespace {

// The verb classes, most consequential first.
struct VerbClass {
  std::string name;  // an effect facet value
  std::string risk;  // its base risk grade
  std::set<std::string> verbs;
};

const std::vector<VerbClass>& verb_classes() {
  static const std::vector<VerbClass> classes = {
      {"delete",
       "high",
       {"delete", "destroy", "drop", "remove", "rm", "rmdir", "purge", "erase", "wipe", "truncate", "terminate", "kill",
        "uninstall", "revoke", "prune", "evict", "unlink", "deregister", "unregister"}},
      {"external", "medium", {"send",   "post",     "publish", "email",  "mail",      "notify",  "share",
                              "tweet",  "message",  "sms",     "invite", "broadcast", "forward", "reply",
                              "upload", "transfer", "pay",     "charge", "tweet",     "webhook"}},
      {"write", "medium", {"create",    "apply",  "update",   "patch",   "set",     "put",     "add",      "write",
                           "edit",      "modify", "scale",    "restart", "deploy",  "install", "move",     "mv",
                           "rename",    "insert", "replace",  "enable",  "disable", "assign",  "approve",  "merge",
                           "commit",    "push",   "run",      "exec",    "execute", "start",   "stop",     "rollback",
                           "rollout",   "label",  "annotate", "copy",    "cp",      "mkdir",   "save",     "import",
                           "sync",      "cordon", "uncordon", "drain",   "reset",   "cancel",  "close",    "archive",
                           "upsert",    "attach", "detach",   "mark",    "tag",     "draft",   "schedule", "register",
                           "configure", "grant",  "lock",     "unlock"}},
      {"read", "low", {"get",     "list",   "describe", "read",     "fetch",     "search",  "query",    "show",
                       "find",    "view",   "watch",    "count",    "check",     "lookup",  "inspect",  "logs",
                       "log",     "status", "stat",     "download", "export",    "tail",    "head",     "diff",
                       "explain", "ls",     "cat",      "grep",     "summarize", "analyze", "validate", "lint",
                       "preview", "browse", "info",     "retrieve", "poll",      "ping",    "whoami",   "print"}},
  };
  return classes;
}

// Words that are verbs first and nouns often ("read_message", "get_email", "list_tags"): they
// count only as the name's first word.
const std::set<std::string>& noun_like() {
  static const std::set<std::string> words = {
      "message", "email", "mail", "post",   "sms",      "tweet",  "webhook", "share",   "transfer", "charge", "log",
      "logs",    "label", "tag",  "draft",  "schedule", "lock",   "status",  "info",    "head",     "tail",   "diff",
      "commit",  "merge", "copy", "export", "download", "upload", "sync",    "archive", "register", "reset",  "print"};
  return words;
}

// Input properties that make a call reach further or bite harder: one grade more risk.
const std::set<std::string>& risky_flags() {
  static const std::set<std::string> flags = {
      "force", "recursive", "cascade",          "allnamespaces", "all",  "purge",
      "prune", "noverify",  "skipverification", "overwrite",     "hard", "includesubdirectories"};
  return flags;
}

// Scope parameters and the blast radius they give, narrowest to widest.
const std::vector<std::pair<std::string, std::set<std::string>>>& scopes() {
  static const std::vector<std::pair<std::string, std::set<std::string>>> list = {
      {"namespace",
       {"namespace", "ns", "project", "folder", "directory", "dir", "mailbox", "channel", "repo", "repository"}},
      {"cluster", {"cluster", "context", "allnamespaces", "node", "region"}},
      {"organization", {"org", "organization", "organisation", "tenant", "account", "workspace", "enterprise"}},
  };
  return list;
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

}  // namespace

const InferredValue* Inference::find(std::string_view facet) const {
  for (const auto& v : values)
    if (v.facet == facet) return &v;
  return nullptr;
}

std::vector<std::string> name_words(const std::string& name) {
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) words.push_back(word);
    word.clear();
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(c)) {
      flush();
      continue;
    }
    // A capital starts a word after a lower-case letter or digit (deletePod), or before a
    // lower-case letter after capitals (HTTPRequest -> http request).
    const bool upper = std::isupper(c);
    if (upper && !word.empty() &&
        (std::islower(static_cast<unsigned char>(name[i - 1])) ||
         std::isdigit(static_cast<unsigned char>(name[i - 1])) ||
         (i + 1 < name.size() && std::islower(static_cast<unsigned char>(name[i + 1])))))
      flush();
    word += static_cast<char>(std::tolower(c));
  }
  flush();
  return words;
}

Inference classify_name(const std::string& name) {
  Inference out;
  out.words = name_words(name);
  // The most consequential class any word of the name belongs to: a name with two verbs
  // ("sync_and_delete") gets the more cautious reading. The evidence is strong when that verb
  // is the name's first word.
  for (const auto& vc : verb_classes()) {
    for (std::size_t i = 0; i < out.words.size(); ++i)
      if (const auto& w = out.words[i]; vc.verbs.count(w) && (i == 0 || !noun_like().count(w))) {
        out.verb = w;
        out.verb_class = vc.name;
        out.strong = i == 0;
        return out;
      }
  }
  return out;
}

Inference infer_tool(const json& tool) {
  if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string()) return {};
  Inference out = classify_name(tool["name"].get<std::string>());
  const auto found_it = std::find_if(verb_classes().begin(), verb_classes().end(),
                                     [&](const VerbClass& vc) { return vc.name == out.verb_class; });
  const VerbClass* found = found_it == verb_classes().end() ? nullptr : &*found_it;
  if (!found) return out;
  const std::string because = std::string(out.strong ? "the name starts with" : "the name contains") + " '" + out.verb +
                              "' (" + found->name + " verbs)";
  out.values.push_back({"effect", found->name, {because}});

  // The input schema: risky flags and scope parameters.
  std::vector<std::string> flags;
  std::string radius;
  std::string radius_param;
  const json* props = tool.contains("inputSchema") && tool["inputSchema"].is_object() &&
                              tool["inputSchema"].contains("properties") &&
                              tool["inputSchema"]["properties"].is_object()
                          ? &tool["inputSchema"]["properties"]
                          : nullptr;
  if (props) {
    for (const auto& [param, schema] : props->items()) {
      const std::string key = compact(param);
      if (risky_flags().count(key)) flags.push_back(param);
      for (std::size_t rank = 0; rank < scopes().size(); ++rank)
        if (scopes()[rank].second.count(key)) {
          const auto current =
              std::find_if(scopes().begin(), scopes().end(), [&](const auto& s) { return s.first == radius; });
          if (radius.empty() || static_cast<std::size_t>(current - scopes().begin()) < rank) {
            radius = scopes()[rank].first;
            radius_param = param;
          }
        }
    }
  }
  auto grade = std::find(risk_grades().begin(), risk_grades().end(), found->risk) - risk_grades().begin();
  std::vector<std::string> risk_evidence = {because + ": " + found->risk};
  if (!flags.empty() && found->name != "read") {  // a read with --recursive reads more, it does not break more
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
  const std::string confirmation = risk == "critical"                              ? "multi"
                                   : (risk == "high" || found->name == "external") ? "single"
                                                                                   : "none";
  out.values.push_back(
      {"confirmation",
       confirmation,
       {"from the risk (" + risk + ")" + (found->name == "external" ? " and the external effect" : "")}});
  if (found->name == "read") out.values.push_back({"idempotent", true, {"reads repeat without effect"}});
  return out;
}

void validate_inference_target(const std::string& revision_ref) {
  const auto* revision = Vocabulary::builtin().find(revision_ref);
  if (revision_ref == "spec" || (revision && revision->id == "spec")) return;
  if (!revision) throw OptionError("target", "no vocabulary revision '" + revision_ref + "'");
  if (revision->ref() == "policy-hints@seed" || revision->ref() == "risk-metadata@sep-2793") return;
  TranslateOptions options;
  options.target = revision;
  validate_translate_options(options);  // the others are reached by translation
}

json apply_inference(const json& tool, const Inference& inference, const std::string& revision_ref) {
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
  if (revision->ref() == "risk-metadata@sep-2793") return out;
  TranslateOptions options;
  options.target = revision;
  validate_translate_options(options);
  return translate_tool(out, options).tool;
}

}  // namespace mcp_hints
