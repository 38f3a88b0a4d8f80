#pragma once
// The protocol revisions mcp-hints speaks and what tells the two eras apart: the legacy one
// (initialize, sessions) and the stateless one (2026-07-28: server/discover, per-request _meta).
// Knows nothing of hints.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace mcp_hints {

// The legacy-era revisions mcp-hints speaks, as client and as mock server, newest first; the
// client offers the first.
const std::vector<std::string>& supported_protocol_versions();
// The stateless-era revisions it speaks, newest first.
const std::vector<std::string>& stateless_protocol_versions();
// Every revision it speaks, newest first.
std::vector<std::string> all_protocol_versions();
// Whether a revision belongs to the stateless era (2026-07-28 and any later date).
bool is_stateless_revision(const std::string& version);

// The _meta keys a stateless-era request carries.
inline constexpr const char* kProtocolVersionMeta = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char* kClientCapabilitiesMeta = "io.modelcontextprotocol/clientCapabilities";
inline constexpr const char* kClientInfoMeta = "io.modelcontextprotocol/clientInfo";
inline constexpr const char* kServerInfoMeta = "io.modelcontextprotocol/serverInfo";
// The _meta key that names the subscriptions/listen stream a message belongs to (its request's id).
inline constexpr const char* kSubscriptionIdMeta = "io.modelcontextprotocol/subscriptionId";

// The notifications every revision's schema defines, from either side: a session counts each of
// these on its own however many other methods a server makes up.
inline constexpr std::string_view kSpecNotificationMethods[] = {"notifications/cancelled",
                                                                "notifications/elicitation/complete",
                                                                "notifications/initialized",
                                                                "notifications/message",
                                                                "notifications/progress",
                                                                "notifications/prompts/list_changed",
                                                                "notifications/resources/list_changed",
                                                                "notifications/resources/updated",
                                                                "notifications/roots/list_changed",
                                                                "notifications/subscriptions/acknowledged",
                                                                "notifications/tasks/status",
                                                                "notifications/tools/list_changed"};

// The error codes of the stateless era (2026-07-28 reserves -32020 to -32099).
enum StatelessErrorCode : int {
  header_mismatch_code = -32020,
  missing_required_client_capability = -32021,
  unsupported_protocol_version = -32022,
};

// Who sent a message.
enum class Direction { client_to_server, server_to_client };
// "client→server" or "server→client", as a finding shows it.
std::string_view to_string(Direction direction);

enum class ProtocolEra { legacy, stateless };
std::string to_string(ProtocolEra era);

// Which era a client speaks: `automatic` asks server/discover and falls back to initialize when
// the server does not know it; the others insist.
enum class EraChoice { automatic, legacy, stateless };

// What a user asks a command to speak: the era, and the revision within it (empty: the newest).
struct ProtocolChoice {
  EraChoice era = EraChoice::automatic;
  std::string version;
};
// Reads "auto", "legacy", "stateless" or a revision mcp-hints speaks; nullopt for anything else.
std::optional<ProtocolChoice> parse_protocol_choice(const std::string& text);
// The words parse_protocol_choice takes, for a usage message.
std::string protocol_choice_words();

// Whether request params carry a protocol version in their _meta: the stateless era's envelope.
bool names_protocol_version(const nlohmann::json& params);

// The result type of a result: "complete" when absent (results of legacy revisions carry none).
std::string result_type(const nlohmann::json& result);

}  // namespace mcp_hints
