#pragma once
// The server checks: what a live server did, judged by check-server (core/live). They are declared
// here, in a header, so that check-server names each by id in a constant expression: a typo there
// does not compile.
#include <array>
#include <string_view>

#include "mcp_hints/checks/checks.hpp"

namespace mcp_hints {

inline constexpr auto kServerChecks = std::to_array<CheckInfo>({
    {"server.initialize", Level::error, "MCP specification: Lifecycle, Initialization",
     "the server answers initialize with a result holding protocolVersion and capabilities", Scope::server},
    {"server.protocol-version", Level::info, "MCP specification: Lifecycle, Version Negotiation",
     "the server chooses a protocol version of the legacy era mcp-hints offers or accepts", Scope::server},
    {"server.tools-capability", Level::error, "MCP specification: Server Features, Tools, Capabilities",
     "a server that lists tools declares the tools capability", Scope::server},
    {"server.stdout-protocol-only", Level::error, "MCP specification: Transports, stdio",
     "the server writes nothing but MCP messages to stdout", Scope::server},
    {"server.list-page", Level::warning,
     "mcp-hints rule (pages end); MCP specification: Tools, Listing Tools; Pagination",
     "every tools/list page is a result with a tools array and, if any, a string nextCursor", Scope::server},
    {"server.cursor-terminates", Level::warning, "mcp-hints rule (pages end); MCP specification: Utilities, Pagination",
     "following nextCursor ends, without repeating a cursor, within the page bound", Scope::server},
    {"protocol.message", Level::error, "MCP specification: schema.json of the revision spoken (JSONRPCMessage)",
     "every message the server sends is a JSON-RPC message of the revision spoken", Scope::server},
    {"protocol.request", Level::error, "MCP specification: schema.json of the revision spoken",
     "every request the server sends matches its method's definition and is one a server may send", Scope::server},
    {"protocol.notification", Level::error, "MCP specification: schema.json of the revision spoken",
     "every notification the server sends matches its method's definition", Scope::server},
    {"protocol.result", Level::error, "MCP specification: schema.json of the revision spoken",
     "every result matches the result definition of the request it answers (2026-07-28: InputRequiredResult when "
     "resultType is input_required)",
     Scope::server},
    {"protocol.error", Level::error, "MCP specification: schema.json of the revision spoken",
     "every error response matches the revision's error definitions (e.g. -32022 with data.supported)", Scope::server},
    {"stateless.discover-versions", Level::warning,
     "mcp-hints rule (listed revisions accepted); MCP specification 2026-07-28: server/discover "
     "(DiscoverResult.supportedVersions)",
     "the server/discover result lists a revision mcp-hints can speak, and every revision it lists that mcp-hints "
     "speaks is accepted when asked (one refused with -32022 is a lie); the result's shape is protocol.result's",
     Scope::server},
    {"stateless.version-unsupported", Level::error,
     "MCP specification 2026-07-28: RequestMetaObject protocolVersion (UnsupportedProtocolVersionError)",
     "a request naming a revision the server does not support is answered with error -32022 whose data names the "
     "revision requested, over HTTP with status 400 (the rest of the error's shape is protocol.error's)",
     Scope::server},
    {"stateless.version-missing", Level::error, "MCP specification 2026-07-28: RequestMetaObject protocolVersion",
     "a request whose _meta names no protocol version is answered with an error, never silence and never a result "
     "of the stateless era (a server that lists a legacy revision may answer it in that era)",
     Scope::server},
    {"stateless.result-type", Level::error, "MCP specification 2026-07-28: Result.resultType",
     "every result's resultType is complete or input_required (a missing one is protocol.result's)", Scope::server},
    {"stateless.header-mismatch", Level::error,
     "MCP specification 2026-07-28: Streamable HTTP, standard headers (HeaderMismatchError)",
     "over HTTP, a request whose Mcp-Method header is missing or names another method, or a tools/call whose "
     "Mcp-Name is missing or names another tool, is refused with HTTP 400 and error -32020",
     Scope::server},
    {"stateless.param-header-mismatch", Level::error,
     "MCP specification 2026-07-28: Streamable HTTP, Server Behavior for Custom Headers (HeaderMismatchError)",
     "over HTTP, a tools/call the run was asked to make whose tool mirrors a parameter in an Mcp-Param "
     "header is refused with HTTP 400 and error -32020 when sent again with that header's value wrong, or without "
     "it (a server that does not validate runs the call again)",
     Scope::server},
    {"stateless.param-header-invalid", Level::error,
     "MCP specification 2026-07-28: Streamable HTTP, Request Metadata (constraints on x-mcp-header values)",
     "in the stateless era, every x-mcp-header of a listed tool's inputSchema is a non-empty HTTP token, unique "
     "ignoring case, on an integer, string or boolean property reached through properties alone (a client over "
     "HTTP must leave out a tool that breaks one)",
     Scope::server},
    {"stateless.ttl-changed", Level::info, "MCP specification 2026-07-28: ttlMs; proposal 1: Semantics (stable hints)",
     "listing tools again within the ttlMs the first listing promised gives every tool the same hints (a cache "
     "would go on serving the old ones)",
     Scope::server},
    {"stateless.expiry-weakened", Level::warning, "MCP specification 2026-07-28: ttlMs; proposal 1: Semantics",
     "once the first listing's ttlMs has passed (waited when it fits in the observe window), no tool's hints become "
     "less cautious (a possible rug pull under caching)",
     Scope::server},
    {"stateless.public-scope", Level::warning,
     "mcp-hints rule (public means the same for everyone); MCP specification 2026-07-28: cacheScope",
     "a tools/list marked cacheScope public gives every tool the same hints in every authorization context given "
     "(else a shared cache serves one user's hints to another)",
     Scope::server},
    {"subscriptions.acknowledged", Level::error, "MCP specification 2026-07-28: Subscriptions, Acknowledgment",
     "a subscriptions/listen stream opens with notifications/subscriptions/acknowledged: no notification on it comes "
     "before, and one comes within the observe window",
     Scope::server},
    {"subscriptions.id-tagged", Level::error,
     "MCP specification 2026-07-28: Subscriptions, Receiving Notifications (NotificationMetaObject subscriptionId)",
     "every notification on a subscriptions/listen stream carries io.modelcontextprotocol/subscriptionId, the id of "
     "the request that opened it",
     Scope::server},
    {"subscriptions.filter", Level::error, "MCP specification 2026-07-28: Subscriptions, Opening a Stream",
     "a subscriptions/listen stream brings no notification type its filter did not ask for (check-server asks for "
     "toolsListChanged alone)",
     Scope::server},
    {"subscriptions.listen-refused", Level::info,
     "MCP specification 2026-07-28: ServerCapabilities tools.listChanged; Subscriptions",
     "a server that declares tools.listChanged opens a subscriptions/listen stream when asked, where the era delivers "
     "tools/list_changed",
     Scope::server},
    {"era.mixed", Level::warning,
     "mcp-hints rule (one era at a time); MCP specification: Lifecycle (2025 revisions) and 2026-07-28 Result",
     "a result of the legacy era carries none of the stateless era's members (resultType, ttlMs, cacheScope, "
     "supportedVersions): a peer speaks one era at a time",
     Scope::server},
    {"stability.relist", Level::warning, "proposal 1: Semantics (stable hints)",
     "listing tools twice in one session gives every tool the same hints", Scope::server},
    {"stability.restart", Level::warning, "proposal 1: Semantics (hints SHOULD NOT change between server restarts)",
     "a restarted server (stdio) or a second session (HTTP) gives every tool the same hints", Scope::server},
    {"list-changed.weakened", Level::warning,
     "MCP specification: Tools, List Changed Notification; proposal 1: Semantics",
     "after notifications/tools/list_changed (in the stateless era, on a subscriptions/listen stream) no tool's hints "
     "become less cautious (a possible rug pull)",
     Scope::server},
    {"list-changed.changed", Level::info, "MCP specification: Tools, List Changed Notification",
     "reports hints that changed after notifications/tools/list_changed", Scope::server},
    {"result.trust-annotations", Level::warning,
     "mcp-hints rule (well-formed hints); issue #711 / SEP-1913: trust annotations; interest group extension "
     "io.modelcontextprotocol/trust-annotations",
     "a tools/call result's trust annotations have the types and values of their revision (#711, or the pinned one) "
     "and of the extension",
     Scope::server},
    {"result.sensitivity-understated", Level::info,
     "issue #711: sensitiveHint, privateHint; extension trust-annotations: sensitive; proposal 1: resultSensitivity",
     "a result is not more sensitive (sensitiveHint, privateHint, the extension's sensitive) than its tool declared "
     "(resultSensitivity)",
     Scope::server},
    {"result.source-understated", Level::info,
     "issue #711 / SEP-1913: openWorldHint on results; extension trust-annotations: untrusted; Action Security / "
     "SEP-1913: returnMetadata source",
     "a result that says its data is untrusted (openWorldHint, the extension's untrusted) comes from a tool whose "
     "declared sources include untrustedPublic",
     Scope::server},
});

static_assert(all_check_ids(kServerChecks), "every server check id is area.name");
static_assert(unique_ids(kServerChecks), "server check ids are unique");
static_assert(grouped_by_area(kServerChecks), "the server checks of one area are listed together");

// The server check with this id, or nullptr (for checks named at run time, e.g. by a schema
// validator; check-server holds every such name to this table at compile time).
constexpr const CheckInfo* find_server_check(std::string_view id) {
  for (const auto& check : kServerChecks)
    if (check.id == id) return &check;
  return nullptr;
}

// Declared, never defined: server_check() calls it only for an id no server check has, and a
// constant expression may not call it, so the compiler names it in the error.
void no_server_check_has_this_id();

// The server check with this id, found at compile time: check-server emits every finding through it.
consteval const CheckInfo& server_check(std::string_view id) {
  if (const CheckInfo* check = find_server_check(id)) return *check;
  no_server_check_has_this_id();
  return kServerChecks.front();  // not reached
}

}  // namespace mcp_hints
