#pragma once
// Serving over HTTP until a signal ends the process: the front of the mock server and of the
// scripted model endpoint.
#include <string>

#include "mcp_hints/wire/transport.hpp"

namespace mcp_hints::mock {

// Serves `handler` on host:port at `path` (HttpServer::listen) until SIGINT or SIGTERM, the URL
// printed as the first line of stdout. A port that cannot be had is one line on stderr, headed
// `who`, and exit 2.
int serve_until_signal(const HttpServer::Handler& handler, const std::string& host, int port, const std::string& path,
                       const HttpServerLimits& limits, const std::string& who);

}  // namespace mcp_hints::mock
