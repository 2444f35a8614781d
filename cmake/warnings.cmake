# Shared compile flags for every parley target: warnings and (optionally) sanitizers.
add_library(parley_flags INTERFACE)
target_compile_options(parley_flags INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                              -Wno-missing-field-initializers)
# Every file sees Boost.Asio through the shared precompiled header (cmake/precompiled_headers.cmake),
# so its configuration is the same everywhere: coroutines only, no deprecated interfaces.
target_compile_definitions(parley_flags INTERFACE BOOST_ASIO_NO_DEPRECATED)
# A precompiled header gcc cannot use is otherwise ignored without a word (and the build is slow).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(parley_flags INTERFACE -Winvalid-pch)
endif()
# clang stamps a precompiled header with its build time, which ccache cannot cache.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  target_compile_options(parley_flags INTERFACE -Xclang -fno-pch-timestamp)
endif()
# Boost.Asio's awaitable frames trip this gcc 12 false positive.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(parley_flags INTERFACE -Wno-mismatched-new-delete -Wno-maybe-uninitialized)
endif()
# Clang checks the locking that core/guarded.hpp annotates (the fuzz preset is the clang build
# that CI runs): touching guarded state without its mutex fails the build.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  target_compile_options(parley_flags INTERFACE -Wthread-safety -Werror=thread-safety-analysis)
endif()
# libFuzzer's coverage instrumentation (fuzzer-no-link in PARLEY_SANITIZE, the debug preset) goes
# only where a fuzz target can reach: the libraries, the programs that share their precompiled
# header, the fuzz targets. The tests' own code does not need it, and it costs: on the HTTP client's
# unit it took the compile from 46 s to 64 s (docs/build.md).
add_library(parley_fuzz_coverage INTERFACE)
set(parley_sanitizers ${PARLEY_SANITIZE})
if(parley_sanitizers MATCHES "fuzzer-no-link")
  string(REPLACE "," ";" parley_sanitizers "${parley_sanitizers}")
  list(REMOVE_ITEM parley_sanitizers fuzzer-no-link)
  list(JOIN parley_sanitizers "," parley_sanitizers)
  target_compile_options(parley_fuzz_coverage INTERFACE -fsanitize=fuzzer-no-link)
endif()
if(parley_sanitizers)
  target_compile_options(parley_flags INTERFACE -fsanitize=${parley_sanitizers} -fno-omit-frame-pointer
                                                -fno-sanitize-recover=undefined)
  target_link_options(parley_flags INTERFACE -fsanitize=${parley_sanitizers})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND parley_sanitizers MATCHES "undefined")
    # clang 14's -fsanitize=function emits prologue data that coroutine frames split across
    # sections ("Cannot represent a difference across sections").
    target_compile_options(parley_flags INTERFACE -fno-sanitize=function)
    # The vptr check (a member reached through an object of the wrong dynamic type) instruments
    # every member access of a polymorphic class and took a seventh of the sanitizer build's
    # compile time; the code never casts a polymorphic class down to a derived one, what it catches,
    # and AddressSanitizer still reports a use of a destroyed object.
    target_compile_options(parley_flags INTERFACE -fno-sanitize=vptr)
  endif()
endif()
