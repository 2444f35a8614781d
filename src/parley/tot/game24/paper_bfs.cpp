#include "parley/tot/game24/paper_bfs.hpp"

#include <algorithm>
#include <numeric>

#include "parley/tot/game24/paper_prompts.hpp"
#include "parley/tot/game24/verifier.hpp"

namespace parley::tot::game24 {
namespace {

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    auto line = text.substr(at, end - at);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (!line.empty()) out.emplace_back(line);
    at = end + 1;
  }
  return out;
}

// The numbers left after a path: the last line's "(left: …)", or the puzzle for the empty path.
std::string numbers_left(const std::string& puzzle, const std::string& path) {
  const auto lines = lines_of(path);
  if (lines.empty()) return puzzle;
  const auto& last = lines.back();
  const auto at = last.find("left: ");
  if (at == std::string::npos) return {};
  auto rest = last.substr(at + 6);
  return rest.substr(0, rest.find(')'));
}

double sample_value(std::string_view reply) {
  const auto lines = lines_of(reply);
  if (lines.empty()) return 0;
  const auto& last = lines.back();
  if (last == "sure") return 20;
  if (last == "likely") return 1;
  if (last == "impossible") return 0.001;
  return 0;
}

llm::chat_message user_says(std::string text) {
  llm::chat_message m;
  m.content = std::move(text);
  return m;
}

}  // namespace

paper_bfs::paper_bfs(model_channel& channel, paper_bfs_options options) : channel_(channel), options_(options) {}

boost::asio::awaitable<paper_bfs_result> paper_bfs::solve(std::string puzzle) {
  paper_bfs_result tally;
  std::vector<std::string> paths{""};
  for (int step = 0; step < options_.steps; ++step) {
    std::vector<std::string> grown;
    for (const auto& path : paths) {
      const std::string left = numbers_left(puzzle, path);
      agent_call call;
      call.role = agent_role::generator;
      call.messages.push_back(user_says(left == "24" ? answer_prompt(puzzle, lines_of(path)) : propose_prompt(left)));
      ++tally.model_calls;
      ++tally.prompts;
      auto reply = co_await channel_.ask(call);
      if (!reply) continue;
      for (const auto& line : lines_of(*reply)) grown.push_back(path + line + "\n");
    }
    std::vector<double> values;
    for (std::size_t i = 0; i < grown.size(); ++i) {
      const bool duplicate = std::find(grown.begin(), grown.begin() + static_cast<std::ptrdiff_t>(i), grown[i]) !=
                             grown.begin() + static_cast<std::ptrdiff_t>(i);
      values.push_back(duplicate ? 0 : co_await value_of(puzzle, grown[i], tally));
    }
    std::vector<std::size_t> order(grown.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] > values[b]; });
    paths.clear();
    for (std::size_t i = 0; i < order.size() && static_cast<int>(paths.size()) < options_.keep; ++i) {
      paths.push_back(grown[order[i]]);
    }
  }
  tally.outputs = paths;
  for (const auto& path : paths) {
    const auto lines = lines_of(path);
    if (!lines.empty() && verify_answer(puzzle, lines.back()).valid) tally.solved = true;
  }
  co_return tally;
}

boost::asio::awaitable<double> paper_bfs::value_of(const std::string& puzzle, const std::string& path,
                                                   paper_bfs_result& tally) {
  const auto lines = lines_of(path);
  const std::string& last = lines.back();
  const bool is_answer = last.find("left: ") == std::string::npos;
  std::string prompt;
  if (is_answer) {
    std::string answer = last;
    if (answer.rfind("Answer: ", 0) == 0) answer = answer.substr(8);
    prompt = judge_prompt(puzzle, answer);
  } else {
    prompt = value_prompt(numbers_left(puzzle, path));
  }
  if (const auto cached = cache_.find(prompt); cached != cache_.end()) co_return cached->second;
  ++tally.prompts;
  double value = 0;
  for (int sample = 0; sample < options_.value_samples; ++sample) {
    agent_call call;
    call.role = agent_role::evaluator;
    call.messages.push_back(user_says(prompt));
    call.params["seed"] = sample;
    ++tally.model_calls;
    auto reply = co_await channel_.ask(call);
    if (reply) value += sample_value(*reply);
  }
  // Four lines without an answer: a path that used its steps and never answered is worth nothing.
  const bool unanswered = lines.size() == 4 && path.find("Answer") == std::string::npos;
  if (unanswered) co_return 0.0;
  cache_.emplace(prompt, value);
  co_return value;
}

}  // namespace parley::tot::game24
