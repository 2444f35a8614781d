# Unity builds (issue 45; docs/build.md): each library, program and test executable is compiled in
# batches of a few of its .cpp files, one translation unit each. Most of a file's compile time is
# instantiating and generating the same Boost.JSON, Asio-coroutine and GoogleTest templates as its
# neighbours; a batch does that once. Measured on this code: eight engine files took half the time
# as one unit that they took one by one. The price is that file-local names (anonymous namespaces)
# must differ across a target's files (a clash is a compile error, never a silent mix-up).
# PARLEY_UNITY=OFF compiles file by file, as clang-tidy and an include-what-you-use check want.
option(PARLEY_UNITY "Compile each target in batches of source files (CMake UNITY_BUILD)" ON)
set(PARLEY_UNITY_BATCH 8 CACHE STRING "Source files per unity batch")
# Test files share more (GoogleTest, the fixtures of tests/support) and clash less: larger batches.
set(PARLEY_UNITY_TEST_BATCH 16 CACHE STRING "Test source files per unity batch")
if(PARLEY_UNITY)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${PARLEY_UNITY_BATCH})
endif()
# g++ warns when a type of a file's anonymous namespace is used inside a function defined in "a
# header" — which, in a unity batch, is every .cpp file but the batch itself (the batch includes
# them). Nothing is shared across batches, so the warning says nothing there.
if(PARLEY_UNITY AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_compile_options(-Wno-subobject-linkage)
endif()
