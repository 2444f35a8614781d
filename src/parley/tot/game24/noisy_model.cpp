// The noisy model's answers. A proposal lists the state's moves in a seeded order, drops each
// with the missed-move rate, writes each with the arithmetic-error rate off by one (the model then
// believes its own wrong result), and stops after max_proposals lines. A value is the truth
// (can these numbers still make 24?) flipped with the misvalue rate, said as sure (two numbers or
// fewer that make 24), likely or impossible. Protocol requests get protocol JSON replies, or prose
// with the format-error rate.
#include "parley/tot/game24/noisy_model.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <random>

#include "parley/tot/game24/paper_prompts.hpp"
#include "parley/tot/game24/solver.hpp"
#include "parley/tot/game24/state.hpp"
#include "parley/tot/game24/verifier.hpp"
#include "parley/tot/protocol_json.hpp"

namespace parley::tot::game24 {
namespace {

std::uint64_t mix(std::uint64_t h, std::string_view text) {
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;  // FNV-1a
  return h ^ (h >> 29);
}

enum class judgement { sure, likely, impossible };

std::string_view word_of(judgement j) {
  return j == judgement::sure ? "sure" : j == judgement::likely ? "likely" : "impossible";
}

// A state from numbers a model believes it has (no expressions needed).
std::optional<state> believed_state(std::string_view numbers) {
  const auto values = numbers_in(numbers);
  if (values.empty()) return std::nullopt;
  json::array texts;
  json::array expressions;
  for (const auto& v : values) {
    texts.emplace_back(v.text());
    expressions.emplace_back(v.text());
  }
  auto s = state::from_metadata(json::object{{"numbers", texts}, {"expressions", expressions}});
  if (!s) return std::nullopt;
  return *s;
}

std::int64_t estimate_tokens(std::size_t chars) { return static_cast<std::int64_t>((chars + 3) / 4); }

}  // namespace

struct noisy_model::impl {
  noise_settings settings;
  solver truth;

  std::mt19937_64 dice_for(std::string_view kind, std::string_view what, const llm::model_request& request) const {
    std::uint64_t h = mix(1469598103934665603ULL ^ settings.seed, kind);
    h = mix(h, what);
    if (const auto* sample = request.params.if_contains("seed")) h = mix(h, json::serialize(*sample));
    h = mix(h, std::to_string(request.messages.size()));  // a retry is a new question
    return std::mt19937_64(h);
  }
  static bool chance(std::mt19937_64& dice, double rate) {
    return rate > 0 && std::uniform_real_distribution<double>(0, 1)(dice) < rate;
  }

  judgement value(const state& s, std::mt19937_64& dice) {
    bool reachable = truth.can_reach_24(s);
    if (chance(dice, settings.misvalue_rate)) reachable = !reachable;
    if (!reachable) return judgement::impossible;
    return s.numbers().size() <= 2 ? judgement::sure : judgement::likely;
  }

  // Proposal lines "a op b = c (left: …)", with the model's mistakes.
  std::vector<std::string> propose(const state& s, std::mt19937_64& dice) {
    auto moves = s.moves();
    std::shuffle(moves.begin(), moves.end(), dice);
    std::vector<std::string> lines;
    for (auto move : moves) {
      if (static_cast<int>(lines.size()) >= settings.max_proposals) break;
      if (chance(dice, settings.missed_move_rate)) continue;
      if (chance(dice, settings.arithmetic_error_rate)) move.result = move.result + rational(1);
      // The model believes its result: it lists what it thinks is left.
      std::vector<rational> left;
      bool took_a = false;
      bool took_b = false;
      for (const auto& n : s.numbers()) {
        if (!took_a && n.value == move.left_operand) {
          took_a = true;
        } else if (!took_b && n.value == move.right_operand) {
          took_b = true;
        } else {
          left.push_back(n.value);
        }
      }
      left.push_back(move.result);
      std::sort(left.begin(), left.end());
      std::string left_text;
      for (const auto& v : left) left_text += (left_text.empty() ? "" : " ") + v.text();
      lines.push_back(move.left_operand.text() + " " + move.op + " " + move.right_operand.text() + " = " +
                      move.result.text() + " (left: " + left_text + ")");
    }
    return lines;
  }

  // The expression a model writes from the steps it took (or nothing when they do not chain).
  std::string answer(std::string_view puzzle, std::string_view prompt, std::mt19937_64& dice) {
    auto current = state::from_puzzle(puzzle);
    if (!current) return "I cannot read the input.";
    std::size_t at = prompt.find("Steps:\n");
    std::vector<number> numbers = current->numbers();
    for (std::size_t line_start = at == std::string_view::npos ? prompt.size() : at + 7; line_start < prompt.size();) {
      auto end = prompt.find('\n', line_start);
      if (end == std::string_view::npos) break;
      const auto line = prompt.substr(line_start, end - line_start);
      line_start = end + 1;
      const auto s = parse_step(line);
      if (!s) continue;
      auto take = [&](rational v) -> std::optional<std::string> {
        auto found = std::find_if(numbers.begin(), numbers.end(), [&](const number& n) { return n.value == v; });
        if (found == numbers.end()) return std::nullopt;
        std::string e = found->expression;
        numbers.erase(found);
        return e;
      };
      auto a = take(s->left_operand);
      auto b = take(s->right_operand);
      if (!a || !b) return "Answer: I lost track of the numbers.";
      numbers.push_back({s->result, "(" + *a + " " + s->op + " " + *b + ")"});
    }
    if (numbers.size() != 1) return "Answer: I could not combine all numbers.";
    std::string expression = numbers[0].expression;
    if (chance(dice, settings.arithmetic_error_rate)) {
      const auto op = expression.find_first_of("+-*/");
      if (op != std::string::npos) expression[op] = expression[op] == '+' ? '-' : '+';
    }
    return "Answer: " + expression + " = 24";
  }

  std::string reply_to(const llm::model_request& request) {
    const std::string& prompt = request.messages.empty() ? request.system_prompt : request.messages.back().content;
    if (prompt.find(kProposeMarker) != std::string::npos) {
      const auto numbers = input_of(prompt);
      auto dice = dice_for("propose", numbers, request);
      auto s = believed_state(numbers);
      std::string text;
      if (s && !s->is_final()) {
        for (const auto& line : propose(*s, dice)) text += line + "\n";
      }
      return text;
    }
    if (prompt.find(kValueMarker) != std::string::npos) {
      const auto numbers = input_of(prompt);
      auto dice = dice_for("value", numbers, request);
      auto s = believed_state(numbers);
      if (!s) return "impossible";
      return std::string(s->key()) + " considered.\n" + std::string(word_of(value(*s, dice)));
    }
    if (prompt.find(kJudgeMarker) != std::string::npos) {
      const auto answer_at = prompt.rfind("Answer: ");
      const auto answer_line = prompt.substr(answer_at + 8, prompt.find('\n', answer_at) - answer_at - 8);
      const auto puzzle = input_of(prompt);
      auto dice = dice_for("judge", answer_line, request);
      bool valid = verify_answer(puzzle, answer_line).valid;
      if (chance(dice, settings.misvalue_rate)) valid = !valid;
      return valid ? "sure" : "impossible";
    }
    if (prompt.find(kAnswerMarker) != std::string::npos) {
      const auto puzzle_at = prompt.find("Input: ");
      const auto puzzle_text = prompt.substr(puzzle_at + 7, prompt.find('\n', puzzle_at) - puzzle_at - 7);
      auto dice = dice_for("answer", prompt, request);
      return answer(puzzle_text, prompt, dice);
    }
    return protocol_reply(request);
  }

  // Replies to Parley's protocol: the request is the last user message that reads as one.
  std::string protocol_reply(const llm::model_request& request) {
    for (auto it = request.messages.rbegin(); it != request.messages.rend(); ++it) {
      if (it->role != llm::role::user) continue;
      auto asked = parse_message(it->content);
      if (!asked) continue;
      if (const auto* generate = std::get_if<generate_thoughts>(&asked->payload)) return generated(*generate, request);
      if (const auto* evaluate = std::get_if<evaluate_thoughts>(&asked->payload)) return evaluated(*evaluate, request);
      if (std::holds_alternative<decompose_task>(asked->payload)) return decomposed();
      if (const auto* synthesize = std::get_if<synthesize_solution>(&asked->payload)) return synthesized(*synthesize);
    }
    return "I only play the Game of 24: give me numbers.";
  }

  std::optional<std::string> prose_instead(std::string_view what, const llm::model_request& request) {
    auto dice = dice_for("format", what, request);
    if (!chance(dice, settings.format_error_rate)) return std::nullopt;
    return "Sure! Here are my thoughts on " + std::string(what) + ": it looks promising.";
  }

  std::string generated(const generate_thoughts& asked, const llm::model_request& request) {
    auto numbers = json_strings_at(asked.parent_node.metadata, "numbers");
    std::string key;
    for (const auto& n : numbers) key += (key.empty() ? "" : " ") + n;
    if (key.empty()) key = asked.context.problem;
    if (auto prose = prose_instead(key, request)) return *prose;
    auto dice = dice_for("propose", believed_state(key) ? believed_state(key)->key() : key, request);
    auto s = believed_state(key);
    generated_thoughts out;
    if (s && !s->is_final()) {
      for (const auto& line : propose(*s, dice)) {
        if (static_cast<std::int64_t>(out.candidates.size()) >= asked.num_candidates) break;
        out.candidates.push_back({"cand_" + std::to_string(out.candidates.size() + 1), line, "equation", {}});
      }
    }
    return to_text(message{agent_role::generator, "explorer", out, "", std::nullopt});
  }

  static std::string decomposed() {
    decomposition_result out{"equation",
                             {"Step 1: combine two numbers", "Step 2: combine the result with a third",
                              "Step 3: reach 24 with the last one"},
                             3,
                             {"use each number exactly once", "only + - * /"},
                             "the final expression equals 24"};
    return to_text(message{agent_role::decomposer, "orchestrator", out, "", std::nullopt});
  }

  // Writes the answer the path's last state holds, as a model reading the steps would.
  static std::string synthesized(const synthesize_solution& asked) {
    final_solution out;
    for (const auto& node : asked.best_path) {
      if (node.parent_id) out.reasoning_trace.push_back(node.content);
    }
    const auto expressions = asked.best_path.empty() ? std::vector<std::string>{}
                                                     : json_strings_at(asked.best_path.back().metadata, "expressions");
    if (expressions.size() == 1) out.answer = expressions[0] + " = 24";
    const auto checked = verify_answer(asked.problem, out.answer.empty() ? "?" : out.answer);
    out.verification = {checked.valid, checked.errors};
    out.confidence = checked.valid ? 0.9 : 0.1;
    return to_text(message{agent_role::synthesizer, "explorer", out, "", std::nullopt});
  }

  std::string evaluated(const evaluate_thoughts& asked, const llm::model_request& request) {
    evaluation_results out;
    for (const auto& node : asked.candidates) {
      auto numbers = json_strings_at(node.metadata, "numbers");
      std::string key;
      for (const auto& n : numbers) key += (key.empty() ? "" : " ") + n;
      if (auto prose = prose_instead(key, request)) return *prose;
      auto s = believed_state(key);
      auto dice = dice_for("value", s ? s->key() : key, request);
      const judgement j = s ? value(*s, dice) : judgement::impossible;
      const double score = j == judgement::sure ? 10 : j == judgement::likely ? 6 : 1;
      out.evaluations.push_back({node.id,
                                 score,
                                 j == judgement::likely ? 0.6 : 0.9,
                                 std::string(word_of(j)) + ": " + key,
                                 {{"correctness", 10}, {"progress", score}, {"feasibility", score}}});
      out.ranking.push_back(node.id);
      if (j == judgement::impossible) out.pruning_suggestions.push_back(node.id);
    }
    std::stable_sort(out.ranking.begin(), out.ranking.end(), [&](const std::string& a, const std::string& b) {
      auto score = [&](const std::string& id) {
        for (const auto& e : out.evaluations) {
          if (e.node_id == id) return e.score;
        }
        return 0.0;
      };
      return score(a) > score(b);
    });
    return to_text(message{agent_role::evaluator, "explorer", out, "", std::nullopt});
  }
};

noisy_model::noisy_model(noise_settings settings) : impl_(std::make_unique<impl>()) { impl_->settings = settings; }
noisy_model::~noisy_model() = default;

boost::asio::awaitable<result<llm::model_response>> noisy_model::stream(const llm::model_request& request,
                                                                        llm::stream_sink& sink,
                                                                        llm::generation_control& control) {
  llm::model_response response;
  if (impl_->settings.delay_ms > 0) {
    boost::asio::steady_timer pause(co_await boost::asio::this_coro::executor,
                                    std::chrono::milliseconds(impl_->settings.delay_ms));
    co_await pause.async_wait(
        boost::asio::bind_cancellation_slot(control.slot(), boost::asio::as_tuple(boost::asio::use_awaitable)));
  }
  if (control.stopped()) {
    response.finish_reason = "interrupted";
    co_return response;
  }
  response.saying = impl_->reply_to(request);
  sink.on_saying_start();
  if (!response.saying.empty()) sink.on_saying_chunk(response.saying);
  sink.on_saying_finish();
  response.finish_reason = "stop";
  std::size_t input_chars = request.system_prompt.size();
  for (const auto& m : request.messages) input_chars += m.content.size();
  response.usage.input_tokens = estimate_tokens(input_chars);
  response.usage.output_tokens = estimate_tokens(response.saying.size());
  co_return response;
}

}  // namespace parley::tot::game24
