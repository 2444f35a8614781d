#include "parley/store/sqlite/trigram_text.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <memory>

#include "parley/core/guarded.hpp"

namespace parley::sqlite {
namespace {

// The length of the first character of UTF-8 the tokenizer wrote (always well formed).
std::size_t written_character(std::string_view token) {
  const auto lead = static_cast<unsigned char>(token.front());
  const std::size_t length = lead < 0x80U ? 1 : lead < 0xE0U ? 2 : lead < 0xF0U ? 3 : 4;
  return length < token.size() ? length : token.size();
}

// The connection's trigram tokenizer (FTS5's, with the defaults `tokenize = 'trigram'` has),
// made on first use and deleted with the function that holds it.
class trigram_folder {
 public:
  trigram_folder() = default;
  trigram_folder(const trigram_folder&) = delete;
  trigram_folder& operator=(const trigram_folder&) = delete;
  ~trigram_folder() {
    if (instance_ != nullptr) api_.xDelete(instance_);
  }

  // `text` case-folded as the tokenizer folds it. Each character starts one trigram of the text
  // with two spaces after it, and a trigram's first character is that character folded.
  int fold(sqlite3* db, std::string_view text, std::string& out) {
    if (const int rc = ready(db); rc != SQLITE_OK) return rc;
    std::string padded = indexed_text_of(text);
    padded += "  ";
    out.clear();
    out.reserve(text.size());
    return api_.xTokenize(instance_, &out, FTS5_TOKENIZE_DOCUMENT, padded.data(), static_cast<int>(padded.size()),
                          &trigram_folder::on_token);
  }

 private:
  static int on_token(void* context, int /*flags*/, const char* token, int size, int /*start*/, int /*end*/) {
    if (size <= 0) return SQLITE_OK;
    auto& out = *static_cast<std::string*>(context);
    const std::string_view trigram(token, static_cast<std::size_t>(size));
    out.append(trigram.substr(0, written_character(trigram)));
    return SQLITE_OK;
  }

  int ready(sqlite3* db) {
    if (instance_ != nullptr) return SQLITE_OK;
    fts5_api* fts5 = nullptr;
    sqlite3_stmt* raw = nullptr;
    if (const int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &raw, nullptr); rc != SQLITE_OK) return rc;
    const std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> stmt(raw, &sqlite3_finalize);
    sqlite3_bind_pointer(raw, 1, static_cast<void*>(&fts5), "fts5_api_ptr", nullptr);
    (void)sqlite3_step(raw);
    if (fts5 == nullptr) return SQLITE_ERROR;
    void* context = nullptr;
    if (const int rc = fts5->xFindTokenizer(fts5, "trigram", &context, &api_); rc != SQLITE_OK) return rc;
    return api_.xCreate(context, nullptr, 0, &instance_);
  }

  fts5_tokenizer api_{};
  Fts5Tokenizer* instance_ = nullptr;
};

std::string_view text_argument(sqlite3_value* value) {
  const auto* bytes = reinterpret_cast<const char*>(sqlite3_value_text(value));
  return bytes == nullptr ? std::string_view{} : std::string_view(bytes, sqlite3_value_bytes(value));
}

void fold_function(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  auto& folder = *static_cast<trigram_folder*>(sqlite3_user_data(ctx));
  std::string folded;
  if (const int rc = folder.fold(sqlite3_context_db_handle(ctx), text_argument(argv[0]), folded); rc != SQLITE_OK) {
    return sqlite3_result_error_code(ctx, rc);
  }
  sqlite3_result_text64(ctx, folded.data(), folded.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

void indexed_text_function(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  const std::string text = indexed_text_of(text_argument(argv[0]));
  sqlite3_result_text64(ctx, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

void match_function(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return sqlite3_result_null(ctx);
  const std::string match = trigram_match_of(text_argument(argv[0]));
  sqlite3_result_text64(ctx, match.data(), match.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

// An in-memory connection of the process's own and its tokenizer, for trigram_fold.
class process_folder {
 public:
  process_folder() {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY | SQLITE_OPEN_NOMUTEX, nullptr) ==
        SQLITE_OK) {
      db_.reset(db);
    } else {
      sqlite3_close(db);
    }
  }

  result<std::string> fold(std::string_view text) {
    parley::lock_guard lock(mutex_);
    std::string out;
    const int rc = db_ ? folder_.fold(db_.get(), text, out) : SQLITE_CANTOPEN;
    if (rc != SQLITE_OK) {
      return make_error(errc::internal,
                        std::string("folding text as the trigram tokenizer does: ") + sqlite3_errstr(rc));
    }
    return out;
  }

 private:
  struct close_db {
    void operator()(sqlite3* db) const noexcept { sqlite3_close(db); }
  };
  parley::mutex mutex_;
  std::unique_ptr<sqlite3, close_db> db_;  // declared first: outlives the tokenizer made on it
  trigram_folder folder_ PARLEY_GUARDED_BY(mutex_);
};

}  // namespace

result<std::string> trigram_fold(std::string_view text) {
  static process_folder folder;
  return folder.fold(text);
}

std::string trigram_match_of(std::string_view text) {
  std::vector<std::size_t> starts;
  for (std::size_t at = 0; at < text.size(); at += trigram_character_at(text, at)) starts.push_back(at);
  starts.push_back(text.size());
  // Trigrams that cover the text without overlap (at 0, 3, 6, … and the last one): a third of the
  // index's lists to read, and the exact test decides between the candidates anyway.
  const std::size_t characters = starts.size() - 1;
  std::vector<std::size_t> firsts;
  for (std::size_t i = 0; i + 3 <= characters; i += 3) firsts.push_back(i);
  if (characters >= 3 && firsts.back() != characters - 3) firsts.push_back(characters - 3);
  std::string match;
  for (const std::size_t i : firsts) {
    if (!match.empty()) match += " AND ";
    match += '"';
    for (const char c : text.substr(starts[i], starts[i + 3] - starts[i])) {
      match += c;
      if (c == '"') match += '"';
    }
    match += '"';
  }
  return match;
}

int register_trigram_functions(sqlite3* db) noexcept {
  constexpr int kFlags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  auto folder = std::make_unique<trigram_folder>();
  // SQLite owns the folder from here, and deletes it even when registering fails.
  const int rc = sqlite3_create_function_v2(
      db, "parley_trigram_fold", 1, kFlags, folder.release(), &fold_function, nullptr, nullptr,
      [](void* held) { std::unique_ptr<trigram_folder>(static_cast<trigram_folder*>(held)).reset(); });
  if (rc != SQLITE_OK) return rc;
  if (const int registered = sqlite3_create_function_v2(db, "parley_indexed_text", 1, kFlags, nullptr,
                                                        &indexed_text_function, nullptr, nullptr, nullptr);
      registered != SQLITE_OK) {
    return registered;
  }
  return sqlite3_create_function_v2(db, "parley_trigram_match", 1, kFlags, nullptr, &match_function, nullptr, nullptr,
                                    nullptr);
}

}  // namespace parley::sqlite
