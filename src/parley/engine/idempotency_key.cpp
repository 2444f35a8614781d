#include "parley/engine/idempotency_key.hpp"

namespace parley::engine {
namespace {

bool kept(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '~' || c == ':' || c == '-';
}

// Percent-encoding: '/' and '%' are encoded too, so the parts cannot run into one another.
void append_encoded(std::string& out, std::string_view part) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (const char ch : part) {
    const auto c = static_cast<unsigned char>(ch);
    if (kept(c)) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0x0f];
    }
  }
}

}  // namespace

call_origin origin_of_calls(const dialog_runtime& dialog) {
  call_origin origin{dialog.row().root_id, dialog.id(), dialog.row().course, dialog.row().last_genseq};
  const auto& messages = dialog.messages();
  for (auto m = messages.rbegin(); m != messages.rend(); ++m) {
    if (m->role == events::message_role::tool) continue;
    // The generation's own numbers, as its generation_finished logged them.
    if (m->role == events::message_role::assistant) {
      origin.course = m->course;
      origin.genseq = m->genseq;
    }
    break;
  }
  return origin;
}

std::string idempotency_key(const call_origin& origin, std::string_view call_id) {
  std::string key;
  key.reserve(origin.root_id.size() + origin.dialog_id.size() + call_id.size() + 24);
  append_encoded(key, origin.root_id);
  key += '/';
  append_encoded(key, origin.dialog_id);
  key += '/';
  key += std::to_string(origin.course);
  key += '.';
  key += std::to_string(origin.genseq);
  key += '/';
  append_encoded(key, call_id);
  return key;
}

}  // namespace parley::engine
