// Reading JSON text into a Boost.JSON value with every number exactly as written.
//
// Boost 1.81's parser converts some decimal numbers to a neighbouring double (it is fast, not
// correctly rounded), so a double written by `serialize` in its shortest round-trip form can read
// back as another number: a stored payload would then change each time it is read and written, and
// a packet would not read back as it was sent. This reader drives the same parser but converts each
// double from its text with std::from_chars, which rounds correctly.
#pragma once

#include <boost/json/parse_options.hpp>
#include <boost/json/value.hpp>
#include <boost/system/error_code.hpp>

#include <string_view>

namespace parley {

// The whole of `text` as one JSON document (the default parse options: depth at most 32, no
// comments, no trailing commas). On error, `ec` is set and the value is null.
boost::json::value read_json(std::string_view text, boost::system::error_code& ec,
                             const boost::json::parse_options& options = {});
// The same, and where reading stopped: the offset of the error, or the size of the text.
boost::json::value read_json(std::string_view text, boost::system::error_code& ec, std::size_t& stopped_at);

}  // namespace parley
