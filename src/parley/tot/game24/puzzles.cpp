#include "parley/tot/game24/puzzles.hpp"

#include <charconv>

#include "parley/core/file_text.hpp"

namespace parley::tot::game24 {

result<std::vector<puzzle>> load_puzzles(const std::filesystem::path& csv, int first_rank, int last_rank) {
  auto text = read_regular_file(csv, errc::io_error);
  if (!text) return std::move(text).err();
  std::vector<puzzle> out;
  std::size_t at = 0;
  int line_number = 0;
  while (at < text->size()) {
    auto end = text->find('\n', at);
    if (end == std::string::npos) end = text->size();
    std::string_view line(text->data() + at, end - at);
    at = end + 1;
    if (++line_number == 1) continue;  // the header
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const auto first_comma = line.find(',');
    const auto second_comma = line.find(',', first_comma + 1);
    int rank = 0;
    if (first_comma == std::string_view::npos || second_comma == std::string_view::npos ||
        std::from_chars(line.data(), line.data() + first_comma, rank).ec != std::errc{}) {
      return make_error(errc::invalid_argument,
                        csv.string() + ":" + std::to_string(line_number) + ": not 'Rank,Puzzles,…'");
    }
    if (rank >= first_rank && rank <= last_rank) {
      out.push_back({rank, std::string(line.substr(first_comma + 1, second_comma - first_comma - 1))});
    }
  }
  return out;
}

}  // namespace parley::tot::game24
