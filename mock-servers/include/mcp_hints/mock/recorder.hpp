#pragma once
// Writes every message in and out as a JSON line — connection, direction, time, message — with
// one write(2) per line, so a killed mock server loses nothing it recorded.
#include <mutex>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/error.hpp"

namespace mcp_hints::mock {

// The event a mock server records when a script changes its catalog in the stateless era and no
// subscriptions/listen stream asked to hear of it (the era sends tools/list_changed nowhere else).
inline constexpr std::string_view kCatalogChangedEvent = "catalog changed (stateless era: no notification sent)";
// ... and the change the stateless era announced on the subscriptions that asked for it.
inline constexpr std::string_view kCatalogAnnouncedEvent =
    "catalog changed (stateless era: announced on the subscriptions/listen streams that asked)";
// The connection event of a scripted close (stdio: the server exits; HTTP: its session ends). The
// client did not choose it: a reconnection that follows goes on with the client's session.
inline constexpr std::string_view kScriptedCloseEvent = "close (scripted)";

// How an HTTP request refused for its request metadata headers (-32020, SEP-2243) is recorded: this,
// then what was wrong with them.
inline constexpr std::string_view kHeaderMismatchRefusal = "refused: HTTP 400 header mismatch (-32020): ";

// The connection name of every stateless-era request over HTTP: the era has no session.
inline constexpr std::string_view kStatelessHttpConnection = "http:stateless";

// The records' clock: Unix time in seconds, with a fraction (the adapter contract's time base).
double unix_seconds();

class Recorder {
 public:
  // Appends to path; throws an Error (bad input: the path given cannot be used) when it cannot be
  // opened.
  explicit Recorder(const std::string& path);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // direction: "in" (from the client) or "out" (to it); authorization: the scenario's name for the
  // authorization context it came in or went out under (empty: none, and not recorded).
  void message(const std::string& connection, std::string_view direction, const nlohmann::json& message,
               const std::string& authorization = {});
  // A batch the server took (2025-03-26): its messages, each recorded as one message, in order, so
  // that a check reads a batched request as it reads any other.
  void batch(const std::string& connection, std::string_view direction, const nlohmann::json& batch,
             const std::string& authorization = {});
  // What came in but was not JSON: kept as text (cut at 64 KiB).
  void raw(const std::string& connection, std::string_view text);
  // A connection event: "open", "close", "session-end" ...
  void event(const std::string& connection, std::string_view what);

 private:
  void write_line(nlohmann::json&& line);
  int fd_ = -1;
  std::mutex mutex_;
};

}  // namespace mcp_hints::mock
