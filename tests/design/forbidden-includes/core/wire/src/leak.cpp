// Negative control for design.includes: the wire may not read hints.
#include "mcp_hints/vocab/hint_model.hpp"
#include "mcp_hints/wire/jsonrpc.hpp"
