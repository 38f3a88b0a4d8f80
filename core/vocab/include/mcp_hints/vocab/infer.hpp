#pragma once
// Inferring hints for tools that declare none, in the manner of SEP-2793's reference
// implementation: the verb of the tool's name (wherever a vendor prefix or an object puts it) and
// its class, an input that chooses among operations, risky flags in its input schema that raise
// the risk one grade, and scope parameters that give the blast radius. The model is data
// (schemas/verbs.json), each verb group with its evidence. Every value keeps its evidence.
// Knows nothing of the wire.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mcp_hints/json/error.hpp"
#include "mcp_hints/vocab/translate.hpp"

namespace mcp_hints {

struct InferredValue {
  std::string facet;  // effect, risk, blast-radius, idempotent, confirmation
  nlohmann::json value;
  std::vector<std::string> evidence;  // "name verb 'delete' (delete class)", "input 'force' raises the risk"
};

struct Inference {
  std::vector<std::string> words;     // the name split into words
  std::string verb;                   // the name's word that decided the class, "" when none did
  std::string verb_class;             // "delete", "write", "external", "read", "" when unknown
  std::string verb_evidence;          // why that verb is in that class (schemas/verbs.json)
  std::string name_evidence;          // where the name says it: "the name's verb 'post' (after 'slack') ..."
  bool strong = false;                // the class comes from the name's action verb
  std::vector<InferredValue> values;  // empty when nothing could be inferred

  const InferredValue* find(std::string_view facet) const;
};

// Splits "deletePod", "delete_pod", "delete-pod", "k8s.delete.pod" into lower-case words.
std::vector<std::string> name_words(const std::string& name);
Inference infer_tool(const nlohmann::json& tool);

// Only what the name says: words, verb, class and strength (infer_tool without the description
// and the schema); with_evidence false leaves verb_evidence and name_evidence empty (a check that
// reports rarely asks again for them when it does).
Inference classify_name(const std::string& name, bool with_evidence = true);

// The inferred values as keys of a vocabulary revision, written into a copy of the tool:
// risk-metadata@sep-2793 (category, riskLevel, blastRadius, approvalRecommendation),
// policy-hints@seed (mcp.dev/*), spec (readOnlyHint, destructiveHint, idempotentHint), or any
// other tool revision through translation. The placement's placement and meta_prefix say where
// keys that live in annotations are written, as translate's do (its target is revision_ref).
// Throws OptionError ("target") for an unknown revision.
nlohmann::json apply_inference(const nlohmann::json& tool, const Inference& inference, const std::string& revision_ref,
                               const TranslateOptions& placement = {});
// Throws OptionError ("target" or "meta_prefix"), saying why, when apply_inference cannot write in
// that revision and placement.
void validate_inference_target(const std::string& revision_ref, const TranslateOptions& placement = {});

}  // namespace mcp_hints
