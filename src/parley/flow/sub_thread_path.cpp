#include "parley/flow/sub_thread_path.hpp"

#include <charconv>

#include "parley/core/json.hpp"

namespace parley::flow {

namespace {

std::vector<std::string_view> split_dots(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const auto dot = text.find('.', start);
    parts.push_back(text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

error bad_segment(std::string_view path, std::size_t position, std::string_view segment, std::string_view problem) {
  return make_error(errc::invalid_argument, "subThreadPath \"" + std::string(path) + "\": segment " +
                                                std::to_string(position + 1) + " \"" + std::string(segment) + "\" " +
                                                std::string(problem));
}

// Reads "messages.{i}.meta._thread" groups from parts[from...]; the chain of indices.
result<std::vector<std::size_t>> read_groups(std::string_view path, const std::vector<std::string_view>& parts,
                                             std::size_t from, std::vector<std::size_t> indices) {
  static constexpr std::string_view kExpected[] = {"messages", "{index}", "meta", "_thread"};
  std::size_t i = from;
  while (i < parts.size()) {
    const std::size_t step = (i - from) % 4;
    const auto segment = parts[i];
    if (step == 1) {
      std::size_t index = 0;
      const auto* end = segment.data() + segment.size();
      const auto [ptr, ec] = std::from_chars(segment.data(), end, index);
      if (segment.empty() || ec != std::errc() || ptr != end) {
        return bad_segment(path, i, segment, "is not a message index (a non-negative integer)");
      }
      indices.push_back(index);
    } else if (segment != kExpected[step]) {
      return bad_segment(path, i, segment, "should be \"" + std::string(kExpected[step]) + "\"");
    }
    ++i;
  }
  if ((i - from) % 4 != 0) {
    return make_error(errc::invalid_argument, "subThreadPath \"" + std::string(path) + "\": ends after segment " +
                                                  std::to_string(parts.size()) + "; a path ends with \"meta._thread\"");
  }
  return indices;
}

}  // namespace

std::string sub_thread_path::text() const {
  std::string out;
  for (const auto index : indices_) {
    if (!out.empty()) out += '.';
    out += "messages." + std::to_string(index) + ".meta._thread";
  }
  return out;
}

sub_thread_path sub_thread_path::child(std::size_t message_index) const {
  auto indices = indices_;
  indices.push_back(message_index);
  return sub_thread_path(std::move(indices));
}

sub_thread_path sub_thread_path::parent() const {
  auto indices = indices_;
  if (!indices.empty()) indices.pop_back();
  return sub_thread_path(std::move(indices));
}

result<sub_thread_path> parse_sub_thread_path(std::string_view text) {
  if (text.empty()) return sub_thread_path();
  auto indices = read_groups(text, split_dots(text), 0, {});
  if (!indices) return std::move(indices).err();
  return sub_thread_path(std::move(*indices));
}

result<sub_thread_path> parse_sub_thread_path_value(const boost::json::value& value) {
  if (value.is_string()) return parse_sub_thread_path(std::string_view(value.get_string()));
  if (!value.is_object()) {
    return make_error(
        errc::invalid_argument,
        std::string("subThreadPath: expected a string or {messageIndex, metaPath}, got ") + json_kind_name(value));
  }
  const auto& object = value.get_object();
  const auto* index = object.if_contains("messageIndex");
  if (index == nullptr) return make_error(errc::invalid_argument, "subThreadPath.messageIndex: missing");
  if (!index->is_int64() || index->get_int64() < 0) {
    return make_error(errc::invalid_argument,
                      "subThreadPath.messageIndex: expected a non-negative integer, got " +
                          std::string(index->is_number() ? "a negative or fractional number" : json_kind_name(*index)));
  }
  std::string meta_path = "meta._thread";
  if (const auto* given = object.if_contains("metaPath")) {
    if (!given->is_string()) {
      return make_error(errc::invalid_argument,
                        std::string("subThreadPath.metaPath: expected a string, got ") + json_kind_name(*given));
    }
    meta_path = std::string(given->get_string());
  }
  // The object form is the string form with its first two segments taken apart.
  const std::string whole = "messages." + std::to_string(index->get_int64()) + "." + meta_path;
  auto parts = split_dots(whole);
  if (parts.size() < 4 || parts[2] != "meta" || parts[3] != "_thread") {
    return make_error(errc::invalid_argument,
                      "subThreadPath.metaPath \"" + meta_path + "\": must start with \"meta._thread\"");
  }
  auto indices = read_groups(whole, parts, 0, {});
  if (!indices) return std::move(indices).err();
  return sub_thread_path(std::move(*indices));
}

result<flow_thread*> get_sub_thread_by_path(flow_thread& main, const sub_thread_path& path) {
  flow_thread* current = &main;
  sub_thread_path walked;
  for (const auto index : path.message_indices()) {
    const auto here = walked.child(index).text();
    if (index >= current->messages.size()) {
      return make_error(errc::invalid_argument, "subThreadPath \"" + path.text() + "\": \"" + here +
                                                    "\": message index " + std::to_string(index) +
                                                    " is out of range (the thread has " +
                                                    std::to_string(current->messages.size()) + " messages)");
    }
    auto& message = current->messages[index];
    if (!message.sub_thread) {
      return make_error(errc::invalid_argument, "subThreadPath \"" + path.text() + "\": \"" + here + "\": message " +
                                                    std::to_string(index) + " (" + message.id +
                                                    ") has no sub-thread in meta._thread");
    }
    current = message.sub_thread.get();
    walked = walked.child(index);
  }
  return current;
}

result<flow_thread*> get_sub_thread_by_path(flow_thread& main, std::string_view path) {
  auto parsed = parse_sub_thread_path(path);
  if (!parsed) return std::move(parsed).err();
  return get_sub_thread_by_path(main, *parsed);
}

}  // namespace parley::flow
