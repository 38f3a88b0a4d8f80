#include "mcp_hints/checks/suppressions.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

#include "mcp_hints/json/text.hpp"
#include "mcp_hints/json/version.hpp"
#include "mcp_hints/vocab/published_schemas.hpp"
#include "mcp_hints/vocab/trust_annotations.hpp"

namespace mcp_hints {
namespace {

using json = nlohmann::json;

// A file of ours read within its bound, parsed by the bounded reader and held to its schema.
json read_checked(const std::string& path, std::size_t max_bytes, const std::string& schema, const std::string& what) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError("not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot be read");
  std::string text(max_bytes + 1, '\0');  // one byte past the bound is enough to refuse the file
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  InputLimits limits;
  limits.max_bytes = max_bytes;
  json doc = parse_json(text, limits);
  const auto violations = published_schemas().validate(schema, doc);
  if (!violations.empty())
    throw InputError("not " + what + ": " + violations.front().message, violations.front().pointer);
  return doc;
}

bool is_glob(std::string_view text) { return text.find_first_of("*?") != std::string_view::npos; }

// The check ids of the registry a rule's check id (or glob) names.
std::vector<CheckInfo> checks_named(std::string_view glob) {
  std::vector<CheckInfo> out;
  for (const auto& c : all_checks())
    if (glob_matches(glob, c.id)) out.push_back(c);
  return out;
}

// Whether a finding of this check could have been seen by this run: a server check only in
// check-server; an id no check has any more (a baseline of an older version) always, so that its
// entry is reported stale.
bool ran(const LintReport& report, std::string_view id) {
  const auto check = find_check(id);
  return !check || check->scope != Scope::server || report.server_checks_ran;
}

Finding run_finding(const CheckInfo& check, const std::string& file, std::string tool, std::string pointer,
                    std::string message) {
  return Finding{std::string(check.id),       check.level, file, std::move(tool),
                 std::move(pointer),          0,           0,    std::move(message),
                 std::string(check.proposal), 0,           "",   {}};
}

std::size_t utf8_length(unsigned char lead) { return lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1; }

}  // namespace

bool glob_matches(std::string_view glob, std::string_view text) {
  // Greedy with one backtrack point, the last '*': linear in practice, never exponential.
  std::size_t g = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (g < glob.size() && glob[g] == '*') {
      star = g++;
      resume = t;
    } else if (g < glob.size() && glob[g] == '?') {
      ++g;
      t += std::min(utf8_length(static_cast<unsigned char>(text[t])), text.size() - t);
    } else if (g < glob.size() && glob[g] == text[t]) {
      ++g;
      ++t;
    } else if (star != std::string_view::npos) {
      g = star + 1;
      resume += utf8_length(static_cast<unsigned char>(text[resume]));
      t = std::min(resume, text.size());
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

namespace {

// Fingerprints findings one after another: the place a finding's key takes is below its tool, and
// the nth finding of the same check, tool and place is occurrence n.
class Fingerprinter {
 public:
  std::string next(const Finding& f) {
    const bool below_tool = !f.tool_pointer.empty() && f.pointer.starts_with(f.tool_pointer);
    std::string pointer = below_tool ? f.pointer.substr(f.tool_pointer.size()) : f.pointer;
    const std::size_t occurrence = seen_[{f.check, f.tool, pointer}]++;
    const json key = {{"check", f.check}, {"tool", f.tool}, {"pointer", pointer}, {"occurrence", occurrence}};
    return evidence_digest(key, "jcs/rfc8785");
  }

 private:
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> seen_;
};

}  // namespace

std::vector<std::string> fingerprints(const FindingList& findings) {
  Fingerprinter prints;
  std::vector<std::string> out;
  out.reserve(findings.size());
  for (const auto& f : findings) out.push_back(prints.next(f));
  return out;
}

json baseline_json(const LintReport& report, std::string_view command) {
  Fingerprinter prints;
  std::vector<BaselineEntry> entries;
  for (const auto& f : report.findings) {
    std::string print = prints.next(f);
    const auto check = find_check(f.check);
    if (check && check->scope == Scope::run) continue;
    if (std::any_of(f.suppressions.begin(), f.suppressions.end(),
                    [](const Suppression& s) { return s.source == Suppression::Source::config; }))
      continue;
    entries.push_back({f.check, f.tool, std::move(print), f.message});
  }
  std::sort(entries.begin(), entries.end(), [](const BaselineEntry& a, const BaselineEntry& b) {
    return std::tie(a.check, a.tool, a.fingerprint) < std::tie(b.check, b.tool, b.fingerprint);
  });
  json list = json::array();
  for (const auto& e : entries)
    list.push_back({{"checkId", e.check}, {"tool", e.tool}, {"fingerprint", e.fingerprint}, {"message", e.message}});
  return {{"tool", "mcp-hints"},
          {"version", kVersion},
          {"formatVersion", 1},
          {"command", std::string(command)},
          {"entries", std::move(list)}};
}

Baseline read_baseline(const std::string& path) {
  const json doc = read_checked(path, kMaxBaselineBytes, "lint-baseline.schema.json", "a baseline");
  Baseline baseline{path, {}};
  std::map<std::string, std::size_t> index;
  for (const auto& e : doc["entries"]) {
    const std::string fingerprint = e["fingerprint"];
    if (const auto [it, fresh] = index.emplace(fingerprint, baseline.entries.size()); !fresh)
      throw InputError("not a baseline: fingerprint " + fingerprint + " is given twice (entries " +
                           std::to_string(it->second) + " and " + std::to_string(baseline.entries.size()) + ")",
                       "/entries/" + std::to_string(baseline.entries.size()));
    baseline.entries.push_back({e["checkId"], e["tool"], fingerprint, e["message"]});
  }
  return baseline;
}

SuppressionsFile read_suppressions(const std::string& path) {
  const json doc = read_checked(path, kMaxSuppressionsBytes, "config.schema.json", "a configuration");
  SuppressionsFile file{path, {}};
  std::vector<std::string> ids;
  for (const auto& c : all_checks()) ids.emplace_back(c.id);
  for (const auto& s : doc.value("suppressions", json::array())) {
    SuppressionRule rule{s["checkId"], s.value("tool", "*"), s["reason"]};
    const std::string pointer = "/suppressions/" + std::to_string(file.rules.size()) + "/checkId";
    if (checks_named(rule.check).empty())
      throw InputError(is_glob(rule.check) ? "no check matches '" + rule.check + "'"
                                           : "no check has the id '" + rule.check + "'" + did_you_mean(rule.check, ids),
                       pointer);
    file.rules.push_back(std::move(rule));
  }
  return file;
}

void apply_suppressions(LintReport& report, const Baseline* baseline, const SuppressionsFile* suppressions) {
  report.suppressions_applied = true;
  const bool judged = !report.incomplete && !report.has_input_error();
  if (baseline) {
    report.baseline_applied = true;
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < baseline->entries.size(); ++i) index.emplace(baseline->entries[i].fingerprint, i);
    std::vector<bool> used(baseline->entries.size(), false);
    Fingerprinter prints;
    report.findings.update([&](Finding& f) {
      const auto it = index.find(prints.next(f));
      if (it == index.end()) return;
      used[it->second] = true;
      f.suppressions.push_back({Suppression::Source::baseline, "in the baseline " + baseline->file});
    });
    for (std::size_t i = 0; judged && i < baseline->entries.size(); ++i) {
      const auto& e = baseline->entries[i];
      if (used[i] || !ran(report, e.check)) continue;
      const std::string why = find_check(e.check) ? "it was fixed, or changed where it is"
                                                  : "no check has the id '" + e.check + "' any more";
      report.findings.push_back(
          run_finding(kBaselineStale, baseline->file, e.tool, "/entries/" + std::to_string(i),
                      "the baseline's " + e.check + " finding" + (e.tool.empty() ? "" : " of " + e.tool) +
                          " matches no finding of this run (" + why + "; it said: " + shorten(e.message, 200) +
                          "): write the baseline again"));
    }
  }
  if (!suppressions) return;
  std::vector<bool> used(suppressions->rules.size(), false);
  report.findings.update([&](Finding& f) {
    for (std::size_t r = 0; r < suppressions->rules.size(); ++r) {
      const auto& rule = suppressions->rules[r];
      if (!glob_matches(rule.check, f.check) || !glob_matches(rule.tool, f.tool)) continue;
      used[r] = true;
      f.suppressions.push_back({Suppression::Source::config, rule.reason});
      break;  // one reason is enough: the first rule that matches gives it
    }
  });
  for (std::size_t r = 0; judged && r < suppressions->rules.size(); ++r) {
    const auto& rule = suppressions->rules[r];
    const auto named = checks_named(rule.check);
    if (used[r] || std::none_of(named.begin(), named.end(), [&](const CheckInfo& c) { return ran(report, c.id); }))
      continue;
    report.findings.push_back(run_finding(kSuppressionUnused, suppressions->file, "",
                                          "/suppressions/" + std::to_string(r),
                                          "the suppression of " + rule.check + " for tools matching '" + rule.tool +
                                              "' matches no finding of this run: remove it"));
  }
}

}  // namespace mcp_hints
