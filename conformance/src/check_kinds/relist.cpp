// relist: what the client does after the server's tools/list_changed.
#include "check_kind.hpp"
#include "record_queries.hpp"

namespace mcp_hints::conformance {

namespace {

struct Relist {
  std::string server;
};

Relist read_relist(CheckReader& in) { return {in.server("server")}; }

Observation judge_relist(const Relist& check, const RunRecord& record) {
  std::size_t changes = 0;
  std::string result = "not-reached", detail;
  for (std::size_t i = 0; i < record.wire.size(); ++i) {
    const auto& notice = record.wire[i];
    if (notice.server != check.server || !is_out_notification(notice, "notifications/tools/list_changed")) continue;
    ++changes;
    std::string here = "not-reached";
    for (std::size_t j = i + 1; j < record.wire.size(); ++j) {
      const auto& line = record.wire[j];
      if (line.server != check.server || line.connection != notice.connection || !record.is_request_in(line)) continue;
      const auto method = line.message["method"];
      if (method == "tools/list") {
        here = "relisted";
        for (std::size_t k = j + 1; k < record.wire.size(); ++k)
          if (record.wire[k].connection == notice.connection && record.is_request_in(record.wire[k]) &&
              record.wire[k].message["method"] == "tools/call")
            here = "relisted-before-call";
        break;
      }
      if (method == "tools/call") {
        here = "called-without-relist";
        detail = "; " + describe_request(line) + " came first";
        break;
      }
    }
    // The worst over every list_changed: calling without a relist, then nothing, then the rest.
    auto rank = [](const std::string& o) {
      return o == "called-without-relist" ? 3 : o == "not-reached" ? 2 : o == "relisted" ? 1 : 0;
    };
    if (changes == 1 || rank(here) > rank(result)) result = here;
  }
  return {result, std::to_string(changes) + " tools/list_changed sent by " + check.server + detail};
}

}  // namespace

CheckKind relist_kind() {
  return make_check_kind(
      "relist",
      {{"relisted-before-call", "after tools/list_changed the client listed tools again before its next call"},
       {"relisted", "after tools/list_changed the client listed tools again and made no further call"},
       {"called-without-relist", "after tools/list_changed the client called a tool without listing again"},
       {"not-reached", "tools/list_changed was never sent, or nothing followed it", true}},
      read_relist, judge_relist);
}

}  // namespace mcp_hints::conformance
