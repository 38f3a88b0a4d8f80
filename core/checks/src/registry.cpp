// The registry of checks. Each area of lint checks (rules/*.hpp) declares its checks next to their
// code; the registry joins the areas, the server checks and the run checks, at compile time, so the compiler
// counts them and holds every id to the rules below. The areas are headers, included here only,
// because a constant expression can join only arrays it can see.
#include "mcp_hints/checks/checks.hpp"

#include <algorithm>
#include <array>

#include "mcp_hints/checks/server_checks.hpp"
#include "mcp_hints/checks/suppressions.hpp"
#include "rules/agency.hpp"
#include "rules/confirmation.hpp"
#include "rules/contradictions.hpp"
#include "rules/naming.hpp"
#include "rules/placement.hpp"
#include "rules/schema.hpp"
#include "rules/syntax.hpp"
#include "rules/understated.hpp"
#include "rules/vocab_revisions.hpp"

namespace mcp_hints {
namespace {

template <typename T, std::size_t... N>
constexpr std::array<T, (N + ...)> joined(const std::array<T, N>&... parts) {
  std::array<T, (N + ...)> out{};
  auto next = out.begin();
  ((next = std::copy(parts.begin(), parts.end(), next)), ...);
  return out;
}

template <std::size_t N>
constexpr std::array<CheckInfo, N> infos(const std::array<Check, N>& checks) {
  std::array<CheckInfo, N> out{};
  std::transform(checks.begin(), checks.end(), out.begin(), [](const Check& c) { return c.info; });
  return out;
}

// The order --list-checks shows and every report follows.
constexpr auto kLintChecks =
    joined(rules::syntax::kChecks, rules::schema::kChecks, rules::naming::kChecks, rules::vocab_revisions::kChecks,
           rules::contradictions::kChecks, rules::confirmation::kChecks, rules::understated::kChecks,
           rules::placement::kChecks, rules::agency::kChecks);
constexpr auto kAllChecks = joined(infos(kLintChecks), kServerChecks, kRunChecks);

static_assert(all_check_ids(kAllChecks), "every check id is area.name");
static_assert(unique_ids(kAllChecks), "check ids are unique, across tool and server checks");
static_assert(grouped_by_area(kAllChecks), "the checks of one area are listed together, in one area file");
static_assert(std::all_of(kLintChecks.begin(), kLintChecks.end(),
                          [](const Check& c) { return c.run && c.info.scope == Scope::tool; }),
              "every tool check has code");

}  // namespace

std::span<const Check> lint_checks() { return kLintChecks; }

std::span<const CheckInfo> server_checks() { return kServerChecks; }

std::span<const CheckInfo> all_checks() { return kAllChecks; }

std::optional<CheckInfo> find_check(std::string_view id) {
  for (const auto& c : kAllChecks)
    if (c.id == id) return c;
  return std::nullopt;
}

}  // namespace mcp_hints
