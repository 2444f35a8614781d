// Events of a dialog's conversation: input, the model's generations, tool results and the
// context-health measurements made of them.
// Field names in `fields` are wire names (seed 001 camelCase): once shipped they never change.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/model/events/enums.hpp"

namespace parley::events {

// A Tellask to a subdialog comes with its tellasker (seed 001 `assignmentFromSup`): replies route
// to that caller.
struct assignment {
  std::string caller_id;
  std::string caller_member_id;
  std::string call_id;
  call_kind call_name = call_kind::tellask;
  std::string session_slug;
  std::string tellask_content;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("callerId", s.caller_id);
    v.required("callerMemberId", s.caller_member_id);
    v.required("callId", s.call_id);
    v.required("callName", s.call_name);
    v.defaulted("sessionSlug", s.session_slug, "");  // since schema version 17: most calls name none
    v.required("tellaskContent", s.tellask_content);
  }
  bool operator==(const assignment&) const = default;
};

// An uploaded image or audio clip sent with a message (seed 002 multimodal).
struct attachment {
  std::string upload_id;
  std::string url;
  attachment_kind kind = attachment_kind::image;
  std::string mime;
  std::string format;
  std::int64_t size_kb = 0;
  std::optional<std::string> caption;
  std::optional<std::string> transcription;
  std::optional<std::string> described_by;    // the member who wrote the caption or transcription
  std::optional<std::string> describe_error;  // why the team's describer wrote none

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("uploadId", s.upload_id);
    v.required("url", s.url);
    v.required("kind", s.kind);
    v.required("mime", s.mime);
    v.required("format", s.format);
    v.required("sizeKb", s.size_kb);
    v.optional("caption", s.caption);
    v.optional("transcription", s.transcription);
    v.optional("describedBy", s.described_by);
    v.optional("describeError", s.describe_error);
  }
  bool operator==(const attachment&) const = default;
};

struct user_message {
  static constexpr std::string_view kType = "user_message";
  std::int64_t course = 0;
  std::string content;
  std::string msg_id;
  message_origin origin = message_origin::user;
  std::optional<assignment> assigned;
  std::string from;  // the user who wrote it
  // In a group: the member who answers it, "" when nobody does; absent outside groups.
  std::optional<std::string> responder;
  std::optional<events::attachment> media;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("content", s.content);
    v.required("msgId", s.msg_id);
    v.required("origin", s.origin);
    v.optional("assignment", s.assigned);
    v.defaulted("from", s.from, "");
    v.optional("responder", s.responder);
    v.optional("attachment", s.media);
  }
  bool operator==(const user_message&) const = default;
};

struct generation_started {
  static constexpr std::string_view kType = "generation_started";
  std::int64_t course = 0;
  std::int64_t genseq = 0;
  std::int64_t round = 0;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("genseq", s.genseq);
    v.required("round", s.round);
  }
  bool operator==(const generation_started&) const = default;
};

struct tool_call_record {
  std::string id;
  std::string name;
  std::string arguments;  // JSON text, as the model wrote it

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("id", s.id);
    v.required("name", s.name);
    v.required("arguments", s.arguments);
  }
  bool operator==(const tool_call_record&) const = default;
};

struct token_usage {
  std::int64_t input_tokens = 0;
  std::int64_t output_tokens = 0;
  std::int64_t cached_tokens = 0;
  std::int64_t reasoning_tokens = 0;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("inputTokens", s.input_tokens);
    v.required("outputTokens", s.output_tokens);
    v.defaulted("cachedTokens", s.cached_tokens, 0);
    v.defaulted("reasoningTokens", s.reasoning_tokens, 0);
  }
  bool operator==(const token_usage&) const = default;
};

struct generation_finished {
  static constexpr std::string_view kType = "generation_finished";
  std::int64_t course = 0;
  std::int64_t genseq = 0;
  std::string thinking;
  std::string saying;
  std::vector<tool_call_record> tool_calls;
  std::string finish_reason;
  // Absent in a generation closed by recovery after a crash, and in logs written before calls
  // recorded their model.
  std::optional<std::string> model;
  std::optional<std::string> member_id;  // in a group: who generated it
  token_usage usage;
  bool interrupted = false;
  bool input_arrived = false;  // input came while it ran: the saying was written without it
  // Why an interrupted generation was stopped ("stopped by u1", "stop all: …", "server shutting
  // down"); absent when it was not interrupted, and in logs written before stops had reasons.
  std::optional<std::string> stop_reason;
  // The version of the prompt the model was given (a prompt_logged event holds its text); absent
  // in logs written before prompts had versions.
  std::optional<std::string> prompt_version;
  // The provider's opaque proof of `thinking` (Anthropic's signature, the Responses API's reasoning
  // items with their encrypted content), sent back with the thinking on the dialog's next request.
  // Last, so the positional initialisations written before it stay valid.
  std::string thinking_signature;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("genseq", s.genseq);
    // Defaulted since schema version 17 (docs/events.md, "Fields at their default"): a generation
    // that only calls tools says nothing, and few think or are interrupted. Older logs write them.
    v.defaulted("thinking", s.thinking, "");
    v.defaulted("saying", s.saying, "");
    v.defaulted("toolCalls", s.tool_calls, {});
    v.required("finishReason", s.finish_reason);
    v.optional("model", s.model);
    v.optional("memberId", s.member_id);
    v.required("usage", s.usage);
    v.defaulted("interrupted", s.interrupted, false);
    v.defaulted("inputArrived", s.input_arrived, false);
    v.optional("stopReason", s.stop_reason);
    v.optional("promptVersion", s.prompt_version);
    v.defaulted("thinkingSignature", s.thinking_signature, "");
  }
  bool operator==(const generation_finished&) const = default;
};

// Seed 002's ActivePromptLog: the system prompt and tool list a member's model was given, logged
// when a dialog's prompt first takes this version (the same version is not logged again until the
// prompt changes). The messages of the context are the dialog's own events, so this and the log
// reproduce every prompt sent.
struct prompt_logged {
  static constexpr std::string_view kType = "prompt_logged";
  std::int64_t course = 0;
  std::string version;  // "pv-" and 16 hex digits of SHA-256 over the system prompt and tool specs
  std::string system_prompt;
  std::vector<std::string> tools;  // the names of the tools offered, in order
  std::string model;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("version", s.version);
    v.required("systemPrompt", s.system_prompt);
    v.required("tools", s.tools);
    v.required("model", s.model);
  }
  bool operator==(const prompt_logged&) const = default;
};

// What a long generation has streamed so far; a generation cut by a crash is closed with the last
// of these as its (interrupted) output.
struct generation_progress {
  static constexpr std::string_view kType = "generation_progress";
  std::int64_t course = 0;
  std::int64_t genseq = 0;
  std::string thinking;
  std::string saying;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("genseq", s.genseq);
    v.required("thinking", s.thinking);
    v.required("saying", s.saying);
  }
  bool operator==(const generation_progress&) const = default;
};

// The provider's connection broke mid-stream and the call starts again: what this generation
// streamed so far (and any generation_progress of it) is void.
struct generation_discarded {
  static constexpr std::string_view kType = "generation_discarded";
  std::int64_t course = 0;
  std::int64_t genseq = 0;
  std::string reason;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("genseq", s.genseq);
    v.required("reason", s.reason);
  }
  bool operator==(const generation_discarded&) const = default;
};

// An image a tool read for a model that takes images (read_file of a PNG or JPEG), inline.
struct tool_image {
  std::string mime;
  std::string format;
  std::string data;  // base64

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("mime", s.mime);
    v.required("format", s.format);
    v.required("data", s.data);
  }
  bool operator==(const tool_image&) const = default;
};

// The MCP call behind a tool result (issue 39): the server's id as configured, its own name for the
// tool (the team's may differ after the configured transforms), and how long the call took. The
// arguments are the tool call's; the result or the error is the tool result's content. Nothing of
// the transport (HTTP headers, environment values) is kept. A call cut off by a restart has no
// duration.
struct mcp_call {
  std::string server;
  std::string tool;
  std::optional<std::int64_t> duration_ms;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("server", s.server);
    v.required("tool", s.tool);
    v.optional("durationMs", s.duration_ms);
  }
  bool operator==(const mcp_call&) const = default;
};

struct tool_result {
  static constexpr std::string_view kType = "tool_result";
  std::int64_t course = 0;
  std::int64_t genseq = 0;
  std::string call_id;
  std::string name;
  bool ok = true;
  std::string content;
  // Kept with the result so that every later model call of the dialog is sent it too (the
  // request is rebuilt from the log each round).
  std::optional<tool_image> image;
  // A call of an MCP server's tool: which server and tool, and the call's duration.
  std::optional<mcp_call> mcp;
  // Not the tool's answer: the process died while the call ran (or before it began), and the tool
  // is one whose calls are not run again (tools::tool::rerun_after_crash), so recovery recorded
  // this failed result instead; the content tells the model to check before repeating the call.
  bool interrupted = false;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("genseq", s.genseq);
    v.required("callId", s.call_id);
    v.required("name", s.name);
    v.defaulted("ok", s.ok, true);  // since schema version 17: a failure is the rarer case
    v.required("content", s.content);
    v.optional("image", s.image);
    v.optional("mcp", s.mcp);
    v.defaulted("interrupted", s.interrupted, false);  // written only by recovery
  }
  bool operator==(const tool_result&) const = default;
};

// The prompt of a generation measured against the model's context window; recorded when the
// level is not healthy or changes. A course that stays critical is ended by the runtime.
struct context_health {
  static constexpr std::string_view kType = "context_health";
  std::int64_t course = 0;
  std::int64_t genseq = 0;
  health_level level = health_level::healthy;
  std::int64_t prompt_tokens = 0;
  std::int64_t context_window = 0;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("course", s.course);
    v.required("genseq", s.genseq);
    v.required("level", s.level);
    v.required("promptTokens", s.prompt_tokens);
    v.required("contextWindow", s.context_window);
  }
  bool operator==(const context_health&) const = default;
};

}  // namespace parley::events
