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

std::string model_of(const config::team_config& team, const std::string& member_id) {
  const auto* member = team.find_member(member_id);
  return member == nullptr ? std::string() : member->model;
}

// The medium's parser step (seed 002's ImageParser / AudioParser): its words were made when the
// message was taken (engine/media_description.cpp) by the team's captioner or transcriber, or sent
// with it.
events::analysis_step medium_step(const config::team_config& team, const events::attachment& media) {
  const bool image = media.kind == events::attachment_kind::image;
  events::analysis_step step;
  step.parser = image ? "ImageParser" : "AudioParser";
  step.medium = image ? "image" : "audio";
  step.kind = image ? "caption" : "transcription";
  const std::string words = (image ? media.caption : media.transcription).value_or("");
  const std::string& describer = image ? team.media.captioner : team.media.transcriber;
  if (!words.empty()) {
    step.output = bounded(words);
    step.member = media.described_by.value_or("");
    step.status = step.member.empty() ? "given" : "done";
  } else if (!media.describe_error.value_or("").empty()) {
    step.status = "failed";
    step.member = describer;
    step.error = bounded(*media.describe_error);
  } else {
    step.status = "skipped";  // no describer configured, and the sender gave no words
  }
  if (!step.member.empty()) step.model = model_of(team, step.member);
  return step;
}

// seed 002's IntegrationManager: the text and the medium's words as one block for the context.
events::analysis_step integration_step(const std::string& text) {
  events::analysis_step step;
  step.parser = "IntegrationManager";
  step.medium = "mixed";
  step.kind = "integration";
  step.status = text.empty() ? "skipped" : "done";
  step.output = bounded(text);
  return step;
}

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
    // A medium without words still gets its parser's step recorded (why it has none).
    if ((text.empty() && !(analyst && input->media)) || (!analyst && !embedder_)) return;
    enqueue({ev.dialog_id, record_message_id(ev), ev.seq, std::move(text), analyst, input->media});
  } else if (const auto* answer = ev.as<events::question_answered>()) {
    // A human's answer to a question (Q4H) is a human message like any other.
    if (answer->content.empty() || (!analyst && !embedder_)) return;
    enqueue({ev.dialog_id, record_message_id(ev), ev.seq, answer->content, analyst});
  } else if (const auto* finished = ev.as<events::generation_finished>()) {
    // An AI's final answer (seed 002's ai_response) is embedded, not analysed.
    if (!embedder_ || finished->interrupted || !finished->tool_calls.empty() || finished->saying.empty()) return;
    enqueue({ev.dialog_id, record_message_id(ev), ev.seq, finished->saying, false});
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
          (void)co_await engine_.records().append_message_analysis(std::move(dialog_id), std::move(failed));
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
  if (work.analyse) {
    co_await analyse(work);
  }
  if (embedder_ && !stopped_ && !work.text.empty()) {
    co_await embed(work);
  }
  --running_;
  pump();
}

asio::awaitable<void> message_analyst::analyse(const job& work) {
  const std::string& analyst_id = engine_.team().records.analyst;
  const config::member_config* member = engine_.team().find_member(analyst_id);
  llm::provider* provider = engine_.members().provider_of(analyst_id);
  events::record_message_analyzed out;
  out.message_id = work.message_id;
  out.message_seq = work.seq;
  out.analyst = analyst_id;
  out.attempts = 0;
  events::analysis_step text_step;
  text_step.parser = "TextParser";
  text_step.medium = "text";
  text_step.kind = "text_analysis";
  text_step.member = analyst_id;
  text_step.model = member == nullptr ? std::string() : member->model;
  text_step.language = std::string(analysis_language(work.text));
  if (work.text.empty()) {
    out.error = "nothing to analyse: the message has no text and its medium no words";
    text_step.language.clear();
  } else if (member == nullptr || provider == nullptr) {
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
  text_step.status = work.text.empty() ? "skipped" : out.error.empty() ? "done" : "failed";
  text_step.error = work.text.empty() ? std::string() : out.error;
  if (work.media) out.steps.push_back(medium_step(engine_.team(), *work.media));
  out.steps.push_back(std::move(text_step));
  if (work.media) out.steps.push_back(integration_step(work.text));
  auto appended = co_await engine_.records().append_message_analysis(work.dialog_id, std::move(out));
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
  auto appended = co_await engine_.records().append_message_analysis(work.dialog_id, std::move(out));
  if (!appended) {
    std::fprintf(stderr, "parley: recording the embedding of a message of dialog %s: %s\n", work.dialog_id.c_str(),
                 appended.err().message.c_str());
  }
}

}  // namespace parley::engine
