#include "parley/tot/model_agents.hpp"

#include "parley/tot/personas.hpp"
#include "parley/tot/protocol_json.hpp"
#include "parley/tot/protocol_names.hpp"

namespace parley::tot {
namespace {

llm::chat_message user_says(std::string text) {
  llm::chat_message m;
  m.role = llm::role::user;
  m.content = std::move(text);
  return m;
}

llm::chat_message assistant_says(std::string text) {
  llm::chat_message m;
  m.role = llm::role::assistant;
  m.content = std::move(text);
  return m;
}

}  // namespace

template <class Reply>
boost::asio::awaitable<agent_answer<Reply>> exchange(model_channel& channel, const model_agent_options& options,
                                                     agent_role role, const message& request, std::int64_t& calls) {
  const std::string expected(type_name_of(message_payload(Reply{})));
  agent_call call;
  call.role = role;
  call.system_prompt = options.persona ? options.persona(role) : default_persona(role, options.type);
  call.params = options.params;
  call.messages.push_back(user_says(to_text(request)));
  std::string last_problem;
  for (int attempt = 0; attempt <= options.format_retries; ++attempt) {
    ++calls;
    auto reply = co_await channel.ask(call);
    if (!reply) {
      if (reply.err().code == errc::limit_exceeded) {
        co_return protocol_error{error_code::evaluation_timeout,
                                 std::string(name_of(role)) + ": " + reply.err().message, true};
      }
      co_return protocol_error{error_code::generation_failed, std::string(name_of(role)) + ": " + reply.err().message,
                               true};
    }
    if (auto said = reply_error(*reply)) co_return std::move(*said);
    auto parsed = parse_reply<Reply>(*reply);
    if (parsed) co_return std::move(*parsed);
    last_problem = parsed.err().message;
    call.messages.push_back(assistant_says(std::move(*reply)));
    call.messages.push_back(user_says("Your reply is not a valid " + expected + " message: " + last_problem +
                                      ". Reply with only that JSON message, {\"type\": \"" + expected +
                                      "\", \"payload\": {...}}."));
  }
  co_return protocol_error{error_code::invalid_format,
                           std::string(name_of(role)) + ": no valid " + expected + " after " +
                               std::to_string(options.format_retries + 1) + " replies; the last: " + last_problem,
                           false};
}

template boost::asio::awaitable<agent_answer<decomposition_result>> exchange<decomposition_result>(
    model_channel&, const model_agent_options&, agent_role, const message&, std::int64_t&);
template boost::asio::awaitable<agent_answer<final_solution>> exchange<final_solution>(model_channel&,
                                                                                       const model_agent_options&,
                                                                                       agent_role, const message&,
                                                                                       std::int64_t&);

model_generator::model_generator(model_channel& channel, model_agent_options options)
    : channel_(channel), options_(std::move(options)) {}

boost::asio::awaitable<agent_answer<generated_thoughts>> model_generator::generate(const generate_thoughts& request) {
  // Named, not a temporary in the co_await: GCC 12 destroys such temporaries twice.
  const message asked{agent_role::explorer, "generator", request, options_.task_id, std::nullopt};
  co_return co_await exchange<generated_thoughts>(channel_, options_, agent_role::generator, asked, calls_);
}

model_evaluator::model_evaluator(model_channel& channel, model_agent_options options)
    : channel_(channel), options_(std::move(options)) {}

boost::asio::awaitable<agent_answer<evaluation_results>> model_evaluator::evaluate(const evaluate_thoughts& request) {
  const message asked{agent_role::explorer, "evaluator", request, options_.task_id, std::nullopt};
  co_return co_await exchange<evaluation_results>(channel_, options_, agent_role::evaluator, asked, calls_);
}

}  // namespace parley::tot
