// Loads the HTTP module on first use and hands HttpServer and make_http_transport to it.
#include "http_module.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

#include <utility>
#include <vector>
#include "mcp_hints/json/text.hpp"
#include "mcp_hints/wire/param_headers.hpp"
#include "mcp_hints/wire/protocol.hpp"

namespace mcp_hints {
namespace http_module {
namespace {

// Where the module may be: beside the executable (a build tree), where an installation puts it
// relative to the executable's folder (a package unpacked anywhere), and where this build and its
// package install it (for a program of a library user's).
std::vector<std::filesystem::path> places() {
  std::vector<std::filesystem::path> out;
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    out.push_back(executable.parent_path() / kFileName);
    out.push_back((executable.parent_path() / MCP_HINTS_HTTP_MODULE_FROM_BINDIR / kFileName).lexically_normal());
  }
  out.push_back(std::filesystem::path(MCP_HINTS_HTTP_MODULE_INSTALLED) / kFileName);
  out.push_back(std::filesystem::path(MCP_HINTS_HTTP_MODULE_PACKAGED) / kFileName);
  return out;
}

struct Loaded {
  const Entry* entry = nullptr;
  std::string failure;  // why it could not be loaded
};

Loaded load() {
  std::string tried;
  for (const auto& place : places()) {
    std::error_code error;
    if (!std::filesystem::exists(place, error)) {
      tried += (tried.empty() ? "" : ", ") + place.string() + " (none)";
      continue;
    }
    // Never closed: what it made may live until the process ends.
    void* handle = dlopen(place.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) return {nullptr, "cannot load " + place.string() + ": " + dlerror()};
    static const Imports imports{&Transport::read_message, &printable, &jsonrpc::classify,
                                 &is_stateless_revision,   &json_text, &header_value};
    using EntryFunction = const Entry* (*)(const Imports*);
    const auto function = reinterpret_cast<EntryFunction>(dlsym(handle, kEntrySymbol));
    const Entry* entry = function ? function(&imports) : nullptr;
    if (!entry) return {nullptr, place.string() + " is not the HTTP module of mcp-hints"};
    if (entry->build != kBuild) return {nullptr, place.string() + " is the HTTP module of another build of mcp-hints"};
    return {entry, {}};
  }
  return {nullptr, "the HTTP module " + std::string(kFileName) + " was not found (looked in " + tried + ")"};
}

}  // namespace

const Entry& entry() {
  static const Loaded loaded = load();
  if (!loaded.entry) throw TransportError("Streamable HTTP is not available: " + loaded.failure);
  return *loaded.entry;
}

}  // namespace http_module

struct HttpServer::Impl {
  std::unique_ptr<http_module::ServerBackend> backend;
};

HttpServer::HttpServer(Handler handler, HttpServerLimits limits)
    : impl_(std::make_unique<Impl>(Impl{http_module::entry().make_server(std::move(handler), limits)})) {}

HttpServer::~HttpServer() { stop(); }

int HttpServer::listen(const std::string& host, int port, const std::string& path) {
  return impl_->backend->listen(host, port, path);
}

std::string HttpServer::url() const { return impl_->backend->url(); }

void HttpServer::stop() {
  if (impl_) impl_->backend->stop();
}

std::unique_ptr<Transport> make_http_transport(const std::string& url, const TransportLimits& limits,
                                               const HttpHeaders& headers) {
  return http_module::entry().make_transport(url, limits, headers);
}

}  // namespace mcp_hints
