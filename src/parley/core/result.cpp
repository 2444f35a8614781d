#include "parley/core/result.hpp"

namespace parley {

const char* errc_name(errc code) noexcept {
  switch (code) {
    case errc::invalid_argument:
      return "invalid_argument";
    case errc::not_found:
      return "not_found";
    case errc::conflict:
      return "conflict";
    case errc::limit_exceeded:
      return "limit_exceeded";
    case errc::config_error:
      return "config_error";
    case errc::io_error:
      return "io_error";
    case errc::corrupt:
      return "corrupt";
    case errc::provider_error:
      return "provider_error";
    case errc::cancelled:
      return "cancelled";
    case errc::internal:
      return "internal";
    case errc::storage_full:
      return "storage_full";
    case errc::unavailable:
      return "unavailable";
  }
  return "internal";
}

}  // namespace parley
