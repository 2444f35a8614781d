// Streams the emits of the matching rule. The engine benchmark pushes many thousands of rounds a
// second through here, so with delay_ms 0 nothing touches a timer and literal text is never copied
// except into the response itself.
#include "parley/llm/scripted/scripted_provider.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <optional>

#include "parley/llm/scripted/script.hpp"
#include "parley/llm/scripted/script_match.hpp"

namespace parley::llm {

using namespace scripted_detail;  // NOLINT(google-build-using-namespace): the script model this file works on

namespace {

// End of the chunk that starts at `pos`: `chars` UTF-8 characters later (0 = the rest). A
// continuation byte never starts a chunk, so multibyte characters stay whole.
std::size_t chunk_end(std::string_view text, std::size_t pos, std::size_t chars) {
  if (chars == 0) return text.size();
  while (pos < text.size() && chars > 0) {
    ++pos;
    while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0U) == 0x80U) ++pos;
    --chars;
  }
  return pos;
}

// Routes one segment's events to the thinking or the saying side of the sink and response.
// finish() is explicit rather than a destructor: a coroutine destroyed while suspended must not
// call into a sink that may be gone.
class scripted_segment {
 public:
  scripted_segment(bool thinking, stream_sink& sink, model_response& response)
      : thinking_(thinking), sink_(sink), target_(thinking ? response.thinking : response.saying) {
    thinking_ ? sink_.on_thinking_start() : sink_.on_saying_start();
  }
  void finish() { thinking_ ? sink_.on_thinking_finish() : sink_.on_saying_finish(); }
  scripted_segment(const scripted_segment&) = delete;
  scripted_segment& operator=(const scripted_segment&) = delete;

  void chunk(std::string_view text) {
    target_.append(text);
    thinking_ ? sink_.on_thinking_chunk(text) : sink_.on_saying_chunk(text);
  }

 private:
  bool thinking_;
  stream_sink& sink_;
  std::string& target_;
};

// Characters / 4, rounded up: close enough to real tokenizers for budgets and displays.
std::int64_t estimate_tokens(std::size_t chars) { return static_cast<std::int64_t>((chars + 3) / 4); }

std::size_t request_chars(const model_request& request) {
  std::size_t chars = request.system_prompt.size();
  for (const auto& message : request.messages) {
    chars += message.content.size() + message.thinking.size();
    for (const auto& call : message.tool_calls) chars += call.name.size() + call.arguments.size();
  }
  return chars;
}

std::size_t response_chars(const model_response& response) {
  std::size_t chars = response.thinking.size() + response.saying.size();
  for (const auto& call : response.tool_calls) chars += call.name.size() + call.arguments.size();
  return chars;
}

void expand_json_strings(boost::json::value& value, const template_context& ctx, std::string& scratch) {
  if (auto* text = value.if_string()) {
    // Validated at load, so this parse cannot fail; on the off chance, keep the text as written.
    if (auto tmpl = parse_text_template(*text)) *text = expand_template(*tmpl, ctx, scratch);
  } else if (auto* array = value.if_array()) {
    for (auto& element : *array) expand_json_strings(element, ctx, scratch);
  } else if (auto* object = value.if_object()) {
    for (auto& entry : *object) expand_json_strings(entry.value(), ctx, scratch);
  }
}

// Default ids count the request's assistant messages, so they stay unique across the drives of a
// dialog (a round number starts again at 1 with every drive).
tool_call make_tool_call(const tool_call_item& item, const template_context& ctx, std::size_t turn, std::size_t index,
                         std::string& scratch) {
  tool_call call;
  call.id = item.id.empty() ? "call_" + std::to_string(turn) + "_" + std::to_string(index) : item.id;
  call.name = item.name;
  if (item.templated_json) {
    boost::json::value arguments = item.arguments;
    expand_json_strings(arguments, ctx, scratch);
    call.arguments = boost::json::serialize(arguments);
  } else {
    call.arguments = std::string(expand_template(item.text, ctx, scratch));
  }
  return call;
}

// Clears the control's cancellation slot when a wait ends: the timer's cancellation handler
// left in it would point at a destroyed timer when stop() is called later.
struct slot_clearer {
  boost::asio::cancellation_slot slot;
  ~slot_clearer() { slot.clear(); }
};

}  // namespace

scripted_provider::scripted_provider(std::shared_ptr<const scripted_script> script) : script_(std::move(script)) {}

boost::asio::awaitable<result<model_response>> scripted_provider::stream(const model_request& request,
                                                                         stream_sink& sink,
                                                                         generation_control& control) {
  const std::shared_ptr<const scripted_script> script = script_;  // outlives a provider swapped mid-stream
  const request_facts facts = request_facts::of(request);
  auto matched = match_rule(*script, request, facts);
  if (!matched) co_return std::move(matched).err();

  template_context ctx{facts.last_user ? std::string_view(facts.last_user->content) : std::string_view{},
                       facts.last_tool ? std::string_view(facts.last_tool->content) : std::string_view{},
                       request.member_id,
                       request.round,
                       &matched->captures,
                       {}};
  if (facts.last_user != nullptr) {
    for (const auto& part : facts.last_user->media) {
      // base64 of n bytes is 4 * ceil(n / 3) characters, '=' padding the last group.
      const auto& data = part.data_base64;
      const std::size_t padding =
          data.size() >= 2 ? (data[data.size() - 1] == '=') + (data[data.size() - 2] == '=') : 0;
      if (!ctx.last_user_media.empty()) ctx.last_user_media += ", ";
      ctx.last_user_media += part.mime + " " + std::to_string(data.size() / 4 * 3 - padding) + " bytes";
    }
  }
  const auto delay = std::chrono::milliseconds(script->delay_ms);
  std::optional<boost::asio::steady_timer> timer;
  if (delay.count() > 0) timer.emplace(co_await boost::asio::this_coro::executor);

  model_response response;
  std::string scratch;
  const usage_item* declared_usage = nullptr;
  std::size_t calls = 0;
  std::size_t turn = 1;
  for (const auto& message : request.messages) turn += message.role == role::assistant ? 1 : 0;
  bool interrupted = false;
  for (const emit_item& item : matched->rule->emits) {
    if (control.stopped()) {
      interrupted = true;
      break;
    }
    if (item.what == emit_item::kind::tool_call) {
      response.tool_calls.push_back(make_tool_call(item.call, ctx, turn, ++calls, scratch));
      sink.on_tool_call(response.tool_calls.back());
      continue;
    }
    if (item.what == emit_item::kind::usage) {
      declared_usage = &item.usage;
      continue;
    }
    const std::string_view text = expand_template(item.text, ctx, scratch);
    scripted_segment segment(item.what == emit_item::kind::thinking, sink, response);
    for (std::size_t pos = 0; pos < text.size();) {
      if (timer && !control.stopped()) {
        timer->expires_after(delay);
        const slot_clearer clearer{control.slot()};
        co_await timer->async_wait(
            boost::asio::bind_cancellation_slot(control.slot(), boost::asio::as_tuple(boost::asio::use_awaitable)));
      }
      if (control.stopped()) {
        interrupted = true;
        break;
      }
      const std::size_t end = chunk_end(text, pos, script->chunk_size);
      segment.chunk(text.substr(pos, end - pos));
      pos = end;
    }
    segment.finish();
    if (interrupted) break;
  }

  response.finish_reason = interrupted ? "interrupted" : response.tool_calls.empty() ? "stop" : "tool_calls";
  const usage_item declared = declared_usage ? *declared_usage : usage_item{};
  response.usage.input_tokens =
      declared.input_tokens >= 0 ? declared.input_tokens : estimate_tokens(request_chars(request));
  response.usage.output_tokens =
      declared.output_tokens >= 0 ? declared.output_tokens : estimate_tokens(response_chars(response));
  response.usage.cached_tokens = declared.cached_tokens;
  response.usage.reasoning_tokens = declared.reasoning_tokens;
  co_return response;
}

}  // namespace parley::llm
