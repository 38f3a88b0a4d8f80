// The crosswalk (vocab table) in every format.
#include "mcp_hints/report/crosswalk_table.hpp"

#include <set>

#include "mcp_hints/json/text.hpp"
#include "mcp_hints/report/html.hpp"
#include "mcp_hints/report/report.hpp"

namespace mcp_hints {

using json = nlohmann::json;

std::string crosswalk_values_text(const CrosswalkRow& row) {
  std::string out;
  for (const auto& [value, meaning] : row.values)
    out += (out.empty() ? "" : "; ") + ("`" + value + "`") + (meaning.empty() ? "" : " → " + meaning);
  return out;
}

// "- **result-sensitivity** at-most **result-sensitivity** (result.sensitivity-understated): words"
std::string crosswalk_relation_text(const Relation& r) {
  return "**" + r.message_facet + "** " + r.rule + (r.tool_facet.empty() ? "" : " **" + r.tool_facet + "**") +
         (r.checks.empty() ? "" : " (" + join(r.checks, ", ") + ")") + ": " + r.words;
}

namespace {

// The rows of the tool scope and of the message scope, in the crosswalk's order.
struct Scopes {
  std::vector<const CrosswalkRow*> tool_rows, message_rows;
};
Scopes scopes_of(const std::vector<CrosswalkRow>& rows) {
  Scopes s;
  for (const auto& row : rows) (row.field->is_message_field ? s.message_rows : s.tool_rows).push_back(&row);
  return s;
}

const std::vector<std::string> kToolColumns = {"revision",       "key",      "placement", "type",
                                               "values → facet", "overlaps", "conflicts"};
const std::vector<std::string> kMessageColumns = {"revision",       "key",      "placement",   "type",
                                                  "values → facet", "overlaps", "propagation", "tool side"};

}  // namespace

json crosswalk_json(const Vocabulary& vocabulary) {
  const auto rows = crosswalk_rows(vocabulary);
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
  return out;
}

std::string render_crosswalk_html(const Vocabulary& vocabulary) {
  const auto rows = crosswalk_rows(vocabulary);
  const auto [tool_rows, message_rows] = scopes_of(rows);
  std::set<std::string> revisions;
  auto cells_of = [&](const std::vector<const CrosswalkRow*>& of) {
    std::vector<std::vector<std::string>> cells;
    for (const CrosswalkRow* row : of) {
      revisions.insert(row->revision->ref());
      std::vector<std::string> line = {html_escape(row->revision->ref()),
                                       "<code>" + html_escape(row->field->key) + "</code>",
                                       html_escape(row->placement),
                                       html_escape(row->type),
                                       markdown_inline_html(crosswalk_values_text(*row)),
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
  body += html_table("Every tool field of every revision, and the facet each value means", kToolColumns, tool_cells);
  body += "<h2>Message scope: trust annotations on requests and results</h2>\n<p>" +
          markdown_inline_html(message_scope_rule()) + "</p>\n";
  body += html_table(
      "Every message field of every revision: the facet each value claims, how it travels, and the "
      "tool keys it stands to",
      kMessageColumns, message_cells);
  body += "<h3>How message facets stand to tool facets</h3>\n<ul>\n";
  for (const auto& r : vocabulary.relations())
    body += "<li>" + markdown_inline_html(crosswalk_relation_text(r)) + "</li>\n";
  body += "</ul>\n<h2>Conflicts: same key, different meaning</h2>\n<ul>\n";
  for (const auto& c : vocabulary.conflicts())
    body += "<li><code>" + html_escape(join(c.keys, "; ")) + "</code> (" + html_escape(c.facet) +
            "): " + markdown_inline_html(c.note) + "</li>\n";
  body += "</ul>\n";
  return html_page("mcp-hints crosswalk", body, "code{font-size:90%}");
}

void render_crosswalk_text(std::ostream& out, const Vocabulary& vocabulary, std::string_view aside) {
  const auto rows = crosswalk_rows(vocabulary);
  const auto [tool_rows, message_rows] = scopes_of(rows);
  // For a terminal: a block per field, its lines wrapped at 100 columns, no Markdown marks.
  const auto plain = [](std::string text) {
    for (const std::string mark : {"**", "`"})
      for (auto at = text.find(mark); at != std::string::npos; at = text.find(mark, at)) text.erase(at, mark.size());
    return text;
  };
  const auto line = [&](std::size_t indent, const std::string& text) {
    out << std::string(indent, ' ') << wrap(plain(text), 100 - indent, indent) << "\n";
  };
  std::set<std::string> revisions;
  for (const auto& row : rows) revisions.insert(row.revision->ref());
  line(0, "The crosswalk of tool-safety hints: " + std::to_string(rows.size()) + " fields in " +
              std::to_string(revisions.size()) + " vocabulary revisions, " +
              std::to_string(vocabulary.conflicts().size()) + " conflicts" +
              (aside.empty() ? std::string() : " (" + std::string(aside) + ")") + ".");
  line(0, std::string("Precedence. ") + precedence_rule());
  const auto fields = [&](const std::vector<const CrosswalkRow*>& of) {
    std::string revision;
    for (const CrosswalkRow* row : of) {
      if (row->revision->ref() != revision) {
        revision = row->revision->ref();
        out << "\n" << revision << "\n";
      }
      line(2, row->field->key + "  (" + row->placement + ", " + row->type + ")");
      line(6, crosswalk_values_text(*row));
      if (!row->overlaps.empty()) line(6, "overlaps: " + join(row->overlaps, "; "));
      if (!row->field->is_message_field && !row->conflicts.empty()) line(6, "conflicts: " + join(row->conflicts, "; "));
      if (row->field->is_message_field && !row->propagation.empty()) line(6, "propagation: " + row->propagation);
      if (row->field->is_message_field && !row->relations.empty()) line(6, "tool side: " + join(row->relations, "; "));
    }
  };
  out << "\nTool fields: every field of every revision, and the facet each value means\n";
  fields(tool_rows);
  out << "\nMessage scope: trust annotations on requests and results\n";
  line(0, std::string(message_scope_rule()));
  fields(message_rows);
  out << "\nHow message facets stand to tool facets\n";
  for (const auto& r : vocabulary.relations()) line(2, "- " + crosswalk_relation_text(r));
  out << "\nConflicts: same key, different meaning\n";
  for (const auto& c : vocabulary.conflicts()) line(2, "- " + join(c.keys, "; ") + " (" + c.facet + "): " + c.note);
}

void render_crosswalk_markdown(std::ostream& out, const Vocabulary& vocabulary) {
  const auto rows = crosswalk_rows(vocabulary);
  const auto [tool_rows, message_rows] = scopes_of(rows);
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
           markdown_cell(row.type) + " | " + markdown_cell(crosswalk_values_text(row)) + " | " +
           markdown_cell(join(row.overlaps, "; ")) + " | ";
  };
  out << "# The crosswalk of tool-safety hints\n\n"
      << "Every field of every vocabulary revision, where it lives, its type, each value and the normalized facet it "
         "means; overlaps are other keys with the same facet.\n\n**Precedence.** "
      << precedence_rule() << "\n\n"
      << header(kToolColumns);
  for (const CrosswalkRow* row : tool_rows)
    out << cells(*row) << (row->conflicts.empty() ? "" : "yes, below") << " |\n";
  out << "\n## Message scope: trust annotations on requests and results\n\n"
      << message_scope_rule() << "\n\n"
      << header(kMessageColumns);
  for (const CrosswalkRow* row : message_rows)
    out << cells(*row) << markdown_cell(row->propagation) << " | " << markdown_cell(join(row->relations, "; "))
        << " |\n";
  out << "\n### How message facets stand to tool facets\n\n";
  for (const auto& r : vocabulary.relations()) out << "- " << crosswalk_relation_text(r) << "\n";
  out << "\n## Conflicts: same key, different meaning\n\n";
  for (const auto& c : vocabulary.conflicts())
    out << "- `" << join(c.keys, "; ") << "` (" << c.facet << "): " << c.note << "\n";
}

}  // namespace mcp_hints
