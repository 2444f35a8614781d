#include "parley/store/sqlite/payload_codec.hpp"

#include <sqlite3.h>
// The magicless format and the advanced dictionary constructors are in zstd's stable-but-static API.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <memory>
#include <string>
#include <string_view>

namespace parley::sqlite {
namespace {

constexpr unsigned char kDictionaryV1[] = {
#include "parley/store/sqlite/payload_dictionary_v1.inc"
};

// Level 3: on the log's payloads it keeps ~48 % of the bytes against ~52 % at level 1 and ~47 %
// at level 6, whose search costs several times the instructions (docs/store.md).
constexpr int kCompressionLevel = 3;

struct cdict_free {
  void operator()(ZSTD_CDict* p) const noexcept { ZSTD_freeCDict(p); }
};
struct ddict_free {
  void operator()(ZSTD_DDict* p) const noexcept { ZSTD_freeDDict(p); }
};
struct cctx_free {
  void operator()(ZSTD_CCtx* p) const noexcept { ZSTD_freeCCtx(p); }
};
struct dctx_free {
  void operator()(ZSTD_DCtx* p) const noexcept { ZSTD_freeDCtx(p); }
};

// Digested once per process: a dictionary's tables cost far more to build than a payload to compress.
const ZSTD_CDict* cdict_v1() {
  static const std::unique_ptr<ZSTD_CDict, cdict_free> dict(
      ZSTD_createCDict_advanced(kDictionaryV1, sizeof kDictionaryV1, ZSTD_dlm_byRef, ZSTD_dct_fullDict,
                                ZSTD_getCParams(kCompressionLevel, 0, sizeof kDictionaryV1), ZSTD_defaultCMem));
  return dict.get();
}

const ZSTD_DDict* ddict_v1() {
  static const std::unique_ptr<ZSTD_DDict, ddict_free> dict(ZSTD_createDDict_advanced(
      kDictionaryV1, sizeof kDictionaryV1, ZSTD_dlm_byRef, ZSTD_dct_fullDict, ZSTD_defaultCMem));
  return dict.get();
}

// One context per thread (the writer, each reader): contexts are not thread-safe, and making one
// per call would cost more than the compression.
ZSTD_CCtx* thread_cctx() {
  thread_local const std::unique_ptr<ZSTD_CCtx, cctx_free> ctx = [] {
    std::unique_ptr<ZSTD_CCtx, cctx_free> made(ZSTD_createCCtx());
    if (made) {
      ZSTD_CCtx_setParameter(made.get(), ZSTD_c_format, ZSTD_f_zstd1_magicless);
      ZSTD_CCtx_setParameter(made.get(), ZSTD_c_checksumFlag, 0);
      ZSTD_CCtx_setParameter(made.get(), ZSTD_c_dictIDFlag, 0);
      ZSTD_CCtx_setParameter(made.get(), ZSTD_c_contentSizeFlag, 1);
    }
    return made;
  }();
  return ctx.get();
}

ZSTD_DCtx* thread_dctx() {
  thread_local const std::unique_ptr<ZSTD_DCtx, dctx_free> ctx = [] {
    std::unique_ptr<ZSTD_DCtx, dctx_free> made(ZSTD_createDCtx());
    if (made) ZSTD_DCtx_setParameter(made.get(), ZSTD_d_format, ZSTD_f_zstd1_magicless);
    return made;
  }();
  return ctx.get();
}

// The last blob encoded or decoded on this thread, with its text. The msgId indexes call
// parley_payload twice on each row they cover as it is written (json_valid, then json_extract,
// each on the same blob), and every flow_thread_saved/appended row is one: the writer encodes the
// blob right before it inserts the row, so both calls are answered here instead of by two
// decompressions (a flow step's writer spent ~10 % of its CPU in them). Same bytes, same text,
// so the answer cannot differ; a large payload is not kept.
struct last_decoded_payload {
  std::string blob;
  std::string text;
};
constexpr std::size_t kLastDecodedPayloadMaxBytes = 64 * 1024;

last_decoded_payload& thread_last_decoded_payload() {
  thread_local last_decoded_payload last;
  return last;
}

void sql_payload_of_blob(sqlite3_context* context, std::string_view blob) {
  auto& last = thread_last_decoded_payload();
  if (!last.blob.empty() && last.blob == blob) {
    sqlite3_result_text64(context, last.text.data(), last.text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    return;
  }
  auto text = decode_payload_blob(blob);
  if (!text) {
    // NULL, not an error: the msgId indexes evaluate this on every change of a row, so an
    // error would leave a damaged row impossible to quarantine or delete (`parley repair`).
    // The C++ readers decode the stored bytes themselves and name the damage.
    sqlite3_result_null(context);
    return;
  }
  sqlite3_result_text64(context, text->data(), text->size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (text->size() > kLastDecodedPayloadMaxBytes) {
    last.blob.clear();  // not kept: the text above is not the one remembered any more
    return;
  }
  last.blob.assign(blob);
  last.text = std::move(*text);
}

void sql_payload(sqlite3_context* context, int /*argc*/, sqlite3_value** argv) {
  sqlite3_value* value = argv[0];
  switch (sqlite3_value_type(value)) {
    case SQLITE_TEXT:
      sqlite3_result_value(context, value);
      return;
    case SQLITE_BLOB: {
      const auto* bytes = static_cast<const char*>(sqlite3_value_blob(value));
      const auto size = static_cast<std::size_t>(sqlite3_value_bytes(value));
      sql_payload_of_blob(context, std::string_view(bytes == nullptr ? "" : bytes, size));
      return;
    }
    case SQLITE_NULL:
      sqlite3_result_null(context);
      return;
    default:
      sqlite3_result_error(context, "parley_payload: a payload is TEXT or BLOB, not a number", -1);
      return;
  }
}

}  // namespace

std::string_view payload_dictionary_v1() noexcept {
  return {reinterpret_cast<const char*>(kDictionaryV1), sizeof kDictionaryV1};
}

result<bool> encode_payload_blob(std::string_view json, std::string& out) {
  out.clear();
  if (json.size() < kPayloadCompressMinBytes) return false;
  ZSTD_CCtx* ctx = thread_cctx();
  const ZSTD_CDict* dict = cdict_v1();
  if (ctx == nullptr || dict == nullptr) return make_error(errc::io_error, "zstd: out of memory for a context");
  out.resize(1 + ZSTD_compressBound(json.size()));
  out[0] = static_cast<char>(kPayloadFormatZstdDict1);
  if (const size_t ref = ZSTD_CCtx_refCDict(ctx, dict); ZSTD_isError(ref) != 0U) {
    return make_error(errc::io_error, std::string("zstd: ") + ZSTD_getErrorName(ref));
  }
  const size_t written = ZSTD_compress2(ctx, out.data() + 1, out.size() - 1, json.data(), json.size());
  if (ZSTD_isError(written) != 0U) {
    return make_error(errc::io_error, std::string("zstd: ") + ZSTD_getErrorName(written));
  }
  if (1 + written >= json.size()) {
    out.clear();
    return false;
  }
  out.resize(1 + written);
  // The row is inserted next on this thread, and the msgId indexes read it back through
  // parley_payload: they find its text here without decompressing it.
  if (json.size() <= kLastDecodedPayloadMaxBytes) {
    auto& last = thread_last_decoded_payload();
    last.blob = out;
    last.text.assign(json);
  }
  return true;
}

result<std::string> decode_payload_blob(std::string_view blob) {
  if (blob.empty()) return make_error(errc::corrupt, "the payload is an empty blob");
  const auto format = static_cast<unsigned char>(blob[0]);
  if (format != kPayloadFormatZstdDict1) {
    return make_error(errc::corrupt, "the payload blob has format byte " + std::to_string(format) +
                                         ", which this binary does not know (it knows 1)");
  }
  const std::string_view frame = blob.substr(1);
  ZSTD_frameHeader header{};
  const size_t header_rc = ZSTD_getFrameHeader_advanced(&header, frame.data(), frame.size(), ZSTD_f_zstd1_magicless);
  if (header_rc != 0) {
    return make_error(errc::corrupt, "the payload blob's zstd frame header is truncated or damaged");
  }
  if (header.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN || header.frameContentSize > kPayloadMaxDecodedBytes) {
    return make_error(errc::corrupt, "the payload blob's zstd frame gives no size or one too large");
  }
  ZSTD_DCtx* ctx = thread_dctx();
  const ZSTD_DDict* dict = ddict_v1();
  if (ctx == nullptr || dict == nullptr) return make_error(errc::io_error, "zstd: out of memory for a context");
  std::string text(static_cast<std::size_t>(header.frameContentSize), '\0');
  if (const size_t ref = ZSTD_DCtx_refDDict(ctx, dict); ZSTD_isError(ref) != 0U) {
    return make_error(errc::io_error, std::string("zstd: ") + ZSTD_getErrorName(ref));
  }
  const size_t read = ZSTD_decompressDCtx(ctx, text.data(), text.size(), frame.data(), frame.size());
  if (ZSTD_isError(read) != 0U) {
    ZSTD_DCtx_reset(ctx, ZSTD_reset_session_only);
    return make_error(errc::corrupt,
                      std::string("the payload blob does not decompress (zstd: ") + ZSTD_getErrorName(read) + ")");
  }
  if (read != text.size()) return make_error(errc::corrupt, "the payload blob is shorter than its header says");
  return text;
}

int register_payload_function(void* db) noexcept {
  // Innocuous: it reads nothing but its argument, so views and indexes may call it whatever
  // trusted_schema says.
  return sqlite3_create_function_v2(static_cast<sqlite3*>(db), "parley_payload", 1,
                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nullptr, sql_payload,
                                    nullptr, nullptr, nullptr);
}

}  // namespace parley::sqlite
