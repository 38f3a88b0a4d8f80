// The table of check kinds. A scenario's check names one of these, or read_checks refuses it;
// the scenario schema's "kind" enum lists the same names (a test holds the two together).
#include "check_kind.hpp"

namespace mcp_hints::conformance {

// Each defined in its own file of this folder.
CheckKind gate_kind();
CheckKind alike_kind();
CheckKind propagation_kind();
CheckKind clean_start_kind();
CheckKind relist_kind();
CheckKind escalation_kind();
CheckKind retry_kind();
CheckKind progress_kind();
CheckKind input_request_kind();
CheckKind cache_scope_kind();
CheckKind client_messages_kind();
CheckKind client_headers_kind();
CheckKind resubscribe_kind();

const std::vector<CheckKind>& check_kinds() {
  static const std::vector<CheckKind> kinds = {
      gate_kind(),          alike_kind(),       propagation_kind(),     clean_start_kind(),
      relist_kind(),        escalation_kind(),  retry_kind(),           progress_kind(),
      input_request_kind(), cache_scope_kind(), client_messages_kind(), client_headers_kind(),
      resubscribe_kind(),
  };
  return kinds;
}

const CheckKind* find_check_kind(std::string_view name) {
  for (const CheckKind& kind : check_kinds())
    if (kind.name == name) return &kind;
  return nullptr;
}

}  // namespace mcp_hints::conformance
