#include "parley/tools/file_io.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "parley/core/ids.hpp"

namespace parley::tools {
namespace {

namespace fs = std::filesystem;

error io_failure(std::string_view what) {
  return make_error(errc::io_error, std::string(what) + ": " + std::strerror(errno));
}

}  // namespace

result<file_text> read_file_prefix(const fs::path& file, std::uintmax_t max_bytes) {
  std::error_code ec;
  file_text out;
  out.size = fs::file_size(file, ec);
  if (ec) return make_error(errc::io_error, "cannot read it: " + ec.message());
  std::ifstream in(file, std::ios::binary);
  if (!in) return io_failure("cannot open it");
  out.bytes.resize(static_cast<std::size_t>(std::min(out.size, max_bytes)));
  in.read(out.bytes.data(), static_cast<std::streamsize>(out.bytes.size()));
  // The file may have shrunk since file_size: keep what was there.
  out.bytes.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad()) return io_failure("cannot read it");
  return out;
}

result<void> write_file_atomically(const fs::path& file, std::string_view content) {
  const fs::path temp = file.parent_path() / ("." + file.filename().string() + ".parley-" + new_uuid() + ".tmp");
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return io_failure("cannot create a temporary file beside it");
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
      const error failure = io_failure("cannot write it");
      std::error_code ignored;
      fs::remove(temp, ignored);
      return failure;
    }
  }
  std::error_code ec;
  if (const auto existing = fs::status(file, ec); !ec && fs::exists(existing)) {
    fs::permissions(temp, existing.permissions(), ec);  // best effort: the content matters more
  }
  fs::rename(temp, file, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return make_error(errc::io_error, "cannot replace it: " + ec.message());
  }
  return ok();
}

}  // namespace parley::tools
