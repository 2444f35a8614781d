// A flow thread the repository does not hold in memory (written before a restart, or forgotten past
// its limit) is read with the events reader it is given — in `parley serve` the store's read
// thread, so that a read of the SQLite store, which first waits for the writer's commit, does not
// stall the event loop — both to load the thread and to learn its last seq before an append.
#include <gtest/gtest.h>

#include <boost/asio/bind_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <string>
#include <thread>
#include <vector>

#include "flow_test_support.hpp"
#include "parley/flow/thread_repository.hpp"

namespace parley::flow {
namespace {

namespace asio = boost::asio;
using test::run_on;

flow_thread thread_saying(const std::string& id, const std::string& text) {
  flow_thread main;
  main.id = id;
  main.settings.phase = "initial";
  thread_message said;
  said.id = "m" + std::to_string(text.size());
  said.sender = "user";
  said.text = text;
  main.messages.push_back(said);
  return main;
}

struct thread_reads_fixture : ::testing::Test {
  asio::io_context io;
  std::unique_ptr<store> log = make_memory_store();
  asio::thread_pool reader_pool{1};
  std::vector<std::string> read_ids;          // what the reader was asked for, on the loop
  std::vector<std::thread::id> read_threads;  // where each read of the store ran

  // A reader like the server's: the read runs on another thread, the coroutine resumes on the loop.
  thread_repository::events_reader reader() {
    return [this](store& from, std::string thread_id) -> asio::awaitable<result<std::vector<event>>> {
      read_ids.push_back(thread_id);
      auto read = [this, &from, thread_id] {
        read_threads.push_back(std::this_thread::get_id());
        return from.read_events(thread_id);
      };
      // On to the reader's thread, read, and back to the loop.
      co_await asio::post(asio::bind_executor(reader_pool.get_executor(), asio::use_awaitable));
      auto events = read();
      co_await asio::post(asio::bind_executor(io.get_executor(), asio::use_awaitable));
      co_return events;
    };
  }
};
using FlowThreadReads = thread_reads_fixture;

TEST_F(FlowThreadReads, AThreadWrittenBeforeARestartIsLoadedWithTheReaderOffTheLoop) {
  {
    thread_repository before(*log, io.get_executor());
    ASSERT_TRUE(run_on(io, before.create_thread(thread_saying("t1", "hello"), "writer", "hello")));
  }
  thread_repository after(*log, io.get_executor());
  after.set_events_reader(reader());
  auto loaded = run_on(io, after.load_thread_async("t1"));
  ASSERT_TRUE(loaded) << loaded.err().message;
  ASSERT_EQ(loaded->messages.size(), 1U);
  EXPECT_EQ(loaded->messages[0].text, "hello");
  EXPECT_EQ(read_ids, (std::vector<std::string>{"t1"}));
  ASSERT_EQ(read_threads.size(), 1U);
  EXPECT_NE(read_threads[0], std::this_thread::get_id()) << "the read ran on the loop's thread";

  // Held now: the next load and the save after it read nothing, and the save continues the seqs.
  auto again = run_on(io, after.load_thread_async("t1"));
  ASSERT_TRUE(again);
  auto changed = *again;
  changed.messages.push_back(thread_saying("t1", "and more").messages[0]);
  ASSERT_TRUE(run_on(io, after.save_thread(changed)));
  ASSERT_TRUE(run_on(io, after.commit("t1")));
  EXPECT_EQ(read_ids.size(), 1U);
  const auto events = log->read_events("t1").value();
  ASSERT_EQ(events.size(), 3U);
  EXPECT_EQ(events.back().seq, 3);
}

TEST_F(FlowThreadReads, AnAppendToAThreadNotInMemoryLearnsItsLastSeqWithTheReader) {
  {
    thread_repository before(*log, io.get_executor());
    ASSERT_TRUE(run_on(io, before.create_thread(thread_saying("t2", "first"), "writer", "first")));
  }
  thread_repository after(*log, io.get_executor());
  after.set_events_reader(reader());
  ASSERT_TRUE(run_on(io, after.save_thread(thread_saying("t2", "second"))));
  ASSERT_TRUE(run_on(io, after.commit("t2")));
  EXPECT_EQ(read_ids, (std::vector<std::string>{"t2"}));
  ASSERT_EQ(read_threads.size(), 1U);
  EXPECT_NE(read_threads[0], std::this_thread::get_id());
  const auto events = log->read_events("t2").value();
  ASSERT_EQ(events.size(), 3U);
  EXPECT_EQ(events.back().seq, 3) << "the append continued the thread's seqs";
}

}  // namespace
}  // namespace parley::flow
