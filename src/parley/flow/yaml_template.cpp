#include "parley/flow/yaml_template.hpp"

#include <array>

#include "parley/core/text.hpp"
#include "parley/flow/sub_thread_path.hpp"

namespace parley::flow {

namespace {

constexpr std::array<std::string_view, 4> kPlaceholders = {"main.last_user", "thread.last_bot", "parent.last_bot",
                                                           "task.message"};

// Walks `text`, handing each placeholder name to `on_name` and each literal run to `on_text`.
template <class OnText, class OnName>
result<void> walk(std::string_view text, OnText on_text, OnName on_name) {
  std::size_t at = 0;
  while (at < text.size()) {
    const auto open = text.find("{{", at);
    if (open == std::string_view::npos) break;
    const auto close = text.find("}}", open + 2);
    if (close == std::string_view::npos) break;
    on_text(text.substr(at, open - at));
    PARLEY_TRY(on_name(trim(text.substr(open + 2, close - open - 2), " ")));
    at = close + 2;
  }
  on_text(text.substr(std::min(at, text.size())));
  return ok();
}

std::string last_of(const flow_thread& thread, std::string_view sender) {
  for (auto it = thread.messages.rbegin(); it != thread.messages.rend(); ++it) {
    if (it->sender == sender && !it->sub_thread) return it->text;
  }
  return {};
}

}  // namespace

result<void> check_template(std::string_view text) {
  return walk(
      text, [](std::string_view) {},
      [](std::string_view name) -> result<void> {
        for (const auto known : kPlaceholders) {
          if (name == known) return ok();
        }
        return make_error(errc::config_error, "unknown placeholder {{" + std::string(name) +
                                                  "}} (known: main.last_user, thread.last_bot, parent.last_bot, "
                                                  "task.message)");
      });
}

result<std::string> expand_template(std::string_view text, const task& t, flow_thread& main) {
  auto path = parse_sub_thread_path(t.sub_thread_path());
  if (!path) return std::move(path).err();
  auto served = get_sub_thread_by_path(main, *path);
  if (!served) return std::move(served).err();
  auto parent = get_sub_thread_by_path(main, path->parent());
  if (!parent) return std::move(parent).err();
  std::string out;
  PARLEY_TRY(walk(
      text, [&out](std::string_view literal) { out += literal; },
      [&](std::string_view name) -> result<void> {
        if (name == "main.last_user") out += last_of(main, "user");
        if (name == "thread.last_bot") out += last_of(**served, "bot");
        if (name == "parent.last_bot") out += last_of(**parent, "bot");
        if (name == "task.message") out += t.message;
        return ok();
      }));
  return out;
}

}  // namespace parley::flow
