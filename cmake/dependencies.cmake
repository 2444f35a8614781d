# Every dependency comes from Debian packages installed by scripts/setup.sh.
find_package(Threads REQUIRED)
# FindBoost warns that Boost.URL has no header to check; the Boost::url target it makes is fine.
find_package(Boost 1.81 EXACT REQUIRED COMPONENTS json url)
find_package(OpenSSL REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(yaml-cpp REQUIRED)
if(PARLEY_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(PARLEY_BUILD_BENCH)
  find_package(benchmark QUIET)
endif()
# Asio: coroutines only, no deprecated interfaces, one translation unit per library would be nicer
# but the header-only mode keeps the build simple.
add_library(parley_asio INTERFACE)
target_link_libraries(parley_asio INTERFACE Boost::headers Threads::Threads)
target_compile_definitions(parley_asio INTERFACE BOOST_ASIO_NO_DEPRECATED)
