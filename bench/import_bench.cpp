// parley-bench import --dialogs N: `parley import --rtws` on a generated Dominds 1.29 `.dialogs/`
// folder of N dialogs (issue 46, Benchmark). The folder is written in a temp dir in Dominds' shape
// (tests/data/dominds-dialogs/README.md says where each file's shape comes from): three of every four
// dialogs are roots with one course of a human message, a generation that calls a tool, its result
// and a final generation; every fourth is a side dialog of the root before it. It is imported into a
// fresh durable (SQLite) store; the figures are dialogs per second of the import and the process's
// peak RSS (getrusage ru_maxrss), which must not grow with N. The SQLite writer keeps up to
// `--cached-dialogs` dialogs (default the store's 4096) in memory: that bounded cache, not the
// import, is what a run below that many dialogs has not filled yet.
#include <sys/resource.h>

#include <boost/json/object.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "bench_verbs.hpp"
#include "parley/rtws/dominds_import.hpp"
#include "parley/store/bulk_load.hpp"
#include "parley/store/store.hpp"

namespace parley::bench {

namespace {

namespace fs = std::filesystem;

std::string import_bench_id(int n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02x/%02x/%08x", n & 0xff, (n >> 8) & 0xff, 0x67500000 + n);
  return buf;
}

void write_import_bench_file(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
}

// One dialog folder: dialog.yaml, latest.yaml, reminders.json, course-001.jsonl (and its asker).
void write_import_bench_dialog(const fs::path& folder, const std::string& id, const std::string& asker) {
  fs::create_directories(folder);
  write_import_bench_file(folder / "dialog.yaml",
                          "id: " + id + "\nagentId: " + (asker.empty() ? "alice" : "bob") +
                              "\ntaskDocPath: tasks/bench.tsk\ncreatedAt: 2026-11-02T09:15:00Z\n");
  write_import_bench_file(folder / "latest.yaml",
                          "currentCourse: 1\nlastModified: 2026-11-02T09:16:00Z\nstatus: active\n");
  write_import_bench_file(folder / "reminders.json",
                          R"({"reminders":[{"id":"r1","content":"Keep the tests green.","createdAt":)"
                          R"("2026-11-02T09:15:00Z","priority":"medium"}],"updatedAt":"2026-11-02T09:15:00Z"})");
  if (!asker.empty()) {
    write_import_bench_file(folder / "asker-stack.jsonl",
                            R"({"kind":"asker_dialog_stack_frame","askerDialogId":")" + asker + "\"}\n");
  }
  write_import_bench_file(
      folder / "course-001.jsonl",
      R"({"ts":"2026-11-02T09:15:01Z","type":"human_text_record","genseq":1,"content":"Summarise src/app.ts.","msgId":"m-)" +
          id + R"(","grammar":"markdown","origin":"user"}
{"ts":"2026-11-02T09:15:02Z","type":"gen_start_record","genseq":1}
{"ts":"2026-11-02T09:15:03Z","type":"agent_words_record","genseq":1,"content":"Reading it."}
{"ts":"2026-11-02T09:15:04Z","type":"func_call_record","genseq":1,"id":"c1","name":"read_file","rawArgumentsText":"{\"path\":\"src/app.ts\"}"}
{"ts":"2026-11-02T09:15:05Z","type":"func_result_record","id":"c1","name":"read_file","content":"export function main() { return 42; }","genseq":1}
{"ts":"2026-11-02T09:15:06Z","type":"gen_finish_record","genseq":1,"llmGenModel":"gpt-5"}
{"ts":"2026-11-02T09:15:07Z","type":"gen_start_record","genseq":2}
{"ts":"2026-11-02T09:15:08Z","type":"agent_words_record","genseq":2,"content":"main() returns 42."}
{"ts":"2026-11-02T09:15:09Z","type":"gen_finish_record","genseq":2,"llmGenModel":"gpt-5"}
)");
}

void generate_import_bench_folder(const fs::path& rtws, int dialogs) {
  fs::path root_folder;
  std::string root_id;
  for (int n = 0; n < dialogs; ++n) {
    const std::string id = import_bench_id(n);
    if (n % 4 == 3 && !root_id.empty()) {
      write_import_bench_dialog(root_folder / "sideDialogs" / id, id, root_id);
      continue;
    }
    root_id = id;
    root_folder = rtws / ".dialogs" / "run" / id;
    write_import_bench_dialog(root_folder, id, "");
  }
}

long peak_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

}  // namespace

int run_import_bench(const bench_args& args) {
  const int dialogs = args.int_or("dialogs", 10000);
  if (dialogs < 1) throw std::invalid_argument("--dialogs needs at least 1");
  std::random_device seed;
  const fs::path work = fs::temp_directory_path() / ("parley-bench-import-" + std::to_string(seed()));
  fs::create_directories(work / "store");
  const auto started = std::chrono::steady_clock::now();
  generate_import_bench_folder(work / "rtws", dialogs);
  const double generate_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const long rss_after_generate_kb = peak_rss_kb();
  std::printf("generated %d dialogs in Dominds' layout in %.2f s (%s)\n", dialogs, generate_s, work.c_str());
  std::fflush(stdout);

  // As `parley import` opens its store (store/bulk_load.hpp), unless --serving-caches asks for the
  // caches of a server (4,096 dialogs, a 32 MiB page cache) to compare.
  const bool serving_caches = args.int_or("serving-caches", 0) != 0;
  sqlite_options options = serving_caches ? sqlite_options{} : bulk_load_options();
  if (!serving_caches) use_bulk_load_page_cache();
  options.cached_dialogs = args.int_or("cached-dialogs", static_cast<int>(options.cached_dialogs));
  auto log = open_sqlite_store((work / "store").string(), options);
  if (!log) {
    std::fprintf(stderr, "parley-bench import: %s\n", log.err().message.c_str());
    return 1;
  }
  const auto import_started = std::chrono::steady_clock::now();
  auto imported = rtws::dominds::import_rtws(**log, work / "rtws");
  const double import_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - import_started).count();
  log->reset();
  std::error_code ec;
  fs::remove_all(work, ec);
  if (!imported) {
    std::fprintf(stderr, "parley-bench import: %s\n", imported.err().message.c_str());
    return 1;
  }
  if (imported->dialogs != dialogs || !imported->quarantined.empty()) {
    std::fprintf(stderr, "parley-bench import: imported %lld of %d dialogs, %zu trees quarantined\n",
                 static_cast<long long>(imported->dialogs), dialogs, imported->quarantined.size());
    return 1;
  }
  const double rate = static_cast<double>(imported->dialogs) / import_s;
  std::printf("imported %lld dialogs (%lld events, %lld files) into a SQLite store in %.2f s: %.0f dialogs/s\n",
              static_cast<long long>(imported->dialogs), static_cast<long long>(imported->events),
              static_cast<long long>(imported->files), import_s, rate);
  std::printf("peak RSS %ld kB (%ld kB after generating the folder)\n", peak_rss_kb(), rss_after_generate_kb);
  print_json_line({{"bench", "import"},
                   {"dialogs", imported->dialogs},
                   {"events", imported->events},
                   {"import_seconds", import_s},
                   {"dialogs_per_second", rate},
                   {"peak_rss_kb", peak_rss_kb()},
                   {"store_cached_dialogs", options.cached_dialogs},
                   {"writer_page_cache_kib", writer_page_cache_kib()},
                   {"store", "sqlite"}});
  return 0;
}

}  // namespace parley::bench
