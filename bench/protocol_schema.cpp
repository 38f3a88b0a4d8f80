// The cost of checking wire messages against the protocol schemas: the memory of compiling every
// bundled revision, and the time of 10,000 tools/list results of 50 tools each per revision.
// Usage: protocol_schema_bench SOURCE_DIR [RESULTS]   (bench/protocol_schema.sh runs it)
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "mcp_hints/wire/protocol_schema.hpp"

namespace {

using json = nlohmann::json;

long resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

json tools_list_response(const std::string& revision, int tools) {
  json list = json::array();
  for (int i = 0; i < tools; ++i)
    list.push_back(
        {{"name", "tool_" + std::to_string(i)},
         {"description", "Reads or writes the record " + std::to_string(i) + " of the store."},
         {"inputSchema",
          {{"type", "object"},
           {"properties",
            {{"id", {{"type", "string"}}}, {"limit", {{"type", "integer"}}}, {"dry_run", {{"type", "boolean"}}}}},
           {"required", {"id"}}}},
         {"annotations", {{"readOnlyHint", i % 2 == 0}, {"openWorldHint", false}}}});
  json result = {{"tools", list}};
  if (revision >= "2026-07-28") {
    result["resultType"] = "complete";
    result["ttlMs"] = 60000;
    result["cacheScope"] = "public";
  }
  return {{"jsonrpc", "2.0"}, {"id", 2}, {"result", result}};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: protocol_schema_bench SOURCE_DIR [RESULTS]\n";
    return 2;
  }
  const std::string source = argv[1];
  const int results = argc > 2 ? std::stoi(argv[2]) : 10000;
  const long before = resident_kib();
  mcp_hints::ProtocolSchemas schemas;
  std::size_t definitions = 0;
  for (const auto& revision : mcp_hints::bundled_protocol_revisions()) {
    std::ifstream file(source + "/schemas/protocol/" + revision + ".schema.json");
    const json document = json::parse(file);
    const json& defs = document.contains("$defs") ? document["$defs"] : document["definitions"];
    for (const auto& [name, schema] : defs.items()) {
      schemas.validate_definition(revision, name, json::object());  // compiles it
      ++definitions;
    }
  }
  const long compiled = resident_kib();
  std::printf("compiling %zu definitions of %zu revisions: +%.1f MiB resident (%.1f MiB in all)\n", definitions,
              mcp_hints::bundled_protocol_revisions().size(), (compiled - before) / 1024.0, compiled / 1024.0);
  for (const auto& revision : mcp_hints::bundled_protocol_revisions()) {
    const json message = tools_list_response(revision, 50);
    if (!schemas.validate_message(revision, message, mcp_hints::Direction::server_to_client, "tools/list").empty()) {
      std::cerr << revision << ": the benchmark's message is not valid\n";
      return 1;
    }
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < results; ++i)
      schemas.validate_message(revision, message, mcp_hints::Direction::server_to_client, "tools/list");
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::printf("%s: %d tools/list results of 50 tools (%zu bytes each): %.2f s, %.0f us per result\n",
                revision.c_str(), results, message.dump().size(), took.count(), took.count() * 1e6 / results);
  }
  return 0;
}
