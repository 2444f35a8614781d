// write_file and edit_file: both replace the file atomically, so a crash or a concurrent reader
// never sees half a file.
#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/workspace_access.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools::detail {
namespace {

namespace fs = std::filesystem;

// Start offsets of `needle` in `text`, overlapping ones included: "aa" in "aaa" is ambiguous.
std::vector<std::size_t> occurrences(std::string_view text, std::string_view needle) {
  std::vector<std::size_t> found;
  for (auto pos = text.find(needle); pos != std::string_view::npos; pos = text.find(needle, pos + 1)) {
    found.push_back(pos);
  }
  return found;
}

}  // namespace

tool_outcome write_file(const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string shown = in.string("path");
  const std::string content = in.string("content");
  if (!in.ok()) return failed(in.message());
  auto where = resolve_for(ctx, shown, file_access::write, access::path_kind::file);
  if (!where) return failed(where.err().message);
  if (where->relative == ".") return failed(quote_path(shown) + " is the workspace itself; name a file");
  std::error_code ec;
  const auto type = fs::status(where->absolute, ec).type();
  if (type == fs::file_type::directory) return failed(quote_path(shown) + " is a directory");
  const bool existed = type == fs::file_type::regular;

  const fs::path parent = where->absolute.parent_path();
  fs::create_directories(parent, ec);
  if (ec) {
    return failed("cannot create the folder " + quote_path(where->relative.parent_path().string()) + " for " +
                  quote_path(shown) + ": " + ec.message());
  }
  if (auto written = write_file_atomically(where->absolute, content); !written) {
    return failed(quote_path(shown) + ": " + written.err().message);
  }
  return tool_outcome{true, std::string(existed ? "wrote " : "created ") + quote_path(shown) + " (" +
                                std::to_string(content.size()) + " bytes)"};
}

tool_outcome edit_file(const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string shown = in.string("path");
  const std::string old_text = in.string("old_text");
  const std::string new_text = in.string("new_text");
  const std::int64_t occurrence = in.optional_integer("occurrence").value_or(0);  // absent: the only match
  if (!in.ok()) return failed(in.message());
  if (old_text.empty()) return failed("old_text is empty; give the exact text to replace");
  auto file = open_for_edit(ctx, shown);
  if (!file) return failed(file.err().message);
  const auto found = occurrences(file->text, old_text);
  if (found.empty()) {
    return failed("old_text was not found in " + quote_path(shown) +
                  "; read the file and copy the text exactly, including whitespace and line breaks");
  }
  if (occurrence == 0 && found.size() > 1) {
    return failed("old_text occurs " + std::to_string(found.size()) + " times in " + quote_path(shown) +
                  "; include more of the surrounding text so that it matches exactly once, or give occurrence");
  }
  if (occurrence > static_cast<std::int64_t>(found.size())) {
    return failed("occurrence " + std::to_string(occurrence) + " asked, but old_text occurs " +
                  std::to_string(found.size()) + " time" + (found.size() == 1 ? "" : "s") + " in " + quote_path(shown));
  }
  std::string edited = file->text;
  edited.replace(found[occurrence == 0 ? 0 : static_cast<std::size_t>(occurrence - 1)], old_text.size(), new_text);
  return save_edit(
      *file, shown, edited,
      (occurrence == 0 ? "edited " : "edited occurrence " + std::to_string(occurrence) + " in ") + quote_path(shown));
}

}  // namespace parley::tools::detail
