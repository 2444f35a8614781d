// The fixture of the REST tests: a private copy of a test team (its workspace is written to) and a
// data directory in a temp folder, and `parley serve` running on them.
#pragma once

#include <gtest/gtest.h>

#include <boost/json/value.hpp>

#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "rest_client.hpp"
#include "server_process.hpp"

namespace parley::test {

// The `code` of an error reply, or a note saying the reply carried no error object.
inline std::string code_of(const http_reply& reply) {
  const auto body = reply.json();
  if (!body.is_object() || !body.as_object().contains("error")) return "(no error object: " + reply.body + ")";
  return std::string(body.at("error").at("code").as_string());
}

// The `message` of an error reply; empty when it carried no error object.
// The id of the dialog a create answered with, or what the body said instead.
inline std::string dialog_id_of(const http_reply& reply) {
  const auto body = reply.json();
  if (!body.is_object() || !body.as_object().contains("dialog")) return "(no dialog: " + reply.body + ")";
  return std::string(body.at("dialog").at("id").as_string());
}

// How many of a transcript's messages are the user's.
inline std::int64_t user_messages(const boost::json::array& messages) {
  std::int64_t count = 0;
  for (const auto& m : messages) count += m.at("role") == "user" ? 1 : 0;
  return count;
}

inline std::string message_of(const http_reply& reply) {
  const auto body = reply.json();
  if (!body.is_object() || !body.as_object().contains("error")) return {};
  return std::string(body.at("error").at("message").as_string());
}

class RestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = std::filesystem::temp_directory_path() / ("parley-rest-" + std::to_string(device()));
    std::filesystem::create_directories(root_);
  }
  void TearDown() override {
    server_.reset();
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }

  // Copies tests/server/teams/<name> and starts the server on it, with `extra` arguments.
  void start(const std::string& team_name, std::vector<std::string> extra = {}) {
    const auto source = std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/teams" / team_name;
    team_dir_ = root_ / team_name;
    std::filesystem::copy(source, team_dir_, std::filesystem::copy_options::recursive);
    std::vector<std::string> args{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()};
    args.insert(args.end(), extra.begin(), extra.end());
    server_ = std::make_unique<server_process>(args);
    ASSERT_TRUE(server_->started()) << server_->output();
  }

  // Stops the server (SIGTERM, a clean exit) and starts it again on the same team and data.
  void restart() {
    ASSERT_EQ(server_->terminate(), 0) << server_->output();
    server_ = std::make_unique<server_process>(
        std::vector<std::string>{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()});
    ASSERT_TRUE(server_->started()) << server_->output();
  }

  std::filesystem::path data_dir() const { return root_ / "data"; }
  rest_client client() const { return rest_client(server_->port(), server_->token()); }

  // POST /api/dialogs with `content`; the new dialog's id.
  std::string create_dialog(const std::string& content) {
    const auto reply = client().post("/api/dialogs", boost::json::value{{"content", content}});
    EXPECT_EQ(reply.status, 201) << reply.body;
    const auto body = reply.json();
    if (!body.is_object() || !body.as_object().contains("dialog")) return {};
    return std::string(body.at("dialog").at("id").as_string());
  }

  boost::json::value dialog(const std::string& id) const { return client().get("/api/dialogs/" + id).json(); }

  // Nothing queued or running in the dialog: it is done, or waits for a human or a subdialog.
  bool settled(const std::string& id) const {
    const auto body = dialog(id);
    if (!body.is_object()) return false;
    const auto& summary = body.at("dialog");
    return !summary.at("generating").as_bool() && !summary.at("needsDrive").as_bool();
  }

  // The transcript's messages (current course).
  boost::json::array messages(const std::string& id) const {
    const auto body = client().get("/api/dialogs/" + id + "/transcript").json();
    if (!body.is_object()) return {};
    return body.at("messages").as_array();
  }

  // Polls until the last message of the dialog is an assistant message saying `text`.
  bool eventually_says(const std::string& id, const std::string& text) const {
    return eventually([&] {
      const auto list = messages(id);
      return !list.empty() && list.back().at("role") == "assistant" && list.back().at("content") == text.c_str();
    });
  }

  std::filesystem::path root_;
  std::filesystem::path team_dir_;
  std::unique_ptr<server_process> server_;
};

}  // namespace parley::test
