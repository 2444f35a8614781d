#include "parley/core/metrics.hpp"

#include <gtest/gtest.h>

#include <array>
#include <limits>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace parley::metrics {
namespace {

constexpr std::array<std::string_view, 1> kTool{"tool"};

TEST(Metrics, AHistogramsBucketsAreCumulativeAndEndInInfEqualToItsCount) {
  const double bounds[] = {0.1, 1};
  histogram latency(bounds);
  for (const double v : {0.05, 0.1, 0.5, 3.0}) latency.observe(v);
  exposition out;
  out.family("parley_x_seconds", exposition::type::histogram, "x");
  out.histogram_samples("parley_x_seconds", {}, {}, latency.snapshot());
  EXPECT_EQ(out.text(),
            "# HELP parley_x_seconds x\n"
            "# TYPE parley_x_seconds histogram\n"
            "parley_x_seconds_bucket{le=\"0.1\"} 2\n"  // a value on a bound counts in that bucket
            "parley_x_seconds_bucket{le=\"1\"} 3\n"
            "parley_x_seconds_bucket{le=\"+Inf\"} 4\n"
            "parley_x_seconds_sum 3.65\n"
            "parley_x_seconds_count 4\n");
}

TEST(Metrics, LabelValuesAreEscapedAndHelpTextsTooSoNoValueBreaksALine) {
  exposition out;
  out.family("parley_tool_calls_total", exposition::type::counter, "back\\slash\nand a newline");
  out.sample("parley_tool_calls_total", kTool, {"say \"hi\"\\\n"}, 3);
  EXPECT_EQ(out.text(),
            "# HELP parley_tool_calls_total back\\\\slash\\nand a newline\n"
            "# TYPE parley_tool_calls_total counter\n"
            "parley_tool_calls_total{tool=\"say \\\"hi\\\"\\\\\\n\"} 3\n");
}

TEST(Metrics, ALabelValueFromOutsideIsValidUtf8AndBounded) {
  EXPECT_EQ(label_value("plain"), "plain");
  EXPECT_EQ(label_value("bad \xFF byte"), "bad \xEF\xBF\xBD byte");
  const std::string long_value = label_value(std::string(1000, 'x'));
  EXPECT_LE(long_value.size(), 131U);  // 128 bytes and the mark of a cut
  EXPECT_EQ(long_value.rfind(std::string(100, 'x'), 0), 0U);
}

TEST(Metrics, AFamilyCountsEachCombinationOfLabelsApart) {
  counter_family calls;
  calls.add({"lead", "gpt"});
  calls.add({"lead", "gpt"}, 2);
  calls.add({"clerk", "gpt"});
  const auto values = calls.snapshot();
  ASSERT_EQ(values.size(), 2U);
  EXPECT_EQ(values.at({"lead", "gpt"}), 3);
  EXPECT_EQ(values.at({"clerk", "gpt"}), 1);
}

TEST(Metrics, AHistogramObservedFromManyThreadsLosesNoObservation) {
  histogram latency;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&latency] {
      for (int i = 0; i < 10'000; ++i) latency.observe(0.002);
    });
  }
  for (auto& thread : threads) thread.join();
  const auto figures = latency.snapshot();
  EXPECT_EQ(figures.count, 40'000U);
  EXPECT_NEAR(figures.sum, 80.0, 1e-6);
}

TEST(Metrics, NumbersUseThePrometheusSpellingOfInfinityAndNaN) {
  exposition out;
  out.sample("parley_a", std::numeric_limits<double>::infinity());
  out.sample("parley_b", -std::numeric_limits<double>::infinity());
  out.sample("parley_c", std::numeric_limits<double>::quiet_NaN());
  out.sample("parley_d", 1e21);
  EXPECT_EQ(out.text(), "parley_a +Inf\nparley_b -Inf\nparley_c NaN\nparley_d 1e+21\n");
}

}  // namespace
}  // namespace parley::metrics
