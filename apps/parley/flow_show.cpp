#include "flow_show.hpp"

#include <boost/json/serialize.hpp>

#include <cstdio>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "cli_text.hpp"
#include "parley/flow/sub_thread_path.hpp"
#include "parley/flow/thread_replay.hpp"

namespace parley::cli {
namespace {

constexpr std::string_view kIndentStep = "    ";

std::string phase_of(const flow::thread_settings& settings) {
  std::string out = say_cli(msg::flow_phase, {{"phase", settings.phase}});
  if (settings.phase_update_suggestion && settings.phase_update_suggestion->phase != settings.phase) {
    out += say_cli(msg::flow_next_phase, {{"phase", settings.phase_update_suggestion->phase}});
  }
  return out;
}

// One message as "[sender] text" (continuation lines under it), then its sub-thread one step in.
void print_thread(const flow::flow_thread& thread, const flow::sub_thread_path& path, const std::string& indent) {
  for (std::size_t i = 0; i < thread.messages.size(); ++i) {
    const auto& message = thread.messages[i];
    const std::string head =
        indent + "[" + message.sender + (message.is_virtual ? say_cli(msg::flow_virtual) : std::string()) + "] ";
    const auto first_end = message.text.find('\n');
    std::printf("%s%s\n", head.c_str(), message.text.substr(0, first_end).c_str());
    if (first_end != std::string::npos) {
      std::fputs(indented(std::string_view(message.text).substr(first_end + 1), std::string(head.size(), ' ')).c_str(),
                 stdout);
    }
    if (!message.sub_thread) continue;
    const auto child = path.child(i);
    const std::string inner = indent + std::string(kIndentStep);
    const auto count = static_cast<std::int64_t>(message.sub_thread->messages.size());
    std::printf("%s%s\n", inner.c_str(),
                say_cli(msg::flow_sub_thread,
                        {{"path", child.text()},
                         {"phase", phase_of(message.sub_thread->settings)},
                         {"messages", say_count_cli(msg::flow_messages_one, msg::flow_messages_many, count)}})
                    .c_str());
    print_thread(*message.sub_thread, child, inner);
  }
}

}  // namespace

std::string flow_state_line(const flow::thread_settings& settings) {
  if (flow::is_completed(settings)) return say_cli(msg::flow_completed);
  const std::string next = settings.phase_update_suggestion ? settings.phase_update_suggestion->phase : "";
  const std::string phase = say_cli(msg::flow_phase, {{"phase", settings.phase}}) +
                            (next.empty() ? std::string() : say_cli(msg::flow_next_phase, {{"phase", next}}));
  return say_cli(msg::flow_waits, {{"phase", phase}});
}

int show_flow(const dialog_row& dialog, const flow::flow_thread& main, bool json) {
  if (json) {
    std::printf("%s\n", boost::json::serialize(flow::to_json(main)).c_str());
    return kExitOk;
  }
  std::printf("%s\n", say_cli(msg::flow_header,
                              {{"id", dialog.id}, {"member", dialog.member_id}, {"phase", phase_of(main.settings)}})
                          .c_str());
  print_thread(main, flow::sub_thread_path{}, "");
  std::printf("%s\n", flow_state_line(main.settings).c_str());
  return kExitOk;
}

}  // namespace parley::cli
