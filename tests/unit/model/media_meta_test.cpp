// Seed 002's content_meta typed: every field optional, a present one of the wrong type an error
// naming it (the records write routes refuse such a body; a stored one shows as unknown).
#include <gtest/gtest.h>

#include "parley/core/json.hpp"
#include "parley/model/multimodal.hpp"

namespace parley {
namespace {

json::object object_of(std::string_view text) { return parse_json(text).value().as_object(); }

TEST(MediaMeta, ReadsTheSeedsFieldsEachOptional) {
  auto meta = read_media_meta(object_of(R"({"caption":"a cat","format":"png","size_kb":12})"));
  ASSERT_TRUE(meta) << meta.err().message;
  EXPECT_EQ(meta->caption, "a cat");
  EXPECT_EQ(meta->format, "png");
  EXPECT_EQ(meta->size_kb, 12);
  EXPECT_EQ(meta->transcription, "");
  EXPECT_EQ(media_words("image", object_of(R"({"caption":"a cat","format":"png","size_kb":12})")),
            "[image (png, 12 KB)] a cat");
}

TEST(MediaMeta, AWrongTypedFieldIsNamed) {
  auto meta = read_media_meta(object_of(R"({"caption":7})"));
  ASSERT_FALSE(meta);
  EXPECT_EQ(meta.err().message, "field 'content_meta.caption': expected a string, got an integer");
  auto size = read_media_meta(object_of(R"({"size_kb":"12"})"));
  ASSERT_FALSE(size);
  EXPECT_EQ(size.err().message, "field 'content_meta.size_kb': expected an integer, got a string");
}

}  // namespace
}  // namespace parley
