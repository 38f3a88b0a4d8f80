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

std::string values_text(const CrosswalkRow& row) {
  std::string out;
  for (const auto& [value, meaning] : row.values)
    out += (out.empty() ? "" : "; ") + ("`" + value + "`") + (meaning.empty() ? "" : " → " + meaning);
  return out;
}

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

// "- **result-sensitivity** at-most **result-sensitivity** (result.sensitivity-understated): words"
std::string relation_text(const Relation& r) {
  return "**" + r.message_facet + "** " + r.rule + (r.tool_facet.empty() ? "" : " **" + r.tool_facet + "**") +
         (r.checks.empty() ? "" : " (" + join(r.checks, ", ") + ")") + ": " + r.words;
}

int table(const std::string& format) {
  const auto& vocabulary = Vocabulary::builtin();
  const auto rows = crosswalk_rows(vocabulary);
  if (format == "json") {
    json out = {{"precedence", precedence_rule()},
                {"messageScope", message_scope_rule()},
                {"fields", json::array()},
                {"relations", json::array()},
                {"conflicts", json::array()}};
    for (const auto& row : rows) {
      json values = json::array();
      for (const auto& [value, meaning] : row.values) values.push_back({{"value", value}, {"means", meaning}});
      out["fields"].push_back({{"revision", row.revision->ref()},
                               {"key", row.field->key},
                               {"scope", row.field->is_message_field ? "message" : "tool"},
                               {"pointer", row.field->pointer_text},
                               {"placement", row.placement},
                               {"type", row.type},
                               {"values", values},
                               {"facets", row.facets},
                               {"overlaps", row.overlaps},
                               {"conflicts", row.conflicts},
                               {"propagation", row.propagation},
                               {"relations", row.relations}});
    }
    for (const auto& r : vocabulary.relations())
      out["relations"].push_back({{"message", r.message_facet},
                                  {"tool", r.tool_facet},
                                  {"rule", r.rule},
                                  {"words", r.words},
                                  {"checks", r.checks}});
    for (const auto& c : vocabulary.conflicts())
      out["conflicts"].push_back({{"keys", c.keys}, {"facet", c.facet}, {"note", c.note}});
    std::cout << out.dump(2) << "\n";
    return pass;
  }
  std::vector<const CrosswalkRow*> tool_rows, message_rows;
  for (const auto& row : rows) (row.field->is_message_field ? message_rows : tool_rows).push_back(&row);
  const std::vector<std::string> tool_columns = {"revision",       "key",      "placement", "type",
                                                 "values → facet", "overlaps", "conflicts"};
  const std::vector<std::string> message_columns = {"revision",       "key",      "placement",   "type",
                                                    "values → facet", "overlaps", "propagation", "tool side"};
  if (format == "html") {
    std::set<std::string> revisions;
    auto cells_of = [&](const std::vector<const CrosswalkRow*>& of) {
      std::vector<std::vector<std::string>> cells;
      for (const CrosswalkRow* row : of) {
        revisions.insert(row->revision->ref());
        std::vector<std::string> line = {html_escape(row->revision->ref()),
                                         "<code>" + html_escape(row->field->key) + "</code>",
                                         html_escape(row->placement),
                                         html_escape(row->type),
                                         markdown_inline_html(values_text(*row)),
                                         markdown_inline_html(join(row->overlaps, "; "))};
        if (row->field->is_message_field)
          line.insert(line.end(), {html_escape(row->propagation), markdown_inline_html(join(row->relations, "; "))});
        else
          line.push_back(markdown_inline_html(join(row->conflicts, "; ")));
        cells.push_back(std::move(line));
      }
      return cells;
    };
    const auto tool_cells = cells_of(tool_rows), message_cells = cells_of(message_rows);
    std::string body = "<h1>The crosswalk of tool-safety hints</h1>\n<p id=\"verdict\"><b>" +
                       std::to_string(rows.size()) + " fields in " + std::to_string(revisions.size()) +
                       " vocabulary revisions; " + std::to_string(vocabulary.conflicts().size()) +
                       " conflicts.</b> <b>Precedence.</b> " + markdown_inline_html(precedence_rule()) + "</p>\n";
    body += html_table("Every tool field of every revision, and the facet each value means", tool_columns, tool_cells);
    body += "<h2>Message scope: trust annotations on requests and results</h2>\n<p>" +
            markdown_inline_html(message_scope_rule()) + "</p>\n";
    body += html_table(
        "Every message field of every revision: the facet each value claims, how it travels, and the "
        "tool keys it stands to",
        message_columns, message_cells);
    body += "<h3>How message facets stand to tool facets</h3>\n<ul>\n";
    for (const auto& r : vocabulary.relations()) body += "<li>" + markdown_inline_html(relation_text(r)) + "</li>\n";
    body += "</ul>\n<h2>Conflicts: same key, different meaning</h2>\n<ul>\n";
    for (const auto& c : vocabulary.conflicts())
      body += "<li><code>" + html_escape(join(c.keys, "; ")) + "</code> (" + html_escape(c.facet) +
              "): " + markdown_inline_html(c.note) + "</li>\n";
    body += "</ul>\n";
    std::cout << html_page("mcp-hints crosswalk", body, "code{font-size:90%}");
    return pass;
  }
  if (format == "text") {
    // For a terminal: a block per field, its lines wrapped at 100 columns, no Markdown marks.
    const auto plain = [](std::string text) {
      for (const std::string mark : {"**", "`"})
        for (auto at = text.find(mark); at != std::string::npos; at = text.find(mark, at)) text.erase(at, mark.size());
      return text;
    };
    const auto line = [&](std::size_t indent, const std::string& text) {
      std::cout << std::string(indent, ' ') << wrap(plain(text), 100 - indent, indent) << "\n";
    };
    std::set<std::string> revisions;
    for (const auto& row : rows) revisions.insert(row.revision->ref());
    line(0, "The crosswalk of tool-safety hints: " + std::to_string(rows.size()) + " fields in " +
                std::to_string(revisions.size()) + " vocabulary revisions, " +
                std::to_string(vocabulary.conflicts().size()) + " conflicts (as a table: --format markdown or html).");
    line(0, std::string("Precedence. ") + precedence_rule());
    const auto fields = [&](const std::vector<const CrosswalkRow*>& of) {
      std::string revision;
      for (const CrosswalkRow* row : of) {
        if (row->revision->ref() != revision) {
          revision = row->revision->ref();
          std::cout << "\n" << revision << "\n";
        }
        line(2, row->field->key + "  (" + row->placement + ", " + row->type + ")");
        line(6, values_text(*row));
        if (!row->overlaps.empty()) line(6, "overlaps: " + join(row->overlaps, "; "));
        if (!row->field->is_message_field && !row->conflicts.empty())
          line(6, "conflicts: " + join(row->conflicts, "; "));
        if (row->field->is_message_field && !row->propagation.empty()) line(6, "propagation: " + row->propagation);
        if (row->field->is_message_field && !row->relations.empty())
          line(6, "tool side: " + join(row->relations, "; "));
      }
    };
    std::cout << "\nTool fields: every field of every revision, and the facet each value means\n";
    fields(tool_rows);
    std::cout << "\nMessage scope: trust annotations on requests and results\n";
    line(0, std::string(message_scope_rule()));
    fields(message_rows);
    std::cout << "\nHow message facets stand to tool facets\n";
    for (const auto& r : vocabulary.relations()) line(2, "- " + relation_text(r));
    std::cout << "\nConflicts: same key, different meaning\n";
    for (const auto& c : vocabulary.conflicts()) line(2, "- " + join(c.keys, "; ") + " (" + c.facet + "): " + c.note);
    return pass;
  }
  auto header = [](const std::vector<std::string>& columns) {
    std::string line = "|", rule = "|";
    for (const auto& c : columns) {
      line += " " + c + " |";
      rule += "---|";
    }
    return line + "\n" + rule + "\n";
  };
  auto cells = [](const CrosswalkRow& row) {
    return "| " + row.revision->ref() + " | `" + markdown_cell(row.field->key) + "` | " + row.placement + " | " +
           markdown_cell(row.type) + " | " + markdown_cell(values_text(row)) + " | " +
           markdown_cell(join(row.overlaps, "; ")) + " | ";
  };
  std::cout
      << "# The crosswalk of tool-safety hints\n\n"
      << "Every field of every vocabulary revision, where it lives, its type, each value and the normalized facet it "
         "means; overlaps are other keys with the same facet.\n\n**Precedence.** "
      << precedence_rule() << "\n\n"
      << header(tool_columns);
  for (const CrosswalkRow* row : tool_rows)
    std::cout << cells(*row) << (row->conflicts.empty() ? "" : "yes, below") << " |\n";
  std::cout << "\n## Message scope: trust annotations on requests and results\n\n"
            << message_scope_rule() << "\n\n"
            << header(message_columns);
  for (const CrosswalkRow* row : message_rows)
    std::cout << cells(*row) << markdown_cell(row->propagation) << " | " << markdown_cell(join(row->relations, "; "))
              << " |\n";
  std::cout << "\n### How message facets stand to tool facets\n\n";
  for (const auto& r : vocabulary.relations()) std::cout << "- " << relation_text(r) << "\n";
  std::cout << "\n## Conflicts: same key, different meaning\n\n";
  for (const auto& c : vocabulary.conflicts())
    std::cout << "- `" << join(c.keys, "; ") << "` (" << c.facet << "): " << c.note << "\n";
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
