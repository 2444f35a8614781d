# ccache and the linker (issue 45; docs/build.md).
#
# ccache, when installed, caches every compile. base_dir makes its keys relative to the source
# folder, so a clone in another folder (CI's) hits what this one stored; the sloppiness lets it
# cache the precompiled header and the files that use it (clang also needs -fno-pch-timestamp,
# cmake/precompiled_headers.cmake).
find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM)
  set(CMAKE_CXX_COMPILER_LAUNCHER
      ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}
      CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
      ${CCACHE_PROGRAM})
endif()

# lld links the forty-odd executables (tests with debug line tables and sanitizers among them) in a
# fraction of GNU ld's time; both g++ and clang++ take -fuse-ld=lld.
find_program(PARLEY_LLD ld.lld)
if(PARLEY_LLD)
  add_link_options(-fuse-ld=lld)
endif()
