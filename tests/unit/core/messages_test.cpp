// The runtime's message catalog (core/messages.hpp): every message in both languages with the same
// placeholders, filled by name, and a Chinese team's wording chosen by "zh" only.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "parley/core/messages.hpp"

namespace parley {
namespace {

TEST(Messages, EveryIdHasBothLanguagesWithTheSamePlaceholders) {
  const auto catalog = message_catalog();
  ASSERT_EQ(catalog.size(), static_cast<std::size_t>(msg::count_));
  for (std::size_t i = 0; i < catalog.size(); ++i) {
    const auto& entry = catalog[i];
    EXPECT_EQ(static_cast<std::size_t>(entry.id), i) << "the catalog is in the order of enum msg";
    EXPECT_FALSE(entry.en.empty()) << "message " << i << " has no English";
    EXPECT_FALSE(entry.zh.empty()) << "message " << i << " has no Chinese";
    EXPECT_NE(entry.en, entry.zh) << "message " << i << " is not translated: " << entry.en;
    // The same names, whatever their order in the sentence.
    auto sorted = [](std::string names) {
      std::vector<std::string> parts;
      for (std::size_t at = 0; at <= names.size();) {
        const auto comma = names.find(',', at);
        parts.push_back(names.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
        if (comma == std::string::npos) break;
        at = comma + 1;
      }
      std::sort(parts.begin(), parts.end());
      return parts;
    };
    EXPECT_EQ(sorted(placeholders_of(entry.en)), sorted(placeholders_of(entry.zh)))
        << "message " << i << ": " << entry.en << " / " << entry.zh;
  }
}

TEST(Messages, PlaceholdersAreFilledByNameAndValuesStayVerbatim) {
  EXPECT_EQ(say(msg::questions_wait_many, "en", {{"n", "3"}, {"command", "parley questions --data d"}}),
            "3 questions wait for you: see `parley questions --data d`");
  EXPECT_EQ(say(msg::questions_wait_many, "zh", {{"command", "parley questions"}, {"n", "3"}}),
            "有 3 个问题等你回答：见 `parley questions`");
  // A value that looks like a placeholder is not filled again.
  EXPECT_EQ(say(msg::titled, "en", {{"id", "{title}"}, {"title", "T"}}), "{title} is titled: T");
  EXPECT_EQ(say(msg::stream_interrupted, "zh"), "[生成已中断]");
}

TEST(Messages, AnyLanguageButZhReadsEnglishAndAMissingValueStaysAsWritten) {
  EXPECT_EQ(say(msg::next_page, "fr", {{"command", "c"}}), "next page: c");
  EXPECT_EQ(say(msg::next_page, "", {{"command", "c"}}), "next page: c");
  EXPECT_EQ(say(msg::next_page, "en"), "next page: {command}");
}

}  // namespace
}  // namespace parley
