// mcp-hints vocab: the crosswalk for spec editors — list the vocabulary revisions, print the
// crosswalk table, diff two revisions, check a new draft schema against what exists.
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include <boost/program_options.hpp>

#include "commands.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/report/crosswalk_table.hpp"
#include "mcp_hints/report/html.hpp"
#include "mcp_hints/report/report.hpp"
#include "mcp_hints/report/trace.hpp"
#include "mcp_hints/vocab/crosswalk.hpp"
#include "report_output.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;
using json = nlohmann::json;

namespace {

const char* kHelp = R"(usage: mcp-hints vocab list [--format text|json]
       mcp-hints vocab table [--format text|markdown|html|json]
       mcp-hints vocab diff NAME@REV NAME@REV [--format text|json]
       mcp-hints vocab check DRAFT.schema.json [--format text|json]
       mcp-hints vocab trace [--format text|markdown|json|html]

For spec editors: the vocabularies of tool-safety hints as data (schemas/vocabulary.json).
  list    every vocabulary and revision, with its status, source, scope and schema
  table   the crosswalk: every field of every revision, where it lives, its type, each value and
          the normalized facet it means, overlaps (same meaning, another key), conflicts (same
          key, another meaning), and the precedence rule applied when hints disagree; for the
          trust annotations on requests and results, how each claim travels and how it stands
          to what a tool declares; as text (a block per field) unless --format says markdown,
          html or json
  diff    what changed from one revision to another: added, removed, renamed and re-typed
          fields, and changed enum values (e.g. action-security@seed trust-annotations@sep-1913)
  check   a draft schema for tool hints: fields that duplicate an existing facet, enum values
          that already mean something else in another vocabulary, _meta keys that break the
          specification's naming rule
  trace   traceability: every normative sentence of each proposal (MUST, SHOULD, MAY, never,
          always...) quoted with its section, and the checks and scenarios that enforce it, or
          why it is not observable from outside, or a gap; the coverage figure of each proposal

exit codes: 0 done (check: nothing found), 1 check found something, 2 usage error or bad input.
)";

int list(const std::string& format) {
  const auto& vocabulary = Vocabulary::builtin();
  if (format == "json") {
    json out = json::array();
    for (const auto& r : vocabulary.revisions())
      out.push_back({{"vocabulary", r.id},
                     {"revision", r.revision},
                     {"ref", r.ref()},
                     {"title", r.title},
                     {"status", r.status},
                     {"source", r.source},
                     {"scope", r.scope},
                     {"schema", r.schema},
                     {"supersedes", r.supersedes},
                     {"extension", r.extension.empty() ? json() : json(r.extension)},
                     {"fields", vocabulary.fields_of(r).size()}});
    std::cout << out.dump(2) << "\n";
    return pass;
  }
  for (const auto& r : vocabulary.revisions()) {
    std::cout << r.ref() << "  (" << r.scope << ", " << vocabulary.fields_of(r).size() << " fields)\n"
              << "    " << r.title << "\n"
              << "    status: " << r.status << "\n"
              << "    source: " << r.source << "\n"
              << "    schema: schemas/" << r.schema << "\n";
    if (!r.supersedes.empty()) std::cout << "    replaces: " << join(r.supersedes, "; ") << "\n";
  }
  return pass;
}

int table(const std::string& format) {
  const auto& vocabulary = Vocabulary::builtin();
  if (format == "json")
    std::cout << crosswalk_json(vocabulary).dump(2) << "\n";
  else if (format == "html")
    std::cout << render_crosswalk_html(vocabulary);
  else if (format == "text")
    render_crosswalk_text(std::cout, vocabulary, "as a table: --format markdown or html");
  else
    render_crosswalk_markdown(std::cout, vocabulary);
  return pass;
}

int diff(const std::string& a, const std::string& b, const std::string& format) {
  const auto& vocabulary = Vocabulary::builtin();
  const auto* from = vocabulary.find(a);
  const auto* to = vocabulary.find(b);
  for (const auto& [ref, rev] : {std::pair{a, from}, std::pair{b, to}})
    if (!rev) return usage_error("vocab", "diff: " + vocabulary.not_found(ref, vocabulary.refs()));
  const auto d = diff_revisions(vocabulary, *from, *to);
  if (format == "json") {
    auto changes = [](const std::vector<FieldChange>& list) {
      json out = json::array();
      for (const auto& c : list) out.push_back({{"key", c.key}, {"before", c.before}, {"after", c.after}});
      return out;
    };
    std::cout << json{{"from", d.from},
                      {"to", d.to},
                      {"added", d.added},
                      {"removed", d.removed},
                      {"renamed", changes(d.renamed)},
                      {"retyped", changes(d.retyped)},
                      {"values", changes(d.values)},
                      {"notes", d.notes}}
                     .dump(2)
              << "\n";
    return pass;
  }
  std::cout << d.from << " -> " << d.to << (d.empty() ? ": no change\n" : "\n");
  auto section = [](const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    std::cout << "  " << title << ":\n";
    for (const auto& i : items) std::cout << "    " << i << "\n";
  };
  section("also", d.notes);
  section("removed", d.removed);
  section("added", d.added);
  if (!d.renamed.empty()) std::cout << "  renamed:\n";
  for (const auto& c : d.renamed) std::cout << "    " << c.before << " -> " << c.after << "\n";
  if (!d.retyped.empty()) std::cout << "  re-typed:\n";
  for (const auto& c : d.retyped) std::cout << "    " << c.key << ": " << c.before << " -> " << c.after << "\n";
  if (!d.values.empty()) std::cout << "  values changed:\n";
  for (const auto& c : d.values)
    std::cout << "    " << c.key << ": " << c.before << (c.before.empty() || c.after.empty() ? "" : "; ") << c.after
              << "\n";
  return pass;
}

int check(const std::string& path, const std::string& format) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "mcp-hints vocab: " << path << ": cannot open\n";
    return bad_input;
  }
  InputLimits limits;
  limits.max_bytes = std::size_t{64} << 20;
  json draft;
  try {
    draft = parse_json(read_text(in, limits), limits);
  } catch (const InputError& e) {
    return input_error("vocab", path, e);
  }
  std::vector<DraftFinding> findings;
  try {
    findings = check_draft_schema(Vocabulary::builtin(), draft);
  } catch (const InputError& e) {
    return input_error("vocab", path, e);
  }
  if (format == "json") {
    json out = json::array();
    for (const auto& f : findings) out.push_back({{"kind", f.kind}, {"pointer", f.pointer}, {"message", f.message}});
    std::cout << json{{"file", path}, {"findings", out}}.dump(2) << "\n";
  } else {
    std::cout << path << ": " << findings.size() << " finding(s)\n";
    for (const auto& f : findings)
      std::cout << "  " << f.kind << "  " << visible(f.pointer) << "\n      " << visible(f.message) << "\n";
  }
  return findings.empty() ? pass : static_cast<int>(Exit::findings);
}

int trace(const std::string& format) {
  const auto& matrix = Traceability::builtin();
  if (format == "json")
    std::cout << trace_json(matrix).dump(2) << "\n";
  else if (format == "html")
    std::cout << render_trace_html(matrix);
  else if (format == "markdown")
    render_trace_markdown(std::cout, matrix);
  else
    render_trace_text(std::cout, matrix);
  return pass;
}

}  // namespace

int vocab_command(const std::vector<std::string>& args) {
  po::options_description options;
  options.add_options()("help,h", "")("format", po::value<std::string>(), "")(
      "args", po::value<std::vector<std::string>>(), "");
  po::variables_map vm;
  if (const auto exit = parse_command(args, options, kHelp, vm, "args")) return *exit;
  const auto words = vm.count("args") ? vm["args"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (!words.empty() && words[0] == "help") {
    std::cout << kHelp;
    return pass;
  }
  auto usage = [](const std::string& why) { return usage_error("vocab", why + " (try 'mcp-hints vocab --help')"); };
  if (words.empty()) return usage("say what: list, table, diff, check or trace");
  const std::string& what = words[0];
  const std::string format = vm.count("format") ? vm["format"].as<std::string>() : "text";
  auto formats = [&](std::initializer_list<const char*> allowed) {
    for (const char* f : allowed)
      if (format == f) return true;
    return false;
  };
  if (what == "list") {
    if (words.size() != 1) return usage("list takes no argument");
    if (!formats({"text", "json"})) return usage("unknown --format '" + format + "' for list (text, json)");
    return list(format);
  }
  if (what == "table") {
    if (words.size() != 1) return usage("table takes no argument");
    if (!formats({"text", "markdown", "html", "json"}))
      return usage("unknown --format '" + format + "' for table (text, markdown, html, json)");
    return table(format);
  }
  if (what == "diff") {
    if (words.size() != 3) return usage("diff takes two revisions: NAME@REV NAME@REV");
    if (!formats({"text", "json"})) return usage("unknown --format '" + format + "' for diff (text, json)");
    return diff(words[1], words[2], format);
  }
  if (what == "check") {
    if (words.size() != 2) return usage("check takes one draft schema file");
    if (!formats({"text", "json"})) return usage("unknown --format '" + format + "' for check (text, json)");
    return check(words[1], format);
  }
  if (what == "trace") {
    if (words.size() != 1) return usage("trace takes no argument");
    if (!formats({"text", "markdown", "json", "html"}))
      return usage("unknown --format '" + format + "' for trace (text, markdown, json, html)");
    return trace(format);
  }
  return usage("unknown 'vocab " + what + "'");
}

}  // namespace mcp_hints::cli
