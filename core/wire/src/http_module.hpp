#pragma once
// The boundary between the wire role and its HTTP module, mcp-hints-http.so (http_transport.cpp:
// cpp-httplib and, through it, OpenSSL), which a process loads the first time it speaks Streamable
// HTTP. A process that never does (lint, a stdio mock or client) starts without those libraries:
// loading and relocating them, and OpenSSL's initialisation, were half of every start-up.
// The module refers to nothing of the library by name: what it uses of it is handed to it as it
// is loaded (Imports), so any executable that links the wire role can load it. Private to the
// wire role.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <string_view>

#include "mcp_hints/json/version.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
#include "mcp_hints/wire/transport.hpp"

namespace mcp_hints::http_module {

// An HttpServer, inside the module.
class ServerBackend {
 public:
  virtual ~ServerBackend() = default;
  virtual int listen(const std::string& host, int port, const std::string& path) = 0;
  virtual std::string url() const = 0;
  virtual void stop() = 0;
};

// What the module uses of the library, from the executable that loads it.
struct Imports {
  Transport::Received (*read_message)(std::string_view text, const TransportLimits& limits);
  std::string (*printable)(std::string_view text, std::size_t max_bytes);
  jsonrpc::Kind (*classify)(const nlohmann::json& message);
  bool (*is_stateless_revision)(const std::string& version);
  std::string (*json_text)(const nlohmann::json& value, int indent);
  std::string (*header_value)(std::string_view value);  // SEP-2243's Value Encoding
};

struct Entry {
  std::uint64_t build;  // kBuild, as the module computed it: a module from another build is refused
  std::unique_ptr<Transport> (*make_transport)(const std::string& url, const TransportLimits& limits,
                                               const HttpHeaders& headers);
  std::unique_ptr<ServerBackend> (*make_server)(HttpServer::Handler handler, HttpServerLimits limits);
};

// The module's file name and its one exported function, `extern "C" const Entry* NAME(const
// Imports*)`: the imports are the module's from then on.
inline constexpr const char* kFileName = "mcp-hints-http.so";
inline constexpr const char* kEntrySymbol = "mcp_hints_http_module";

// What a build's two sides must agree on, computed into each as a constant: the version and the
// layouts that cross the boundary.
inline constexpr std::uint64_t kBuild = [] {
  std::uint64_t hash = 1469598103934665603u;  // FNV-1a
  const auto mix = [&hash](std::uint64_t value) {
    for (int i = 0; i < 8; ++i, value >>= 8) hash = (hash ^ (value & 0xff)) * 1099511628211u;
  };
  for (const char c : kVersion) mix(static_cast<unsigned char>(c));
  for (const std::size_t size :
       {sizeof(TransportLimits), sizeof(HttpServerLimits), sizeof(HttpRequestView), sizeof(HttpReply),
        sizeof(HttpHeaders), sizeof(HttpServer::Handler), sizeof(Transport), sizeof(Entry*), sizeof(Imports)})
    mix(size);
  return hash;
}();

// The module, loaded on first use (once a process). Throws TransportError, with every place
// looked in, when it cannot be loaded.
const Entry& entry();

}  // namespace mcp_hints::http_module
