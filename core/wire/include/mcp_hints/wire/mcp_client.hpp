#pragma once
// The client side of an MCP session of the legacy era (initialize, then requests): what the
// conformance harness and check-server speak. Knows nothing of hints.
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/wire/transport.hpp"

namespace mcp_hints {

// The server answered, but not as the protocol says; the run can go on without this step.
class ProtocolError : public Error {
 public:
  explicit ProtocolError(const std::string& what, nlohmann::json error = {})
      : Error(Category::incomplete, what), error(std::move(error)) {}
  nlohmann::json error;  // the JSON-RPC error object, when the server answered with one
};

// The legacy-era revisions mcp-hints speaks, as client and as mock server, newest first; the
// client offers the first.
const std::vector<std::string>& supported_protocol_versions();

struct ClientOptions {
  std::chrono::milliseconds request_timeout{10000};
  std::size_t max_pages = 1000;  // tools/list pages followed at most
  std::size_t max_total_tools = 1000000;
  std::size_t max_total_bytes = std::size_t{256} << 20;  // all pages of one listing
  std::string client_name = "mcp-hints";
  std::optional<Deadline> run_deadline;  // no wait goes past it
};

struct InitializeResult {
  std::string protocol_version;
  nlohmann::json capabilities;  // the server's
  nlohmann::json server_info;
  nlohmann::json raw;
};

struct ToolListing {
  std::vector<nlohmann::json> tools;
  std::size_t page_count = 0;
  std::vector<std::string> page_errors;  // what was wrong with a page ("page 2: ...")
  bool complete = true;                  // false when pagination was cut short
  bool over_size_limit = false;          // ... by our bound on tools or bytes, not by the cursors
  std::string incomplete_reason;
};

class McpClientSession {
 public:
  McpClientSession(Transport& transport, ClientOptions options = {});

  // initialize + notifications/initialized. ProtocolError for an error answer or a malformed
  // one; TransportError when the server is gone or silent.
  InitializeResult initialize();
  // tools/list following nextCursor, within the page and size bounds.
  ToolListing list_tools();
  // tools/call; returns the result object, or throws ProtocolError with the JSON-RPC error.
  nlohmann::json call_tool(const std::string& name, const nlohmann::json& arguments);
  // Sends a request and waits for its response (the result, or ProtocolError for an error).
  nlohmann::json request(const std::string& method, const std::optional<nlohmann::json>& params);

  // Metadata merged into params._meta of every later request (e.g. #711 trust annotations);
  // an empty object sends none.
  void set_request_meta(nlohmann::json meta) { request_meta_ = std::move(meta); }

  // Waits up to `window` for notifications, handling server requests meanwhile.
  void observe(std::chrono::milliseconds window);
  // Notifications received so far (in order), by method name.
  std::size_t notification_count(const std::string& method) const;
  const std::vector<nlohmann::json>& notifications() const { return notifications_; }
  // Requests the server made to us (answered with method-not-found, or an empty result for ping).
  const std::vector<nlohmann::json>& server_requests() const { return server_requests_; }

 private:
  void handle_unsolicited(const nlohmann::json& message);
  Transport& transport_;
  ClientOptions options_;
  long long next_id_ = 1;
  nlohmann::json request_meta_ = nlohmann::json::object();
  std::vector<nlohmann::json> notifications_;
  std::vector<nlohmann::json> server_requests_;
};

}  // namespace mcp_hints
