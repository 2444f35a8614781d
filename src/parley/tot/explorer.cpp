// The explorer's search. A level (BFS) or a node's children (DFS) go through the same `expand`:
// generate for every parent concurrently, let the task accept each candidate (an invalid step is
// kept in the tree as pruned, with the reason), merge candidates that reach a state already seen
// in this step, take values that are known or cached, ask the evaluator for the rest concurrently,
// then prune below the threshold. Failures that persist after the retries end the search with the
// seed's error; running out of budget or of candidates ends it with SEARCH_EXHAUSTED.
#include "parley/tot/explorer.hpp"

#include <algorithm>
#include <cstdint>

#include "parley/tot/bounded_parallel.hpp"
#include "parley/tot/log_text.hpp"
#include "parley/tot/protocol_json.hpp"
#include "parley/tot/protocol_names.hpp"

namespace parley::tot {
namespace {

// The generator's `metadata` of a candidate stays on its node (seed 003: 任务特定信息); where the
// task wrote the same key (the state it checked) the task's value stands.
void keep_candidate_metadata(json::object& node_metadata, const json::object& from_candidate) {
  for (const auto& [key, value] : from_candidate) {
    if (!node_metadata.contains(key)) node_metadata.emplace(key, value);
  }
}

// Best score first; equal scores in the evaluator's `ranking` order (seed 003: node ids sorted by
// score), then in the order the candidates came.
void order_by_score_then_ranking(std::vector<std::string>& kept, const thought_tree& tree,
                                 const std::map<std::string, std::size_t>& rank_of) {
  std::stable_sort(kept.begin(), kept.end(), [&tree, &rank_of](const std::string& a, const std::string& b) {
    const double sa = tree.nodes.at(a).evaluation->score;
    const double sb = tree.nodes.at(b).evaluation->score;
    if (sa != sb) return sa > sb;
    const auto ra = rank_of.find(a);
    const auto rb = rank_of.find(b);
    const std::size_t na = ra == rank_of.end() ? SIZE_MAX : ra->second;
    const std::size_t nb = rb == rank_of.end() ? SIZE_MAX : rb->second;
    return na < nb;
  });
}

json::array ids_array(const std::vector<std::string>& ids) {
  json::array out;
  for (const auto& id : ids) out.emplace_back(id);
  return out;
}

}  // namespace

explorer::explorer(task_plugin& task, thought_generator& generator, thought_evaluator& evaluator,
                   explorer_options options, search_observer* observer)
    : task_(task), generator_(generator), evaluator_(evaluator), options_(options), observer_(observer) {}

boost::asio::awaitable<search_outcome> explorer::run(std::string task_id, std::string problem, task_type type) {
  tree_ = thought_tree{};
  tree_.task_id = std::move(task_id);
  tree_.problem = std::move(problem);
  tree_.task_type = type;
  tree_.search_config = options_.config;
  search_outcome outcome;
  auto root = task_.make_root(tree_.problem);
  if (!root) {
    outcome.failure = protocol_error{error_code::invalid_format, root.err().message, false};
    outcome.complete.tree = tree_;
    co_return outcome;
  }
  root->id = "root";
  tree_.root_id = root->id;
  tree_.nodes.emplace(root->id, *root);
  if (observer_ != nullptr) observer_->on_node(*root);
  log("info", text_for(options_.language, "🔍 [Explorer] 初始化完成", "🔍 [Explorer] initialized"),
      {{"strategy", name_of(options_.config.strategy)},
       {"depth", options_.config.max_depth},
       {"branching_factor", options_.config.branching_factor},
       {"pruning_threshold", options_.config.pruning_threshold}});

  if (options_.config.strategy == search_strategy::bfs) {
    co_await run_bfs();
  } else {
    co_await run_dfs(tree_.root_id);
  }

  std::string best = tree_.root_id;
  if (solution_) {
    best = *solution_;
  } else {
    for (const auto& [id, node] : tree_.nodes) {
      const auto& current = tree_.nodes.at(best);
      const double score = node.evaluation ? node.evaluation->score : -1;
      const double best_score = current.evaluation ? current.evaluation->score : -1;
      if (node.status != node_status::pruned &&
          (node.depth > current.depth || (node.depth == current.depth && score > best_score))) {
        best = id;
      }
    }
  }
  if (!solution_ && task_.solution_at_max_depth() && best != tree_.root_id &&
      tree_.nodes.at(best).depth == options_.config.max_depth) {
    solution_ = best;
    tree_.nodes.at(best).status = node_status::terminal;
  }
  tree_.search_state.best_path = path_to(best);
  for (const auto& id : tree_.search_state.best_path) outcome.complete.best_path.push_back(tree_.nodes.at(id));
  const auto& best_node = tree_.nodes.at(best);
  outcome.best_score = best_node.evaluation ? best_node.evaluation->score : 0;
  outcome.solved = solution_.has_value();
  if (!outcome.solved && !failure_) {
    failure_ = protocol_error{error_code::search_exhausted,
                              out_of_budget() ? "the search's budget of model calls or nodes is spent"
                                              : "no candidate above the pruning threshold reached a solution",
                              false};
  }
  outcome.failure = failure_;
  outcome.complete.stats = {static_cast<std::int64_t>(tree_.nodes.size()), backtracks_, model_calls()};
  outcome.complete.tree = tree_;
  log(outcome.solved ? "info" : "warning",
      outcome.solved ? text_for(options_.language, "✅ [Explorer] 找到解", "✅ [Explorer] solution found")
                     : text_for(options_.language, "⚠️ [Explorer] 搜索结束，未找到解",
                                "⚠️ [Explorer] search ended without a solution"),
      {{"total_nodes", outcome.complete.stats.total_nodes},
       {"llm_calls", outcome.complete.stats.llm_calls},
       {"backtracks", backtracks_},
       {"cache_hits", cache_hits_},
       {"merged", merged_}});
  co_return outcome;
}

boost::asio::awaitable<void> explorer::run_bfs() {
  std::vector<std::string> frontier{tree_.root_id};
  for (std::int64_t depth = 1; depth <= options_.config.max_depth; ++depth) {
    tree_.search_state.current_depth = depth;
    log("progress", text_for(options_.language,
                             "⏳ [Explorer - 第" + std::to_string(depth) + "层] 准备扩展 " +
                                 std::to_string(frontier.size()) + " 个节点",
                             "⏳ [Explorer - level " + std::to_string(depth) + "] expanding " +
                                 std::to_string(frontier.size()) + " nodes"));
    auto kept = co_await expand(frontier);
    if (solution_ || failure_) co_return;
    const auto breadth = static_cast<std::size_t>(options_.config.branching_factor);
    for (std::size_t i = breadth; i < kept.size(); ++i) {
      auto& node = tree_.nodes.at(kept[i]);
      node.status = node_status::pruned;
      node.metadata["pruned_by"] = "breadth";
      if (observer_ != nullptr) observer_->on_node(node);
    }
    if (kept.size() > breadth) kept.resize(breadth);
    frontier = kept;
    tree_.search_state.frontier = frontier;
    log("progress",
        text_for(
            options_.language,
            "✓ [Explorer - 第" + std::to_string(depth) + "层] 保留 " + std::to_string(frontier.size()) + " 个节点",
            "✓ [Explorer - level " + std::to_string(depth) + "] kept " + std::to_string(frontier.size()) + " nodes"));
    if (frontier.empty() || out_of_budget()) co_return;
  }
}

boost::asio::awaitable<bool> explorer::run_dfs(const std::string& node_id) {
  const auto& node = tree_.nodes.at(node_id);
  if (task_.is_solution(node)) {
    solution_ = node_id;
    co_return true;
  }
  if (node.depth >= options_.config.max_depth || !task_.can_expand(node)) co_return false;
  tree_.search_state.current_depth = node.depth + 1;
  const std::vector<std::string> parents{node_id};
  auto children = co_await expand(parents);
  if (solution_) co_return true;
  const auto breadth = static_cast<std::size_t>(options_.config.branching_factor);
  for (std::size_t i = 0; i < children.size(); ++i) {
    if (failure_ || out_of_budget()) co_return false;
    if (i >= breadth) {
      tree_.nodes.at(children[i]).status = node_status::pruned;
      tree_.nodes.at(children[i]).metadata["pruned_by"] = "breadth";
      continue;
    }
    if (co_await run_dfs(children[i])) co_return true;
    ++backtracks_;
    json::object data;
    data["depth"] = tree_.nodes.at(children[i]).depth;
    log("progress",
        text_for(options_.language, "↩️ [Explorer] 回溯自 " + children[i],
                 "↩️ [Explorer] backtracking from " + children[i]),
        std::move(data));
  }
  co_return false;
}

boost::asio::awaitable<std::vector<std::string>> explorer::expand(const std::vector<std::string>& parents) {
  const auto before = tree_.nodes.size();
  if (observer_ != nullptr) observer_->on_round(++rounds_);
  // Each parent's candidates are added in the parents' order, as soon as every parent before it
  // has answered: node ids, merges and the first solution then follow from the replies alone,
  // never from which call came back first (how long a reply takes depends on its wrapping — a
  // ```json fence, prose — so "1 1 4 6" once found a different answer per wrapping). A parent
  // after a found solution is not asked, as before.
  std::map<std::string, std::string> seen_keys;  // state key → the node that reached it in this step
  std::vector<std::optional<std::vector<thought_candidate>>> proposed(parents.size());
  std::size_t next_to_add = 0;
  const auto add_ready = [this, &parents, &proposed, &next_to_add, &seen_keys]() {
    for (; next_to_add < parents.size() && proposed[next_to_add]; ++next_to_add) {
      for (const auto& candidate : *proposed[next_to_add]) {
        if (solution_) break;
        add_candidate(parents[next_to_add], candidate, seen_keys);
      }
    }
  };
  std::vector<parallel_job> jobs;
  jobs.reserve(parents.size());
  for (std::size_t i = 0; i < parents.size(); ++i) {
    jobs.push_back([this, &parents, &proposed, &add_ready, i]() -> boost::asio::awaitable<void> {
      std::vector<thought_candidate> got;
      if (!solution_ && !failure_ && !out_of_budget()) got = co_await generate_for(parents[i]);
      proposed[i] = std::move(got);
      add_ready();
    });
  }
  co_await run_bounded(std::move(jobs), options_.max_parallel);

  std::vector<std::string> fresh;
  fresh.reserve(seen_keys.size());
  for (const auto& [key, id] : seen_keys) fresh.push_back(id);
  std::vector<std::string> to_evaluate;
  for (const auto& id : fresh) {
    auto& node = tree_.nodes.at(id);
    if (auto known = task_.known_evaluation(node)) {
      apply_evaluation(id, *known);
    } else if (auto cached = value_cache_.find(state_key_of_.at(id)); cached != value_cache_.end()) {
      ++cache_hits_;
      apply_evaluation(id, cached->second);
    } else {
      to_evaluate.push_back(id);
    }
  }
  if (!solution_ && !to_evaluate.empty()) {
    co_await evaluate(to_evaluate);
  }

  std::vector<std::string> kept;
  for (const auto& id : fresh) {
    auto& node = tree_.nodes.at(id);
    if (!node.evaluation || node.evaluation->score < options_.config.pruning_threshold) {
      node.status = node_status::pruned;
      node.metadata["pruned_by"] = "threshold";
      if (observer_ != nullptr) observer_->on_node(node);
      continue;
    }
    kept.push_back(id);
  }
  order_by_score_then_ranking(kept, tree_, rank_of_);
  for (const auto& parent : parents) tree_.nodes.at(parent).status = node_status::expanded;
  log("progress",
      text_for(options_.language,
               "✓ [Explorer] 新增 " + std::to_string(tree_.nodes.size() - before) + " 个节点，" +
                   std::to_string(kept.size()) + " 个高于阈值",
               "✓ [Explorer] " + std::to_string(tree_.nodes.size() - before) + " new nodes, " +
                   std::to_string(kept.size()) + " above the threshold"),
      {{"kept", ids_array(kept)}});
  co_return kept;
}

generate_thoughts explorer::generation_request(const thought_node& parent) const {
  generation_context context{tree_.problem, task_.goal(), options_.constraints};
  for (auto& own : task_.constraints()) {
    if (std::find(context.constraints.begin(), context.constraints.end(), own) == context.constraints.end())
      context.constraints.push_back(std::move(own));
  }
  return generate_thoughts{parent, options_.generation, options_.num_candidates, std::move(context)};
}

boost::asio::awaitable<std::vector<thought_candidate>> explorer::generate_for(const std::string& parent_id) {
  const thought_node parent = tree_.nodes.at(parent_id);
  generate_thoughts request = generation_request(parent);
  std::vector<thought_candidate> candidates;
  if (options_.generation == generation_strategy::sequential_proposal) {
    auto answer = co_await call_generator(request);
    if (answer) candidates = std::move(answer->candidates);
  } else {
    // independent_sampling: k calls of one candidate each, concurrently.
    request.num_candidates = 1;
    std::vector<std::vector<thought_candidate>> samples(static_cast<std::size_t>(options_.num_candidates));
    std::vector<parallel_job> jobs;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      jobs.push_back([this, &request, &samples, i]() -> boost::asio::awaitable<void> {
        if (failure_ || out_of_budget()) co_return;
        auto answer = co_await call_generator(request);
        if (answer) samples[i] = std::move(answer->candidates);
      });
    }
    co_await run_bounded(std::move(jobs), options_.max_parallel);
    for (auto& sample : samples) {
      for (auto& candidate : sample) candidates.push_back(std::move(candidate));
    }
  }
  co_return candidates;
}

void explorer::add_candidate(const std::string& parent_id, const thought_candidate& candidate,
                             std::map<std::string, std::string>& seen_keys) {
  if (static_cast<std::int64_t>(tree_.nodes.size()) >= options_.max_nodes) return;
  auto& parent = tree_.nodes.at(parent_id);
  thought_node node;
  node.depth = parent.depth + 1;
  node.id = "node_" + std::to_string(node.depth) + "_" + std::to_string(++ids_per_depth_[node.depth]);
  node.parent_id = parent_id;
  node.action_type = candidate.action_type;
  auto accepted = task_.accept(parent, candidate);
  if (!accepted) {
    node.content = candidate.content;
    node.status = node_status::pruned;
    node.metadata = {{"pruned_by", "invalid"}, {"problem", accepted.err().message}};
    keep_candidate_metadata(node.metadata, candidate.metadata);
  } else {
    if (const auto merged = seen_keys.find(accepted->state_key); merged != seen_keys.end()) {
      ++merged_;
      auto& same = tree_.nodes.at(merged->second);
      // Only this counter writes "merged": null (just inserted) until the first merge, then an integer.
      auto& count = same.metadata["merged"];
      count = count.is_int64() ? count.get_int64() + 1 : std::int64_t{1};
      return;
    }
    node.content = accepted->content;
    node.metadata = accepted->metadata;
    keep_candidate_metadata(node.metadata, candidate.metadata);
    seen_keys.emplace(accepted->state_key, node.id);
    state_key_of_.emplace(node.id, accepted->state_key);
  }
  parent.children_ids.push_back(node.id);
  const std::string id = node.id;
  tree_.nodes.emplace(id, std::move(node));
  auto& stored = tree_.nodes.at(id);
  if (stored.status != node_status::pruned && task_.is_solution(stored)) {
    if (auto known = task_.known_evaluation(stored)) stored.evaluation = *known;
    stored.status = node_status::terminal;
    solution_ = id;
  }
  if (observer_ != nullptr) observer_->on_node(stored);
}

boost::asio::awaitable<void> explorer::evaluate(const std::vector<std::string>& node_ids) {
  const evaluation_context context{tree_.problem, task_.goal(), tree_.search_state.current_depth,
                                   options_.config.max_depth};
  std::vector<std::vector<std::string>> batches;
  if (options_.evaluation == evaluation_strategy::comparative_voting) {
    batches.push_back(node_ids);
  } else {
    for (const auto& id : node_ids) batches.push_back({id});
  }
  std::vector<parallel_job> jobs;
  jobs.reserve(batches.size());
  for (const auto& batch : batches) {
    jobs.push_back([this, batch, context]() -> boost::asio::awaitable<void> {
      if (failure_ || out_of_budget()) co_return;
      evaluate_thoughts request{{}, options_.evaluation, {"correctness", "progress", "feasibility"}, context};
      for (const auto& id : batch) request.candidates.push_back(tree_.nodes.at(id));
      auto answer = co_await call_evaluator(request);
      if (!answer) co_return;
      for (const auto& item : answer->evaluations) {
        if (std::find(batch.begin(), batch.end(), item.node_id) == batch.end()) {
          log("warning", text_for(options_.language, "⚠️ [Evaluator] 评估了未请求的节点 " + item.node_id,
                                  "⚠️ [Evaluator] evaluated a node not asked about: " + item.node_id));
          continue;
        }
        node_evaluation value{item.score, item.confidence, item.reasoning};
        value_cache_[state_key_of_.at(item.node_id)] = value;
        apply_evaluation(item.node_id, value);
      }
      note_ranking(answer->ranking, batch);
      for (const auto& id : answer->pruning_suggestions) {
        if (std::find(batch.begin(), batch.end(), id) != batch.end())
          tree_.nodes.at(id).metadata["suggested_prune"] = true;
      }
    });
  }
  co_await run_bounded(std::move(jobs), options_.max_parallel);
}

boost::asio::awaitable<std::optional<generated_thoughts>> explorer::call_generator(const generate_thoughts& request) {
  for (int attempt = 0;; ++attempt) {
    auto answer = co_await generator_.generate(request);
    if (auto* ok = std::get_if<generated_thoughts>(&answer)) co_return std::move(*ok);
    auto& error = std::get<protocol_error>(answer);
    log("error", "❌ [Generator] " + std::string(name_of(error.code)) + ": " + error.message,
        {{"parent", request.parent_node.id}, {"attempt", attempt + 1}, {"error", to_json(error)}});
    if (!error.recoverable || attempt >= options_.retries || out_of_budget()) {
      fail(error);
      co_return std::nullopt;
    }
  }
}

boost::asio::awaitable<std::optional<evaluation_results>> explorer::call_evaluator(const evaluate_thoughts& request) {
  for (int attempt = 0;; ++attempt) {
    auto answer = co_await evaluator_.evaluate(request);
    if (auto* ok = std::get_if<evaluation_results>(&answer)) co_return std::move(*ok);
    auto& error = std::get<protocol_error>(answer);
    log("error", "❌ [Evaluator] " + std::string(name_of(error.code)) + ": " + error.message,
        {{"attempt", attempt + 1}, {"error", to_json(error)}});
    if (!error.recoverable || attempt >= options_.retries || out_of_budget()) {
      fail(error);
      co_return std::nullopt;
    }
  }
}

void explorer::note_ranking(const std::vector<std::string>& ranking, const std::vector<std::string>& batch) {
  for (std::size_t place = 0; place < ranking.size(); ++place) {
    if (std::find(batch.begin(), batch.end(), ranking[place]) == batch.end()) {
      log("warning", text_for(options_.language, "⚠️ [Evaluator] 排名中有未请求的节点 " + ranking[place],
                              "⚠️ [Evaluator] the ranking names a node not asked about: " + ranking[place]));
      continue;
    }
    rank_of_.emplace(ranking[place], place);
  }
}

void explorer::apply_evaluation(const std::string& node_id, const node_evaluation& evaluation) {
  auto& node = tree_.nodes.at(node_id);
  node.evaluation = evaluation;
  if (observer_ != nullptr) observer_->on_node(node);
}

std::vector<std::string> explorer::path_to(const std::string& node_id) const {
  std::vector<std::string> path;
  for (const thought_node* at = &tree_.nodes.at(node_id);; at = &tree_.nodes.at(*at->parent_id)) {
    path.push_back(at->id);
    if (!at->parent_id) break;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

bool explorer::out_of_budget() const {
  return model_calls() >= options_.max_model_calls ||
         static_cast<std::int64_t>(tree_.nodes.size()) >= options_.max_nodes;
}

std::int64_t explorer::model_calls() const { return generator_.model_calls() + evaluator_.model_calls(); }

void explorer::log(std::string_view level, std::string msg, json::object data) {
  if (observer_ != nullptr) observer_->on_log(level, std::move(msg), std::move(data));
}

void explorer::fail(protocol_error error) {
  if (!failure_) failure_ = std::move(error);
}

}  // namespace parley::tot
