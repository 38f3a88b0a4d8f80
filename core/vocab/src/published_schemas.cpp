#include "mcp_hints/vocab/published_schemas.hpp"

#include <memory>

#include "mcp_hints/json/input.hpp"

namespace mcp_hints {

std::optional<std::string_view> embedded_schema(std::string_view name) {
  return find_embedded(embedded_schemas(), name);
}

const SchemaRegistry& published_schemas() {
  // Never destroyed: the process is ending, and freeing the trees would only cost time.
  static const SchemaRegistry& registry = *[] {
    auto r = std::make_unique<SchemaRegistry>();
    // A $ref from one schema to another resolves whatever their order. The tests compile them all.
    for (const auto& file : embedded_schemas())
      if (file.name.ends_with(".schema.json")) r->add_lazily(file.name, parse_json(file.content));
    return r.release();
  }();
  return registry;
}

}  // namespace mcp_hints
