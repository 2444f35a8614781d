#include "parley/rtws/rtws_layout.hpp"

#include <gtest/gtest.h>

namespace parley::rtws {
namespace {

TEST(RtwsLayout, CourseFileNamesArePaddedToThreeDigits) {
  EXPECT_EQ(course_file_name(1), "course-001.jsonl");
  EXPECT_EQ(course_file_name(42), "course-042.jsonl");
  EXPECT_EQ(course_file_name(1234), "course-1234.jsonl");
}

TEST(RtwsLayout, OnlyCanonicalCourseFileNamesAreCourses) {
  EXPECT_EQ(course_of_file_name("course-001.jsonl"), 1);
  EXPECT_EQ(course_of_file_name("course-1234.jsonl"), 1234);
  EXPECT_FALSE(course_of_file_name("course-1.jsonl"));
  EXPECT_FALSE(course_of_file_name("course-0001.jsonl"));
  EXPECT_FALSE(course_of_file_name("course-000.jsonl"));
  EXPECT_FALSE(course_of_file_name("course-00a.jsonl"));
  EXPECT_FALSE(course_of_file_name("course-001.json"));
  EXPECT_FALSE(course_of_file_name("course-.jsonl"));
  EXPECT_FALSE(course_of_file_name("course-99999999999999999999.jsonl"));
}

TEST(RtwsLayout, CompletedAndArchivedRootsLiveUnderDone) {
  EXPECT_EQ(bucket_for_status(events::dialog_status::running), "run");
  EXPECT_EQ(bucket_for_status(events::dialog_status::completed), "done");
  EXPECT_EQ(bucket_for_status(events::dialog_status::archived), "done");
  EXPECT_EQ(root_path("/ws", "done", "r1"), std::filesystem::path("/ws/.dialogs/done/r1"));
  EXPECT_EQ(subdialog_path("/ws/.dialogs/run/r1", "s1"), std::filesystem::path("/ws/.dialogs/run/r1/subdialogs/s1"));
}

TEST(RtwsLayout, DialogIdsMustBePlainVisibleFolderNames) {
  EXPECT_TRUE(check_folder_name("0190abcdef123456"));
  EXPECT_FALSE(check_folder_name(""));
  EXPECT_FALSE(check_folder_name(".hidden"));
  EXPECT_FALSE(check_folder_name(".."));
  EXPECT_FALSE(check_folder_name("a/b"));
  EXPECT_FALSE(check_folder_name(std::string("a\0b", 3)));
}

}  // namespace
}  // namespace parley::rtws
