#pragma once
// The host matrix (make hosts-matrix): the certify --host reports of several real hosts side by
// side — each host's version and tier per protocol era, what it does with each proposal (its
// behaviour profile), and every scenario's verdict per host and era — as one page, the public
// answer to "which hosts honour which hints". It reads reports; it runs and judges nothing.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mcp_hints::conformance {

struct HostMatrix {
  std::vector<nlohmann::json> reports;  // certify --host results.json, one per host, in the order given
  std::string date;                     // the day the page is made, YYYY-MM-DD
};

// The matrix of `reports`, each named `sources[i]` in messages. Throws Error (bad input) for a
// report that breaks certify-report.schema.json, that a certify without --host wrote, or that
// names a host another report already names.
HostMatrix host_matrix(std::vector<nlohmann::json> reports, const std::vector<std::string>& sources, std::string date);

std::string host_matrix_markdown(const HostMatrix& matrix);
// A self-contained page, readable at phone width (the table scrolls within itself).
std::string host_matrix_html(const HostMatrix& matrix);

}  // namespace mcp_hints::conformance
