// A YAML flow agent's folder (flow/yaml_agent.hpp, docs/flows.md): an input is the main agent's
// `FuzzAgent.yaml`, then any number of files, each after a line `### <relative path>` (a prompt
// `prompt/<phase>_system_prompt.md`, a sub-thread agent `<phase>/<Name>Agent.yaml`). Paths that
// are not plain relative names of letters, digits, `_`, `-`, `.` and `/` are skipped.
//  - Nothing throws (yaml-cpp does; the loader must catch it).
//  - A refusal is errc::config_error, in UTF-8 when the input is, naming the folder it was about.
//  - A loaded flow has a name.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "parley/core/utf8.hpp"
#include "parley/flow/yaml_agent.hpp"

namespace {

using namespace parley;
using parley::fuzz::as_text;

constexpr std::string_view kFileMark = "\n### ";

bool is_plain_relative_path(std::string_view path) {
  if (path.empty() || path.size() > 200 || path.front() == '/' || path.find("..") != std::string_view::npos) {
    return false;
  }
  for (const char c : path) {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                         c == '-' || c == '.' || c == '/';
    if (!allowed) return false;
  }
  return true;
}

// Writes `text` to `file`, or skips it when an earlier part took the path (a file where a folder is
// wanted): the input, not the loader, made that conflict.
void write_part(const std::filesystem::path& file, std::string_view text) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  if (ec || std::filesystem::is_directory(file, ec)) return;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = as_text(data, size);
  fuzz::temp_dir folder("parley-fuzz-flow");
  const auto parts = fuzz::split_parts(input, kFileMark);
  fuzz::write_file(folder.path() / "FuzzAgent.yaml", parts.front());
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string_view part = parts[i];
    const std::size_t line_end = part.find('\n');
    const std::string_view path = part.substr(0, line_end);
    if (!is_plain_relative_path(path)) continue;
    write_part(folder.path() / std::string(path),
               line_end == std::string_view::npos ? std::string_view() : part.substr(line_end + 1));
  }
  try {
    auto loaded = flow::yaml_flow::load(folder.path());
    if (!loaded) {
      FUZZ_CHECK(loaded.err().code == errc::config_error, "refused with another code: " + loaded.err().message);
      if (is_valid_utf8(input)) FUZZ_CHECK(is_valid_utf8(loaded.err().message), "a message that is not UTF-8");
      FUZZ_CHECK(loaded.err().message.find(folder.path().string()) != std::string::npos,
                 "a refusal that names no file: " + loaded.err().message);
      return 0;
    }
    FUZZ_CHECK(!loaded->agent_name().empty(), "a loaded flow without a name");
  } catch (const std::exception& thrown) {
    FUZZ_CHECK(false, std::string("the loader threw: ") + thrown.what());
  }
  return 0;
}
