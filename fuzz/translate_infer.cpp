// A catalog of any bytes given to translate and infer: the streaming catalog reader, then each
// tool translated into every revision and placement translate accepts, and its hints inferred
// and applied in every revision infer accepts (the command's diff of the two included).
#include <sstream>
#include <vector>

#include "fuzz_support.hpp"
#include "mcp_hints/json/catalog_reader.hpp"
#include "mcp_hints/vocab/infer.hpp"
#include "mcp_hints/vocab/translate.hpp"

namespace {

using mcp_hints::TranslateOptions;

struct Targets {
  std::vector<TranslateOptions> translate;                      // every valid --to and --placement
  std::vector<std::pair<std::string, TranslateOptions>> infer;  // every valid infer --to and placement
};

const Targets& targets() {
  using namespace mcp_hints;
  static const Targets made = [] {
    Targets out;
    std::vector<std::string> refs = {"spec"};
    for (const auto& revision : Vocabulary::builtin().revisions()) refs.push_back(revision.ref());
    for (const auto& ref : refs)
      for (const auto placement : {TranslateOptions::Placement::annotations, TranslateOptions::Placement::meta,
                                   TranslateOptions::Placement::both}) {
        TranslateOptions options;
        options.target = Vocabulary::builtin().find(ref);
        options.placement = placement;
        options.meta_prefix = "com.example";
        try {
          validate_translate_options(options);
          out.translate.push_back(options);
        } catch (const OptionError&) {
        }
        try {
          validate_inference_target(ref, options);
          out.infer.emplace_back(ref, options);
        } catch (const OptionError&) {
        }
      }
    return out;
  }();
  return made;
}

std::string dump(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mcp_hints;
  std::istringstream in{std::string(fuzz::text_of(data, size))};
  try {
    read_catalog(in, InputLimits{}, [](CatalogTool&& entry) {
      for (const auto& options : targets().translate) {
        const auto translated = translate_tool(entry.tool, options);
        (void)dump(translated.tool);
      }
      const Inference inference = infer_tool(entry.tool);
      for (const auto& value : inference.values)
        (void)dump(nlohmann::json{{"value", value.value}, {"evidence", value.evidence}});
      for (const auto& [ref, placement] : targets().infer) {
        const auto applied = apply_inference(entry.tool, inference, ref, placement);
        (void)dump(nlohmann::json::diff(entry.tool, applied));
      }
    });
  } catch (const Error&) {
  }
  return 0;
}
