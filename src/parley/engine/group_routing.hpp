// Seed 002's group dialogues: which AI member answers a human's message. In a LIO (one human, several
// AIs) an `@member` mention picks the responder, else the dialog's default member answers; in a
// group of humans an AI answers when mentioned, and every other message is only relayed — unless
// an AI hosts the group (created with `host`, kept as the root's member_id): the host answers
// every message that mentions no member (seed 002 ⑦, "AI作为参与者/主持者").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/model/records.hpp"

namespace parley::engine {

// The first `@id` in `content` that names one of `candidates`: the `@` starts the text or follows a
// character that cannot be part of an id (so "mail@lead.com" mentions nobody), and the id ends
// where id characters do. Empty when none.
std::string first_mention(std::string_view content, const std::vector<std::string>& candidates);

// The member who answers `content` in a group root (dialog_runtime::is_group); "" when nobody does.
std::string responder_for(const dialog_row& root, std::string_view content);

}  // namespace parley::engine
