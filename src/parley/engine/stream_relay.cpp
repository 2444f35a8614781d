#include "parley/engine/stream_relay.hpp"

namespace parley::engine {
namespace {

const char* segment_name(bool thinking) { return thinking ? "thinking" : "saying"; }

}  // namespace

void stream_relay::publish(stream_kind kind, std::string_view text) const {
  if (!violation_.empty()) return;
  const stream_event ev{dialog_id_, root_id_, course_, genseq_, kind, text};
  for (auto* observer : observers_) observer->on_stream(ev);
}

void stream_relay::fail(std::string message) {
  if (!violation_.empty()) return;
  violation_ = std::move(message);
  control_.stop();
}

void stream_relay::open(segment which, stream_kind kind) {
  if (active_ != segment::none) {
    fail(std::string("stream order violation: ") + segment_name(which == segment::thinking) + " started while " +
         segment_name(active_ == segment::thinking) + " was still open");
    return;
  }
  active_ = which;
  publish(kind, {});
}

void stream_relay::chunk(segment which, stream_kind kind, std::string_view text) {
  if (active_ != which) {
    fail(std::string("stream order violation: ") + segment_name(which == segment::thinking) +
         " chunk outside an open " + segment_name(which == segment::thinking) + " segment");
    return;
  }
  publish(kind, text);
  (which == segment::thinking ? thinking_ : saying_).append(text);
  if (checkpoint_ && std::chrono::steady_clock::now() - last_checkpoint_ >= checkpoint_every_) {
    last_checkpoint_ = std::chrono::steady_clock::now();
    checkpoint_(thinking_, saying_);
  }
}

void stream_relay::close(segment which, stream_kind kind) {
  if (active_ != which) {
    fail(std::string("stream order violation: ") + segment_name(which == segment::thinking) +
         " finished but was not open");
    return;
  }
  active_ = segment::none;
  publish(kind, {});
}

void stream_relay::on_discard(std::string_view reason) {
  if (!violation_.empty()) return;
  // The abandoned segment is not finished: the next attempt starts its own segments afresh.
  active_ = segment::none;
  thinking_.clear();
  saying_.clear();
  publish(stream_kind::discard, reason);
  if (discarded_) discarded_(reason);
}

}  // namespace parley::engine
