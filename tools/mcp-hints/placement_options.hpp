#pragma once
// What translate and infer share on the command line: where hints that live in annotations are
// written (--placement) and the prefix of their mirrors in _meta (--meta-prefix).
#include <optional>
#include <string>

#include <boost/program_options.hpp>

#include "mcp_hints/vocab/translate.hpp"

namespace mcp_hints::cli {

// Adds --placement and --meta-prefix with the command's defaults.
void add_placement_options(boost::program_options::options_description& options, const TranslateOptions& defaults);

// Sets options.placement and options.meta_prefix from the flags; returns bad_input after a
// one-line usage error for an unknown placement, nullopt when the command should go on.
std::optional<int> read_placement_options(const boost::program_options::variables_map& vm, const std::string& command,
                                          TranslateOptions& options);

}  // namespace mcp_hints::cli
