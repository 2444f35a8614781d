// parley-bench chat: one client's keep-alive connection to a `parley serve`, and the two ways it
// asks the team a question and waits for the answer — the OpenAI-compatible endpoint (one request,
// the answer in its response, streamed or not) and the REST API (create the dialog, poll its
// summary until its tree is at rest, read the answer from the transcript).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <string>

namespace parley::bench {

struct chat_server {
  unsigned short port = 0;
  std::string token;
  std::string member;  // the member asked; the OpenAI model is "parley/<member>"
  std::string answer;  // what the member's scripted answer says, whole
};

// The REST client waits this long between two polls of a dialog that is not yet at rest.
inline constexpr std::chrono::microseconds kRestPollInterval{1000};

class chat_client {
 public:
  explicit chat_client(const chat_server& server);
  // One chat completion; true when it answered 200 with the scripted answer. `error` says why not.
  bool ask_openai(bool stream, const std::string& content, std::string& error);
  // One dialog through REST; true once its transcript holds the answer. `polls` counts the
  // summary reads it took (the first right after the create).
  bool ask_rest(const std::string& content, int& polls, std::string& error);

 private:
  using response = boost::beast::http::response<boost::beast::http::string_body>;
  response send(boost::beast::http::verb method, const std::string& target, const std::string& body);
  void connect();

  const chat_server& server_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  boost::beast::flat_buffer buffer_;
};

}  // namespace parley::bench
