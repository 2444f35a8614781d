#include "parley/core/file_text.hpp"

#include <fstream>
#include <iterator>
#include <system_error>

namespace parley {

result<std::string> read_regular_file(const std::filesystem::path& file, errc code, std::size_t max_bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(file, ec);
  const std::string name = file.string();
  if (status.type() == fs::file_type::not_found) return make_error(code, name + ": no such file");
  if (ec) return make_error(code, name + ": " + ec.message());
  if (status.type() == fs::file_type::directory) return make_error(code, name + ": is a directory, not a file");
  if (status.type() != fs::file_type::regular) {
    return make_error(code, name + ": is not a regular file (a FIFO, socket or device), so it is not read");
  }
  const auto size = fs::file_size(file, ec);
  if (ec) return make_error(code, name + ": " + ec.message());
  if (size > max_bytes) {
    return make_error(code,
                      name + ": is " + std::to_string(size) + " bytes, over the limit of " + std::to_string(max_bytes));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) return make_error(code, name + ": cannot open it for reading");
  std::string text;
  text.resize(static_cast<std::size_t>(size));
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  // A file that grew since the stat is read up to the size it had; one that shrank ends early.
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad()) return make_error(code, name + ": read failed");
  return text;
}

}  // namespace parley
