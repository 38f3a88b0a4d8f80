#pragma once
// The frame every HTML report shares: a self-contained page (no external resources) inside
// <main>, with a back-to-top link, readable at any width (tables stack into labelled blocks below
// 600 px, long words and JSON wrap), with one base style that each report may extend; and the one
// way to write a table (caption, thead, th scope, a data-label on every cell for the stacked view).
#include <string>
#include <string_view>
#include <vector>

namespace mcp_hints {

// `title` is plain text (escaped here); `body` and `extra_style` are HTML and CSS as given.
std::string html_page(std::string_view title, std::string_view body, std::string_view extra_style = {});
// The same page split where its body goes, for a body written as it is made: head, body, tail.
struct HtmlFrame {
  std::string head, tail;
};
HtmlFrame html_page_frame(std::string_view title, std::string_view extra_style = {});

// A table: `caption` and `headers` are plain text; each row's cells are HTML as given, one per
// header. Each cell carries its header as data-label, so the stacked (phone) view names it.
std::string html_table(std::string_view caption, const std::vector<std::string>& headers,
                       const std::vector<std::vector<std::string>>& rows, std::string_view css_class = {});
// The same table in pieces, for rows written as they are made: its head (up to <tbody>), each
// row, and its end.
std::string html_table_head(std::string_view caption, const std::vector<std::string>& headers,
                            std::string_view css_class = {});
std::string html_table_row(const std::vector<std::string>& headers, const std::vector<std::string>& row);
inline constexpr std::string_view kHtmlTableEnd = "</tbody></table>\n";

// Text written with the inline Markdown our messages use — `code` and **bold** — as HTML:
// escaped first, so nothing in the text becomes markup but those two.
std::string markdown_inline_html(std::string_view text);

}  // namespace mcp_hints
