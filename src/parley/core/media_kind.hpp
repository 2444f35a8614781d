// Whether a medium is an image or a sound: what a model is given (core/tool_spec.hpp's media_part),
// what an upload is (server/media_types.hpp) and what an attachment in the log is
// (events::attachment_kind is this enum). In core, so that every module names it alike.
#pragma once

#include <array>
#include <string_view>
#include <utility>

#include "parley/core/vocabulary.hpp"

namespace parley {

enum class media_kind { image, audio };

// Their names on every wire: the log's attachments, upload info, the REST views.
template <>
struct vocabulary<media_kind> {
  static constexpr std::array<std::pair<media_kind, std::string_view>, 2> values{
      {{media_kind::image, "image"}, {media_kind::audio, "audio"}}};
};

}  // namespace parley
