# Precompiled headers (issue 45; docs/build.md). Two targets own one each — parley_pch
# (cmake/pch/common.hpp: the standard library, Boost.JSON/Asio/Beast, yaml-cpp, SQLite) and
# parley_test_pch (the same plus GoogleTest) — and every library, program and test reuses one of
# them, so the heavy headers are parsed twice per build instead of once per file. Reuse needs the
# same compile options as the owner: both link parley_flags, which holds every option and
# definition a Parley target compiles with, and the libraries' one also the fuzzers' coverage
# instrumentation (cmake/warnings.cmake), which the tests' code goes without. PARLEY_PCH=OFF
# builds without them (to check that each file includes what it uses).
option(PARLEY_PCH "Compile with the shared precompiled headers (cmake/pch/)" ON)

if(PARLEY_PCH)
  add_library(parley_pch STATIC ${PROJECT_SOURCE_DIR}/cmake/pch/empty.cpp)
  target_link_libraries(parley_pch PRIVATE parley_flags parley_fuzz_coverage Boost::headers Boost::json yaml-cpp
                                           SQLite::SQLite3)
  target_precompile_headers(parley_pch PRIVATE ${PROJECT_SOURCE_DIR}/cmake/pch/common.hpp)
  if(PARLEY_BUILD_TESTS)
    add_library(parley_test_pch STATIC ${PROJECT_SOURCE_DIR}/cmake/pch/empty.cpp)
    target_link_libraries(parley_test_pch PRIVATE parley_flags Boost::headers Boost::json yaml-cpp
                                                  SQLite::SQLite3 GTest::gtest)
    target_precompile_headers(parley_test_pch PRIVATE ${PROJECT_SOURCE_DIR}/cmake/pch/test.hpp)
  endif()
endif()

# parley_use_pch(<target> [TEST]): <target> compiles with the shared precompiled header (the
# tests' one with TEST).
function(parley_use_pch target)
  cmake_parse_arguments(ARG "TEST" "" "" ${ARGN})
  if(NOT PARLEY_PCH)
    return()
  endif()
  if(ARG_TEST)
    target_precompile_headers(${target} REUSE_FROM parley_test_pch)
    # The header brings GoogleTest into the target, so its compile definitions come along.
    target_link_libraries(${target} PRIVATE GTest::gtest)
  else()
    target_precompile_headers(${target} REUSE_FROM parley_pch)
    # The header was compiled with the libraries' instrumentation (cmake/warnings.cmake).
    target_link_libraries(${target} PRIVATE parley_fuzz_coverage)
  endif()
endfunction()

# parley_use_pch_in_directory(<dir> [TEST]): every library and program defined in <dir> (a folder
# already added with add_subdirectory) reuses the shared precompiled header.
function(parley_use_pch_in_directory dir)
  cmake_parse_arguments(ARG "TEST" "" "" ${ARGN})
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "STATIC_LIBRARY" OR type STREQUAL "EXECUTABLE")
      if(ARG_TEST)
        parley_use_pch(${target} TEST)
      else()
        parley_use_pch(${target})
      endif()
    endif()
  endforeach()
endfunction()
