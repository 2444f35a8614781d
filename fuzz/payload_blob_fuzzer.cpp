// The log's payload blobs (store/sqlite/payload_codec.hpp). Any bytes given to the decoder are
// JSON text or an error naming the damage, never a crash, a hang or a huge allocation; any text
// the encoder compresses decodes back to itself. An input is used both ways.
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "parley/store/sqlite/payload_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace parley;
  const std::string_view input = fuzz::as_text(data, size);
  auto decoded = sqlite::decode_payload_blob(input);
  if (decoded) FUZZ_CHECK(decoded->size() <= sqlite::kPayloadMaxDecodedBytes, "a decoded blob is too large");
  if (!decoded) FUZZ_CHECK(!decoded.err().message.empty(), "an error without a message");

  std::string blob;
  auto made = sqlite::encode_payload_blob(input, blob);
  FUZZ_CHECK(made.has_value(), made.err().message);
  if (*made) {
    FUZZ_CHECK(blob.size() < input.size(), "a blob that did not shrink was kept");
    auto back = sqlite::decode_payload_blob(blob);
    FUZZ_CHECK(back && *back == input, "a blob that does not decode to its text");
  }
  return 0;
}
