// Reads of the store, off the event loop, for the server's handlers: the engine's read thread
// (engine/store_reads.hpp, which says why), shared by the engine and the server. A handler awaits
// `read_store(context, read)`: the read runs on the read thread and the handler resumes on its own
// executor with the value, while the loop goes on serving.
//
// A read given here must touch only the store and values the awaiting coroutine keeps alive —
// never the engine, the PubChan or anything else of the loop's.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <boost/json/serialize.hpp>

#include <type_traits>
#include <utility>

#include "parley/engine/store_reads.hpp"
#include "parley/server/rest_router.hpp"
#include "parley/server/server_context.hpp"

namespace parley::server {

// `read` on the context's read thread, or right here when the server has none (tests, benchmarks
// that build a context of their own).
template <class Read>
boost::asio::awaitable<std::invoke_result_t<Read&>> read_store(server_context& context, Read read) {
  co_return co_await engine::read_off_loop(context.reads, std::move(read));
}

// A handler's whole reply read by `read`: the JSON body is serialized, and the tree freed, on the
// read thread as well, so what is left on the loop for a large view (a records page, a transcript)
// is the write of its bytes (bench/README.md "The read thread's priority").
template <class Read>
requires std::is_same_v<std::invoke_result_t<Read&>, rest_response> boost::asio::awaitable<rest_response> read_reply(
    server_context& context, Read read) {
  auto read_and_serialize = [read = std::move(read)]() mutable -> rest_response {
    rest_response reply = read();
    if (reply.raw_content_type.empty()) {
      reply.serialized_body = boost::json::serialize(reply.body);
      reply.body = nullptr;
    }
    return reply;
  };
  co_return co_await read_store(context, std::move(read_and_serialize));
}

}  // namespace parley::server
