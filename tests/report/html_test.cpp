// The HTML frame every report shares (report/html.hpp): the page, the table, inline Markdown.
#include "mcp_hints/report/html.hpp"

#include <gtest/gtest.h>

namespace {

// A page in <main> with its viewport, its style and a way back to the top.
TEST(HtmlPage, EveryReportSharesOneFrame) {
  const std::string page = mcp_hints::html_page("a <b>", "<p>x</p>", ".y{}");
  EXPECT_NE(page.find("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"), std::string::npos);
  EXPECT_NE(page.find("<title>a &lt;b&gt;</title>"), std::string::npos);
  EXPECT_LT(page.find("<main id=\"top\">"), page.find("<p>x</p>"));
  EXPECT_LT(page.find("<p>x</p>"), page.find("<a href=\"#top\">Back to top</a>"));
  EXPECT_NE(page.find(".y{}</style>"), std::string::npos);
  EXPECT_NE(page.find("@media (max-width:600px)"), std::string::npos);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>\n", 0), 0u);
}

// A table with caption, thead and scoped headers, each cell labelled for the stacked phone view;
// inline Markdown rendered, and nothing else in the text becoming markup.
TEST(HtmlPage, TablesAndInlineMarkdown) {
  const std::string table = mcp_hints::html_table("Tools & hints", {"tool", "a<b"}, {{"<code>rm</code>", "x"}}, "t");
  EXPECT_EQ(table,
            "<table class=\"t\"><caption>Tools &amp; hints</caption>\n<thead><tr><th scope=\"col\">tool</th>"
            "<th scope=\"col\">a&lt;b</th></tr></thead>\n<tbody>\n<tr><td data-label=\"tool\"><code>rm</code></td>"
            "<td data-label=\"a&lt;b\">x</td></tr>\n</tbody></table>\n");

  using mcp_hints::markdown_inline_html;
  EXPECT_EQ(markdown_inline_html("use `a<b` and **bold** é"), "use <code>a&lt;b</code> and <b>bold</b> é");
  EXPECT_EQ(markdown_inline_html("`**not bold**`"), "<code>**not bold**</code>");
  EXPECT_EQ(markdown_inline_html("open `code"), "open <code>code</code>");  // closed at the end, never left open
  EXPECT_EQ(markdown_inline_html("**open"), "<b>open</b>");
  EXPECT_EQ(markdown_inline_html("<script>*x*</script>"), "&lt;script&gt;*x*&lt;/script&gt;");
  EXPECT_EQ(markdown_inline_html(""), "");
}

}  // namespace
