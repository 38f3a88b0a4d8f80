#include "mcp_hints/report/html.hpp"

#include "mcp_hints/json/text.hpp"

namespace mcp_hints {

std::string html_page(std::string_view title, std::string_view body, std::string_view extra_style) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>";
  out += html_escape(title);
  out +=
      "</title>\n<style>body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}"
      "td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}";
  out += extra_style;
  out += "</style></head><body>\n";
  out += body;
  out += "</body></html>\n";
  return out;
}

}  // namespace mcp_hints
