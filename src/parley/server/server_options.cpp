#include "parley/server/server_options.hpp"

#include <boost/asio/ip/address.hpp>

namespace parley::server {

bool is_loopback_host(const std::string& host) {
  if (host == "localhost") return true;
  // "[::1]" is how an IPv6 host is written in a URL; accept it as given on the command line too.
  std::string literal = host;
  if (literal.size() > 2 && literal.front() == '[' && literal.back() == ']')
    literal = literal.substr(1, literal.size() - 2);
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(literal, ec);
  return !ec && address.is_loopback();
}

}  // namespace parley::server
