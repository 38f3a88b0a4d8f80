#include "mcp_hints/report/safety_table.hpp"

#include <algorithm>
#include <functional>
#include <sstream>

#include "mcp_hints/json/parallel_catalog.hpp"
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/report/html.hpp"
#include "mcp_hints/report/report.hpp"
#include "mcp_hints/report/trace.hpp"
#include "mcp_hints/vocab/hint_model.hpp"
#include "mcp_hints/vocab/infer.hpp"
#include "mcp_hints/vocab/vocabulary.hpp"

namespace mcp_hints {

using json = nlohmann::json;

const std::vector<SafetyColumn>& safety_columns() {
  static const std::vector<SafetyColumn> columns = {
      {"effect", {"effect", "outcome"}},
      {"confirmation", {"confirmation", "min-trust"}},
      {"idempotent", {"idempotent"}},
      {"sensitivity", {"result-sensitivity", "result-data"}},
      {"destination", {"destination", "open-world"}},
      {"risk", {"risk", "blast-radius", "reversibility"}},
      {"agency", {"agency"}},
  };
  return columns;
}

namespace {

// One facet: the value a client acts on, with the keys that assert it (or "default").
SafetyCell cell_for(const ToolHints& hints, const std::string& facet, const Vocabulary& vocabulary) {
  const auto resolved = hints.resolved(facet, vocabulary);
  if (!resolved) return {};
  SafetyCell cell;
  if (resolved->is_array()) {
    for (const auto& v : *resolved) cell.value += (cell.value.empty() ? "" : ", ") + value_text(v);
  } else {
    cell.value = value_text(*resolved);
  }
  const auto asserted = hints.asserted(facet);
  if (asserted.empty()) {
    cell.source = "specification default";
    return cell;
  }
  for (const Claim* c : asserted) {
    if (!resolved->is_array() && c->value != *resolved) continue;  // the winning claims only
    const std::string source = describe_source(c->source);
    if (cell.source.find(source) == std::string::npos) cell.source += (cell.source.empty() ? "" : "; ") + source;
  }
  return cell;
}

std::string cell_text(const SafetyCell& cell, const std::string& facet, bool first) {
  if (cell.value.empty()) return "";
  return (first ? "" : facet + " ") + cell.value;
}

}  // namespace

void for_each_safety_row(std::istream& in, const std::string& file, const LintOptions& options, bool infer,
                         const std::function<void(SafetyRow&&)>& each) {
  const auto& vocabulary = Vocabulary::builtin();
  const Linter linter(options);
  const std::function<SafetyRow(CatalogTool &&)> row_of = [&](CatalogTool&& entry) {
    SafetyRow row;
    row.name = entry.tool.is_object() && entry.tool.contains("name") && entry.tool["name"].is_string()
                   ? entry.tool["name"].get<std::string>()
                   : "";
    linter.lint_tool(entry.tool, file, entry.pointer, &entry.positions, row.findings);
    const ToolHints hints = read_tool_hints(entry.tool, vocabulary, options.spec_revision);
    const Inference inference = infer ? infer_tool(entry.tool) : Inference{};
    for (const auto& column : safety_columns()) {
      SafetyCell merged;
      for (std::size_t i = 0; i < column.facets.size(); ++i) {
        SafetyCell c = cell_for(hints, column.facets[i], vocabulary);
        // Where no hint says anything, what the name and schema suggest, marked as such.
        if (const auto* guess = inference.find(column.facets[i]); guess && hints.asserted(column.facets[i]).empty()) {
          c.value = value_text(guess->value);
          c.source = "inferred: " + guess->evidence.front();
        }
        if (c.value.empty()) continue;
        const std::string shown = cell_text(c, column.facets[i], i == 0);
        merged.value += (merged.value.empty() ? "" : "; ") + shown;
        merged.source += (merged.source.empty() ? "" : "; ") + c.source;
      }
      row.cells.push_back(std::move(merged));
    }
    return row;
  };
  read_catalog_in_parallel(in, options.limits, options.jobs, row_of, each);
}

SafetyTable build_safety_table(std::istream& in, const std::string& file, const LintOptions& options, bool infer) {
  SafetyTable table{file, options.spec_revision, {}, infer};
  for_each_safety_row(in, file, options, infer, [&](SafetyRow&& row) { table.rows.push_back(std::move(row)); });
  return table;
}

namespace {

// "error risk.understated ×2; warning placement.annotation-only", in the order they fired.
std::vector<std::pair<std::string, std::size_t>> findings_counted(const SafetyRow& row) {
  std::vector<std::pair<std::string, std::size_t>> out;
  for (const auto& f : row.findings) {
    const std::string label = std::string(level_name(f.level)) + " " + f.check;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == label; });
    if (it == out.end())
      out.emplace_back(label, 1);
    else
      ++it->second;
  }
  return out;
}

std::string findings_text(const SafetyRow& row) {
  std::string out;
  for (const auto& [label, n] : findings_counted(row))
    out += (out.empty() ? "" : "; ") + label + (n > 1 ? " ×" + std::to_string(n) : "");
  return out;
}

}  // namespace

namespace {

std::vector<std::string> html_headers() {
  std::vector<std::string> headers = {"tool"};
  for (const auto& c : safety_columns()) headers.push_back(c.title);
  headers.push_back("findings");
  return headers;
}

// A row's worst finding, suppressed ones included (-1: none): HTML lists failures first.
int worst_level(const SafetyRow& row) {
  int level = -1;
  for (const auto& f : row.findings) level = std::max(level, static_cast<int>(f.level));
  return level;
}

constexpr std::string_view kHtmlCaption =
    "One row per tool, those with findings first: each hint a client acts on, and the keys that say it";

}  // namespace

SafetyTableWriter::SafetyTableWriter(Format format) : format_(format) {
  for (int i = 0; i < (format == Format::html ? 4 : 1); ++i) spills_.push_back(std::make_unique<SpillFile>());
}

void SafetyTableWriter::add(const SafetyRow& row) {
  ++rows_;
  for (const auto& f : row.findings) {
    ++counts_[static_cast<int>(f.level)];
    if (!f.suppressed()) worst_counting_ = std::max(worst_counting_, static_cast<int>(f.level));
  }
  if (format_ == Format::text) {
    // A block per tool: each value, then the keys that say it, wrapped at 100 columns.
    std::ostream& out = spills_.front()->stream();
    out << "\n" << visible(row.name) << "\n";
    const auto& columns = safety_columns();
    for (std::size_t i = 0; i < row.cells.size() && i < columns.size(); ++i) {
      std::string title = columns[i].title;
      title.resize(std::max<std::size_t>(title.size(), 13), ' ');
      const auto& cell = row.cells[i];
      out << "  " << title << " " << (cell.value.empty() ? "—" : wrap(visible(cell.value), 84, 16)) << "\n";
      if (!cell.source.empty()) out << std::string(16, ' ') << wrap(visible(cell.source), 84, 16) << "\n";
    }
    if (const auto findings = findings_text(row); !findings.empty())
      out << "  findings      " << wrap(findings, 84, 16) << "\n";
    return;
  }
  if (format_ == Format::markdown) {
    std::ostream& out = spills_.front()->stream();
    out << "| `" << markdown_cell(row.name) << "` |";
    for (const auto& cell : row.cells) {
      out << ' ';
      if (cell.value.empty())
        out << "—";
      else
        out << markdown_cell(cell.value) << "<br><sub>" << markdown_cell(cell.source) << "</sub>";
      out << " |";
    }
    out << " " << markdown_cell(findings_text(row)) << " |\n";
    return;
  }
  static const std::vector<std::string> headers = html_headers();
  std::vector<std::string> line = {"<code>" + html_escape(row.name) + "</code>"};
  for (const auto& cell : row.cells)
    line.push_back(
        cell.value.empty() ? "—" : html_escape(cell.value) + "<br><small>" + html_escape(cell.source) + "</small>");
  std::string findings;
  for (const auto& f : row.findings)  // each finding with its message, for the reader who reads on
    findings += "<div class=\"" + std::string(level_name(f.level)) + "\"><b>" + std::string(level_name(f.level)) + " " +
                html_escape(f.check) + "</b> " + html_escape(f.message) + enforced_sentence_html(f.check) + "</div>";
  line.push_back(findings);
  // Failures first: errors, then warnings, then info, then none, in catalog order within each.
  spills_[static_cast<std::size_t>(2 - worst_level(row))]->stream() << html_table_row(headers, line);
}

bool SafetyTableWriter::fails_at(Level fail_on) const { return worst_counting_ >= static_cast<int>(fail_on); }

void SafetyTableWriter::finish(std::ostream& out, const std::string& file, const std::string& spec_revision,
                               bool inferred) {
  if (format_ == Format::text) {
    out << "Safety table: " << visible(file) << "\n"
        << wrap(std::to_string(rows_) + (rows_ == 1 ? " tool" : " tools") +
                    "; findings: " + std::to_string(counts_[static_cast<int>(Level::error)]) + " error(s), " +
                    std::to_string(counts_[static_cast<int>(Level::warning)]) + " warning(s), " +
                    std::to_string(counts_[static_cast<int>(Level::info)]) +
                    " info. Each value is what a careful client acts on (the most cautious hint; the "
                    "specification's default where no hint says anything), with the keys that say it below it; "
                    "findings are mcp-hints lint's (specification " +
                    spec_revision + ")." +
                    (inferred ? " Where no hint says anything, values marked inferred come from the tool's name "
                                "and input schema."
                              : ""),
                100)
        << "\n";
    spills_.front()->copy_to(out);
    return;
  }
  if (format_ == Format::markdown) {
    out << "# Safety table: " << file << "\n\n"
        << rows_
        << " tool(s). Each value is what a careful client acts on (the most cautious hint; the specification's "
           "default where no hint says anything), with the keys that say it; findings are mcp-hints lint's "
           "(specification "
        << spec_revision << ")."
        << (inferred
                ? " Where no hint says anything, values marked inferred come from the tool's name and input schema."
                : "")
        << "\n\n| tool |";
    for (const auto& c : safety_columns()) out << " " << c.title << " |";
    out << " findings |\n|---|";
    for (std::size_t i = 0; i < safety_columns().size(); ++i) out << "---|";
    out << "---|\n";
    spills_.front()->copy_to(out);
    return;
  }
  const HtmlFrame frame = html_page_frame("Safety table: " + file,
                                          "small{color:#555}.error{color:#a00}.warning{color:#a60}.info{color:#06a}"
                                          "td{font-size:90%}");
  out << frame.head << "<h1>Safety table: " << html_escape(file) << "</h1>\n<p id=\"verdict\"><b>" << rows_
      << " tool(s); findings: " << counts_[static_cast<int>(Level::error)] << " error(s), "
      << counts_[static_cast<int>(Level::warning)] << " warning(s), " << counts_[static_cast<int>(Level::info)]
      << " info.</b></p>\n<p>"
      << "Each value is what a careful client acts on (the most cautious hint; the specification's default "
         "where no hint says anything), with the keys that say it; findings are mcp-hints lint's "
         "(specification "
      << html_escape(spec_revision) << ")."
      << (inferred ? " Where no hint says anything, values marked inferred come from the tool's name and input "
                     "schema."
                   : "")
      << "</p>\n"
      << html_table_head(kHtmlCaption, html_headers());
  for (auto& spill : spills_) spill->copy_to(out);
  out << kHtmlTableEnd << frame.tail;
}

namespace {

std::string written_whole(const SafetyTable& table, SafetyTableWriter::Format format) {
  SafetyTableWriter writer(format);
  for (const auto& row : table.rows) writer.add(row);
  std::ostringstream out;
  writer.finish(out, table.file, table.spec_revision, table.inferred);
  return out.str();
}

}  // namespace

std::string safety_table_text(const SafetyTable& table) {
  return written_whole(table, SafetyTableWriter::Format::text);
}

std::string safety_table_markdown(const SafetyTable& table) {
  return written_whole(table, SafetyTableWriter::Format::markdown);
}

std::string safety_table_html(const SafetyTable& table) {
  return written_whole(table, SafetyTableWriter::Format::html);
}

}  // namespace mcp_hints
