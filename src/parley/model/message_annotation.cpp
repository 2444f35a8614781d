#include "parley/model/message_annotation.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <utility>

#include "parley/model/embedding_vector.hpp"

namespace parley {
namespace {

boost::json::array strings(const std::vector<std::string>& values) {
  boost::json::array out;
  for (const auto& v : values) out.emplace_back(v);
  return out;
}

// Seed 002's MultiModalInputParser steps, in the message's metadata beside the analysis.
boost::json::array steps_json(const std::vector<events::analysis_step>& steps) {
  boost::json::array out;
  for (const auto& step : steps) {
    boost::json::object one{
        {"parser", step.parser}, {"medium", step.medium}, {"kind", step.kind}, {"status", step.status}};
    for (const auto& [key, value] : {std::pair<const char*, const std::string*>{"member", &step.member},
                                     {"model", &step.model},
                                     {"output", &step.output},
                                     {"error", &step.error},
                                     {"language", &step.language}}) {
      if (!value->empty()) one[key] = *value;
    }
    out.emplace_back(std::move(one));
  }
  return out;
}

}  // namespace

record_message_annotation annotation_of(const events::record_message_analyzed& analyzed) {
  record_message_annotation out;
  out.message_id = analyzed.message_id;
  boost::json::object analysis{{"analyst", analyzed.analyst}, {"attempts", analyzed.attempts}};
  boost::json::object patch;
  if (analyzed.error.empty()) {
    analysis["status"] = "ok";
    patch["intent_tags"] = strings(analyzed.intent_tags);
    patch["emotion"] = analyzed.emotion;
    patch["topic_tags"] = strings(analyzed.topic_tags);
  } else {
    // A failed analysis leaves tags an earlier analysis gave; it says why it failed.
    analysis["status"] = "failed";
    analysis["error"] = analyzed.error;
  }
  patch["analysis"] = std::move(analysis);
  if (!analyzed.steps.empty()) patch["analysis_steps"] = steps_json(analyzed.steps);
  out.metadata_patch = boost::json::serialize(patch);
  return out;
}

record_message_annotation annotation_of(const events::record_message_embedded& embedded) {
  record_message_annotation out;
  out.message_id = embedded.message_id;
  boost::json::object embedding{{"model", embedded.model}, {"dimensions", embedded.dimensions}};
  std::string error = embedded.error;
  if (error.empty()) {
    auto floats = floats_of_base64(embedded.vector, embedded.dimensions);
    if (floats) {
      out.model = embedded.model;
      out.dimensions = embedded.dimensions;
      out.vector = float32_bytes(*floats);
    } else {
      error = floats.err().message;
    }
  }
  embedding["status"] = error.empty() ? "ok" : "failed";
  if (!error.empty()) embedding["error"] = error;
  out.metadata_patch = boost::json::serialize(boost::json::object{{"embedding", std::move(embedding)}});
  return out;
}

}  // namespace parley
