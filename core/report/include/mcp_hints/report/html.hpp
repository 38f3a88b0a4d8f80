#pragma once
// The frame every HTML report shares: a self-contained page (no external resources), readable at
// phone width, with one base style that each report may extend.
#include <string>
#include <string_view>

namespace mcp_hints {

// `title` is plain text (escaped here); `body` and `extra_style` are HTML and CSS as given.
std::string html_page(std::string_view title, std::string_view body, std::string_view extra_style = {});

}  // namespace mcp_hints
