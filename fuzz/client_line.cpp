// What a hostile server writes to check-server's client: each line of the input is one line of
// the server's stdout (a response, a notification, a request, garbage), read as the stdio
// transport reads a line (parse_json within its limits; a line that is not JSON is noise) and
// dispatched by McpClientSession through a handshake, a listing, a call and a wait for
// notifications, every message held to its protocol schema as check-server holds it. When the
// lines run out, the server has closed its stdout.
#include <algorithm>
#include <optional>

#include "fuzz_support.hpp"
#include "mcp_hints/json/input.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/mcp_client.hpp"
#include "mcp_hints/wire/protocol_schema.hpp"
#include "mcp_hints/wire/transport.hpp"

namespace {

using json = nlohmann::json;

class LinesTransport : public mcp_hints::Transport {
 public:
  explicit LinesTransport(std::string_view lines) : lines_(lines) {}
  void send(const json& message, mcp_hints::Deadline) override {
    (void)message.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  std::optional<json> receive(mcp_hints::Deadline) override {
    const mcp_hints::TransportLimits limits;
    while (!lines_.empty()) {
      const std::size_t newline = std::min(lines_.find('\n'), lines_.size());
      const std::string_view line = lines_.substr(0, newline);
      lines_.remove_prefix(std::min(newline + 1, lines_.size()));
      bytes_received_ += line.size() + 1;
      try {
        return mcp_hints::parse_json(line, {limits.max_message, 256, limits.max_message});
      } catch (const mcp_hints::InputError&) {  // noise: the stdio transport counts it and reads on
      }
    }
    throw mcp_hints::TransportError("the server closed its stdout");
  }
  void close() override {}
  std::string target() const override { return "fuzz"; }

 private:
  std::string_view lines_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcp_hints;
  static ProtocolSchemas schemas;
  LinesTransport transport(fuzz::text_of(data, size));
  ClientOptions options;
  options.request_timeout = std::chrono::milliseconds(1000);
  options.max_pages = 8;
  McpClientSession session(transport, options);
  session.set_message_observer([&session](const json& message, Direction direction) {
    const auto revisions = bundled_protocol_revisions();
    const std::string revision = session.revision_in_play();
    if (std::find(revisions.begin(), revisions.end(), revision) != revisions.end())
      (void)schemas.validate_message(revision, message, direction);
  });
  // Each step on its own: a server that breaks one may still be read by the next.
  auto step = [](auto&& run) {
    try {
      run();
    } catch (const Error&) {
    }
  };
  step([&] { session.connect(); });
  step([&] { (void)session.list_tools(); });
  step([&] { (void)session.call_tool("fuzz", json::object()); });
  step([&] { session.observe(std::chrono::milliseconds(0)); });
  for (const auto& message : session.notifications()) (void)jsonrpc::describe(message);
  return 0;
}
