// The log's payloads compressed with a fixed dictionary (schema version 18, docs/store.md "The
// log's payloads, compressed"). A stored payload is either TEXT, the event's JSON as before, or a
// BLOB: one format byte (1 = zstd with dictionary 1) and a magicless zstd frame (no checksum, no
// dictionary id, the content size in its header). Old TEXT rows stay as they are.
//
// Dictionary 1 (payload_dictionary_v1.inc) holds only what the product itself writes: field
// names, enum values, skeleton events and the prompts' fixed texts. It is frozen: every blob with
// format byte 1 needs its exact bytes; a later dictionary takes format byte 2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley::sqlite {

inline constexpr unsigned char kPayloadFormatZstdDict1 = 1;
// Shorter payloads stay TEXT: below this a frame's header and the format byte eat any saving. A
// fanout-3 task's eight `generation_started` payloads (33 bytes each) become 16-byte blobs.
inline constexpr std::size_t kPayloadCompressMinBytes = 16;
// A decoded payload larger than this is refused: no event the product writes comes near it, and a
// damaged header must not make the reader allocate gigabytes.
inline constexpr std::uint64_t kPayloadMaxDecodedBytes = 64ULL << 20;

// Dictionary 1's bytes (their FNV-1a hash is pinned by a test).
std::string_view payload_dictionary_v1() noexcept;

// The blob for `json`, or nothing when it should stay TEXT (too short, or it did not shrink).
// `out` is reused by the caller between calls. Uses this thread's compression context.
result<bool> encode_payload_blob(std::string_view json, std::string& out);

// The JSON text of a stored blob; an error saying what is wrong with it (the caller names the event).
result<std::string> decode_payload_blob(std::string_view blob);

// Registers `parley_payload(x)` on `db` (an sqlite3*): TEXT gives itself, a BLOB its JSON text,
// an unreadable blob NULL (so an index over it never blocks a repair), a number an SQL error. Deterministic, so indexes
// may use it.
int register_payload_function(void* db) noexcept;

}  // namespace parley::sqlite
