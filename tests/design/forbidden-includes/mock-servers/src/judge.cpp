// Negative control for design.includes: the mock server does not judge.
#include "mcp_hints/conformance/judge.hpp"
