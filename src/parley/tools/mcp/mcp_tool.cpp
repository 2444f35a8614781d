#include "parley/tools/mcp/mcp_tool.hpp"

#include <boost/json/serialize.hpp>

#include <array>

#include "parley/core/base64.hpp"

namespace parley::tools::mcp {

namespace {

// The images a model API takes in a tool result (Anthropic and OpenAI both).
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kModelImages = {
    {{"image/png", "png"}, {"image/jpeg", "jpeg"}, {"image/gif", "gif"}, {"image/webp", "webp"}}};

std::string_view image_format(std::string_view mime) {
  for (const auto& [type, format] : kModelImages) {
    if (mime == type) return format;
  }
  return {};
}

// Some servers send images as data URIs; the bytes are what follows the comma.
std::string_view base64_payload(std::string_view data) {
  if (data.starts_with("data:")) {
    const auto comma = data.find(',');
    if (comma != std::string_view::npos) return data.substr(comma + 1);
  }
  return data;
}

std::string approximate_size(std::size_t base64_chars) { return std::to_string(base64_chars / 4 * 3) + " bytes"; }

void append(std::string& out, const std::string& part) {
  if (part.empty()) return;
  if (!out.empty()) out += "\n\n";
  out += part;
}

std::string describe_block(const content_block& block, bool takes_images, bool& image_taken,
                           std::vector<media_part>& media) {
  switch (block.what) {
    case content_block::kind::text:
      return block.text;
    case content_block::kind::image: {
      const auto payload = base64_payload(block.data);
      const auto format = image_format(block.mime_type);
      const std::string what = "[image " + block.mime_type + ", " + approximate_size(payload.size());
      if (!takes_images) return what + ": not shown, as this member's model does not take images]";
      if (format.empty()) return what + ": not shown, as models take only PNG, JPEG, GIF and WebP]";
      if (!base64_decode(payload)) return what + ": not shown, as its data is not valid base64]";
      if (image_taken) return what + ": not shown, as a tool result carries one image]";
      image_taken = true;
      media.push_back(media_part{media_kind::image, block.mime_type, std::string(format), std::string(payload)});
      return {};
    }
    case content_block::kind::audio:
      return "[audio " + block.mime_type + ", " + approximate_size(base64_payload(block.data).size()) +
             ": not shown, as tool results carry no sound]";
    case content_block::kind::resource_link: {
      std::string line = "[resource link: " + block.uri;
      if (!block.name.empty())
        line += " (" + block.name + (block.mime_type.empty() ? "" : ", " + block.mime_type) + ")";
      if (!block.description.empty()) line += " — " + block.description;
      return line + "]";
    }
    case content_block::kind::resource:
      if (block.blob) {
        return "[resource " + block.uri + (block.mime_type.empty() ? "" : " (" + block.mime_type + ")") + ", " +
               approximate_size(block.data.size()) + " of binary data: not shown]";
      }
      return "[resource " + block.uri + (block.mime_type.empty() ? "" : " (" + block.mime_type + ")") + "]\n" +
             block.text;
  }
  return {};
}

}  // namespace

mcp_tool::mcp_tool(std::weak_ptr<server_runtime> server, std::string server_id, std::string remote_name, tool_spec spec)
    : server_(std::move(server)), origin_{std::move(server_id), std::move(remote_name)}, spec_(std::move(spec)) {}

boost::asio::awaitable<tool_outcome> mcp_tool::invoke(const boost::json::object& args, const tool_context& ctx) {
  auto server = server_.lock();
  if (!server) {
    co_return tool_outcome{false, "tool '" + spec_.name + "' is gone: MCP server '" + origin_.server_id +
                                      "' was removed from the configuration; call another tool"};
  }
  call_options options;
  options.cancel = ctx.cancel;
  auto called = co_await server->call_tool(origin_.remote_name, args, std::move(options));
  if (!called) co_return failed_call(called.err(), spec_.name);
  co_return outcome_of(*called, ctx.takes_images);
}

tool_outcome outcome_of(const tool_call_result& result, bool takes_images) {
  tool_outcome out;
  out.ok = !result.is_error;
  bool image_taken = false;
  bool has_text = false;
  for (const auto& block : result.content) {
    if (block.what == content_block::kind::text) has_text = true;
    append(out.content, describe_block(block, takes_images, image_taken, out.media));
  }
  if (!has_text && result.structured_content) append(out.content, boost::json::serialize(*result.structured_content));
  if (out.content.empty() && out.media.empty()) out.content = "(the tool returned no content)";
  return out;
}

tool_outcome failed_call(const error& problem, std::string_view tool_name) {
  std::string advice;
  switch (problem.code) {
    case errc::limit_exceeded:
      advice = problem.message.find("max_result_bytes") != std::string::npos
                   ? "Ask for less at once (a narrower query, a smaller range), or use another tool."
                   : "The tool may still be working on it; try again with less work, or another way.";
      break;
    case errc::unavailable:
      advice = "The server is started again after a short wait; try again later, or do without this tool.";
      break;
    case errc::cancelled:
      advice = "The call was stopped before it finished.";
      break;
    case errc::provider_error:
      advice = "Check the tool's arguments against its description, then try again.";
      break;
    default:
      advice = "The server's answer could not be read; try again, or do without this tool.";
      break;
  }
  return tool_outcome{false, "tool '" + std::string(tool_name) + "' failed: " + problem.message + ". " + advice};
}

}  // namespace parley::tools::mcp
