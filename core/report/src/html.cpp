#include "mcp_hints/report/html.hpp"

#include "mcp_hints/json/text.hpp"

namespace mcp_hints {

namespace {

// The base style. Below 600 px a table becomes one block per row, each cell labelled by its
// header; at any width nothing is wider than the window: words break only where a line would
// overflow, but the small print of a cell (keys, JSON pointers) and preformatted JSON break anywhere,
// so that no key sets a column's width.
constexpr std::string_view kBaseStyle =
    "body{font-family:system-ui,sans-serif;margin:0;line-height:1.4;overflow-wrap:break-word}"
    "main{margin:0 auto;padding:1em;max-width:90em}"
    "table{border-collapse:collapse;width:100%;margin:.5em 0}"
    "caption{text-align:left;font-weight:bold;padding:.25em 0}"
    "td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top;overflow-wrap:break-word}"
    "th{background:#f3f3f3;white-space:nowrap}"
    "code{overflow-wrap:break-word}pre,td small{overflow-wrap:anywhere}pre{white-space:pre-wrap}"
    "pre{background:#f6f6f6;padding:.5em;max-width:100%;box-sizing:border-box}"
    ".top{font-size:90%}"
    "@media (max-width:600px){main{padding:.5em}"
    "table,thead,tbody,tr,th,td,caption{display:block;width:auto}"
    "thead tr{position:absolute;left:-9999px}"
    "tr{border:1px solid #ccc;margin:.5em 0}"
    "td{border:none;border-bottom:1px solid #eee}"
    "td[data-label]::before{content:attr(data-label);display:block;font-weight:bold;font-size:85%;color:#555}}";

}  // namespace

HtmlFrame html_page_frame(std::string_view title, std::string_view extra_style) {
  HtmlFrame frame;
  frame.head =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>";
  frame.head += html_escape(title);
  frame.head += "</title>\n<style>";
  frame.head += kBaseStyle;
  frame.head += extra_style;
  frame.head += "</style></head><body>\n<main id=\"top\">\n";
  frame.tail = "<p class=\"top\"><a href=\"#top\">Back to top</a></p>\n</main></body></html>\n";
  return frame;
}

std::string html_page(std::string_view title, std::string_view body, std::string_view extra_style) {
  const HtmlFrame frame = html_page_frame(title, extra_style);
  std::string out = frame.head;
  out += body;
  return out + frame.tail;
}

std::string html_table_head(std::string_view caption, const std::vector<std::string>& headers,
                            std::string_view css_class) {
  std::string out = "<table" + (css_class.empty() ? std::string() : " class=\"" + std::string(css_class) + "\"") +
                    "><caption>" + html_escape(caption) + "</caption>\n<thead><tr>";
  for (const auto& h : headers) out += "<th scope=\"col\">" + html_escape(h) + "</th>";
  return out + "</tr></thead>\n<tbody>\n";
}

std::string html_table_row(const std::vector<std::string>& headers, const std::vector<std::string>& row) {
  std::string out = "<tr>";
  for (std::size_t i = 0; i < row.size(); ++i)
    out +=
        "<td data-label=\"" + (i < headers.size() ? html_escape(headers[i]) : std::string()) + "\">" + row[i] + "</td>";
  return out + "</tr>\n";
}

std::string html_table(std::string_view caption, const std::vector<std::string>& headers,
                       const std::vector<std::vector<std::string>>& rows, std::string_view css_class) {
  std::string out = html_table_head(caption, headers, css_class);
  for (const auto& row : rows) out += html_table_row(headers, row);
  return out += kHtmlTableEnd;
}

std::string markdown_inline_html(std::string_view text) {
  std::string out;
  bool in_code = false, in_bold = false;
  std::size_t plain = 0;  // start of the text not yet written (escaped whole: UTF-8 stays intact)
  auto flush = [&](std::size_t end) { out += html_escape(text.substr(plain, end - plain)); };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool tick = text[i] == '`', stars = !in_code && text.substr(i, 2) == "**";
    if (!tick && !stars) continue;
    flush(i);
    if (tick) {
      out += in_code ? "</code>" : "<code>";
      in_code = !in_code;
    } else {
      out += in_bold ? "</b>" : "<b>";
      in_bold = !in_bold;
      ++i;
    }
    plain = i + 1;
  }
  flush(text.size());
  if (in_code) out += "</code>";
  if (in_bold) out += "</b>";
  return out;
}

}  // namespace mcp_hints
