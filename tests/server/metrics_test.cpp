// GET /metrics, /healthz and /readyz of a real `parley serve` (docs/server.md, "Metrics and
// health"): what a scrape counts after known work, who may read it, and what the probes say when
// the store can no longer write. The Prometheus text format itself is checked by promtool and a
// real Prometheus in tests/monitoring.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "rest_fixture.hpp"

namespace parley::test {
namespace {

class MetricsTest : public RestTest {
 protected:
  std::string scrape() const {
    const auto reply = client().get("/metrics");
    EXPECT_EQ(reply.status, 200) << reply.body;
    return reply.body;
  }
};

// The value of the sample whose name and labels are exactly `series`, when the scrape has it.
std::optional<double> sample_of(const std::string& exposition, const std::string& series) {
  std::istringstream lines(exposition);
  for (std::string line; std::getline(lines, line);) {
    if (line.size() > series.size() && line.compare(0, series.size(), series) == 0 && line[series.size()] == ' ') {
      return std::stod(line.substr(series.size() + 1));
    }
  }
  return std::nullopt;
}

TEST_F(MetricsTest, AScrapeCountsTheModelCallsToolsAndDialogsOfTheWorkDone) {
  start("q4h");
  const auto id = create_dialog("remember this");
  ASSERT_TRUE(eventually_says(id, "noted"));
  const auto ghost = create_dialog("call a ghost");
  ASSERT_TRUE(eventually_says(ghost, "no such tool"));
  std::string text;
  ASSERT_TRUE(eventually([&] {
    text = scrape();
    return sample_of(text, R"(parley_model_calls_total{member="lead",model="scripted",finish_reason="stop"})") == 2.0;
  })) << text;
  EXPECT_EQ(sample_of(text, R"(parley_model_calls_total{member="lead",model="scripted",finish_reason="tool_calls"})"),
            2.0);
  EXPECT_GT(sample_of(text, R"(parley_model_tokens_total{member="lead",model="scripted",kind="input"})").value_or(0),
            0);
  EXPECT_EQ(sample_of(text, R"(parley_model_call_duration_seconds_count{member="lead",model="scripted"})"), 4.0);
  // Only the two generations that said something streamed a first token.
  EXPECT_EQ(sample_of(text, R"(parley_model_time_to_first_token_seconds_count{member="lead",model="scripted"})"), 2.0);
  EXPECT_EQ(sample_of(text, R"(parley_tool_calls_total{tool="add_reminder"})"), 1.0);
  EXPECT_FALSE(sample_of(text, R"(parley_tool_errors_total{tool="add_reminder"})"));
  // The model's made-up name (with a quote in it) is not a label of its own.
  EXPECT_EQ(sample_of(text, R"x(parley_tool_errors_total{tool="(unknown)"})x"), 1.0);
  EXPECT_EQ(text.find("ghost"), std::string::npos);
  EXPECT_EQ(sample_of(text, R"(parley_dialogs{state="running"})"), 2.0);
  EXPECT_EQ(sample_of(text, R"(parley_dialogs{state="completed"})"), 0.0);
  EXPECT_GE(sample_of(text, "parley_store_commits_total").value_or(0), 1);
  EXPECT_EQ(sample_of(text, "parley_store_commit_duration_seconds_count"),
            sample_of(text, "parley_store_commits_total"));
  EXPECT_EQ(sample_of(text, "parley_store_healthy"), 1.0);
  EXPECT_GT(sample_of(text, "parley_process_resident_memory_bytes").value_or(0), 0);
  EXPECT_EQ(sample_of(text, "parley_http_connections"), 1.0);  // this scrape's own
}

TEST_F(MetricsTest, MetricsNeedTheTokenWhileTheProbesAnswerAnyone) {
  start("q4h");
  const rest_client anonymous(server_->port(), "");
  const auto refused = anonymous.get("/metrics");
  EXPECT_EQ(refused.status, 401);
  EXPECT_EQ(code_of(refused), "unauthorized");
  const rest_client wrong(server_->port(), "not-the-token");
  EXPECT_EQ(wrong.get("/metrics").status, 401);
  const auto health = anonymous.get("/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, "ok\n");
  const auto ready = anonymous.get("/readyz");
  EXPECT_EQ(ready.status, 200);
  EXPECT_EQ(ready.body, "ready\n");
  const auto posted = client().post("/metrics", std::string());
  EXPECT_EQ(posted.status, 405);
  EXPECT_EQ(posted.header("Allow"), "GET, HEAD");
}

// A store whose file was replaced under the server: /readyz says why with a 503, and /metrics
// still answers, saying so.
TEST_F(MetricsTest, AStoreThatCannotWriteMakesTheServerUnreadyAndTheScrapeSaysSo) {
  start("q4h");
  const auto id = create_dialog("remember this");
  ASSERT_TRUE(eventually_says(id, "noted"));
  const auto db = data_dir() / "parley.db";
  std::ofstream(data_dir() / "other.db") << "x";
  std::filesystem::rename(data_dir() / "other.db", db);
  EXPECT_NE(client().post("/api/dialogs", boost::json::value{{"content", "and this"}}).status, 201);
  const auto ready = rest_client(server_->port(), "").get("/readyz");
  EXPECT_EQ(ready.status, 503);
  EXPECT_EQ(ready.body.rfind("not ready: store: ", 0), 0U) << ready.body;
  EXPECT_NE(ready.body.find(db.string() + " was replaced"), std::string::npos) << ready.body;
  const auto text = scrape();
  EXPECT_EQ(sample_of(text, "parley_store_healthy"), 0.0) << text;
  EXPECT_TRUE(sample_of(text, "parley_process_open_fds"));
  (void)server_->terminate();
}

// Sets an environment variable for the servers a test starts (they inherit it), and removes it after.
class scoped_env {
 public:
  scoped_env(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~scoped_env() { ::unsetenv(name_); }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

 private:
  const char* name_;
};

std::vector<std::string> q4h_serve_args(const std::filesystem::path& data) {
  return {"--team", (std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/teams/q4h/team.yaml").string(), "--data",
          data.string()};
}

TEST_F(MetricsTest, ATraceEndpointThatIsNotAnHttpUrlIsRefusedNamingTheFlag) {
  auto args = q4h_serve_args(data_dir());
  args.insert(args.end(), {"--otlp-endpoint", "ftp://collector.example/v1/traces"});
  server_process refused(args);
  EXPECT_FALSE(refused.started());
  EXPECT_NE(refused.output().find("--otlp-endpoint: not an http:// or https:// URL"), std::string::npos)
      << refused.output();
  EXPECT_FALSE(std::filesystem::exists(data_dir() / "parley.db"));
}

TEST_F(MetricsTest, OpenTelemetrysVariablesChooseTheCollectorAndBadHeadersAreRefusedNamingThem) {
  {
    const scoped_env endpoint("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9/");
    const scoped_env headers("OTEL_EXPORTER_OTLP_HEADERS", "x-api-key");
    server_process refused(q4h_serve_args(data_dir()));
    EXPECT_FALSE(refused.started());
    EXPECT_NE(refused.output().find("OTEL_EXPORTER_OTLP_HEADERS: expected name=value, got 'x-api-key'"),
              std::string::npos)
        << refused.output();
  }
  const scoped_env endpoint("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9/");
  const scoped_env headers("OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=secret, x-team = parley");
  server_process traced(q4h_serve_args(data_dir()));
  ASSERT_TRUE(traced.started()) << traced.output();
  // The base endpoint gets the specification's path for traces.
  EXPECT_NE(traced.output().find("parley: traces go to http://127.0.0.1:9/v1/traces\n"), std::string::npos)
      << traced.output();
  EXPECT_EQ(traced.output().find("secret"), std::string::npos);
  EXPECT_EQ(traced.terminate(), 0);
}

}  // namespace
}  // namespace parley::test
