#pragma once
// The JSON Schemas this project publishes (schemas/), compiled into the library.
#include <optional>
#include <span>
#include <string_view>

#include "mcp_hints/json/embedded.hpp"
#include "mcp_hints/json/schema_registry.hpp"

namespace mcp_hints {

// schemas/*.json: every schema, vocabulary.json.
std::span<const EmbeddedFile> embedded_schemas();
std::optional<std::string_view> embedded_schema(std::string_view name);

// Every schemas/*.schema.json, each known by its file name and its $id.
const SchemaRegistry& published_schemas();

}  // namespace mcp_hints
