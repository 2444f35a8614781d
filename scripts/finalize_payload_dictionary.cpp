// Adds zstd's entropy tables to the log's payload dictionary (scripts/make_payload_dictionary.py
// builds and runs this). With the tables in the dictionary a small payload needs no tables of its
// own: on a fanout-3 task's payloads the blobs are ~14 % smaller and a frame costs about half the
// instructions (docs/store.md "The log's payloads, compressed").
//
// usage: finalize_payload_dictionary CONTENT SAMPLES OUT
//   CONTENT  the dictionary's content (raw bytes)
//   SAMPLES  one sample payload per line (the product's own events, tests/data/events-v1.jsonl)
//   OUT      the finished dictionary
#include <zdict.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s CONTENT SAMPLES OUT\n", argv[0]);
    return 2;
  }
  std::ifstream content_file(argv[1], std::ios::binary);
  const std::string content((std::istreambuf_iterator<char>(content_file)), std::istreambuf_iterator<char>());
  std::ifstream samples_file(argv[2], std::ios::binary);
  std::string samples;
  std::vector<size_t> sizes;
  for (std::string line; std::getline(samples_file, line);) {
    samples += line;
    sizes.push_back(line.size());
  }
  std::vector<char> out(content.size() + 65536);
  ZDICT_params_t params{};
  params.compressionLevel = 3;  // payload_codec.cpp's level
  params.dictID = 0x50524c31;   // fixed, so the output depends on the inputs alone ("PRL1")
  const size_t size = ZDICT_finalizeDictionary(out.data(), out.size(), content.data(), content.size(), samples.data(),
                                               sizes.data(), static_cast<unsigned>(sizes.size()), params);
  if (ZDICT_isError(size) != 0U) {
    std::fprintf(stderr, "finalize_payload_dictionary: %s\n", ZDICT_getErrorName(size));
    return 1;
  }
  std::ofstream(argv[3], std::ios::binary).write(out.data(), static_cast<std::streamsize>(size));
  return 0;
}
