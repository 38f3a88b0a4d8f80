// A machine output held to its published schema (schemas/, docs/output-contract.md "Machine outputs and their
// schemas"), and its negative control: the same output with one member broken fails it.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "mcp_hints/vocab/published_schemas.hpp"

namespace test_support {

// Parses a command's output and fails once per violation of the schema; returns the output.
inline nlohmann::json expect_matches_schema(const std::string& schema, const std::string& output) {
  nlohmann::json parsed;
  try {
    parsed = nlohmann::json::parse(output);
  } catch (const nlohmann::json::exception& e) {
    ADD_FAILURE() << schema << ": not JSON: " << e.what() << "\n" << output.substr(0, 2000);
    return parsed;
  }
  for (const auto& v : mcp_hints::published_schemas().validate(schema, parsed))
    ADD_FAILURE() << schema << ": " << v.pointer << " " << v.message;
  return parsed;
}

// The output with the value at pointer replaced by broken (a wrong type, an unknown enum value, a
// member of another casing) violates the schema.
inline void expect_schema_refuses(const std::string& schema, nlohmann::json output, const std::string& pointer,
                                  const nlohmann::json& broken) {
  output[nlohmann::json::json_pointer(pointer)] = broken;
  EXPECT_FALSE(mcp_hints::published_schemas().validate(schema, output).empty())
      << schema << " accepts " << broken.dump() << " at " << pointer;
}

}  // namespace test_support
