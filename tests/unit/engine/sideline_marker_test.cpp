// Seed 001's first-line content markers on what a tellasker receives (engine/prompts.hpp,
// with_delivery_marker): the edge cases the scenarios sideline_markers*.yaml do not spell out.
#include <gtest/gtest.h>

#include "parley/engine/prompts.hpp"

namespace parley::engine {
namespace {

TEST(SidelineMarker, AReplyWithoutTheFinalMarkerGetsItOnItsOwnFirstLine) {
  EXPECT_EQ(with_delivery_marker("done", false), "【最终完成】\ndone");
  EXPECT_EQ(with_delivery_marker("", false), "【最终完成】\n");
}

TEST(SidelineMarker, AReplyThatStartsWithTheFinalMarkerIsDeliveredAsWritten) {
  EXPECT_EQ(with_delivery_marker("【最终完成】\ndone", false), "【最终完成】\ndone");
  EXPECT_EQ(with_delivery_marker("【最终完成】 done", false), "【最终完成】 done");
}

TEST(SidelineMarker, AMarkerLaterThanTheFirstLineDoesNotCount) {
  EXPECT_EQ(with_delivery_marker("done\n【最终完成】", false), "【最终完成】\ndone\n【最终完成】");
}

TEST(SidelineMarker, AnFbrReplyKeepsEitherFbrMarker) {
  EXPECT_EQ(with_delivery_marker("【FBR-直接回复】\n42", true), "【FBR-直接回复】\n42");
  EXPECT_EQ(with_delivery_marker("【FBR-仅推理】\nmaybe", true), "【FBR-仅推理】\nmaybe");
}

TEST(SidelineMarker, AnFbrReplyWithoutAnFbrMarkerIsDeliveredAsReasoningOnly) {
  EXPECT_EQ(with_delivery_marker("42", true), "【FBR-仅推理】\n42");
  // The final marker is not an FBR marker: an FBR sideline reports with its own.
  EXPECT_EQ(with_delivery_marker("【最终完成】\n42", true), "【FBR-仅推理】\n【最终完成】\n42");
}

}  // namespace
}  // namespace parley::engine
