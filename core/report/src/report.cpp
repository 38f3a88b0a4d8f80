#include "mcp_hints/report/report.hpp"

#include "mcp_hints/vocab/vocabulary.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "mcp_hints/checks/checks.hpp"
#include "mcp_hints/checks/suppressions.hpp"
#include "mcp_hints/json/stream_writer.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/json/version.hpp"
#include "mcp_hints/report/trace.hpp"

namespace mcp_hints {
namespace {

using json = nlohmann::json;

const char* colour_of(Level level) {
  switch (level) {
    case Level::error: return "\033[31m";
    case Level::warning: return "\033[33m";
    case Level::info: return "\033[36m";
  }
  return "";
}

std::string counts_text(std::size_t errors, std::size_t warnings, std::size_t infos) {
  return plural(errors, "error") + ", " + plural(warnings, "warning") + ", " + std::to_string(infos) + " info";
}

bool failing(const Finding& f, const ReportOptions& options) { return options.fail_on && f.level >= *options.fail_on; }

// SARIF knows error, warning and note.
const char* sarif_level(Level level) {
  switch (level) {
    case Level::error: return "error";
    case Level::warning: return "warning";
    case Level::info: return "note";
  }
  return "error";
}

// The run's verdict, worst first: it could not finish; its input could not be used; a finding at
// the fail-on level; none. "incomplete", "bad input", "fail", "pass".
std::string verdict_name(const LintReport& report, const ReportOptions& options) {
  if (report.incomplete) return "incomplete";
  if (report.has_input_error()) return "bad input";
  return report.fails(options.fail_on) ? "fail" : "pass";
}

// The verdict as the text summary ends: INCOMPLETE, BAD INPUT, FAIL, or pass.
// A verdict as the text report shows it: upper case unless it is a pass.
std::string shown_verdict(std::string name) {
  if (name != "pass")
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

std::string verdict_text(const LintReport& report, const ReportOptions& options) {
  return shown_verdict(verdict_name(report, options));
}

// Text as a URI reference (RFC 3986): unreserved characters and '/' kept, every other byte
// percent-encoded.
std::string uri_encoded(std::string_view text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += ch;
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

// SARIF's artifactLocation for an input: a file as a relative reference or a file: URI, standard
// input as "stdin", a live server's URL as it is, and a server started by command as its
// program, the whole command line in the description.
json artifact_location(const std::string& file, bool live) {
  if (file == "-") return {{"uri", "stdin"}};
  if (file.starts_with("http://") || file.starts_with("https://")) return {{"uri", file}};
  if (live) {
    const std::string program = file.substr(0, file.find(' '));
    return {{"uri", uri_encoded(program)}, {"description", {{"text", "the server command: " + file}}}};
  }
  return {{"uri", file.starts_with('/') ? "file://" + uri_encoded(file) : uri_encoded(file)}};
}

// Where a check is documented: the table of lint checks in docs/checks.md, of check-server's, or
// of the baseline's and the suppressions file's.
std::string check_help_uri(Scope scope) {
  return std::string(kHomepage) + "/blob/main/docs/checks.md#" +
         (scope == Scope::server ? "live-server-checks"
          : scope == Scope::run  ? "baselines-and-suppressions"
                                 : "lint-checks");
}

// A finding whose check no registry lists is a bug in mcp-hints, not in the input: SARIF and
// JUnit say so, naming the id, rather than file the finding under a wrong rule or drop it.
std::string unknown_check_error(const std::string& id) {
  return "internal error: a finding of check '" + id + "', which no registry lists";
}

// The shape of a call's arguments: each member's name and JSON type, never its value. A report
// is shared (CI artifacts, code scanning) and the values may be secrets or personal data; the
// one who ran the call has them.
json arguments_shape(const json& arguments) {
  json shape = json::object();
  if (arguments.is_object())
    for (const auto& [name, value] : arguments.items()) shape[name] = value.type_name();
  return shape;
}

// "list_pods {namespace: string}": the call as every format names it.
std::string call_name(const ToolCallRecord& call) {
  std::vector<std::string> members;
  const json shape = arguments_shape(call.arguments);
  for (const auto& [name, type] : shape.items()) members.push_back(name + ": " + type.get<std::string>());
  return call.tool + " {" + join(members) + "}";
}

// "list_pods {namespace: string}: succeeded", then what the tool or the server said, if anything.
std::string call_line(const ToolCallRecord& call) {
  return call_name(call) + ": " + outcome_name(call.outcome) + (call.detail.empty() ? "" : ": " + call.detail);
}

// Whether the file is one of the run's inputs: a catalog, or the live server. A finding of a run
// check names the baseline or the suppressions file instead.
bool is_input(const LintReport& report, const std::string& file) {
  return std::any_of(report.files.begin(), report.files.end(), [&](const FileResult& f) { return f.file == file; });
}

// The files findings name beyond the inputs (the baseline, the suppressions file), in order.
std::vector<std::string> other_files(const LintReport& report) {
  std::vector<std::string> out;
  for (const auto& f : report.findings)
    if (!is_input(report, f.file) && std::find(out.begin(), out.end(), f.file) == out.end()) out.push_back(f.file);
  return out;
}

const char* source_name(Suppression::Source source) {
  return source == Suppression::Source::baseline ? "baseline" : "config";
}

// SARIF's suppressions of a result (§3.27.23): kept outside the input ("external"), and accepted.
json sarif_suppressions(const Finding& f) {
  json out = json::array();
  for (const auto& s : f.suppressions)
    out.push_back({{"kind", "external"},
                   {"status", "accepted"},
                   {"justification", s.justification},
                   {"properties", {{"source", source_name(s.source)}}}});
  return out;
}

// "3 findings suppressed, 2 in the baseline", or "" when none is.
std::string suppressed_text(const LintReport& report) {
  const std::size_t n = report.suppressed_count();
  if (n == 0) return {};
  const std::size_t baselined = report.baselined_count();
  return plural(n, "finding") + " suppressed" +
         (baselined ? ", " + std::to_string(baselined) + " in the baseline" : "");
}

}  // namespace

namespace {

// The revisions named by a FileResult::tool_revisions bit set.
std::vector<std::string> revision_refs(std::uint32_t bits) {
  std::vector<std::string> out;
  const auto& revisions = Vocabulary::builtin().revisions();
  for (std::size_t i = 0; i < revisions.size() && i < 32; ++i)
    if (bits & (std::uint32_t{1} << i)) out.push_back(revisions[i].ref());
  return out;
}

// A file's tools' revisions, a list of references a tool (FileResult::tool_revisions): a catalog's
// tools share a few sets of revisions, each spelled once.
void write_tool_revisions(JsonStreamWriter& w, const FileResult& file) {
  std::unordered_map<std::uint32_t, std::vector<std::string>> spelled;
  w.begin_array();
  for (const auto bits : file.tool_revisions) {
    auto it = spelled.find(bits);
    if (it == spelled.end()) it = spelled.emplace(bits, revision_refs(bits)).first;
    w.begin_array();
    for (const auto& ref : it->second) w.text(ref);
    w.end();
  }
  w.end();
}

void write_tool_names(JsonStreamWriter& w, const FileResult& file) {
  w.begin_array();
  for (const auto& name : file.tool_names) w.text(name);
  w.end();
}

// Tools per revision, in the crosswalk's order.
std::vector<std::pair<std::string, std::size_t>> revision_counts(const FileResult& file) {
  std::vector<std::pair<std::string, std::size_t>> out;
  const auto& revisions = Vocabulary::builtin().revisions();
  for (std::size_t i = 0; i < revisions.size() && i < 32; ++i) {
    const auto n = std::count_if(file.tool_revisions.begin(), file.tool_revisions.end(),
                                 [&](std::uint32_t bits) { return bits & (std::uint32_t{1} << i); });
    if (n) out.emplace_back(revisions[i].ref(), static_cast<std::size_t>(n));
  }
  return out;
}

}  // namespace

namespace {

// The pieces of report_json, shared by the DOM and the streamed writer so the two cannot differ:
// what grows with the catalog (each file's tools, the findings) is left out of the heads.
json file_head_json(const FileResult& f) {
  json counts = json::object();
  for (const auto& [ref, n] : revision_counts(f)) counts[ref] = n;
  return {{"file", f.file},
          {"toolCount", f.tool_count},
          {"vocabularies", counts},
          {"error", f.error ? json(*f.error) : json()}};
}

// A finding's members in the order dump writes them, each given to `member` as key and value:
// one list for the report's document and for the report written as it is made.
template <typename Member>
void finding_members(const Finding& f, const LintReport& report, Member&& member) {
  member("check", f.check);
  member("column", f.column);
  member("file", f.file);
  member("level", level_name(f.level));
  member("line", f.line);
  member("message", f.message);
  member("pointer", f.pointer);
  member("proposal", f.proposal);
  member("sentence", enforced_sentence_json(f.check));
  if (report.suppressions_applied) {
    json suppressions = json::array();
    for (const auto& s : f.suppressions)
      suppressions.push_back(
          {{"kind", "external"}, {"source", source_name(s.source)}, {"justification", s.justification}});
    member("suppressions", suppressions);
  }
  member("tool", f.tool);
  member("toolLine", f.tool_line);
}

json finding_json(const Finding& f, const LintReport& report) {
  json finding = json::object();
  finding_members(f, report, [&](const char* key, const auto& value) { finding[key] = value; });
  return finding;
}

void write_finding(JsonStreamWriter& w, const Finding& f, const LintReport& report) {
  w.begin_object();
  finding_members(f, report, [&](const char* key, const auto& value) {
    w.key(key);
    using Value = std::decay_t<decltype(value)>;
    if constexpr (std::is_same_v<Value, std::size_t>)
      w.number(value);
    else if constexpr (std::is_convertible_v<Value, std::string_view>)
      w.text(value);
    else
      w.value(value);
  });
  w.end();
}

json summary_json(const LintReport& report, const ReportOptions& options) {
  return {{"error", report.count(Level::error)},
          {"warning", report.count(Level::warning)},
          {"info", report.count(Level::info)},
          {"suppressed", report.suppressed_count()},
          {"baselined", report.baselined_count()},
          {"failOn", options.fail_on ? json(level_name(*options.fail_on)) : json("never")},
          {"inputErrors",
           std::count_if(report.files.begin(), report.files.end(), [](const auto& f) { return f.error.has_value(); })},
          {"incomplete", report.incomplete ? json(*report.incomplete) : json()},
          {"passed", !report.fails(options.fail_on) && !report.has_input_error() && !report.incomplete},
          {"verdict", verdict_name(report, options)}};
}

json report_head_json(const LintReport& report, const ReportOptions& options) {
  json head = {{"tool", "mcp-hints"},
               {"version", kVersion},
               {"specRevision", report.spec_revision},
               {"toolCount", report.tool_count()},
               {"summary", summary_json(report, options)},
               {"serverLog", report.diagnostics},
               {"protocol",
                report.protocol_version.empty()
                    ? json()
                    : json{{"version", report.protocol_version},
                           {"era", report.protocol_era},
                           {"fallback", report.protocol_fallback.empty() ? json() : json(report.protocol_fallback)}}}};
  if (report.server_checks_ran) {
    json calls = json::array();
    for (const auto& c : report.calls)
      calls.push_back({{"tool", c.tool},
                       {"arguments", arguments_shape(c.arguments)},
                       {"outcome", outcome_name(c.outcome)},
                       {"detail", c.detail}});
    head["calls"] = std::move(calls);
  }
  return head;
}

}  // namespace

json report_json(const LintReport& report, const ReportOptions& options) {
  json out = report_head_json(report, options);
  json& files = out["files"] = json::array();
  for (const auto& f : report.files) {
    json& file = files.emplace_back(file_head_json(f));
    file["tools"] = f.tool_names;
    json& per_tool = file["toolVocabularies"] = json::array();
    for (auto bits : f.tool_revisions) per_tool.push_back(revision_refs(bits));
  }
  json& findings = out["findings"] = json::array();
  for (const auto& f : report.findings) findings.push_back(finding_json(f, report));
  return out;
}

void write_report_json(std::ostream& out, const LintReport& report, const ReportOptions& options) {
  // What grows with the catalog goes element by element: each file's tools, the findings.
  JsonStreamWriter w(out, 2);
  const JsonStreamWriter::Streamed members = {{"files",
                                               [&] {
                                                 w.begin_array();
                                                 for (const auto& f : report.files)
                                                   w.object(file_head_json(f),
                                                            {{"toolVocabularies", [&] { write_tool_revisions(w, f); }},
                                                             {"tools", [&] { write_tool_names(w, f); }}});
                                                 w.end();
                                               }},
                                              {"findings", [&] {
                                                 w.begin_array();
                                                 for (const auto& f : report.findings) write_finding(w, f, report);
                                                 w.end();
                                               }}};
  w.object(report_head_json(report, options), members);
  out << "\n";
}

void render_text(std::ostream& out, const LintReport& report, const ReportOptions& options) {
  auto paint = [&](Level level, std::string_view text) {
    return options.color ? std::string(colour_of(level)) + std::string(text) + "\033[0m" : std::string(text);
  };
  auto bold = [&](std::string_view text) {
    return options.color ? "\033[1m" + std::string(text) + "\033[0m" : std::string(text);
  };
  // The findings a file is shown with: those that count, and the suppressed ones when asked. The
  // findings may be on disk, so each file's are walked for what they count, then for the listing.
  auto shown = [&](const Finding& f, const std::string& file) {
    return f.file == file && (!f.suppressed() || options.show_suppressed);
  };
  // The counts of a file's findings that count, and whether any of its findings is shown.
  auto counts_of = [&](const std::string& file) {
    std::size_t e = 0, w = 0, i = 0;
    bool any = false;
    for (const auto& f : report.findings) {
      if (!shown(f, file)) continue;
      any = true;
      if (!f.suppressed()) (f.level == Level::error ? e : f.level == Level::warning ? w : i)++;
    }
    return std::pair(counts_text(e, w, i), any);
  };
  // Grouped by tool in document order (findings already come in that order).
  auto list = [&](const std::string& file) {
    std::string current;
    for (const auto& f : report.findings) {
      if (!shown(f, file)) continue;
      const std::string tool_key = f.tool + "\n" + std::to_string(f.tool_line);
      // A finding of the baseline or the suppressions file that names no tool stands under its file.
      const bool of_no_tool = f.tool.empty() && !is_input(report, f.file);
      if (tool_key != current && !of_no_tool) {
        current = tool_key;
        out << "  " << bold(f.tool.empty() ? "(unnamed tool)" : visible(f.tool));
        if (f.tool_line) out << "  line " << f.tool_line;
        out << "\n";
      }
      std::string level(level_name(f.level));
      level.resize(7, ' ');
      // file:line:col, the form editors and terminals jump to, where the value is known.
      const std::string at =
          f.line ? visible(f.file) + ":" + std::to_string(f.line) + ":" + std::to_string(f.column) + "  "
                 : std::string();
      out << "    " << (f.suppressed() ? level : paint(f.level, level)) << " " << f.check << "  " << at
          << visible(f.pointer) << "\n"
          << "            " << visible(f.message) << "\n"
          << "            [" << f.proposal << "]\n";
      if (const auto sentence = enforced_sentence_text(f.check); !sentence.empty())
        out << "            -> " << visible(sentence) << "\n";
      for (const auto& why : f.suppressions) out << "            suppressed: " << visible(why.justification) << "\n";
    }
  };
  for (const auto& file : report.files) {
    if (file.error) {
      out << visible(file.file) << ": " << paint(Level::error, "error") << ": " << visible(*file.error) << "\n";
      continue;
    }
    out << bold(visible(file.file)) << ": " << plural(file.tool_count, "tool") << ", " << counts_of(file.file).first
        << "\n";
    // Which revision of each proposal the catalog speaks, detected from the tools' keys.
    if (const auto counts = revision_counts(file); !counts.empty()) {
      out << "  vocabularies:";
      for (std::size_t k = 0; k < counts.size(); ++k)
        out << (k ? ", " : " ") << counts[k].first << " (" << plural(counts[k].second, "tool") << ")";
      out << "\n";
    }
    list(file.file);
  }
  // The baseline and the suppressions file, when a run check found something in them.
  for (const auto& file : other_files(report)) {
    const auto [counts, any] = counts_of(file);
    if (!any) continue;
    out << bold(visible(file)) << ": " << counts << "\n";
    list(file);
  }
  // Every tool called, whatever came of it: a call that passed silently would not be seen.
  if (!report.calls.empty()) {
    out << bold("tools/call") << " (" << plural(report.calls.size(), "call") << ")\n";
    for (const auto& call : report.calls) {
      const bool ok = call.outcome == ToolCallRecord::Outcome::succeeded;
      out << "  " << visible(call_name(call)) << ": "
          << (ok ? std::string(outcome_name(call.outcome)) : paint(Level::error, outcome_name(call.outcome)))
          << (call.detail.empty() ? "" : ": " + visible(call.detail)) << "\n";
    }
  }
  // The findings table: one row per check that fired (suppressed findings are counted below it).
  if (report.findings.size() > report.suppressed_count()) {
    // Each check's findings, and the tools they are in, told apart by file, line and name. The
    // tools are kept as 64-bit hashes (a run with findings in every tool would otherwise hold every
    // name again), and a tool's findings come together, so each tool is mostly kept once.
    std::map<std::string, std::pair<std::size_t, std::vector<std::size_t>>> by_check;
    for (const auto& f : report.findings) {
      if (f.suppressed()) continue;
      auto& [count, tools] = by_check[f.check];
      ++count;
      const std::size_t tool = std::hash<std::string>{}(f.file + "\n" + std::to_string(f.line) + "\n" + f.tool);
      if (tools.empty() || tools.back() != tool) tools.push_back(tool);
    }
    for (auto& [id, row] : by_check) {
      std::sort(row.second.begin(), row.second.end());
      row.second.erase(std::unique(row.second.begin(), row.second.end()), row.second.end());
    }
    out << "\n" << bold("check                                 level    findings  tools") << "\n";
    for (const auto& info : all_checks()) {
      auto it = by_check.find(std::string(info.id));
      if (it == by_check.end()) continue;
      std::string id(info.id), level(level_name(info.level));
      id.resize(std::max<std::size_t>(id.size(), 37), ' ');
      level.resize(8, ' ');
      std::string count = std::to_string(it->second.first);
      count.resize(9, ' ');
      out << id << " " << paint(info.level, level) << " " << count << " " << it->second.second.size() << "\n";
    }
    out << "\n";
  }
  if (!report.protocol_version.empty())
    out << "protocol: " << visible(report.protocol_version) << " (" << report.protocol_era << " era"
        << (report.protocol_fallback.empty() ? "" : "; fell back to it because " + visible(report.protocol_fallback))
        << ")\n";
  if (!report.protocol_version.empty() && report.spec_revision != report.protocol_version)
    out << "tools linted against the specification of " << report.spec_revision << "\n";
  if (report.incomplete) out << paint(Level::error, "incomplete") << ": " << visible(*report.incomplete) << "\n";
  if (const auto suppressed = suppressed_text(report); !suppressed.empty())
    out << suppressed << (options.show_suppressed ? "" : " (not listed)") << "\n";
  const bool fail = report.fails(options.fail_on) || report.has_input_error() || report.incomplete;
  if (fail && !report.diagnostics.empty()) {
    // The server's own words help most when something went wrong: its last stderr lines.
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < report.diagnostics.size()) {
      auto nl = report.diagnostics.find('\n', start);
      lines.push_back(report.diagnostics.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
      if (nl == std::string::npos) break;
      start = nl + 1;
    }
    const std::size_t first = lines.size() > 20 ? lines.size() - 20 : 0;
    out << "server stderr (last " << lines.size() - first << " lines):\n";
    for (std::size_t i = first; i < lines.size(); ++i) out << "  | " << visible(lines[i]) << "\n";
  }
  out << plural(report.files.size(), report.server_checks_ran ? "server" : "file") << ", "
      << plural(report.tool_count(), "tool") << ": "
      << counts_text(report.count(Level::error), report.count(Level::warning), report.count(Level::info)) << " — "
      << (fail ? paint(Level::error, verdict_text(report, options)) : verdict_text(report, options)) << " (fail on "
      << (options.fail_on ? level_name(*options.fail_on) : "never") << ")\n";
}

void render_sarif(std::ostream& out, const LintReport& report, const ReportOptions& options) {
  json rules = json::array();
  std::map<std::string, std::size_t> rule_index;
  for (const auto& info : all_checks()) {
    if (info.scope == Scope::server && !report.server_checks_ran) continue;
    rule_index[std::string(info.id)] = rules.size();
    // fullDescription and help quote the sentence the check enforces, as h2spec quotes its MUST.
    const auto sentence = enforced_sentence_text(info.id);
    const std::string cited = std::string(info.summary) + " [" + std::string(info.proposal) + "]";
    rules.push_back({{"id", info.id},
                     {"name", info.id},
                     {"shortDescription", {{"text", info.summary}}},
                     {"fullDescription", {{"text", sentence.empty() ? cited : sentence}}},
                     {"help", {{"text", sentence.empty() ? cited : cited + "\nEnforces: " + sentence}}},
                     {"helpUri", check_help_uri(info.scope)},
                     {"defaultConfiguration", {{"level", sarif_level(info.level)}}},
                     {"properties", {{"proposal", info.proposal}, {"sentence", enforced_sentence_json(info.id)}}}});
  }
  auto result_json = [&](const Finding& f) {
    json location = {
        {"physicalLocation",
         {{"artifactLocation", artifact_location(f.file, report.server_checks_ran && is_input(report, f.file))}}},
        {"logicalLocations", json::array({{{"fullyQualifiedName", f.pointer}, {"name", f.tool}, {"kind", "object"}}})}};
    if (f.line) location["physicalLocation"]["region"] = {{"startLine", f.line}, {"startColumn", f.column}};
    json result = {{"ruleId", f.check},
                   {"level", sarif_level(f.level)},
                   {"message", {{"text", f.message}}},
                   {"locations", json::array({location})},
                   {"properties", {{"tool", f.tool}, {"pointer", f.pointer}, {"proposal", f.proposal}}}};
    // Once suppressions were applied, every result says whether it is suppressed (an empty
    // array: it is not); before, SARIF's absence says "not judged".
    if (report.suppressions_applied) result["suppressions"] = sarif_suppressions(f);
    // Against a baseline (§3.27.24): in it "unchanged", not in it "new", and a stale entry's
    // finding stands for one that is gone, "absent".
    if (report.baseline_applied)
      result["baselineState"] = f.check == kBaselineStale.id ? "absent" : f.baselined() ? "unchanged" : "new";
    if (const auto rule = rule_index.find(f.check); rule != rule_index.end()) result["ruleIndex"] = rule->second;
    return result;
  };
  // The invocation, which SARIF writes before the results, says which checks no rule describes.
  std::set<std::string> unknown_checks;
  for (const auto& f : report.findings)
    if (!rule_index.count(f.check)) unknown_checks.insert(f.check);
  json notifications = json::array();
  for (const auto& file : report.files)
    if (file.error)
      notifications.push_back(
          {{"level", "error"},
           {"message", {{"text", file.file + ": " + *file.error}}},
           {"locations",
            json::array({{{"physicalLocation",
                           {{"artifactLocation", artifact_location(file.file, report.server_checks_ran)}}}}})}});
  if (report.incomplete)
    notifications.push_back({{"level", "error"}, {"message", {{"text", "incomplete: " + *report.incomplete}}}});
  for (const auto& id : unknown_checks)
    notifications.push_back({{"level", "error"}, {"message", {{"text", unknown_check_error(id)}}}});
  for (const auto& call : report.calls)
    notifications.push_back({{"level", call.outcome == ToolCallRecord::Outcome::succeeded ? "note" : "error"},
                             {"message", {{"text", "tools/call " + call_line(call)}}},
                             {"properties",
                              {{"tool", call.tool},
                               {"arguments", arguments_shape(call.arguments)},
                               {"outcome", outcome_name(call.outcome)}}}});
  const bool successful = !report.has_input_error() && !report.incomplete && unknown_checks.empty();
  const json run = {
      {"tool",
       {{"driver",
         {{"name", "mcp-hints"},
          {"version", kVersion},
          {"semanticVersion", kVersion},
          {"informationUri", kHomepage},
          {"rules", rules}}}}},
      {"invocations",
       json::array({{{"executionSuccessful", successful}, {"toolExecutionNotifications", notifications}}})},
      {"properties",
       {{"specRevision", report.spec_revision}, {"failOn", options.fail_on ? level_name(*options.fail_on) : "never"}}}};
  // One pass over the findings, each result written as it is made.
  JsonStreamWriter w(out, 2);
  const auto results = [&] {
    w.begin_array();
    for (const auto& f : report.findings) w.value(result_json(f));
    w.end();
  };
  const auto runs = [&] {
    w.begin_array();
    w.object(run, {{"results", results}});
    w.end();
  };
  w.object({{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}}, {{"runs", runs}});
  out << "\n";
}

namespace {

// The names given to more than one tool.
std::set<std::string> repeated_names(const std::vector<std::string>& names) {
  std::vector<std::size_t> order(names.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return names[a] < names[b]; });
  std::set<std::string> out;
  for (std::size_t i = 1; i < order.size(); ++i)
    if (names[order[i]] == names[order[i - 1]]) out.insert(names[order[i]]);
  return out;
}

}  // namespace

namespace {

// The JUnit document of one or more reports (check-server --config: one per server), a suite per
// file or server of each.
void render_junit_reports(std::ostream& out, const std::vector<const LintReport*>& reports,
                          const ReportOptions& options) {
  // One testsuite per file (or server), one testcase per tool and tool check, and one per server
  // check in a check-server run: a finding at or above the fail-on level is a failure, one below
  // it, or suppressed (with its justification), is written to the testcase's output.
  const auto checks = all_checks();
  struct Counts {
    std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  };
  // One suite's testcases, counted, and written to `cases` unless it is null: the counts head the
  // suite and the whole document, so a first pass counts and a second writes, and no suite or
  // document is ever held whole.
  auto suite = [&](const LintReport& report, const FileResult& file, std::ostream* cases, Counts& counts) {
    const bool input = is_input(report, file.file);
    auto& [tests, failures, errors, skipped] = counts;
    // `unproven`: a check with no finding that may not have run (the run ended early), so it is
    // skipped, not passed.
    auto testcase = [&](const std::string& classname, std::string_view check, const std::vector<Finding>* found,
                        bool unproven = false) {
      ++tests;
      const bool fail = found && std::any_of(found->begin(), found->end(),
                                             [&](const Finding& f) { return failing(f, options) && !f.suppressed(); });
      skipped += !found && unproven;
      failures += fail;
      if (!cases) return;
      *cases << "    <testcase classname=\"" << html_escape(classname) << "\" name=\"" << html_escape(check) << "\"";
      if (!found && unproven) {
        *cases << "><skipped message=\"not known to have run: the run was incomplete\"/></testcase>\n";
        return;
      }
      if (!found) {
        *cases << "/>\n";
        return;
      }
      std::string text;
      for (const auto& f : *found) {
        text += std::string(level_name(f.level)) + " " + (f.tool.empty() ? "" : f.tool + " ") + f.pointer + ": " +
                f.message + "\n";
        for (const auto& why : f.suppressions) text += "  suppressed: " + why.justification + "\n";
      }
      // A failure's message is its first finding that counts.
      const auto first = std::find_if(found->begin(), found->end(), [](const Finding& f) { return !f.suppressed(); });
      if (fail)
        *cases << "><failure type=\"" << level_name(first->level) << "\" message=\"" << html_escape(first->message)
               << "\">" << html_escape(text) << "</failure></testcase>\n";
      else
        *cases << "><system-out>" << html_escape(text) << "</system-out></testcase>\n";
    };
    auto error_case = [&](const std::string& name, const std::string& message) {
      ++tests;
      ++errors;
      if (cases)
        *cases << "    <testcase classname=\"" << html_escape(file.file) << "\" name=\"" << html_escape(name)
               << "\"><error message=\"" << html_escape(message) << "\"/></testcase>\n";
    };
    if (file.error) error_case("input", *file.error);
    // Tools are told apart by name: findings carry the name of their tool, and a tool's testcases
    // hold the findings of every tool of its name. The findings may be on disk, so they are not
    // gathered tool by tool: those of a name given once are taken as they come, tool after tool
    // in document order (as lint finds them). Only those of a name given twice, or of a run whose
    // findings do not come in that order, are gathered first.
    const std::set<std::string> repeated = repeated_names(file.tool_names);
    const auto of_tool_check = [&](const Finding& f) {
      const auto check = f.file == file.file ? find_check(f.check) : std::nullopt;
      return check && check->scope == Scope::tool;
    };
    std::map<std::string, std::map<std::string, std::vector<Finding>>> gathered;
    std::map<std::string, std::vector<Finding>> by_check;
    std::set<std::string> unknown_checks;
    bool in_order = true;
    std::size_t at = 0;  // the tool of the last finding taken as it comes
    for (const auto& f : report.findings) {
      if (f.file != file.file) continue;
      const auto check = find_check(f.check);
      if (!check) {
        unknown_checks.insert(f.check);
      } else if (check->scope != Scope::tool) {
        by_check[f.check].push_back(f);
      } else if (repeated.count(f.tool)) {
        gathered[f.tool][f.check].push_back(f);
      } else {
        while (at < file.tool_names.size() && file.tool_names[at] != f.tool) ++at;
        in_order = in_order && at < file.tool_names.size();
      }
    }
    if (!in_order)
      for (const auto& f : report.findings)
        if (of_tool_check(f) && !repeated.count(f.tool)) gathered[f.tool][f.check].push_back(f);
    for (const auto& id : unknown_checks) error_case(id, unknown_check_error(id));
    std::set<std::string> seen;  // repeated names, once their testcases are written
    auto next = report.findings.begin();
    std::map<std::string, std::vector<Finding>> taken;  // a once-named tool's findings, by check
    for (const auto& tool : file.tool_names) {
      const std::map<std::string, std::vector<Finding>>* by_tool_check = nullptr;
      if (repeated.count(tool) || !in_order) {
        if (!seen.insert(tool).second) continue;  // duplicate names share their testcases
        const auto it = gathered.find(tool);
        if (it != gathered.end()) by_tool_check = &it->second;
      } else {
        taken.clear();
        for (; next != report.findings.end(); ++next) {
          if (!of_tool_check(*next) || repeated.count(next->tool)) continue;
          if (next->tool != tool) break;
          taken[next->check].push_back(*next);
        }
        by_tool_check = &taken;
      }
      for (const auto& check : checks) {
        if (check.scope != Scope::tool) continue;
        const std::vector<Finding>* found = nullptr;
        if (by_tool_check) {
          auto it = by_tool_check->find(std::string(check.id));
          if (it != by_tool_check->end()) found = &it->second;
        }
        testcase(file.file + "." + (tool.empty() ? "(unnamed tool)" : tool), check.id, found);
      }
    }
    for (const auto& check : checks)
      if (const auto it = by_check.find(std::string(check.id)); check.scope == Scope::run && it != by_check.end())
        testcase(file.file, check.id, &it->second);
    if (report.server_checks_ran && input) {
      for (const auto& check : checks) {
        if (check.scope != Scope::server) continue;
        auto it = by_check.find(std::string(check.id));
        testcase(file.file, check.id, it == by_check.end() ? nullptr : &it->second, report.incomplete.has_value());
      }
      for (std::size_t i = 0; i < report.calls.size(); ++i) {
        const auto& call = report.calls[i];
        const std::string name = "tools/call " + std::to_string(i + 1) + " " + call_name(call);
        if (call.outcome == ToolCallRecord::Outcome::succeeded)
          testcase(file.file, name, nullptr);
        else
          error_case(name, call_line(call));
      }
      if (report.incomplete) error_case("run", "incomplete: " + *report.incomplete);
    }
  };
  // The inputs, then the baseline and the suppressions file when a run check found something in
  // them (a suite of their own, with a testcase per run check that fired).
  std::vector<std::vector<FileResult>> others(reports.size());
  std::vector<std::pair<const LintReport*, const FileResult*>> suites;
  for (std::size_t r = 0; r < reports.size(); ++r) {
    for (const auto& other : other_files(*reports[r]))
      others[r].push_back(FileResult{other, 0, std::nullopt, {}, {}, {}});
    for (const auto& file : reports[r]->files) suites.emplace_back(reports[r], &file);
    for (const auto& file : others[r]) suites.emplace_back(reports[r], &file);
  }
  std::vector<Counts> counts(suites.size());
  Counts total;
  for (std::size_t i = 0; i < suites.size(); ++i) {
    suite(*suites[i].first, *suites[i].second, nullptr, counts[i]);
    total.tests += counts[i].tests;
    total.failures += counts[i].failures;
    total.errors += counts[i].errors;
    total.skipped += counts[i].skipped;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"mcp-hints\" tests=\"" << total.tests << "\" failures=\"" << total.failures
      << "\" errors=\"" << total.errors << "\" skipped=\"" << total.skipped << "\">\n";
  for (std::size_t i = 0; i < suites.size(); ++i) {
    out << "  <testsuite name=\"" << html_escape(suites[i].second->file) << "\" tests=\"" << counts[i].tests
        << "\" failures=\"" << counts[i].failures << "\" errors=\"" << counts[i].errors << "\" skipped=\""
        << counts[i].skipped << "\">\n";
    Counts written;
    suite(*suites[i].first, *suites[i].second, &out, written);
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

}  // namespace

void render_junit(std::ostream& out, const LintReport& report, const ReportOptions& options) {
  render_junit_reports(out, {&report}, options);
}

namespace {

// A workflow command's message: '%', CR and LF escaped, as GitHub's toolkit escapes data.
std::string github_data(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else
      out += c;
  }
  return out;
}

// A workflow command's property value: as data, and ':' and ',' too (they separate properties).
std::string github_property(std::string_view text) {
  std::string out;
  for (const char c : github_data(text)) {
    if (c == ':')
      out += "%3A";
    else if (c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

std::string_view github_command(Level level) {
  return level == Level::error ? "error" : level == Level::warning ? "warning" : "notice";
}

}  // namespace

void render_github(std::ostream& out, const LintReport& report, const ReportOptions&) {
  // The annotation's last line: the sentence the check enforces, as in the text report.
  const auto sentence_data = [](const std::string& check) {
    const auto sentence = enforced_sentence_text(check);
    return sentence.empty() ? std::string() : github_data("\n-> " + sentence);
  };
  // A file GitHub can place: a path in the checkout, not standard input or a live server.
  const auto placeable = [&](const std::string& file) {
    return file != "-" && !(report.server_checks_ran && is_input(report, file));
  };
  for (const auto& f : report.findings) {
    if (f.suppressed()) continue;  // accepted: an annotation would be noise on every pull request
    std::string properties;
    if (placeable(f.file)) {
      properties = "file=" + github_property(visible(f.file));
      if (f.line) properties += ",line=" + std::to_string(f.line) + ",col=" + std::to_string(f.column);
      properties += ",";
    }
    properties += "title=" + github_property(f.check + (f.tool.empty() ? "" : " (" + visible(f.tool) + ")"));
    out << "::" << github_command(f.level) << " " << properties
        << "::" << github_data(visible(f.message) + " [" + f.proposal + "] at " + visible(f.pointer))
        << sentence_data(f.check) << "\n";
  }
  for (const auto& file : report.files)
    if (file.error)
      out << "::error " << (placeable(file.file) ? "file=" + github_property(visible(file.file)) + "," : std::string())
          << "title=mcp-hints: bad input::" << github_data(visible(*file.error)) << "\n";
  if (report.incomplete)
    out << "::error title=mcp-hints: incomplete::" << github_data(visible(*report.incomplete)) << "\n";
  if (const auto suppressed = suppressed_text(report); !suppressed.empty())
    out << "::notice title=mcp-hints: suppressed::" << github_data(suppressed) << "\n";
}

std::string ServerSetReport::verdict(const ReportOptions& options) const {
  std::string worst = "pass";
  for (const auto& part : parts) {
    const std::string v = verdict_name(part.report, options);
    if (v == "incomplete" || (v == "bad input" && worst != "incomplete") || (v == "fail" && worst == "pass")) worst = v;
  }
  return worst;
}

void render_server_set(std::ostream& out, const ServerSetReport& set, const std::string& format,
                       const ReportOptions& options) {
  const auto part_title = [](const ServerSetReport::Part& part) {
    return "server " + visible(part.name) + " (from " + visible(part.config) + ")";
  };
  if (format == "json") {
    json servers = json::array(), disabled = json::array();
    std::map<std::string, std::size_t> counts;
    for (const auto& part : set.parts) {
      ++counts[verdict_name(part.report, options)];
      servers.push_back({{"name", part.name}, {"config", part.config}, {"report", report_json(part.report, options)}});
    }
    for (const auto& left : set.disabled)
      disabled.push_back({{"name", left.name}, {"config", left.config}, {"why", left.why}});
    const std::string verdict = set.verdict(options);
    const json document = {{"tool", "mcp-hints"},
                           {"version", kVersion},
                           {"configs", set.configs},
                           {"servers", std::move(servers)},
                           {"disabled", std::move(disabled)},
                           {"summary",
                            {{"servers", set.parts.size()},
                             {"pass", counts["pass"]},
                             {"fail", counts["fail"]},
                             {"badInput", counts["bad input"]},
                             {"incomplete", counts["incomplete"]},
                             {"failOn", options.fail_on ? json(level_name(*options.fail_on)) : json("never")},
                             {"verdict", verdict},
                             {"passed", verdict == "pass"}}}};
    out << document.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  } else if (format == "sarif") {
    // A run per server, told apart as GitHub code scanning tells categories apart.
    json log;
    for (const auto& part : set.parts) {
      std::ostringstream one;
      render_sarif(one, part.report, options);
      json part_log = json::parse(one.str());
      if (log.is_null()) {
        log = part_log;
        log["runs"] = json::array();
      }
      for (auto& run : part_log["runs"]) {
        run["automationDetails"] = {{"id", "check-server/" + part.name + "/"},
                                    {"description", {{"text", part_title(part)}}}};
        log["runs"].push_back(std::move(run));
      }
    }
    if (log.is_null()) {  // no server: an empty log of its own kind
      std::ostringstream none;
      render_sarif(none, LintReport{}, options);
      log = json::parse(none.str());
      log["runs"] = json::array();
    }
    out << log.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  } else if (format == "junit") {
    std::vector<const LintReport*> reports;
    for (const auto& part : set.parts) reports.push_back(&part.report);
    render_junit_reports(out, reports, options);
  } else if (format == "github") {
    for (const auto& part : set.parts) {
      LintReport named = part.report;  // its incompleteness said with the server's name
      if (named.incomplete) named.incomplete = part_title(part) + ": " + *named.incomplete;
      render_github(out, named, options);
    }
  } else {
    const auto bold = [&](std::string_view text) {
      return options.color ? "\033[1m" + std::string(text) + "\033[0m" : std::string(text);
    };
    std::map<std::string, std::size_t> counts;
    for (const auto& part : set.parts) {
      out << bold("== " + part_title(part) + " ==") << "\n";
      render_text(out, part.report, options);
      out << "\n";
      ++counts[verdict_name(part.report, options)];
    }
    for (const auto& left : set.disabled)
      out << "not checked: server " << visible(left.name) << " (from " << visible(left.config) << "): disabled there ("
          << visible(left.why) << ")\n";
    std::vector<std::string> configs;
    for (const auto& config : set.configs) configs.push_back(visible(config));
    out << "configs read: " << (configs.empty() ? "none" : join(configs, ", ")) << "\n";
    std::vector<std::string> tally;
    for (const char* v : {"pass", "fail", "bad input", "incomplete"})
      if (counts[v]) tally.push_back(std::to_string(counts[v]) + " " + v);
    const std::string verdict = set.verdict(options);
    const std::string shown = shown_verdict(verdict);
    out << plural(set.parts.size(), "server") << (tally.empty() ? "" : ": " + join(tally, ", ")) << " — "
        << (verdict == "pass" || !options.color ? shown : std::string(colour_of(Level::error)) + shown + "\033[0m")
        << " (fail on " << (options.fail_on ? level_name(*options.fail_on) : "never") << ")\n";
  }
}

}  // namespace mcp_hints
