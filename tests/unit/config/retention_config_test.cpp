// The team file's `retention:` (docs/team-yaml.md "Retention"): absent keeps everything; present,
// its one key is a positive number of days, and anything else is refused with the key named.
#include <gtest/gtest.h>

#include <string>

#include "parley/config/team.hpp"
#include "team_file_fixture.hpp"

namespace parley::config {
namespace {

using RetentionConfig = testing::team_file_test;

const std::string kRetentionTeam = R"(providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead: {persona: "You lead.", provider: offline, model: scripted}
)";

TEST_F(RetentionConfig, AbsentKeepsEverythingAndArchiveAfterDaysIsAPositiveCount) {
  auto kept = load(kRetentionTeam);
  ASSERT_TRUE(kept) << kept.err().message;
  EXPECT_EQ(kept->retention.archive_after_days, 0);
  auto team = load("retention: {archive_after_days: 90}\n" + kRetentionTeam);
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->retention.archive_after_days, 90);
  EXPECT_NE(error_of("retention: {archive_after_days: 0}\n" + kRetentionTeam)
                .find("retention.archive_after_days: got '0' (expected a positive integer)"),
            std::string::npos)
      << error_of("retention: {archive_after_days: 0}\n" + kRetentionTeam);
  EXPECT_NE(error_of("retention: {keep_days: 3}\n" + kRetentionTeam).find("keep_days"), std::string::npos)
      << error_of("retention: {keep_days: 3}\n" + kRetentionTeam);
}

}  // namespace
}  // namespace parley::config
