// The mutation harness of the reference client (make mutation; mutation/README.md). The mutants
// are data (mutants.json): each replaces one exact text, found exactly once, in one file of the
// reference policy or client. This program checks the list, writes a mutated copy of a file for
// the build (the mutants are CMake targets, mutation/CMakeLists.txt), and runs the whole
// experiment: build every mutant, certify each against every scenario, and score.
//
// Exit codes: 0 pass, 1 findings (a rotten list, a score below the target, a mutant declared
// equivalent that a scenario kills), 2 usage or bad input, 3 incomplete (a mutant that did not
// build, or a baseline that could not be certified).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const char* kUsage = R"(usage: mutate check LIST ROOT
       mutate apply LIST ROOT ID OUT
       mutate run LIST ROOT BUILD [--jobs N] [--timeout MS] [--only ID]...

check  every mutant of LIST is well formed, its id unique, its class known, and its text found
       exactly once in its file (below ROOT, the source tree)
apply  writes the file of mutant ID, mutated, to OUT
run    builds every mutant in BUILD (target mutation_mutants), certifies each with every scenario,
       prints the table and the score, and writes BUILD/mutation/results.json
)";

// The baseline: the reference client built the same way as the mutants, with no change.
const char* kBaselineId = "unmutated";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Mutant {
  std::string id, cls, file, what, find, replace;
  std::optional<std::string> equivalent;
  std::optional<std::string> survives;  // while it survives: what a scenario must probe to kill it
};

struct MutantList {
  double target = 1.0;
  std::set<std::string> classes;
  std::vector<Mutant> mutants;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read " + path.string());
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string string_member(const json& object, const std::string& key, const std::string& where) {
  if (!object.contains(key) || !object[key].is_string()) throw UsageError(where + ": \"" + key + "\" must be a string");
  return object[key].get<std::string>();
}

// Reads the list's shape; what a mutant says about the sources is judged by problems().
MutantList load_list(const fs::path& path) {
  json doc;
  try {
    doc = json::parse(read_text(path));
  } catch (const json::parse_error& e) {
    throw UsageError(path.string() + " is not JSON: " + e.what());
  }
  const std::string where = path.string();
  if (!doc.is_object() || !doc.contains("mutants") || !doc["mutants"].is_array() || !doc.contains("classes") ||
      !doc["classes"].is_object() || !doc.contains("target") || !doc["target"].is_number())
    throw UsageError(where + ": expected an object with \"target\" (a number), \"classes\" and \"mutants\"");
  MutantList list;
  list.target = doc["target"].get<double>();
  if (list.target <= 0 || list.target > 1) throw UsageError(where + ": \"target\" must be in (0, 1]");
  for (const auto& [name, description] : doc["classes"].items()) list.classes.insert(name);
  for (std::size_t i = 0; i < doc["mutants"].size(); ++i) {
    const json& m = doc["mutants"][i];
    const std::string at = where + ": mutant " + std::to_string(i);
    if (!m.is_object()) throw UsageError(at + " is not an object");
    Mutant mutant{string_member(m, "id", at),
                  string_member(m, "class", at),
                  string_member(m, "file", at),
                  string_member(m, "what", at),
                  string_member(m, "find", at),
                  string_member(m, "replace", at),
                  std::nullopt,
                  std::nullopt};
    if (m.contains("equivalent")) mutant.equivalent = string_member(m, "equivalent", at);
    if (m.contains("survives")) mutant.survives = string_member(m, "survives", at);
    list.mutants.push_back(std::move(mutant));
  }
  return list;
}

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// What is wrong with one mutant, in words; empty when it can be built.
std::vector<std::string> mutant_problems(const Mutant& m, const MutantList& list, const fs::path& root) {
  std::vector<std::string> out;
  // The id names a CMake target and a folder.
  static const std::regex id_shape("[a-z][a-z0-9]*(\\.[a-z0-9]+(-[a-z0-9]+)*)+");
  if (!std::regex_match(m.id, id_shape)) out.push_back("id '" + m.id + "' is not of the form area.words-with-dashes");
  if (!list.classes.count(m.cls)) out.push_back("class '" + m.cls + "' is not one of the list's classes");
  if (m.what.empty()) out.push_back("no \"what\": say what the mutant breaks");
  if (m.equivalent && m.equivalent->empty()) out.push_back("\"equivalent\" is empty: give the reason");
  if (m.equivalent && m.survives) out.push_back("both \"equivalent\" and \"survives\": it is one or the other");
  if (m.find.empty()) out.push_back("\"find\" is empty");
  if (m.find == m.replace) out.push_back("\"replace\" is the text it replaces: no mutation");
  const fs::path file = root / m.file;
  if (!fs::is_regular_file(file)) {
    out.push_back("file " + m.file + " does not exist");
  } else if (!m.find.empty()) {
    const std::size_t n = occurrences(read_text(file), m.find);
    if (n != 1)
      out.push_back("its text is found " + std::to_string(n) + " times in " + m.file +
                    (n == 0 ? " (stale: the source changed)" : " (ambiguous: lengthen it)"));
  }
  return out;
}

// Every problem of the list, each prefixed with its mutant's id.
std::map<std::string, std::vector<std::string>> list_problems(const MutantList& list, const fs::path& root) {
  std::map<std::string, std::vector<std::string>> out;
  std::set<std::string> seen;
  for (const auto& m : list.mutants) {
    auto problems = mutant_problems(m, list, root);
    if (!seen.insert(m.id).second || m.id == kBaselineId) problems.push_back("id '" + m.id + "' is used twice");
    if (!problems.empty()) {
      auto& all = out[m.id];
      all.insert(all.end(), problems.begin(), problems.end());
    }
  }
  return out;
}

int check(const fs::path& list_path, const fs::path& root) {
  const MutantList list = load_list(list_path);
  const auto problems = list_problems(list, root);
  for (const auto& [id, ps] : problems)
    for (const auto& p : ps) std::cout << id << ": " << p << "\n";
  std::cout << list.mutants.size() << " mutants, " << problems.size() << " with problems\n";
  return problems.empty() ? 0 : 1;
}

int apply(const fs::path& list_path, const fs::path& root, const std::string& id, const fs::path& out) {
  const MutantList list = load_list(list_path);
  const auto it = std::find_if(list.mutants.begin(), list.mutants.end(), [&](const Mutant& m) { return m.id == id; });
  if (it == list.mutants.end()) throw UsageError("no mutant " + id + " in " + list_path.string());
  if (const auto problems = mutant_problems(*it, list, root); !problems.empty()) {
    std::cerr << "mutate: " << id << ": " << problems.front() << "\n";
    return 1;
  }
  std::string text = read_text(root / it->file);
  text.replace(text.find(it->find), it->find.size(), it->replace);
  // Unchanged text keeps its time, so editing one mutant of the list rebuilds only that mutant.
  if (fs::exists(out) && read_text(out) == text) return 0;
  fs::create_directories(out.parent_path());
  const fs::path partial = out.string() + ".partial";
  std::ofstream(partial, std::ios::binary) << text;
  fs::rename(partial, out);
  return 0;
}

// ---- run: build, certify, score

// A shell word: the paths we pass are ours, but a space in a checkout path must not split them.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return status == -1 ? -1 : WEXITSTATUS(status);
}

// How bad a verdict is, for naming the strongest check that kills a mutant.
int severity(const std::string& verdict) {
  if (verdict == "fail" || verdict == "not testable") return 3;
  if (verdict == "warning") return 2;
  if (verdict == "info") return 1;
  return 0;  // pass, not applicable
}

struct Certified {
  bool ran = false;
  std::string error;                            // why not, when it did not
  std::map<std::string, std::string> verdicts;  // "scenario:check" -> verdict
  std::set<std::string> profile_misses;         // the profile expectations that did not hold
};

// One run at a time within a certification: mutate already certifies --jobs mutants side by side.
// Every proposal's profile is required, as a vendor claiming the reference client's behaviour would
// ask: a mistake in how the client acts on a draft's value then shows at that sentence's level
// (a miss is otherwise an informational note outside the conformance tiers, and kills nothing).
Certified certify(const fs::path& mcp_hints, const fs::path& client, const fs::path& folder, int timeout_ms) {
  Certified c;
  fs::remove_all(folder);
  fs::create_directories(folder);
  const int code =
      run_shell(quoted(mcp_hints.string()) + " certify --client " + quoted(quoted(client.string())) +
                " --all --require-profile all --jobs 1 --format json --timeout " + std::to_string(timeout_ms) + "ms" +
                " --output " + quoted(folder.string()) + " >" + quoted((folder / "stdout.json").string()) + " 2>" +
                quoted((folder / "stderr.txt").string()));
  if (code != 0 && code != 1) {
    c.error = "certify exited " + std::to_string(code) + " (see " + (folder / "stderr.txt").string() + ")";
    return c;
  }
  try {
    const json results = json::parse(read_text(folder / "results.json"));
    for (const auto& scenario : results.at("scenarios"))
      for (const auto& check : scenario.at("results")) {
        const std::string name = check.at("name").get<std::string>();
        c.verdicts[name] = check.at("verdict").get<std::string>();
        // As profiles count them: a check that does not apply holds nothing and misses nothing.
        if (!check.value("conformance", true) && !check.value("profiles", json::array()).empty() &&
            !check.value("holds", true) && c.verdicts[name] != "not applicable")
          c.profile_misses.insert(name);
      }
  } catch (const std::exception& e) {
    c.error = std::string("unreadable certification: ") + e.what();
    return c;
  }
  c.ran = true;
  return c;
}

struct Outcome {
  std::string status;  // killed, survived, equivalent, wrongly-equivalent, stale, build-error
  std::string detail;  // the strongest killing check, or why not
  std::vector<std::string> killed_by;
};

Outcome classify(const Mutant& m, const Certified& c, const Certified& baseline) {
  if (!c.ran) return {"build-error", c.error, {}};
  std::vector<std::string> killed_by;
  std::string strongest;
  int worst = 0;
  for (const auto& [name, verdict] : c.verdicts) {
    const auto base = baseline.verdicts.find(name);
    const std::string before = base == baseline.verdicts.end() ? "pass" : base->second;
    // Killed means caught as a client vendor sees it: a failure, or a warning for a SHOULD; an
    // informational note (a MAY, or over-caution no text forbids) kills nothing.
    if (severity(verdict) < 2 || verdict == before) continue;
    killed_by.push_back(name + " " + verdict);
    if (severity(verdict) > worst) worst = severity(verdict), strongest = name + " " + verdict;
  }
  // A proposal's expectation that held and no longer does: the required profile is no longer
  // implemented, and the run that requires it fails (over-caution included: a profile says the
  // client uses the hint).
  for (const auto& name : c.profile_misses)
    if (!baseline.profile_misses.count(name) &&
        std::none_of(killed_by.begin(), killed_by.end(),
                     [&](const std::string& k) { return k.rfind(name + " ", 0) == 0; }))
      killed_by.push_back(name + " profile expectation missed");
  // A scenario lost from the run (the mutant crashed the harness) kills as well.
  for (const auto& [name, verdict] : baseline.verdicts)
    if (!c.verdicts.count(name)) killed_by.push_back(name + " missing");
  if (strongest.empty() && !killed_by.empty()) strongest = killed_by.front();
  if (killed_by.empty() && m.equivalent) return {"equivalent", *m.equivalent, {}};
  if (killed_by.empty()) return {"survived", m.survives.value_or("(no \"survives\" note: say what would kill it)"), {}};
  return {m.equivalent ? "wrongly-equivalent" : "killed", strongest, killed_by};
}

struct RunOptions {
  fs::path list, root, build;
  int jobs = 2;
  int timeout_ms = 10000;
  std::set<std::string> only;
};

// Builds every mutant; a failed one has no binary (each is removed first, so none is left over).
void build_mutants(const RunOptions& o, const std::vector<std::string>& ids, const fs::path& bin) {
  for (const auto& id : ids) fs::remove(bin / id);
  // One aggregate target when all are built: the make generator builds several goals one by one.
  std::string targets = " mutation_mutants";
  if (!o.only.empty()) {
    targets.clear();
    for (const auto& id : ids) targets += " mutant." + id;
  }
  const fs::path log = o.build / "mutation" / "build.log";
  std::cout << "building " << ids.size() << " mutants (log: " << log.string() << ")" << std::endl;
  // -k: keep going past a mutant that does not compile (both make and ninja take it).
  run_shell("cmake --build " + quoted(o.build.string()) + " -j " + std::to_string(o.jobs) + " --target" + targets +
            " -- -k" + (fs::exists(o.build / "build.ninja") ? " 0" : "") + " >" + quoted(log.string()) + " 2>&1");
}

int run(const RunOptions& o) {
  const auto started = std::chrono::steady_clock::now();
  const MutantList list = load_list(o.list);
  const auto problems = list_problems(list, o.root);
  std::vector<const Mutant*> chosen;
  for (const auto& m : list.mutants)
    if (o.only.empty() || o.only.count(m.id)) chosen.push_back(&m);
  for (const auto& id : o.only)
    if (std::none_of(chosen.begin(), chosen.end(), [&](const Mutant* m) { return m->id == id; }))
      throw UsageError("no mutant " + id + " in " + o.list.string());

  const fs::path out = o.build / "mutation";
  const fs::path bin = out / "bin";
  const fs::path mcp_hints = o.build / "bin" / "mcp-hints";
  if (!fs::exists(mcp_hints)) throw UsageError(mcp_hints.string() + " is not built (make build)");
  std::vector<std::string> to_build = {kBaselineId};
  for (const Mutant* m : chosen)
    if (!problems.count(m->id)) to_build.push_back(m->id);
  fs::create_directories(out);
  build_mutants(o, to_build, bin);

  const Certified baseline = certify(mcp_hints, bin / kBaselineId, out / "runs" / kBaselineId, o.timeout_ms);
  if (!baseline.ran) {
    std::cerr << "mutate: the unmutated client could not be certified: " << baseline.error << "\n";
    return 3;
  }
  std::vector<Outcome> outcomes(chosen.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next++) < chosen.size();) {
      const Mutant& m = *chosen[i];
      if (auto p = problems.find(m.id); p != problems.end()) {
        outcomes[i] = {"stale", p->second.front(), {}};
      } else if (!fs::exists(bin / m.id)) {
        outcomes[i] = {"build-error", "did not build (see " + (out / "build.log").string() + ")", {}};
      } else {
        outcomes[i] = classify(m, certify(mcp_hints, bin / m.id, out / "runs" / m.id, o.timeout_ms), baseline);
      }
    }
  };
  std::vector<std::thread> workers;
  for (int j = 0; j < std::max(1, o.jobs); ++j) workers.emplace_back(worker);
  for (auto& w : workers) w.join();

  std::map<std::string, int> counts;
  json rows = json::array();
  std::cout << "\n";
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    const Mutant& m = *chosen[i];
    const Outcome& r = outcomes[i];
    ++counts[r.status];
    std::cout << std::left << std::setw(20) << r.status << std::setw(48) << m.id << r.detail << "\n";
    rows.push_back({{"id", m.id},
                    {"class", m.cls},
                    {"file", m.file},
                    {"what", m.what},
                    {"status", r.status},
                    {"detail", r.detail},
                    {"killedBy", r.killed_by}});
  }
  // Killed over every mutant not declared equivalent; a mutant that could not be judged counts as
  // not killed, so errors never raise the score.
  const int killed = counts["killed"] + counts["wrongly-equivalent"];
  const int denominator = static_cast<int>(chosen.size()) - counts["equivalent"];
  const double score = denominator > 0 ? static_cast<double>(killed) / denominator : 1.0;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const int errors = counts["stale"] + counts["build-error"];
  char line[200];
  std::snprintf(line, sizeof line,
                "score %d / %d = %.1f%% (target %.0f%%): %d survived, %d equivalent, %d errors, %.0f s", killed,
                denominator, 100 * score, 100 * list.target, counts["survived"], counts["equivalent"], errors, seconds);
  std::cout << "\n" << line << "\n";
  if (counts["wrongly-equivalent"])
    std::cout << counts["wrongly-equivalent"] << " mutant(s) declared equivalent were killed: correct the list\n";
  json result = {{"target", list.target}, {"score", score},     {"killed", killed}, {"denominator", denominator},
                 {"counts", counts},      {"seconds", seconds}, {"mutants", rows}};
  std::ofstream(out / "results.json") << result.dump(2) << "\n";
  std::cout << "results: " << (out / "results.json").string() << "\n";
  if (errors) return 3;
  return score + 1e-9 < list.target || counts["wrongly-equivalent"] ? 1 : 0;
}

int main_with(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "-h" || args[0] == "--help") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string& command = args[0];
  if (command == "check" && args.size() == 3) return check(args[1], args[2]);
  if (command == "apply" && args.size() == 5) return apply(args[1], args[2], args[3], args[4]);
  if (command == "run" && args.size() >= 4) {
    RunOptions o;
    o.list = args[1];
    o.root = args[2];
    o.build = args[3];
    for (std::size_t i = 4; i < args.size(); ++i) {
      if (i + 1 >= args.size()) throw UsageError(args[i] + " needs a value");
      const std::string& flag = args[i];
      const std::string& value = args[++i];
      try {
        if (flag == "--jobs")
          o.jobs = std::stoi(value);
        else if (flag == "--timeout")
          o.timeout_ms = std::stoi(value);
        else if (flag == "--only")
          o.only.insert(value);
        else
          throw UsageError("unknown option " + flag);
      } catch (const std::logic_error&) {
        throw UsageError(flag + " needs a number, not '" + value + "'");
      }
    }
    return run(o);
  }
  throw UsageError("unknown command or wrong number of arguments (try --help)");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return main_with(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const UsageError& e) {
    std::cerr << "mutate: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "mutate: " << e.what() << "\n";
    return 3;
  }
}
