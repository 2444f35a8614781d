// Export then import into a fresh store: the log, the dialog rows and every message come back.
#include <gtest/gtest.h>

#include "parley/rtws/rtws_export.hpp"
#include "parley/rtws/rtws_import.hpp"
#include "rtws_test_support.hpp"

namespace parley::test {
namespace {

struct round_trip_case {
  store_kind from;
  store_kind to;
};

class RtwsRoundTrip : public ::testing::TestWithParam<round_trip_case> {};

TEST_P(RtwsRoundTrip, ImportRebuildsTheSameStore) {
  auto source = make_store(GetParam().from);
  ASSERT_TRUE(source.log);
  append_scenario(*source.log);
  temp_dir folder;
  auto exported = rtws::export_rtws(*source.log, folder.path(), false);
  ASSERT_TRUE(exported) << exported.err().message;

  auto target = make_store(GetParam().to);
  ASSERT_TRUE(target.log);
  auto imported = rtws::import_rtws(*target.log, folder.path());
  ASSERT_TRUE(imported) << imported.err().message;
  EXPECT_EQ(imported->dialogs, exported->dialogs);
  EXPECT_EQ(imported->events, exported->events);
  EXPECT_EQ(imported->files, exported->files);
  expect_same_store(*source.log, *target.log);

  // The projections the import produced are the ones a replay of its log produces.
  ASSERT_TRUE(target.log->rebuild_projections());
  expect_same_store(*source.log, *target.log);
}

TEST_P(RtwsRoundTrip, ReExportOfTheImportIsIdentical) {
  auto source = make_store(GetParam().from);
  ASSERT_TRUE(source.log);
  append_scenario(*source.log);
  temp_dir first;
  temp_dir second;
  ASSERT_TRUE(rtws::export_rtws(*source.log, first.path(), false));
  auto target = make_store(GetParam().to);
  ASSERT_TRUE(target.log);
  ASSERT_TRUE(rtws::import_rtws(*target.log, first.path()));
  ASSERT_TRUE(rtws::export_rtws(*target.log, second.path(), false));

  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(first.path())) {
    if (!entry.is_regular_file()) continue;
    ++files;
    const fs::path twin = second.path() / fs::relative(entry.path(), first.path());
    ASSERT_TRUE(fs::is_regular_file(twin)) << twin;
    EXPECT_EQ(read_text(entry.path()), read_text(twin)) << twin;
  }
  EXPECT_GT(files, 20u);
}

INSTANTIATE_TEST_SUITE_P(Stores, RtwsRoundTrip,
                         ::testing::Values(round_trip_case{store_kind::memory, store_kind::memory},
                                           round_trip_case{store_kind::sqlite, store_kind::sqlite},
                                           round_trip_case{store_kind::memory, store_kind::sqlite},
                                           round_trip_case{store_kind::sqlite, store_kind::memory}),
                         [](const auto& test_info) {
                           return kind_name(test_info.param.from) + "_to_" + kind_name(test_info.param.to);
                         });

}  // namespace
}  // namespace parley::test
