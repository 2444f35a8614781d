// What a tool and a model share: a tool's name, description and argument schema as a model is
// told them, and an image or sound either side hands over. In core, beside the other plain data,
// so that the tools module needs no model client (the llm module, with its HTTP client) to
// describe itself. The llm module names them in its own namespace too (llm/provider.hpp), where
// every provider speaks of them.
#pragma once

#include <boost/json/object.hpp>

#include <string>

#include "parley/core/media_kind.hpp"

namespace parley {

// An image or a sound given to a model that takes it (user messages; images also in tool results,
// which each adapter places where its API takes them).
struct media_part {
  media_kind kind = media_kind::image;
  std::string mime;    // image/png, audio/wav ...
  std::string format;  // png, jpeg, wav, mp3 ...
  std::string data_base64;
};

struct tool_spec {
  std::string name;
  std::string description;
  boost::json::object parameters;  // JSON Schema of the arguments object
};

}  // namespace parley
