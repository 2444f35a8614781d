// Recorded-shape SSE events of the OpenAI Responses API for the responses provider's tests.
#pragma once

#include <string>
#include <string_view>

namespace parley::llm::responses_events {

inline std::string responses_event(std::string_view type, std::string_view rest_json) {
  std::string data = R"({"type":")" + std::string(type) + "\"";
  if (!rest_json.empty()) data += "," + std::string(rest_json);
  data += "}";
  return "event: " + std::string(type) + "\ndata: " + data + "\n\n";
}

inline std::string responses_created() {
  return responses_event("response.created",
                         R"("sequence_number":0,"response":{"id":"resp_1","object":"response","status":"in_progress",)"
                         R"("output":[]})");
}

inline std::string text_delta(std::string_view text) {
  return responses_event(
      "response.output_text.delta",
      R"("item_id":"msg_1","output_index":1,"content_index":0,"delta":")" + std::string(text) + "\"");
}

inline std::string summary_delta(std::string_view item, int index, std::string_view text) {
  return responses_event("response.reasoning_summary_text.delta",
                         R"("item_id":")" + std::string(item) + R"(","output_index":0,"summary_index":)" +
                             std::to_string(index) + R"(,"delta":")" + std::string(text) + "\"");
}

inline std::string item_added(std::string_view item_json) {
  return responses_event("response.output_item.added", R"("output_index":0,"item":)" + std::string(item_json));
}

inline std::string item_done(std::string_view item_json) {
  return responses_event("response.output_item.done", R"("output_index":0,"item":)" + std::string(item_json));
}

inline std::string responses_completed(std::string_view usage_json = R"({"input_tokens":10,"output_tokens":2})") {
  return responses_event("response.completed",
                         R"("response":{"id":"resp_1","object":"response","status":"completed","output":[],"usage":)" +
                             std::string(usage_json) + "}");
}

}  // namespace parley::llm::responses_events
