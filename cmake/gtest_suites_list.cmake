# Run by the build after a test executable links (cmake/gtest_suites.cmake): writes OUT, the CTest
# file with one test per GoogleTest suite of EXE, each with the properties in PROPERTIES_FILE.
#   cmake -D EXE=… -D OUT=… -D PROPERTIES_FILE=… -P gtest_suites_list.cmake
foreach(variable EXE OUT PROPERTIES_FILE)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "gtest_suites_list.cmake: -D ${variable}=… is missing")
  endif()
endforeach()

execute_process(COMMAND ${EXE} --gtest_list_tests RESULT_VARIABLE status OUTPUT_VARIABLE listing
                ERROR_VARIABLE errors TIMEOUT 60)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${EXE} --gtest_list_tests failed (${status}): ${errors}")
endif()
file(READ ${PROPERTIES_FILE} properties)

# A suite's line is its name and a dot at the start of the line (a typed suite's has a comment
# after it); the cases under it are indented, and gtest_main's own first line has spaces in it.
set(text "")
set(count 0)
string(REGEX MATCHALL "[^\n]+" lines "${listing}")
foreach(line IN LISTS lines)
  if(line MATCHES "^([A-Za-z0-9_/]+)\\.( +#.*)?$")
    set(suite ${CMAKE_MATCH_1})
    string(APPEND text "add_test([==[${suite}]==] [==[${EXE}]==] [==[--gtest_filter=${suite}.*]==])\n"
                       "set_tests_properties([==[${suite}]==] PROPERTIES ${properties})\n")
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${EXE} --gtest_list_tests listed no suite")
endif()
file(WRITE ${OUT} "${text}")
