#include "bench_stores.hpp"

#include <algorithm>
#include <cstdio>

namespace parley::bench {
namespace {

const char* const kStoreNames[] = {"memory", "sqlite", "postgresql"};

std::string listed_kinds(std::initializer_list<store_kind> allowed) {
  std::string out;
  for (const store_kind kind : allowed) out += std::string(out.empty() ? "" : ", ") + store_name(kind);
  return out;
}

// One item of the list, or an error naming --store.
result<store_choice> parse_store_item(std::string_view item, std::initializer_list<store_kind> allowed) {
  store_choice choice;
  if (is_postgres_url(item)) {
    choice = {store_kind::postgresql, std::string(item)};
  } else if (const auto* name = std::find(std::begin(kStoreNames), std::end(kStoreNames), item);
             name != std::end(kStoreNames)) {
    choice.kind = static_cast<store_kind>(name - std::begin(kStoreNames));
  } else {
    return make_error(errc::invalid_argument, "--store: '" + std::string(item) + "' is not one of " +
                                                  listed_kinds(allowed) + " or a postgresql:// URL");
  }
  if (std::find(allowed.begin(), allowed.end(), choice.kind) == allowed.end())
    return make_error(errc::invalid_argument, std::string("--store: this bench does not run on ") +
                                                  store_name(choice.kind) + " (it takes " + listed_kinds(allowed) +
                                                  ")");
  return choice;
}

}  // namespace

const char* store_name(store_kind kind) noexcept { return kStoreNames[static_cast<int>(kind)]; }

result<std::vector<store_choice>> parse_store_list(std::string_view text, std::initializer_list<store_kind> allowed) {
  std::vector<store_choice> out;
  while (true) {
    // A URL is the last item: the commas after its scheme are libpq's (host1:port1,host2:port2).
    const auto comma = is_postgres_url(text) ? std::string_view::npos : text.find(',');
    auto choice = parse_store_item(text.substr(0, comma), allowed);
    if (!choice) return std::move(choice).err();
    if (find_choice(out, choice->kind) != nullptr)
      return make_error(errc::invalid_argument,
                        std::string("--store: ") + store_name(choice->kind) + " is listed twice");
    out.push_back(std::move(*choice));
    if (comma == std::string_view::npos) return out;
    text.remove_prefix(comma + 1);
  }
}

const store_choice* find_choice(const std::vector<store_choice>& choices, store_kind kind) noexcept {
  const auto it = std::find_if(choices.begin(), choices.end(), [kind](const auto& c) { return c.kind == kind; });
  return it == choices.end() ? nullptr : &*it;
}

result<std::optional<pg_server>> server_for(const std::vector<store_choice>& choices) {
  const store_choice* postgres = find_choice(choices, store_kind::postgresql);
  if (postgres == nullptr) return std::optional<pg_server>{};
  auto server = pg_server::open(postgres->url);
  if (!server) return std::move(server).err();
  std::printf("postgresql: %s (server CPU: %s)\n", server->redacted_url().c_str(), server->cpu_source().c_str());
  return std::optional<pg_server>(std::move(*server));
}

result<bench_store> open_bench_store(const store_choice& choice, const std::filesystem::path& sqlite_dir,
                                     const sqlite_options& sqlite, pg_server* server) {
  bench_store out;
  switch (choice.kind) {
    case store_kind::memory:
      out.log = make_memory_store();
      return out;
    case store_kind::sqlite: {
      auto opened = open_sqlite_store(sqlite_dir.string(), sqlite);
      if (!opened) return std::move(opened).err();
      out.log = std::move(*opened);
      return out;
    }
    case store_kind::postgresql: {
      if (server == nullptr) return make_error(errc::internal, "a PostgreSQL store without its server");
      auto schema = server->fresh_schema();
      if (!schema) return std::move(schema).err();
      out.schema.emplace(std::move(*schema));
      postgres_options options;
      options.application_name = "parley-bench";
      auto opened = open_postgres_store(out.schema->store_url(), options);
      if (!opened) return std::move(opened).err();
      out.log = std::move(*opened);
      return out;
    }
  }
  return make_error(errc::internal, "an unknown store kind");
}

}  // namespace parley::bench
