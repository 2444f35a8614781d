# parley_gtest_suites(<target> PROPERTIES <property> <value>...): one CTest test per GoogleTest
# suite of <target> (a test executable), named after the suite and running it with
# --gtest_filter=<Suite>.*; the properties go to every one of them.
#
# Why not gtest_discover_tests' test per case: each case is then a process of its own, and a
# sanitizer build's executable takes 0.15–0.5 s to start and check for leaks at exit — about 1,600
# starts were a third of the sanitizer tests' time (docs/build.md). A suite's cases share one
# process, as they do when the executable is run by hand; one case is run by hand with
# --gtest_filter. Like gtest_discover_tests, the list is made when the executable is built (it is
# what the executable says with --gtest_list_tests), so a new case needs no new CMake run.
set(PARLEY_GTEST_SUITES_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/gtest_suites_list.cmake)

function(parley_gtest_suites target)
  cmake_parse_arguments(ARG "" "" "PROPERTIES" ${ARGN})
  set(properties "WORKING_DIRECTORY [==[${CMAKE_CURRENT_BINARY_DIR}]==]")
  foreach(item IN LISTS ARG_PROPERTIES)
    string(APPEND properties " [==[${item}]==]")
  endforeach()
  set(stem ${CMAKE_CURRENT_BINARY_DIR}/${target})
  file(WRITE ${stem}_suite_properties.txt "${properties}")
  add_custom_command(TARGET ${target} POST_BUILD
                     BYPRODUCTS ${stem}_suites.cmake
                     COMMAND ${CMAKE_COMMAND} -D EXE=$<TARGET_FILE:${target}> -D OUT=${stem}_suites.cmake
                             -D PROPERTIES_FILE=${stem}_suite_properties.txt -P ${PARLEY_GTEST_SUITES_SCRIPT}
                     VERBATIM)
  # CTest reads this; until the executable is built it has one test that says so by failing.
  file(WRITE ${stem}_include.cmake
       "if(EXISTS [==[${stem}_suites.cmake]==])\n"
       "  include([==[${stem}_suites.cmake]==])\n"
       "else()\n"
       "  add_test([==[${target}_NOT_BUILT]==] [==[${target}_NOT_BUILT]==])\n"
       "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${stem}_include.cmake)
endfunction()
