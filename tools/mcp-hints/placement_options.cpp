#include "placement_options.hpp"

#include "report_output.hpp"

namespace mcp_hints::cli {
namespace po = boost::program_options;

void add_placement_options(po::options_description& options, const TranslateOptions& defaults) {
  options.add_options()("placement", po::value<std::string>()->default_value(placement_name(defaults.placement)), "")(
      "meta-prefix", po::value<std::string>()->default_value(defaults.meta_prefix), "");
}

std::optional<int> read_placement_options(const po::variables_map& vm, const std::string& command,
                                          TranslateOptions& options) {
  const std::string name = vm["placement"].as<std::string>();
  const auto placement = placement_named(name);
  if (!placement) return usage_error(command, "unknown --placement '" + name + "' (annotations, meta, both)");
  options.placement = *placement;
  options.meta_prefix = vm["meta-prefix"].as<std::string>();
  return std::nullopt;
}

}  // namespace mcp_hints::cli
