#pragma once
// Vocabulary revisions: a tool speaks one revision of each vocabulary, the pinned one when --vocab pins it.
// An area of lint checks: its code, then its entries (kChecks). registry.cpp includes it; nothing else does.
#include <array>
#include <string>

#include "mcp_hints/json/input.hpp"
#include "support.hpp"

namespace mcp_hints::rules::vocab_revisions {

// The keys of a revision a tool carries, for messages ("inputMetadata.Destination, ...").
inline std::string keys_used(const ToolContext& ctx, const VocabularyRevision& rev) {
  std::string out;
  for (const auto* f : ctx.vocabulary.fields_of(rev))
    if (!f->is_message_field && ctx.located.value(*f)) out += (out.empty() ? "" : ", ") + f->key;
  return out;
}

inline const VocabularyRevision* superseding(const ToolContext& ctx, const VocabularyRevision& rev) {
  for (const auto& r : ctx.vocabulary.revisions())
    for (const auto& old : r.supersedes)
      if (old == rev.ref()) return &r;
  return nullptr;
}

inline void vocab_mixed_revisions(const ToolContext& ctx, const FindingSink& sink) {
  for (const auto* rev : ctx.detected)
    for (const auto* other : ctx.detected)
      if (other != rev && superseding(ctx, *rev) == other)
        sink.report("", "the tool mixes " + rev->ref() + " (" + keys_used(ctx, *rev) + ") with " + other->ref() + " (" +
                            keys_used(ctx, *other) +
                            "), which replaced it: a client reading one may miss the other; "
                            "translating it into " +
                            other->ref() + " (mcp-hints translate) rewrites the tool in one");
}

inline void vocab_pinned_revision(const ToolContext& ctx, const FindingSink& sink) {
  for (const auto* pin : ctx.pinned)
    for (const auto* rev : ctx.detected) {
      const bool related =
          rev != pin && (rev->id == pin->id || superseding(ctx, *rev) == pin || superseding(ctx, *pin) == rev);
      if (related)
        sink.report("", "the catalog is pinned to " + pin->ref() + " but the tool uses " + rev->ref() + " (" +
                            keys_used(ctx, *rev) + ")");
    }
}

inline constexpr auto kChecks = std::to_array<Check>({
    {{"vocab.mixed-revisions", Level::info, "SEP-1913 (supersedes #711 and the action security seed)",
      "a tool does not mix keys of a revision with those of the revision that replaced it"},
     &vocab_mixed_revisions},
    {{"vocab.pinned-revision", Level::warning, "mcp-hints: a vocabulary revision pinned for the catalog",
      "when a revision is pinned, a tool uses it, not another revision of the same vocabulary or one it replaced"},
     &vocab_pinned_revision},
});

}  // namespace mcp_hints::rules::vocab_revisions
