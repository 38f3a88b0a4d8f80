#include "mcp_hints/checks/findings.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "mcp_hints/json/error.hpp"
#include "mcp_hints/json/temporary_file.hpp"

namespace mcp_hints {

std::string_view level_name(Level level) {
  switch (level) {
    case Level::error: return "error";
    case Level::warning: return "warning";
    case Level::info: return "info";
  }
  return "error";
}

bool Finding::baselined() const {
  return std::any_of(suppressions.begin(), suppressions.end(),
                     [](const Suppression& s) { return s.source == Suppression::Source::baseline; });
}

std::optional<Level> parse_level(std::string_view name) {
  for (Level l : {Level::info, Level::warning, Level::error})
    if (level_name(l) == name) return l;
  return std::nullopt;
}

}  // namespace mcp_hints

namespace mcp_hints {

namespace {

constexpr std::size_t kBlock = 256;            // a spill remembers where every 256th record starts
constexpr std::size_t kWriteAhead = 64 << 10;  // bytes encoded before they are written
constexpr std::size_t kReadAhead = 64 << 10;   // bytes read at a time when walking a spill

std::size_t heap_bytes(const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; }

// What a finding costs in memory, roughly (the budget is a bound, not an account).
std::size_t memory_of(const Finding& f) {
  std::size_t n = sizeof(Finding) + heap_bytes(f.check) + heap_bytes(f.file) + heap_bytes(f.tool) +
                  heap_bytes(f.pointer) + heap_bytes(f.message) + heap_bytes(f.proposal) + heap_bytes(f.tool_pointer) +
                  f.suppressions.capacity() * sizeof(Suppression);
  for (const auto& s : f.suppressions) n += heap_bytes(s.justification);
  return n;
}

// A record: its length (4 bytes, little-endian), then the fields in declaration order, numbers as
// LEB128 and strings as their length and bytes.
void put_number(std::string& out, std::uint64_t n) {
  do {
    const auto low = static_cast<char>(n & 0x7f);
    n >>= 7;
    out += static_cast<char>(low | (n ? 0x80 : 0));
  } while (n);
}

void put_text(std::string& out, const std::string& s) {
  put_number(out, s.size());
  out += s;
}

void encode(const Finding& f, std::string& out) {
  const std::size_t start = out.size();
  out.append(4, '\0');
  put_text(out, f.check);
  put_number(out, static_cast<std::uint64_t>(f.level));
  put_text(out, f.file);
  put_text(out, f.tool);
  put_text(out, f.pointer);
  put_number(out, f.line);
  put_number(out, f.column);
  put_text(out, f.message);
  put_text(out, f.proposal);
  put_number(out, f.tool_line);
  put_text(out, f.tool_pointer);
  put_number(out, f.suppressions.size());
  for (const auto& s : f.suppressions) {
    put_number(out, static_cast<std::uint64_t>(s.source));
    put_text(out, s.justification);
  }
  const auto length = static_cast<std::uint32_t>(out.size() - start - 4);
  for (int i = 0; i < 4; ++i) out[start + i] = static_cast<char>((length >> (8 * i)) & 0xff);
}

Error damaged() { return Error(Error::Category::incomplete, "a temporary file of findings was damaged"); }

struct Decoder {
  std::string_view in;

  std::uint64_t number() {
    std::uint64_t n = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (in.empty()) throw damaged();
      const auto byte = static_cast<unsigned char>(in.front());
      in.remove_prefix(1);
      n |= std::uint64_t{byte & 0x7fu} << shift;
      if (!(byte & 0x80)) return n;
    }
    throw damaged();
  }
  void text(std::string& into) {
    const std::uint64_t n = number();
    if (n > in.size()) throw damaged();
    into.assign(in.data(), n);
    in.remove_prefix(n);
  }
};

// Decodes into `f`, reusing its strings' memory.
void decode(std::string_view record, Finding& f) {
  Decoder d{record};
  d.text(f.check);
  f.level = static_cast<Level>(d.number());
  d.text(f.file);
  d.text(f.tool);
  d.text(f.pointer);
  f.line = d.number();
  f.column = d.number();
  d.text(f.message);
  d.text(f.proposal);
  f.tool_line = d.number();
  d.text(f.tool_pointer);
  f.suppressions.resize(d.number());
  for (auto& s : f.suppressions) {
    s.source = static_cast<Suppression::Source>(d.number());
    d.text(s.justification);
  }
  if (!d.in.empty()) throw damaged();
}

}  // namespace

struct FindingList::Spill {
  TemporaryFile file;
  std::string pending;                // encoded, not yet written
  std::vector<std::uint64_t> blocks;  // where records 0, kBlock, 2 kBlock, ... start

  // Encodes the finding that is record `index`, written once enough is pending.
  void append(const Finding& finding, std::size_t index) {
    if (index % kBlock == 0) blocks.push_back(file.size() + pending.size());
    encode(finding, pending);
    if (pending.size() >= kWriteAhead) flush();
  }
  void flush() {
    file.append(pending);
    pending.clear();
  }
};

FindingList::FindingList(std::size_t memory_budget) : budget_(memory_budget) {}
FindingList::~FindingList() = default;
FindingList::FindingList(FindingList&& other) noexcept = default;
FindingList& FindingList::operator=(FindingList&& other) noexcept = default;

FindingList::FindingList(const FindingList& other) : budget_(other.budget_) {
  for (const auto& f : other) push_back(f);
}

FindingList& FindingList::operator=(const FindingList& other) {
  if (this != &other) *this = FindingList(other);
  return *this;
}

void FindingList::tally(const Finding& f, int sign) {
  auto& n = f.suppressed() ? suppressed_ : counting_[static_cast<int>(f.level)];
  n += static_cast<std::size_t>(sign);
  if (f.baselined()) baselined_ += static_cast<std::size_t>(sign);
}

void FindingList::push_back(Finding&& finding) {
  if (spill_) return push_back(static_cast<const Finding&>(finding));
  tally(finding, +1);
  memory_bytes_ += memory_of(finding);
  memory_.push_back(std::move(finding));
  ++size_;
  if (memory_bytes_ > budget_) spill_all();
}

void FindingList::push_back(const Finding& finding) {
  if (!spill_) return push_back(Finding(finding));
  tally(finding, +1);
  spill_->append(finding, size_);
  ++size_;
}

void FindingList::spill_all() {
  spill_ = std::make_unique<Spill>();
  for (std::size_t i = 0; i < memory_.size(); ++i) spill_->append(memory_[i], i);
  spill_->flush();
  memory_ = {};
  memory_bytes_ = 0;
}

void FindingList::flush() const {
  if (spill_ && !spill_->pending.empty()) spill_->flush();
}

void FindingList::update(const std::function<void(Finding&)>& change) {
  if (!spill_) {
    for (auto& f : memory_) {
      tally(f, -1);
      memory_bytes_ -= memory_of(f);
      change(f);
      tally(f, +1);
      memory_bytes_ += memory_of(f);
    }
    if (memory_bytes_ > budget_) spill_all();
    return;
  }
  FindingList changed(budget_);
  for (const auto& f : *this) {
    Finding copy = f;
    change(copy);
    changed.push_back(std::move(copy));
  }
  *this = std::move(changed);
}

const Finding FindingList::operator[](std::size_t index) const {
  if (index >= size_) throw std::out_of_range("no finding " + std::to_string(index) + " of " + std::to_string(size_));
  if (!spill_) return memory_[index];
  return *const_iterator(this, index);
}

FindingList::const_iterator FindingList::end() const {
  const_iterator it;
  it.list_ = this;
  it.index_ = size_;
  return it;
}

FindingList::const_iterator::const_iterator(const FindingList* list, std::size_t index) : list_(list), index_(index) {
  if (index_ >= list_->size_) return;
  if (!list_->spill_) {
    current_ = &list_->memory_[index_];
    return;
  }
  list_->flush();
  buffer_start_ = list_->spill_->blocks[index_ / kBlock];
  for (std::size_t skip = index_ % kBlock; skip > 0; --skip) next_record();
  load();
}

FindingList::const_iterator::const_iterator(const const_iterator& other)
    : list_(other.list_),
      index_(other.index_),
      current_(other.current_),
      buffer_start_(other.buffer_start_),
      buffer_(other.buffer_),
      buffer_at_(other.buffer_at_),
      decoded_(other.decoded_) {
  if (other.current_ == &other.decoded_) current_ = &decoded_;
}

FindingList::const_iterator& FindingList::const_iterator::operator=(const const_iterator& other) {
  if (this == &other) return *this;
  list_ = other.list_;
  index_ = other.index_;
  buffer_start_ = other.buffer_start_;
  buffer_ = other.buffer_;
  buffer_at_ = other.buffer_at_;
  decoded_ = other.decoded_;
  current_ = other.current_ == &other.decoded_ ? &decoded_ : other.current_;
  return *this;
}

FindingList::const_iterator& FindingList::const_iterator::operator++() {
  ++index_;
  current_ = nullptr;
  if (index_ >= list_->size_) return *this;
  if (!list_->spill_)
    current_ = &list_->memory_[index_];
  else
    load();
  return *this;
}

std::string_view FindingList::const_iterator::next_record() {
  const TemporaryFile& file = list_->spill_->file;
  // Makes the next `n` bytes stand in the buffer, reading from the file as needed.
  auto have = [&](std::size_t n) {
    if (buffer_.size() - buffer_at_ >= n) return;
    buffer_.erase(0, buffer_at_);
    buffer_start_ += buffer_at_;
    buffer_at_ = 0;
    const std::size_t old = buffer_.size();
    const std::size_t want = std::max(kReadAhead, n - old);
    buffer_.resize(old + want);
    const std::size_t got = file.read_at(buffer_start_ + old, buffer_.data() + old, want);
    buffer_.resize(old + got);
    if (buffer_.size() < n) throw damaged();
  };
  have(4);
  std::uint32_t length = 0;
  for (int i = 0; i < 4; ++i) length |= std::uint32_t{static_cast<unsigned char>(buffer_[buffer_at_ + i])} << (8 * i);
  have(4 + std::size_t{length});
  const std::string_view record(buffer_.data() + buffer_at_ + 4, length);
  buffer_at_ += 4 + std::size_t{length};
  return record;
}

void FindingList::const_iterator::load() {
  decode(next_record(), decoded_);
  current_ = &decoded_;
}

}  // namespace mcp_hints
