# Every dependency comes from Debian packages installed by scripts/setup.sh.
find_package(Threads REQUIRED)
# FindBoost warns that Boost.URL has no header to check; the Boost::url target it makes is fine.
find_package(Boost 1.81 EXACT REQUIRED COMPONENTS json url)
find_package(OpenSSL REQUIRED)
find_package(SQLite3 REQUIRED)
# libpq (libpq-dev): the PostgreSQL store (store/postgres).
find_package(PostgreSQL REQUIRED)
find_package(yaml-cpp REQUIRED)
# zstd (Debian's libzstd-dev) compresses the log's payloads (store/sqlite/payload_codec.hpp).
find_path(PARLEY_ZSTD_INCLUDE_DIR NAMES zstd.h)
find_library(PARLEY_ZSTD_LIBRARY NAMES zstd)
if(NOT PARLEY_ZSTD_INCLUDE_DIR OR NOT PARLEY_ZSTD_LIBRARY)
  message(FATAL_ERROR "zstd not found: run scripts/setup.sh (it installs libzstd-dev)")
endif()
add_library(zstd::libzstd UNKNOWN IMPORTED)
set_target_properties(zstd::libzstd PROPERTIES IMPORTED_LOCATION ${PARLEY_ZSTD_LIBRARY}
                                               INTERFACE_INCLUDE_DIRECTORIES ${PARLEY_ZSTD_INCLUDE_DIR})
if(PARLEY_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(PARLEY_BUILD_BENCH)
  find_package(benchmark QUIET)
endif()
# Asio: coroutines only, no deprecated interfaces (BOOST_ASIO_NO_DEPRECATED is in parley_flags, as
# every file sees Asio through the precompiled header), header-only.
add_library(parley_asio INTERFACE)
target_link_libraries(parley_asio INTERFACE Boost::headers Threads::Threads)

# The programs (parley, parley-bench) allocate with jemalloc. The engine makes many small,
# short-lived JSON values on one thread and the store frees them on another; glibc's malloc spent
# about a quarter of fanout-3's CPU on that (consolidation, arena locks), jemalloc a fraction of it
# (bench/README.md). Libraries and tests keep the system allocator, and sanitizer builds never get
# jemalloc: ASan and TSan bring their own.
option(PARLEY_JEMALLOC "Link the programs with jemalloc (Debian's libjemalloc-dev)" ON)
add_library(parley_program_allocator INTERFACE)
if(PARLEY_JEMALLOC AND NOT PARLEY_SANITIZE)
  find_library(PARLEY_JEMALLOC_LIBRARY NAMES jemalloc)
  if(NOT PARLEY_JEMALLOC_LIBRARY)
    message(FATAL_ERROR "jemalloc not found: run scripts/setup.sh (it installs libjemalloc-dev), "
                        "or configure with -DPARLEY_JEMALLOC=OFF")
  endif()
  target_link_libraries(parley_program_allocator INTERFACE ${PARLEY_JEMALLOC_LIBRARY})
endif()
