#pragma once
// Reading a saved tools/list on one thread while other threads read and work on the tools already
// found: the results come back in document order, so the output is the same for any number of
// threads.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <istream>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <streambuf>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "mcp_hints/json/catalog_reader.hpp"

namespace mcp_hints {

namespace detail {

// What a tool's text that the fast reader refuses throws, where it is read (read_tool): the
// document is then read again.
struct ToolTextRefused {};

// Tools (CatalogTool, or CatalogToolText to be read where they are worked on) handed over in
// batches (one lock a batch, not one a tool) to threads that work on them; the thread that reads
// keeps each result, in document order. It works on a batch itself when too many are in flight,
// so that memory stays bounded and it is never idle while others work.
template <class Input, class Result>
class OrderedCatalogWork {
 public:
  using Work = std::function<Result(Input&&)>;
  using Keep = std::function<void(Result&&)>;

  // threads counts the reading thread: threads - 1 are started. The trees of the CatalogTools
  // worked on go to spare_trees as their results are kept, up to kMostSpareTrees.
  OrderedCatalogWork(std::size_t threads, const Work& work, const Keep& keep,
                     std::vector<nlohmann::json>* spare_trees = nullptr)
      : work_(work), keep_(keep), most_in_flight_(2 * threads), spare_trees_(spare_trees) {
    for (std::size_t i = 1; i < threads; ++i) workers_.emplace_back([this](std::stop_token stop) { serve(stop); });
  }
  ~OrderedCatalogWork() {
    // A batch under way is finished (its result is dropped); no thread outlives the object.
    for (auto& worker : workers_) worker.request_stop();
    workers_.clear();
  }
  OrderedCatalogWork(const OrderedCatalogWork&) = delete;
  OrderedCatalogWork& operator=(const OrderedCatalogWork&) = delete;

  void add(Input&& tool) {
    filling_.tools.push_back(std::move(tool));
    if (filling_.tools.size() < kBatchSize) return;
    submit();
    std::unique_lock lock(mutex_);
    keep_done(lock);
    while (in_flight_ >= most_in_flight_) {
      work_or_wait(lock);
      keep_done(lock);
    }
  }

  // Works on and keeps every tool added. Throws what a work or keep threw, after keeping the
  // results before it (as working on the tools one after another would have).
  void finish() {
    if (!filling_.tools.empty()) submit();
    std::unique_lock lock(mutex_);
    keep_done(lock);
    while (in_flight_ > 0) {
      work_or_wait(lock);
      keep_done(lock);
    }
  }

  // A work or keep threw: the tools after it are not to be kept.
  bool failed() const { return failed_; }

 private:
  static constexpr std::size_t kBatchSize = 64;
  // Trees come back a batch at a time, and one is built into per tool read: two batches' worth
  // covers two batches kept at once. More would only hold memory (the room of their arrays and
  // strings, which a tree keeps when built into).
  static constexpr std::size_t kMostSpareTrees = 2 * kBatchSize;

  struct Batch {
    std::size_t sequence = 0;
    // Freed as soon as worked on, by the thread that worked on them, which spares the reading
    // thread, the one that falls behind: jemalloc, which the command links, takes memory back from
    // any thread without waiting (lint of 100,000 tools 0.62 s to 0.53 s; under glibc's malloc,
    // a free on another thread than the allocating one waits on a lock). All but their trees,
    // which go back to the reading thread to be built into (JsonBuilder::recycle; those past
    // kMostSpareTrees are freed there).
    std::vector<Input> tools;
    std::vector<nlohmann::json> trees;
    std::vector<Result> results;  // one a tool, up to the one whose work threw
    std::exception_ptr error;     // what that work threw
    bool by_reader = false;       // worked on by the reading thread
  };

  void submit() {
    filling_.sequence = next_sequence_++;
    {
      std::lock_guard lock(mutex_);
      queued_.push_back(std::move(filling_));
      ++in_flight_;
    }
    filling_ = Batch{};
    if (spare_tools_.empty()) {
      filling_.tools.reserve(kBatchSize);
    } else {
      filling_.tools = std::move(spare_tools_.back());
      spare_tools_.pop_back();
    }
    work_queued_.notify_one();
  }

  void run(Batch& batch) {
    batch.results.reserve(batch.tools.size());
    batch.trees.reserve(batch.tools.size());
    try {
      for (auto& tool : batch.tools) {
        batch.results.push_back(work_(std::move(tool)));
        if constexpr (std::is_same_v<Input, CatalogTool>)
          batch.trees.push_back(std::move(tool.tool));  // what the work left of it
      }
    } catch (...) {
      batch.error = std::current_exception();
    }
    batch.tools.clear();  // its room stays, for the reading thread to fill again
  }

  void serve(std::stop_token stop) {
    std::unique_lock lock(mutex_);
    while (work_queued_.wait(lock, stop, [&] { return !queued_.empty(); }) && !stop.stop_requested()) {
      Batch batch = std::move(queued_.front());
      queued_.pop_front();
      std::vector<std::vector<Result>> spent;
      spent.swap(spent_);
      lock.unlock();
      spent.clear();  // what this thread made is freed here, not on the reading thread
      run(batch);
      lock.lock();
      const std::size_t sequence = batch.sequence;
      done_.emplace(sequence, std::move(batch));
      if (sequence == next_to_keep_) batch_done_.notify_one();
    }
  }

  // Works on the oldest batch nobody has taken, else waits until the next one to keep is done.
  void work_or_wait(std::unique_lock<std::mutex>& lock) {
    if (queued_.empty()) {
      batch_done_.wait(lock, [&] { return done_.contains(next_to_keep_); });
      return;
    }
    Batch batch = std::move(queued_.front());
    queued_.pop_front();
    batch.by_reader = true;
    lock.unlock();
    run(batch);
    lock.lock();
    done_.emplace(batch.sequence, std::move(batch));
  }

  // Keeps the results of the batches done, in order, as far as they go without a gap.
  void keep_done(std::unique_lock<std::mutex>& lock) {
    for (auto next = done_.find(next_to_keep_); next != done_.end(); next = done_.find(next_to_keep_)) {
      Batch batch = std::move(next->second);
      done_.erase(next);
      --in_flight_;
      ++next_to_keep_;
      lock.unlock();
      try {
        for (auto& result : batch.results) keep_(std::move(result));
        if (batch.error) std::rethrow_exception(batch.error);
        spare_tools_.push_back(std::move(batch.tools));
        for (auto& tree : batch.trees)
          if (spare_trees_->size() < kMostSpareTrees && !tree.is_null()) spare_trees_->push_back(std::move(tree));
        batch.trees.clear();  // the rest, freed before the lock is taken again
      } catch (...) {
        failed_ = true;
        throw;
      }
      lock.lock();
      // Results made on a worker go back to the workers to be freed (keep may leave them whole):
      // memory freed on another thread than the one that took it goes back under a lock.
      if (!batch.by_reader) spent_.push_back(std::move(batch.results));
    }
  }

  const Work& work_;
  const Keep& keep_;
  const std::size_t most_in_flight_;  // batches handed over and not yet kept
  Batch filling_;                     // the reading thread's, not yet handed over
  // Emptied batches' room for tools, used again rather than allocated a batch at a time (a large
  // block makes the allocator sort every small one freed since the last).
  std::vector<std::vector<Input>> spare_tools_;
  std::vector<nlohmann::json>* spare_trees_;  // the reading thread's
  std::size_t next_sequence_ = 0;
  bool failed_ = false;

  std::mutex mutex_;  // guards what follows
  std::condition_variable_any work_queued_;
  std::condition_variable batch_done_;
  std::deque<Batch> queued_;                // handed over, not taken
  std::map<std::size_t, Batch> done_;       // worked on, not kept yet, by sequence
  std::vector<std::vector<Result>> spent_;  // kept results of workers' batches, for a worker to free
  std::size_t in_flight_ = 0;
  std::size_t next_to_keep_ = 0;
  std::vector<std::jthread> workers_;  // last: stopped and joined before the rest is destroyed
};

// A stream's bytes from where it stands, read once through and never sought: read_catalog reads
// them with nlohmann's parser alone, as it reads a pipe.
class ReadOnceThrough : public std::streambuf {
 public:
  explicit ReadOnceThrough(std::streambuf& from) : from_(from) {}

 protected:
  int_type underflow() override {
    const std::streamsize got = from_.sgetn(buffer_, sizeof buffer_);
    if (got <= 0) return traits_type::eof();
    setg(buffer_, buffer_, buffer_ + got);
    return traits_type::to_int_type(buffer_[0]);
  }

 private:
  std::streambuf& from_;
  char buffer_[1 << 16];
};

// read_catalog_in_parallel over a seekable input: the reading thread only finds where each tool's
// text ends (read_catalog_texts), and the thread that works on a tool reads it (read_tool), into
// a tree it built and worked on before. Where the fast reader gives up, on the document or on a
// tool's text, the document is read again from `start` by nlohmann's parser (which the fast reader
// would hand it to at the same place), on one thread, passing over the tools whose results were
// kept.
template <class Result>
CatalogSummary read_catalog_texts_in_parallel(std::istream& in, std::streampos start, const InputLimits& limits,
                                              std::size_t threads, const std::function<Result(CatalogTool&&)>& work,
                                              const std::function<void(Result&&)>& keep,
                                              std::size_t tools_on_one_thread) {
  std::size_t kept = 0;
  const std::function<void(Result &&)> counted_keep = [&](Result&& result) {
    keep(std::move(result));
    ++kept;
  };
  const std::function<Result(CatalogToolText &&)> read_and_work = [&](CatalogToolText&& text) {
    // Each thread builds a tool into the tree of the last one it worked on, with the same room.
    thread_local ToolReading reading;
    std::optional<CatalogTool> tool = read_tool(std::move(text), limits, &reading);
    if (!tool) throw ToolTextRefused{};
    Result result = work(std::move(*tool));
    if (reading.spare_trees.empty() && !tool->tool.is_null()) reading.spare_trees.push_back(std::move(tool->tool));
    return result;
  };
  std::size_t tools = 0;
  std::optional<OrderedCatalogWork<CatalogToolText, Result>> parallel;
  bool read_again = false;
  try {
    const auto summary = read_catalog_texts(in, limits, [&](CatalogToolText&& text) {
      if (tools++ < tools_on_one_thread) return counted_keep(read_and_work(std::move(text)));
      if (!parallel) parallel.emplace(threads, read_and_work, counted_keep);
      parallel->add(std::move(text));
    });
    if (parallel) parallel->finish();
    if (summary) return *summary;
    read_again = true;
  } catch (const ToolTextRefused&) {
    read_again = true;
  } catch (...) {
    // The document is no tools/list: the tools read before are worked on and kept first, as in
    // read_catalog_in_parallel. A text among them refused: reading again says what is wrong.
    if (!parallel || parallel->failed()) throw;
    try {
      parallel->finish();
    } catch (const ToolTextRefused&) {
      read_again = true;
    }
    if (!read_again) throw;
  }
  parallel.reset();
  in.clear();
  if (!in.seekg(start)) throw InputError("the input could not be read a second time");
  ReadOnceThrough once(*in.rdbuf());
  std::istream piped(&once);
  std::size_t passed = 0;
  CatalogSummary summary = read_catalog(piped, limits, [&](CatalogTool&& tool) {
    if (passed++ >= kept) keep(work(std::move(tool)));
  });
  summary.read_fast = false;  // not as the fast reader first read it
  return summary;
}

}  // namespace detail

// read_catalog with work(tool) done on up to `threads` threads (the calling one among them) and
// keep(result) called on the calling thread in document order. Keeps and throws exactly what
// read_catalog(in, limits, [&](CatalogTool&& t) { keep(work(std::move(t))); }) would: when the
// input turns out bad, the results of the tools before the fault are kept, then InputError is
// thrown; when a work throws, the results before it are kept and its exception is thrown. work
// must be safe to call from several threads at once. A small catalog is worked on one thread:
// starting threads would cost it more than they save.
template <class Result>
CatalogSummary read_catalog_in_parallel(std::istream& in, const InputLimits& limits, std::size_t threads,
                                        const std::function<Result(CatalogTool&&)>& work,
                                        const std::function<void(Result&&)>& keep) {
  constexpr std::size_t kToolsOnOneThread = 256;
  if (threads > 1)
    if (const auto start = in.tellg(); start != std::streampos(-1))
      return detail::read_catalog_texts_in_parallel(in, start, limits, threads, work, keep, kToolsOnOneThread);
  // A pipe: the reading thread builds the trees.
  std::size_t tools = 0;
  std::vector<nlohmann::json> spare_trees;  // trees worked on, to build the next tools into
  std::optional<detail::OrderedCatalogWork<CatalogTool, Result>> parallel;
  try {
    const auto summary = read_catalog(
        in, limits,
        [&](CatalogTool&& tool) {
          if (threads <= 1 || tools++ < kToolsOnOneThread) {
            keep(work(std::move(tool)));
            if (spare_trees.empty() && !tool.tool.is_null()) spare_trees.push_back(std::move(tool.tool));
            return;
          }
          if (!parallel) parallel.emplace(threads, work, keep, &spare_trees);
          parallel->add(std::move(tool));
        },
        &spare_trees);
    if (parallel) parallel->finish();
    return summary;
  } catch (...) {
    // The input failed past the tools read: they are worked on and kept first. A work that throws
    // meanwhile came before the failure, so its exception is the one thrown.
    if (parallel && !parallel->failed()) parallel->finish();
    throw;
  }
}

}  // namespace mcp_hints
