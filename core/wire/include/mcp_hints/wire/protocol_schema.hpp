#pragma once
// Every MCP wire message checked against the schema.json of its protocol revision (bundled from
// the specification in schemas/protocol/, compiled in). Which definition a message is checked
// against is read from the schema itself: a request or notification by the definition whose
// `method` is that const, a result by the result definition of the request it answers, an error
// by the definition whose error `code` is that const. Knows no hints.
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/error.hpp"
#include "mcp_hints/json/schema_registry.hpp"
#include "mcp_hints/wire/protocol.hpp"

namespace mcp_hints {

// The check ids, one per kind of message (stable: they are check ids of the product). A message
// is of exactly one kind, so each id can be expected to fail or be waived on its own.
namespace protocol_check {
// Not a JSON-RPC request, notification or response at all (checked against JSONRPCMessage).
inline constexpr std::string_view message = "protocol.message";
inline constexpr std::string_view request = "protocol.request";
inline constexpr std::string_view notification = "protocol.notification";
inline constexpr std::string_view result = "protocol.result";
inline constexpr std::string_view error = "protocol.error";
inline constexpr std::string_view all[] = {message, request, notification, result, error};
}  // namespace protocol_check

struct ProtocolViolation {
  std::string_view check_id;  // one of protocol_check
  Direction direction;
  std::string method;      // the message's method, or that of the request a response answers; may be empty
  std::string definition;  // the schema definition broken, e.g. "ListToolsResult"
  std::string pointer;     // JSON pointer into the whole message
  std::string message;     // what the validator says
};

// A revision that is not bundled, or a definition its schema does not have.
class UnknownProtocolSchema : public Error {
 public:
  explicit UnknownProtocolSchema(const std::string& what) : Error(Category::bad_input, what) {}
};

// The revisions whose schema is bundled, oldest first ("2024-11-05", ...).
std::span<const std::string> bundled_protocol_revisions();

// Holds the schemas, each revision loaded and each definition compiled on first use: a process
// that checks one revision pays for that one. Not thread-safe (validation caches).
class ProtocolSchemas {
 public:
  ProtocolSchemas();
  ~ProtocolSchemas();
  ProtocolSchemas(const ProtocolSchemas&) = delete;
  ProtocolSchemas& operator=(const ProtocolSchemas&) = delete;

  // The violations of one wire message sent in `direction`. A response carries no method: pass
  // the method of the request it answers as `answered_method` (empty if not known: the result is
  // then checked only as a result of any request). For a request or notification the message's
  // own method is used. A method the revision's schema does not define is no violation by
  // itself: the message is checked as a JSON-RPC message of the revision (see knows_method).
  // Throws UnknownProtocolSchema for a revision that is not bundled.
  std::vector<ProtocolViolation> validate_message(std::string_view revision, const nlohmann::json& message,
                                                  Direction direction, std::string_view answered_method = {});

  // Reads a revision's schema and makes ready what judging a large tools/list answer in it takes
  // (valijson's compiled definitions and their first looks), so that the first answer judged
  // pays none of it: for a caller with time to spare, e.g. while a server starts. Throws
  // UnknownProtocolSchema for a revision that is not bundled.
  void prepare_listing(std::string_view revision);

  // Whether the revision's schema defines a request or notification with this method.
  bool knows_method(std::string_view revision, std::string_view method);

  // One instance against one definition of a revision ("Tool", "CallToolResult"); pointers are
  // into the instance. Throws UnknownProtocolSchema for an unknown revision or definition.
  std::vector<SchemaViolation> validate_definition(std::string_view revision, std::string_view definition,
                                                   const nlohmann::json& instance);

 private:
  struct Revision;
  Revision& revision(std::string_view name);
  std::map<std::string, std::unique_ptr<Revision>, std::less<>> revisions_;
};

// The keywords of a schema document that valijson (a draft-07 validator) would not evaluate as
// the document's own dialect does, each as "pointer: keyword (why)"; empty when it reads the
// document faithfully. A bundled schema must have none (it is refused when loaded).
std::vector<std::string> keywords_valijson_misreads(const nlohmann::json& schema_document);

}  // namespace mcp_hints
