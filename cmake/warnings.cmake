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
if(PARLEY_SANITIZE)
  target_compile_options(parley_flags INTERFACE -fsanitize=${PARLEY_SANITIZE} -fno-omit-frame-pointer
                                                -fno-sanitize-recover=undefined)
  target_link_options(parley_flags INTERFACE -fsanitize=${PARLEY_SANITIZE})
  # clang 14's -fsanitize=function emits prologue data that coroutine frames split across sections
  # ("Cannot represent a difference across sections"); the fuzz preset is the clang build.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND PARLEY_SANITIZE MATCHES "undefined")
    target_compile_options(parley_flags INTERFACE -fno-sanitize=function)
  endif()
endif()
