#pragma once
// The mock servers of built-in scenarios, for the harnesses that drive a mock server.
#include <initializer_list>
#include <vector>

#include "mcp_hints/mock/scenario.hpp"

namespace mcp_hints::fuzz {

inline std::vector<mock::ServerSpec> scenario_servers(std::initializer_list<const char*> ids) {
  std::vector<mock::ServerSpec> out;
  for (const char* id : ids)
    for (const auto& [key, spec] : mock::load_scenario(id).servers) out.push_back(spec);
  return out;
}

}  // namespace mcp_hints::fuzz
