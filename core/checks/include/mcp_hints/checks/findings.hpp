#pragma once
// What a check reports, and how severe it is.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp_hints {

// Ordered by severity. The level of a check follows the proposal's words: MUST or a
// contradiction between hints -> error, SHOULD -> warning, MAY or advice -> info.
enum class Level { info, warning, error };

std::string_view level_name(Level level);
std::optional<Level> parse_level(std::string_view name);

// Why a finding does not count towards the verdict, as SARIF says it (result.suppressions, kind
// "external": the reason is kept outside the input): a suppression of the suppressions file, with
// its reason, or an entry of a baseline.
struct Suppression {
  enum class Source { config, baseline };
  Source source;
  std::string justification;  // the suppression's reason, or "in the baseline FILE"
};

struct Finding {
  std::string check;  // stable id, "area.name"
  Level level;
  std::string file;                       // the input it came from ("-" for stdin)
  std::string tool;                       // tool name, or "" when the tool has none
  std::string pointer;                    // JSON pointer into the input document
  std::size_t line = 0;                   // where the pointer's value starts (for a missing member, its nearest
  std::size_t column = 0;                 // enclosing value): 1-based line and UTF-16 column; 0 when unknown
  std::string message;                    // what was expected and what was seen
  std::string proposal;                   // the proposal and section enforced
  std::size_t tool_line = 0;              // line where the tool starts, 0 when unknown
  std::string tool_pointer;               // where the finding's tool stands in the input ("" when none)
  std::vector<Suppression> suppressions;  // empty: the finding counts

  bool suppressed() const { return !suppressions.empty(); }
  bool baselined() const;  // one of its suppressions is a baseline's
};

// The findings of a run, in the order they were found. They stay in memory while they are few;
// past a memory budget they are written, encoded, to a temporary file (temporary_file.hpp) and
// read back in order as they are walked, so a catalog where every tool has findings is linted in
// flat memory. Counts of the findings that count, and of the suppressed, are kept as they come.
class FindingList {
 public:
  static constexpr std::size_t kDefaultMemoryBudget = std::size_t{8} << 20;

  FindingList() : FindingList(kDefaultMemoryBudget) {}
  explicit FindingList(std::size_t memory_budget);
  ~FindingList();
  FindingList(const FindingList& other);
  FindingList& operator=(const FindingList& other);
  FindingList(FindingList&& other) noexcept;
  FindingList& operator=(FindingList&& other) noexcept;

  // Error(incomplete) when a spill cannot be written.
  void push_back(Finding&& finding);
  // The same, leaving `finding` as it is: a spilled list encodes it without a copy (its memory
  // is then freed by its owner, perhaps on the thread that made it).
  void push_back(const Finding& finding);
  // Changes every finding, in order (a spill is written anew).
  void update(const std::function<void(Finding&)>& change);

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool spilled() const { return spill_ != nullptr; }

  // A copy of the finding: const, so that changing it does not compile (it would change nothing
  // in the list; update() does). Reading a spilled one reads from the nearest block before it.
  const Finding operator[](std::size_t index) const;
  const Finding front() const { return (*this)[0]; }
  const Finding back() const { return (*this)[size_ - 1]; }

  // Findings at this level that count (not suppressed), those suppressed, and those of them in a baseline.
  std::size_t counting(Level level) const { return counting_[static_cast<int>(level)]; }
  std::size_t suppressed() const { return suppressed_; }
  std::size_t baselined() const { return baselined_; }

  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Finding;
    using difference_type = std::ptrdiff_t;
    using pointer = const Finding*;
    using reference = const Finding&;

    const_iterator() = default;
    const_iterator(const const_iterator& other);
    const_iterator& operator=(const const_iterator& other);
    reference operator*() const { return *current_; }
    pointer operator->() const { return current_; }
    const_iterator& operator++();
    const_iterator operator++(int) {  // a copy of a walk: ++it is cheaper
      const_iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const const_iterator& other) const { return index_ == other.index_; }

   private:
    friend class FindingList;
    const_iterator(const FindingList* list, std::size_t index);
    void load();                     // reads the finding at index_ from the spill
    std::string_view next_record();  // the next record's bytes (read from the file as needed)

    const FindingList* list_ = nullptr;
    std::size_t index_ = 0;
    const Finding* current_ = nullptr;
    // A spilled list: where the next record starts, the bytes read ahead, and the finding decoded.
    std::uint64_t buffer_start_ = 0;  // the file's offset of buffer_[0]
    std::string buffer_;
    std::size_t buffer_at_ = 0;  // where the next record starts in buffer_
    Finding decoded_;
  };
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const;

 private:
  struct Spill;
  void tally(const Finding& finding, int sign);
  void spill_all();
  void flush() const;

  std::size_t budget_;
  std::size_t size_ = 0;
  std::vector<Finding> memory_;  // every finding until the budget is passed
  std::size_t memory_bytes_ = 0;
  std::unique_ptr<Spill> spill_;  // then every finding, encoded (memory_ is empty)
  std::size_t counting_[3] = {0, 0, 0};
  std::size_t suppressed_ = 0, baselined_ = 0;
};

}  // namespace mcp_hints
