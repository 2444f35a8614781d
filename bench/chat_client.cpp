#include "chat_client.hpp"

#include <boost/asio/connect.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <string_view>
#include <thread>

namespace parley::bench {
namespace chat_wire {  // named: unity batches (cmake/unity_build.cmake)

namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
using steady = std::chrono::steady_clock;

// A REST dialog not at rest after this long is a failed request.
constexpr std::chrono::seconds kRestTimeout{30};

const boost::json::value* field(const boost::json::value& v, std::string_view key) {
  return v.is_object() ? v.as_object().if_contains(key) : nullptr;
}

const boost::json::value* field(const boost::json::value& v, std::string_view outer, std::string_view key) {
  const auto* inner = field(v, outer);
  return inner == nullptr ? nullptr : field(*inner, key);
}

bool is_true(const boost::json::value* v) { return v != nullptr && v->is_bool() && v->as_bool(); }

std::string string_of(const boost::json::value* v) {
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string{};
}

std::string shortened(const std::string& text) { return text.size() > 200 ? text.substr(0, 200) + "…" : text; }

// The content of a streamed completion: its chunks' deltas, once `[DONE]` came.
bool streamed_content(const std::string& body, std::string& content, std::string& error) {
  bool done = false;
  std::size_t at = 0;
  while (at < body.size()) {
    std::size_t end = body.find('\n', at);
    if (end == std::string::npos) end = body.size();
    const std::string_view line(body.data() + at, end - at);
    at = end + 1;
    if (!line.starts_with("data: ")) continue;
    const std::string_view data = line.substr(6);
    if (data == "[DONE]") {
      done = true;
      continue;
    }
    boost::system::error_code ec;
    const auto chunk = boost::json::parse(data, ec);
    if (ec || field(chunk, "error") != nullptr) {
      error = "stream event: " + shortened(std::string(data));
      return false;
    }
    const auto* choices = field(chunk, "choices");
    if (choices == nullptr || !choices->is_array() || choices->as_array().empty()) continue;
    content += string_of(field(choices->as_array()[0], "delta", "content"));
  }
  if (!done) error = "the stream ended without [DONE]";
  return done;
}

std::string completion_content(const std::string& body) {
  boost::system::error_code ec;
  const auto parsed = boost::json::parse(body, ec);
  const auto* choices = ec ? nullptr : field(parsed, "choices");
  if (choices == nullptr || !choices->is_array() || choices->as_array().empty()) return {};
  return string_of(field(choices->as_array()[0], "message", "content"));
}

bool transcript_holds(const std::string& body, const std::string& answer) {
  boost::system::error_code ec;
  const auto parsed = boost::json::parse(body, ec);
  const auto* messages = ec ? nullptr : field(parsed, "messages");
  if (messages == nullptr || !messages->is_array()) return false;
  for (const auto& message : messages->as_array()) {
    if (string_of(field(message, "role")) != "user" && string_of(field(message, "content")) == answer) return true;
  }
  return false;
}

}  // namespace chat_wire

chat_client::chat_client(const chat_server& server) : server_(server), socket_(io_) { connect(); }

void chat_client::connect() {
  boost::system::error_code ignored;
  socket_.close(ignored);
  buffer_.clear();
  socket_.connect({chat_wire::asio::ip::make_address("127.0.0.1"), server_.port});
  socket_.set_option(chat_wire::asio::ip::tcp::no_delay(true));
}

chat_client::response chat_client::send(chat_wire::bhttp::verb method, const std::string& target,
                                        const std::string& body) {
  chat_wire::bhttp::request<chat_wire::bhttp::string_body> req{method, target, 11};
  req.set(chat_wire::bhttp::field::host, "127.0.0.1");
  req.set(chat_wire::bhttp::field::authorization, "Bearer " + server_.token);
  if (method == chat_wire::bhttp::verb::post) {
    req.set(chat_wire::bhttp::field::content_type, "application/json");
    req.body() = body;
    req.prepare_payload();
  }
  chat_wire::bhttp::write(socket_, req);
  chat_wire::bhttp::response_parser<chat_wire::bhttp::string_body> parser;
  parser.body_limit(16 * 1024 * 1024);
  chat_wire::bhttp::read(socket_, buffer_, parser);
  response res = parser.release();
  if (!res.keep_alive()) connect();
  return res;
}

bool chat_client::ask_openai(bool stream, const std::string& content, std::string& error) {
  const boost::json::object body{
      {"model", "parley/" + server_.member},
      {"stream", stream},
      {"messages", boost::json::array{boost::json::object{{"role", "user"}, {"content", content}}}}};
  const auto res = send(chat_wire::bhttp::verb::post, "/v1/chat/completions", boost::json::serialize(body));
  if (res.result_int() != 200) {
    error = "POST /v1/chat/completions -> " + std::to_string(res.result_int()) + " " + chat_wire::shortened(res.body());
    return false;
  }
  std::string answer;
  if (stream) {
    if (!chat_wire::streamed_content(res.body(), answer, error)) return false;
  } else {
    answer = chat_wire::completion_content(res.body());
  }
  if (answer == server_.answer) return true;
  error = "unexpected answer: " + chat_wire::shortened(answer);
  return false;
}

bool chat_client::ask_rest(const std::string& content, int& polls, std::string& error) {
  const boost::json::object body{{"memberId", server_.member}, {"content", content}};
  const auto created = send(chat_wire::bhttp::verb::post, "/api/dialogs", boost::json::serialize(body));
  boost::system::error_code ec;
  const auto parsed = boost::json::parse(created.body(), ec);
  const std::string id = ec ? std::string{} : chat_wire::string_of(chat_wire::field(parsed, "dialog", "id"));
  if (created.result_int() != 201 || id.empty()) {
    error = "POST /api/dialogs -> " + std::to_string(created.result_int()) + " " + chat_wire::shortened(created.body());
    return false;
  }
  const auto deadline = chat_wire::steady::now() + chat_wire::kRestTimeout;
  for (polls = 1;; ++polls) {
    const auto summary = send(chat_wire::bhttp::verb::get, "/api/dialogs/" + id, {});
    const auto state = boost::json::parse(summary.body(), ec);
    const auto* dialog = ec ? nullptr : chat_wire::field(state, "dialog");
    if (summary.result_int() != 200 || dialog == nullptr) {
      error = "GET /api/dialogs/" + id + " -> " + std::to_string(summary.result_int());
      return false;
    }
    const auto* pending = chat_wire::field(*dialog, "pendingSubdialogs");
    const bool waits = pending != nullptr && pending->is_number() && pending->to_number<double>() > 0;
    if (!chat_wire::is_true(chat_wire::field(*dialog, "generating")) &&
        !chat_wire::is_true(chat_wire::field(*dialog, "needsDrive")) && !waits) {
      const auto transcript = send(chat_wire::bhttp::verb::get, "/api/dialogs/" + id + "/transcript", {});
      if (transcript.result_int() == 200 && chat_wire::transcript_holds(transcript.body(), server_.answer)) return true;
    }
    if (chat_wire::steady::now() > deadline) {
      error = "dialog " + id + " not answered within 30 s";
      return false;
    }
    std::this_thread::sleep_for(kRestPollInterval);
  }
}

}  // namespace parley::bench
