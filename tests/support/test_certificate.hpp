// A throwaway self-signed certificate, made with OpenSSL at test time, so TLS can be tested
// against the fake server without checked-in keys.
#pragma once

#include <filesystem>
#include <string>

namespace parley::testing {

struct test_certificate {
  std::string cert_pem;
  std::string key_pem;
};

// Valid for an hour either side of now; `subject_alt_names` in OpenSSL syntax,
// e.g. "DNS:localhost,IP:127.0.0.1". It is its own CA, so trusting cert_pem trusts it.
test_certificate make_test_certificate(const std::string& subject_alt_names);

// Writes `text` to a fresh file under the temp directory and returns its path.
std::filesystem::path write_temp_file(const std::string& stem, const std::string& text);

}  // namespace parley::testing
