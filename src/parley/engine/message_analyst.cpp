#include "parley/engine/message_analyst.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include <algorithm>
#include <cstdio>

#include "parley/core/base64.hpp"
#include "parley/core/utf8.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/message_analysis.hpp"
#include "parley/model/conversation_reducer.hpp"
#include "parley/model/embedding_vector.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;

// What a human's message says, with the words that stand for its medium (caption, transcription).
std::string text_of(const events::user_message& m) {
  std::string text = m.content;
  if (m.media) {
    for (const auto& words : {m.media->caption, m.media->transcription}) {
      if (words && !words->empty()) text += (text.empty() ? "" : "\n") + *words;
    }
  }
  return text;
}

std::string bounded(std::string_view problem) { return utf8_excerpt(problem, kMaxAnalysisErrorBytes); }

}  // namespace

message_analyst::message_analyst(asio::any_io_executor executor, engine& eng,
                                 std::unique_ptr<llm::embeddings_client> embedder)
    : executor_(std::move(executor)), engine_(eng), embedder_(std::move(embedder)) {}

message_analyst::~message_analyst() { stop(); }

void message_analyst::on_durable(const event& ev) {
  if (stopped_) return;
  const bool analyst = !engine_.team().records.analyst.empty();
  if (const auto* input = ev.as<events::user_message>()) {
    if (input->origin != events::message_origin::user) return;
    std::string text = text_of(*input);
    if (text.empty() || (!analyst && !embedder_)) return;
    enqueue({ev.dialog_id, record_message_id(ev), ev.seq, std::move(text), analyst});
  } else if (const auto* answer = ev.as<events::generation_finished>()) {
    // An AI's final answer (seed 002's ai_response) is embedded, not analysed.
    if (!embedder_ || answer->interrupted || !answer->tool_calls.empty() || answer->saying.empty()) return;
    enqueue({ev.dialog_id, record_message_id(ev), ev.seq, answer->saying, false});
  }
}

void message_analyst::stop() {
  stopped_ = true;
  queue_.clear();
  for (const auto& control : controls_) control->stop("shutting down");
}

void message_analyst::enqueue(job work) {
  if (queue_.size() >= kMaxQueued) {
    // Recorded rather than dropped silently: the message says why it has no analysis.
    events::record_message_analyzed failed;
    failed.message_id = work.message_id;
    failed.message_seq = work.seq;
    failed.analyst = engine_.team().records.analyst;
    failed.error = "the analysis queue was full";
    failed.attempts = 0;
    asio::co_spawn(
        executor_,
        [this, dialog_id = std::move(work.dialog_id), failed = std::move(failed)]() mutable -> asio::awaitable<void> {
          (void)co_await engine_.append_message_analysis(std::move(dialog_id), std::move(failed));
        },
        asio::detached);
    return;
  }
  queue_.push_back(std::move(work));
  pump();
}

void message_analyst::pump() {
  while (!stopped_ && running_ < kMaxRunning && !queue_.empty()) {
    ++running_;
    asio::co_spawn(executor_, run(std::move(queue_.front())), asio::detached);
    queue_.pop_front();
  }
}

asio::awaitable<void> message_analyst::run(job work) {
  if (work.analyse) co_await analyse(work);
  if (embedder_ && !stopped_) co_await embed(work);
  --running_;
  pump();
}

asio::awaitable<void> message_analyst::analyse(const job& work) {
  const std::string& analyst_id = engine_.team().records.analyst;
  const config::member_config* member = engine_.team().find_member(analyst_id);
  llm::provider* provider = engine_.provider_of(analyst_id);
  events::record_message_analyzed out;
  out.message_id = work.message_id;
  out.message_seq = work.seq;
  out.analyst = analyst_id;
  out.attempts = 0;
  if (member == nullptr || provider == nullptr) {
    out.error = "the analyst @" + analyst_id + " has no model";
  } else {
    auto control = std::make_shared<llm::generation_control>();
    controls_.push_back(control);
    llm::model_request request = analysis_request(*member, work.text);
    // One call and, when its answer is refused or the call fails, one more.
    for (int attempt = 1; attempt <= 2 && !stopped_; ++attempt) {
      out.attempts = attempt;
      llm::stream_sink quiet;  // nobody watches an analysis being written
      auto answer = co_await provider->stream(request, quiet, *control);
      if (!answer) {
        out.error = bounded(answer.err().message);
        continue;
      }
      auto analysis = parse_analysis(answer->saying);
      if (analysis) {
        out.error.clear();
        out.intent_tags = std::move(analysis->intent_tags);
        out.emotion = std::move(analysis->emotion);
        out.topic_tags = std::move(analysis->topic_tags);
        break;
      }
      out.error = bounded(analysis.err().message);
      request = analysis_retry(std::move(request), answer->saying, analysis.err().message);
    }
    std::erase(controls_, control);
  }
  if (stopped_) co_return;
  auto appended = co_await engine_.append_message_analysis(work.dialog_id, std::move(out));
  if (!appended) {
    std::fprintf(stderr, "parley: recording the analysis of a message of dialog %s: %s\n", work.dialog_id.c_str(),
                 appended.err().message.c_str());
  }
}

asio::awaitable<void> message_analyst::embed(const job& work) {
  auto control = std::make_shared<llm::generation_control>();
  controls_.push_back(control);
  auto vector = co_await embedder_->embed(work.text, *control);
  std::erase(controls_, control);
  if (stopped_) co_return;
  events::record_message_embedded out;
  out.message_id = work.message_id;
  out.message_seq = work.seq;
  out.model = embedder_->model();
  out.dimensions = embedder_->dimensions();
  if (vector) {
    out.vector = base64_encode(float32_bytes(*vector));
  } else {
    out.error = bounded(vector.err().message);
  }
  auto appended = co_await engine_.append_message_analysis(work.dialog_id, std::move(out));
  if (!appended) {
    std::fprintf(stderr, "parley: recording the embedding of a message of dialog %s: %s\n", work.dialog_id.c_str(),
                 appended.err().message.c_str());
  }
}

}  // namespace parley::engine
