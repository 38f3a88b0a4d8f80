#pragma once
// Findings accepted as they are, so that only new ones count: a baseline (the findings of an
// earlier run, each by check id, tool and fingerprint) and a suppressions file (per check id and
// tool glob, each with a reason). lint and check-server share them. A suppressed finding stays in
// the report, marked (Finding::suppressions), and counts towards neither the verdict nor the
// summary's levels. An entry or a suppression that matches nothing is a finding of its own.
//
// The fingerprint of a finding: "sha256:" and the SHA-256 of the JCS bytes of
//   {"check": ID, "tool": NAME, "pointer": POINTER BELOW THE TOOL, "occurrence": N}
// where N counts the findings before it with the same check, tool and pointer (0 for the first),
// so two alike are two entries. Left out, so a baseline survives reformatting, reordering and
// renaming: the file, every line and column, the tool's place in its catalog, and the message
// (which quotes positions and values; the baseline keeps it for people only).
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/checks/checks.hpp"
#include "mcp_hints/checks/lint.hpp"

namespace mcp_hints {

// The checks of the run's own files. Warnings: a stale entry or an unused suppression says the
// input got better (a finding was fixed) or changed, not that it is unsafe, so it does not fail a
// run at the default level; a strict run (failing on warnings) keeps the files true.
inline constexpr auto kRunChecks = std::to_array<CheckInfo>({
    {"baseline.stale", Level::warning, "mcp-hints: the baseline (no proposal)",
     "every entry of the baseline matches a finding of the run (one that matches none was fixed or changed: write "
     "the baseline again)",
     Scope::run},
    {"suppression.unused", Level::warning, "mcp-hints: the suppressions file (no proposal)",
     "every suppression of the suppressions file matches a finding of the run (one that matches none is left over)",
     Scope::run},
});

static_assert(all_check_ids(kRunChecks) && unique_ids(kRunChecks) && grouped_by_area(kRunChecks));
inline constexpr const CheckInfo& kBaselineStale = kRunChecks[0];
inline constexpr const CheckInfo& kSuppressionUnused = kRunChecks[1];
static_assert(kBaselineStale.id == "baseline.stale" && kSuppressionUnused.id == "suppression.unused");

// The bounds of the files, whatever they claim: a baseline holds a run's findings, a suppressions
// file a few rules.
inline constexpr std::size_t kMaxBaselineBytes = std::size_t{64} << 20;
inline constexpr std::size_t kMaxSuppressionsBytes = std::size_t{1} << 20;

struct BaselineEntry {
  std::string check, tool, fingerprint, message;
};

struct Baseline {
  std::string file;
  std::vector<BaselineEntry> entries;
};

struct SuppressionRule {
  std::string check;  // a check id, or a glob of check ids
  std::string tool;   // a glob of tool names ("*" when not given: every tool, and findings of none)
  std::string reason;
};

struct SuppressionsFile {
  std::string file;
  std::vector<SuppressionRule> rules;
};

// Whether text matches the glob as a whole: '*' any run of characters (none too), '?' one UTF-8
// character, every other character itself.
bool glob_matches(std::string_view glob, std::string_view text);

// The fingerprint of each finding, in order (see above).
std::vector<std::string> fingerprints(const FindingList& findings);

// The baseline of a run (schemas/lint-baseline.schema.json): every finding but those the
// suppressions file accounts for and those of run checks, sorted so that it diffs well.
nlohmann::json baseline_json(const LintReport& report, std::string_view command);

// Read within their bounds and held to their schemas (lint-baseline.schema.json,
// config.schema.json); InputError with one line when not. A suppression needs a non-empty reason
// and a check id that names a check (or a glob that matches one).
Baseline read_baseline(const std::string& path);
SuppressionsFile read_suppressions(const std::string& path);

// Marks the findings the baseline and the suppressions file cover (either may be null), then adds
// a baseline.stale finding for each entry that matched none and a suppression.unused one for each
// rule that matched none. Both are judged only on a run that saw everything (no input error, not
// incomplete), and an entry or rule only for checks that ran (server checks in check-server).
void apply_suppressions(LintReport& report, const Baseline* baseline, const SuppressionsFile* suppressions);

}  // namespace mcp_hints
