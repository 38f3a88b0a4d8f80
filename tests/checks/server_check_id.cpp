// Not a test program: the checks.server_check_id_* tests compile this file twice, with a real
// server check id and with a misspelt one. check-server names every server check through
// server_check(), so a misspelt id must stop the build, not reach a run.
#include "mcp_hints/checks/server_checks.hpp"

const mcp_hints::CheckInfo& named_server_check() { return mcp_hints::server_check(SERVER_CHECK_ID); }
