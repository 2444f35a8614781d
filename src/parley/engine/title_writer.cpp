#include "parley/engine/title_writer.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include <algorithm>
#include <array>
#include <cstdint>

#include "parley/engine/dialog_title.hpp"
#include "parley/engine/engine.hpp"

namespace parley::engine {

namespace asio = boost::asio;

namespace {

constexpr std::size_t kTitleContextBytes = 1200;
constexpr std::size_t kMaxRemembered = 4096;
// A title is a few words; the cap keeps a model that rambles cheap (reasoning models count their
// thinking in it, hence not smaller).
constexpr std::int64_t kTitleMaxTokens = 200;

// At most `max` bytes of `text`, never cutting a UTF-8 sequence.
std::string cut_for_title(std::string_view text, std::size_t max) {
  if (text.size() <= max) return std::string(text);
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U) --end;
  return std::string(text.substr(0, end)) + "…";
}

// The root's first message, when its log holds no title_changed yet; nullopt otherwise.
result<std::optional<std::string>> first_message_if_untitled(store& log, const std::string& root_id) {
  auto events = log.read_events(root_id);
  if (!events) return std::move(events).err();
  std::optional<std::string> first;
  for (const auto& ev : *events) {
    if (ev.is<events::title_changed>()) return std::optional<std::string>{};
    if (const auto* input = ev.as<events::user_message>(); input != nullptr && !first) first = input->content;
  }
  return first;
}

void strip_title_wrapping(std::string& title) {
  static constexpr std::array<std::string_view, 8> wrappers = {"\"", "'", "“", "”", "「", "」", "《", "》"};
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto wrapper : wrappers) {
      if (title.starts_with(wrapper)) {
        title.erase(0, wrapper.size());
        changed = true;
      }
      if (title.ends_with(wrapper)) {
        title.resize(title.size() - wrapper.size());
        changed = true;
      }
    }
  }
  for (const std::string_view stop : {".", "。"}) {
    if (title.ends_with(stop)) title.resize(title.size() - stop.size());
  }
}

}  // namespace

llm::model_request title_request(const config::member_config& member, std::string_view language,
                                 std::string_view first_message, std::string_view answer) {
  const bool zh = language == "zh";
  llm::model_request request;
  request.member_id = member.id;
  request.model = member.model;
  request.params = member.model_params;
  // The member's own token limit is for its answers; a title's is small. A member that names
  // max_completion_tokens (OpenAI's reasoning models refuse max_tokens) keeps its own.
  if (!request.params.contains("max_completion_tokens")) {
    request.params.erase("max_output_tokens");
    request.params["max_tokens"] = kTitleMaxTokens;
  }
  request.stream = false;
  request.system_prompt = zh ? "你为对话起标题。" : "You give conversations titles.";
  std::string ask =
      zh ? "用不超过 20 个字为下面的对话起一个标题，说明它讲的是什么。只回复标题本身，不要引号。\n\n用户：" +
               cut_for_title(first_message, kTitleContextBytes) + "\n\n回答：" +
               cut_for_title(answer, kTitleContextBytes)
         : "Give the conversation below a title of at most 8 words that says what it is about. Reply "
           "with the title alone, without quotes.\n\nUser: " +
               cut_for_title(first_message, kTitleContextBytes) +
               "\n\nAnswer: " + cut_for_title(answer, kTitleContextBytes);
  request.messages.push_back({llm::role::user, std::move(ask)});
  return request;
}

std::string title_from_reply(std::string_view reply) {
  std::string title = title_from_message(reply);
  strip_title_wrapping(title);
  while (!title.empty() && title.back() == ' ') title.pop_back();
  return title;
}

title_writer::title_writer(asio::any_io_executor executor, engine& eng)
    : executor_(std::move(executor)), engine_(eng) {}

title_writer::~title_writer() { stop(); }

void title_writer::on_durable(const event& ev) {
  if (stopped_ || ev.dialog_id != ev.root_id) return;
  const auto* finished = ev.as<events::generation_finished>();
  if (finished == nullptr || finished->interrupted || !finished->tool_calls.empty() || finished->saying.empty()) return;
  if (asked_.count(ev.dialog_id) != 0 || running_ >= kMaxRunning) return;
  if (asked_.size() >= kMaxRemembered) asked_.clear();  // the log still says which were titled
  asked_.insert(ev.dialog_id);
  ++running_;
  asio::co_spawn(executor_, run(ev.dialog_id, finished->saying), asio::detached);
}

void title_writer::stop() {
  stopped_ = true;
  for (const auto& control : controls_) control->stop("shutting down");
}

asio::awaitable<void> title_writer::run(std::string root_id, std::string answer) {
  struct release {
    std::size_t& running;
    ~release() { --running; }
  } released{running_};
  const auto* runtime = engine_.find(root_id);
  const auto* member = runtime == nullptr ? nullptr : engine_.team().find_member(runtime->row().member_id);
  llm::provider* provider = member == nullptr ? nullptr : engine_.members().provider_of(member->id);
  // The offline models answer only what their script or database says: no title to ask them for.
  if (provider == nullptr || provider->kind() == "scripted" || provider->kind() == "mock") co_return;
  auto first = first_message_if_untitled(engine_.dialogs().log(), root_id);
  if (!first || !*first) co_return;
  auto control = std::make_shared<llm::generation_control>();
  controls_.push_back(control);
  const auto request = title_request(*member, engine_.team().language, **first, answer);
  llm::stream_sink quiet;  // nobody watches a title being written
  auto reply = co_await provider->stream(request, quiet, *control);
  std::erase(controls_, control);
  if (stopped_ || !reply) co_return;
  const std::string title = title_from_reply(reply->saying);
  if (title.empty()) co_return;
  (void)co_await engine_.titles().set_by_model(root_id, title);
}

}  // namespace parley::engine
