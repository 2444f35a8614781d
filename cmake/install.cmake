# What `cmake --install` puts where, under CMAKE_INSTALL_PREFIX (GNUInstallDirs; docs/install.md):
#
#   bin/parley
#   share/parley/web/                          the web UI (web/dist, which scripts/setup.sh builds);
#                                              `parley serve` finds it from bin/ (../share/parley/web)
#   share/parley/examples/demo/                the demo team the README uses (the unit's default team)
#   share/man/man1/parley.1.gz, parley-VERB.1.gz      from the built binary's own help
#   share/bash-completion/completions/parley   `parley completions bash`
#   share/zsh/vendor-completions/_parley       `parley completions zsh`
#   share/doc/parley/copyright, changelog.Debian.gz, examples/shell-tools.conf
#   lib/systemd/system/parley.service          its ExecStart names this prefix's bin/parley
#
# and the .deb that CPack makes of the same rules with the prefix /usr: `cpack -G DEB` in
# build/release (or `cmake --build build/release --target package`).

# Man pages, completions and the compressed changelog: written from the built binary, so they
# always say what it says. Part of ALL, so that the install rules below find them.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(parley_package_docs ${CMAKE_BINARY_DIR}/package-docs)
add_custom_command(
  OUTPUT ${parley_package_docs}/stamp
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/package_docs.py $<TARGET_FILE:parley>
          ${parley_package_docs} --changelog ${PROJECT_SOURCE_DIR}/packaging/changelog.Debian
  COMMAND ${CMAKE_COMMAND} -E touch ${parley_package_docs}/stamp
  DEPENDS parley ${PROJECT_SOURCE_DIR}/scripts/package_docs.py ${PROJECT_SOURCE_DIR}/packaging/changelog.Debian
  COMMENT "Man pages and shell completions from parley's own help"
  VERBATIM)
# Not in ALL of the sanitizer builds: nobody installs those, and they would run an instrumented
# binary for it (`cmake --build build/debug --target parley_package_docs` still works).
if(PARLEY_SANITIZE)
  add_custom_target(parley_package_docs DEPENDS ${parley_package_docs}/stamp)
else()
  add_custom_target(parley_package_docs ALL DEPENDS ${parley_package_docs}/stamp)
endif()

install(TARGETS parley RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The web UI is built by npm (scripts/setup.sh), not by CMake: say so rather than install no UI.
set(parley_web_dist ${PROJECT_SOURCE_DIR}/web/dist)
install(CODE "
  if(NOT EXISTS \"${parley_web_dist}/index.html\")
    message(FATAL_ERROR \"${parley_web_dist}/index.html is missing: scripts/setup.sh builds the web UI\")
  endif()")
install(DIRECTORY ${parley_web_dist}/ DESTINATION ${CMAKE_INSTALL_DATADIR}/parley/web)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/demo DESTINATION ${CMAKE_INSTALL_DATADIR}/parley/examples)

install(DIRECTORY ${parley_package_docs}/man/ DESTINATION ${CMAKE_INSTALL_MANDIR})
install(FILES ${parley_package_docs}/completions/parley DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${parley_package_docs}/completions/_parley DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright ${parley_package_docs}/changelog.Debian.gz
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/packaging/shell-tools.conf DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)

# The unit names the binary and the demo team by absolute path, so it is written when it is
# installed, for the prefix it is installed under (CPack installs with the prefix /usr and
# DESTDIR set to its staging folder: CPACK_SET_DESTDIR below).
install(CODE "
  file(READ \"${PROJECT_SOURCE_DIR}/packaging/parley.service.in\" unit)
  string(REPLACE \"@PARLEY_BINDIR@\" \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\" unit \"\${unit}\")
  string(REPLACE \"@PARLEY_DATADIR@\" \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}\" unit \"\${unit}\")
  file(WRITE \"${CMAKE_BINARY_DIR}/parley.service\" \"\${unit}\")
  file(INSTALL \"${CMAKE_BINARY_DIR}/parley.service\" DESTINATION \"\${CMAKE_INSTALL_PREFIX}/lib/systemd/system\"
       PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)")

# The .deb (docs/install.md, "Building the package"). Its Depends come from dpkg-shlibdeps
# (dpkg-dev) reading the binary's NEEDED libraries; `lintian` checks the result.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME parley)
set(CPACK_PACKAGE_VENDOR "the Parley authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "runtime and server for teams of LLM agents")
set(PARLEY_DEB_MAINTAINER "Parley maintainers <maintainers@users.noreply.a-seed-c7275581.example>"
    CACHE STRING "The .deb's Maintainer field")
set(CPACK_PACKAGE_CONTACT "${PARLEY_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${PARLEY_DEB_MAINTAINER}")
# The extended description (CPack puts the summary above it and indents it as the control file wants).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Parley runs teams of LLM agents that work in hierarchical dialogs with
humans in the loop. Every step of every dialog is written to an
append-only event log (SQLite) before anything acts on it, so a crash
loses nothing that was acknowledged.

This package holds the parley command, its web UI, REST API and
WebSocket server (parley serve), an example team and a systemd unit,
which is installed disabled.")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Version 0.1.0-1: a Debian revision, so the changelog is changelog.Debian.gz.
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The search tool runs ripgrep; a member's shell with `sandbox: bubblewrap` runs bwrap.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ripgrep, bubblewrap")
# Installed under /usr with DESTDIR set to CPack's staging folder, so that the install(CODE) above
# sees CMAKE_INSTALL_PREFIX=/usr (with CPACK_SET_DESTDIR, CPACK_INSTALL_PREFIX is the prefix used).
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_SET_DESTDIR ON)
set(CPACK_STRIP_FILES ON)
# Directories 0755 and files 0644 in the package whatever the umask of the build.
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                                                WORLD_READ WORLD_EXECUTE)
include(CPack)
