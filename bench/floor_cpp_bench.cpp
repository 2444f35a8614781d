// parley-bench floor-cpp: the C++ floor of fanout-3. The same 8 Chat Completions calls per task as
// bench/peers/bench/floor.mjs (lead; 3 workers concurrently, 2 calls each; lead again), with the
// same prompts, tool schemas and growing message lists, made with Parley's HTTP client and a plain
// loop: no engine, no store, no provider adapter. SSE bodies go through Parley's sse_parser and are
// assembled by hand, as floor.mjs does. What Parley costs above this is the runtime's own cost.
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>
#include <map>
#include <memory>

#include "bench_verbs.hpp"
#include "fanout3_common.hpp"
#include "parley/http/sse_parser.hpp"

namespace parley::bench {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using fanout3::options;

struct call {
  std::string id;
  std::string name;
  std::string arguments;
};

struct assistant_turn {
  std::string content;
  std::vector<call> calls;
};

// floor.mjs's DELEGATE and LOOKUP tool definitions.
const json::array& delegate_tools() {
  static const json::array tools =
      json::parse(
          R"([{"type":"function","function":{"name":"delegate","description":"Delegate a sub-task to a worker agent and return its answer.",)"
          R"("parameters":{"type":"object","properties":{"agent":{"type":"string"},"task":{"type":"string"}},)"
          R"("required":["agent","task"],"additionalProperties":false}}}])")
          .as_array();
  return tools;
}
const json::array& lookup_tools() {
  static const json::array tools =
      json::parse(
          R"([{"type":"function","function":{"name":"lookup","description":"Look up the value stored under a key.",)"
          R"("parameters":{"type":"object","properties":{"key":{"type":"string"}},"required":["key"],)"
          R"("additionalProperties":false}}}])")
          .as_array();
  return tools;
}

std::string string_at(const json::object& object, std::string_view key) {
  const auto* value = object.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->as_string()) : std::string{};
}

// Accumulates either a whole `message` or streamed `delta`s, tool calls by index.
class turn_builder {
 public:
  void add(const json::object& part) {
    content_ += string_at(part, "content");
    const auto* calls = part.if_contains("tool_calls");
    if (calls == nullptr || !calls->is_array()) return;
    for (const auto& item : calls->as_array()) {
      const auto& tc = item.as_object();
      const auto* index = tc.if_contains("index");
      auto& slot = calls_[index != nullptr ? index->to_number<std::int64_t>() : std::int64_t(calls_.size())];
      if (auto id = string_at(tc, "id"); !id.empty()) slot.id = std::move(id);
      if (const auto* fn = tc.if_contains("function"); fn != nullptr && fn->is_object()) {
        slot.name += string_at(fn->as_object(), "name");
        slot.arguments += string_at(fn->as_object(), "arguments");
      }
    }
  }
  assistant_turn take() {
    assistant_turn out{std::move(content_), {}};
    for (auto& [index, c] : calls_) out.calls.push_back(std::move(c));
    return out;
  }

 private:
  std::string content_;
  std::map<std::int64_t, call> calls_;
};

class floor_client {
 public:
  explicit floor_client(const options& opts) : opts_(opts), http_(client_options()) {}

  asio::awaitable<result<assistant_turn>> chat(const json::array& messages, const json::array& tools) {
    json::object body{{"model", "mock"}, {"messages", messages}, {"tools", tools}};
    if (opts_.stream) {
      body["stream"] = true;
      body["stream_options"] = json::object{{"include_usage", true}};
    }
    http::request req;
    req.url = opts_.mock + "/v1/chat/completions";
    req.headers = {{"content-type", "application/json"}, {"authorization", "Bearer dummy"}};
    req.body = json::serialize(body);
    turn_builder turn;
    if (!opts_.stream) {
      auto reply = co_await http_.send(req);
      if (!reply) co_return std::move(reply).err();
      if (!reply->success()) co_return make_error(errc::provider_error, "HTTP " + std::to_string(reply->status));
      boost::system::error_code ec;
      auto parsed = json::parse(reply->body, ec);
      if (ec) co_return make_error(errc::provider_error, "bad JSON from the mock");
      turn.add(parsed.at("choices").at(0).at("message").as_object());
      co_return turn.take();
    }
    http::sse_parser parser;
    std::vector<http::sse_event> events;
    http::body_callback on_body = [&](std::string_view piece) -> result<void> {
      PARLEY_TRY(parser.feed(piece, events));
      for (const auto& event : events) {
        if (event.data == "[DONE]") continue;
        boost::system::error_code ec;
        auto chunk = json::parse(event.data, ec);
        if (ec || !chunk.is_object()) return make_error(errc::provider_error, "bad SSE chunk from the mock");
        const auto* choices = chunk.as_object().if_contains("choices");
        if (choices == nullptr || !choices->is_array() || choices->as_array().empty()) continue;
        const auto* delta = choices->as_array()[0].as_object().if_contains("delta");
        if (delta != nullptr && delta->is_object()) turn.add(delta->as_object());
      }
      events.clear();
      return ok();
    };
    auto reply = co_await http_.stream(req, on_body);
    if (!reply) co_return std::move(reply).err();
    if (!reply->success()) co_return make_error(errc::provider_error, "HTTP " + std::to_string(reply->status));
    co_return turn.take();
  }

 private:
  static http::client_options client_options() {
    http::client_options out;
    out.max_idle_per_host = 1024;  // keep every connection, like floor.mjs's keep-alive Agent
    return out;
  }
  const options& opts_;
  http::client http_;
};

json::object assistant_message(const assistant_turn& turn) {
  json::object message{{"role", "assistant"}};
  if (turn.content.empty())
    message["content"] = nullptr;
  else
    message["content"] = turn.content;
  if (!turn.calls.empty()) {
    json::array calls;
    for (const auto& c : turn.calls) {
      calls.push_back(json::object{{"id", c.id},
                                   {"type", "function"},
                                   {"function", json::object{{"name", c.name}, {"arguments", c.arguments}}}});
    }
    message["tool_calls"] = std::move(calls);
  }
  return message;
}

std::string argument(const call& c, std::string_view key) {
  boost::system::error_code ec;
  auto parsed = json::parse(c.arguments.empty() ? std::string_view("{}") : std::string_view(c.arguments), ec);
  return ec || !parsed.is_object() ? std::string{} : string_at(parsed.as_object(), key);
}

json::array opening(const char* system, std::string user) {
  return json::array{json::object{{"role", "system"}, {"content", system}},
                     json::object{{"role", "user"}, {"content", std::move(user)}}};
}

// A worker: lookup(key) → the tool result → its answer. Two calls.
asio::awaitable<result<std::string>> run_worker(floor_client& client, std::string task) {
  auto messages = opening(fanout3::kWorkerPrompt, std::move(task));
  for (int turn = 0; turn < 10; ++turn) {
    auto reply = co_await client.chat(messages, lookup_tools());
    if (!reply) co_return std::move(reply).err();
    messages.push_back(assistant_message(*reply));
    if (reply->calls.empty()) co_return std::move(reply->content);
    for (const auto& c : reply->calls) {
      messages.push_back(json::object{
          {"role", "tool"}, {"tool_call_id", c.id}, {"content", fanout3::lookup_value(argument(c, "key"))}});
    }
  }
  co_return make_error(errc::limit_exceeded, "worker: too many turns");
}

// The lead's delegations, run concurrently; the last one to finish wakes the lead.
struct fan_in {
  explicit fan_in(asio::any_io_executor executor, std::size_t count)
      : done(executor, std::chrono::steady_clock::time_point::max()), left(count) {
    answers.resize(count, make_error(errc::internal, "not run"));
  }
  asio::steady_timer done;
  std::size_t left;
  std::vector<result<std::string>> answers;
};

asio::awaitable<void> delegate_one(std::shared_ptr<fan_in> join, std::size_t index, floor_client& client,
                                   std::string task) {
  join->answers[index] = co_await run_worker(client, std::move(task));
  if (--join->left == 0) join->done.cancel();
}

asio::awaitable<result<std::string>> run_lead(floor_client& client, std::string task_id) {
  auto messages = opening(fanout3::kLeadPrompt, fanout3::task_input(task_id));
  for (int turn = 0; turn < 10; ++turn) {
    auto reply = co_await client.chat(messages, delegate_tools());
    if (!reply) co_return std::move(reply).err();
    messages.push_back(assistant_message(*reply));
    if (reply->calls.empty()) co_return std::move(reply->content);
    auto executor = co_await asio::this_coro::executor;
    auto join = std::make_shared<fan_in>(executor, reply->calls.size());
    for (std::size_t i = 0; i < reply->calls.size(); ++i)
      asio::co_spawn(executor, delegate_one(join, i, client, argument(reply->calls[i], "task")), asio::detached);
    auto token = asio::as_tuple(asio::use_awaitable);
    co_await join->done.async_wait(token);
    for (std::size_t i = 0; i < reply->calls.size(); ++i) {
      if (!join->answers[i]) co_return std::move(join->answers[i]).err();
      messages.push_back(json::object{
          {"role", "tool"}, {"tool_call_id", reply->calls[i].id}, {"content", std::move(*join->answers[i])}});
    }
  }
  co_return make_error(errc::limit_exceeded, "lead: too many turns");
}

asio::awaitable<void> drive(asio::io_context& io, floor_client& client, http::client& control, const options& opts,
                            result<fanout3::measured_run>& out) {
  fanout3::task_fn task = [&client](std::string id) { return run_lead(client, std::move(id)); };
  out = co_await fanout3::measure(io.get_executor(), control, opts, task);
  io.stop();  // idle keep-alive connections may still hold work; nothing else is left to do
}

}  // namespace

int run_floor_cpp_bench(const bench_args& args) {
  const auto base = fanout3::read_options(args, 1000);
  boost::json::object summary{{"bench", "floor-cpp"}, {"framework", "floor-cpp"}, {"n", base.n}, {"mock", base.mock}};
  int status = 0;
  for (const options& opts : fanout3::configurations(args, base)) {
    result<fanout3::measured_run> run = make_error(errc::internal, "the run did not finish");
    {
      asio::io_context io(1);
      floor_client client(opts);
      http::client control;
      asio::co_spawn(io, drive(io, client, control, opts, run), asio::detached);
      io.run();
    }
    if (!run) {
      std::fprintf(stderr, "parley-bench floor-cpp: %s\n", run.err().message.c_str());
      return 1;
    }
    if (!fanout3::report(summary, fanout3::result_fields("floor-cpp", "par", opts, *run))) status = 1;
  }
  print_json_line(summary);
  return status;
}

}  // namespace parley::bench
