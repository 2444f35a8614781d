// read_file of an image (issue 27 item 3): a PNG or JPEG is given to a model that takes images as
// an image part, refused with a clear text to one that does not, and refused over the size bound.
#include <gtest/gtest.h>

#include <string>

#include "parley/core/base64.hpp"
#include "parley/tools/image_read.hpp"
#include "workspace_fixture.hpp"

namespace parley::tools {
namespace {

const std::string kPng = std::string("\x89PNG\r\n\x1a\n", 8) + std::string("\0\0\0\rIHDR rest of a tiny png", 26);
const std::string kJpeg = std::string("\xFF\xD8\xFF\xE0", 4) + "JFIF and the rest";

class image_read_fixture : public testing::workspace_fixture {};
using ImageRead = image_read_fixture;

TEST_F(ImageRead, APngIsGivenAsAnImageToAModelThatTakesImages) {
  put("shots/screen.png", kPng);
  ctx_.takes_images = true;
  const auto out = call("read_file", R"({"path": "shots/screen.png"})");
  ASSERT_TRUE(out.ok) << out.content;
  EXPECT_EQ(out.content,
            "'shots/screen.png': a PNG image of " + std::to_string(kPng.size()) + " bytes, given to you as an image");
  ASSERT_EQ(out.media.size(), 1U);
  EXPECT_EQ(out.media[0].kind, media_kind::image);
  EXPECT_EQ(out.media[0].mime, "image/png");
  EXPECT_EQ(out.media[0].format, "png");
  EXPECT_EQ(out.media[0].data_base64, base64_encode(kPng));
}

TEST_F(ImageRead, AJpegIsRecognisedByItsBytesWhateverItsName) {
  put("photo.bin", kJpeg);
  ctx_.takes_images = true;
  const auto out = call("read_file", R"({"path": "photo.bin"})");
  ASSERT_TRUE(out.ok) << out.content;
  ASSERT_EQ(out.media.size(), 1U);
  EXPECT_EQ(out.media[0].mime, "image/jpeg");
}

TEST_F(ImageRead, AModelWithoutImagesIsToldWhyItCannotSeeIt) {
  put("screen.png", kPng);
  const auto out = call("read_file", R"({"path": "screen.png"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(out.media.empty());
  EXPECT_EQ(out.content, "'screen.png' is a PNG image of " + std::to_string(kPng.size()) +
                             " bytes; your model does not take images, so read_file cannot show it to you (ask a "
                             "teammate whose model sees images to describe it)");
}

TEST_F(ImageRead, AnOversizeImageIsRefusedAndNothingIsSent) {
  put("huge.png", kPng + std::string(detail::kMaxImageBytes, 'x'));
  ctx_.takes_images = true;
  const auto out = call("read_file", R"({"path": "huge.png"})");
  EXPECT_FALSE(out.ok);
  EXPECT_TRUE(out.media.empty());
  EXPECT_NE(out.content.find("over the 5242880 bytes an image read can be"), std::string::npos) << out.content;
}

TEST_F(ImageRead, TextFilesAreStillText) {
  put("notes.png.txt", "plain words");
  ctx_.takes_images = true;
  const auto out = call("read_file", R"({"path": "notes.png.txt"})");
  ASSERT_TRUE(out.ok);
  EXPECT_EQ(out.content, "plain words");
  EXPECT_TRUE(out.media.empty());
}

}  // namespace
}  // namespace parley::tools
