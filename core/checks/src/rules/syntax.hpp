#pragma once
// The JSON text of a tool as read, before any meaning: what the value tree cannot show because the
// reader already chose for the client.
// An area of lint checks: its code, then its entries (kChecks). registry.cpp includes it; nothing else does.
#include <array>

#include "mcp_hints/json/input.hpp"
#include "support.hpp"

namespace mcp_hints::rules::syntax {

// RFC 8259, 4: "The names within an object SHOULD be unique"; with a name given twice "the
// behavior of software that receives such an object is unpredictable": some keep the last value
// (as lint does), some the first, some refuse. A hint given twice is read differently by the
// judge and by the client: "readOnlyHint": true then false passes lint as not read-only while a
// first-wins client shows a read-only tool. An error, not a warning: the tool's hints cannot be
// judged at all, whichever value counts.
inline void duplicate_member(const ToolContext& ctx, const FindingSink& sink) {
  for (std::size_t i = 0; i < ctx.duplicates.size(); ++i) {
    const auto& d = ctx.duplicates[i];
    sink.report(d.pointer, d.describe(given_after(ctx.tool, ctx.duplicates, i)) +
                               "; lint judged the last value, a client that keeps the first (or refuses the tool) "
                               "sees another tool: give each name once");
  }
}

inline constexpr auto kChecks = std::to_array<Check>({
    {{"json.duplicate-member", Level::warning,
      "RFC 8259 (JSON), 4. Objects: \"The names within an object SHOULD be unique\"",
      "no member name is given twice in one object of a tool (parsers disagree on which value counts)"},
     &duplicate_member},
});

}  // namespace mcp_hints::rules::syntax
