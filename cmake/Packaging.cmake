# Installing and packaging (cmake --install, find_package(mcp_hints), cpack -G DEB).
#   bin/mcp-hints                            the command (its schemas and scenarios are compiled in)
#   lib/mcp-hints/mcp-hints-http.so          its HTTP module, loaded when it first speaks HTTP
#   share/mcp-hints/{schemas,scenarios}/     the same files, published for users and other tools
#   share/doc/mcp-hints/examples/catalogs/   the example catalogs
#   lib/libmcp_hints_ROLE.a, include/mcp_hints/ROLE/   the role libraries (cmake/RoleLibrary.cmake)
#   lib/cmake/mcp_hints/                     the CMake package: targets mcp_hints::ROLE
# Two components: "runtime" (the command and its data: the mcp-hints .deb) and "development"
# (libraries, headers, CMake package: the libmcp-hints-dev .deb).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS mcp-hints RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/schemas/ DESTINATION ${CMAKE_INSTALL_DATADIR}/mcp-hints/schemas
        COMPONENT runtime FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/mcp-hints/scenarios
        COMPONENT runtime FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/catalogs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/catalogs
        COMPONENT runtime FILES_MATCHING PATTERN "*.json")

set(MCP_HINTS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mcp_hints)
install(EXPORT mcp_hints_targets NAMESPACE mcp_hints:: FILE mcp_hints-targets.cmake
        DESTINATION ${MCP_HINTS_CMAKE_DIR} COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mcp_hintsConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/mcp_hintsConfig.cmake INSTALL_DESTINATION ${MCP_HINTS_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/mcp_hintsConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/mcp_hintsConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/mcp_hintsConfigVersion.cmake
        DESTINATION ${MCP_HINTS_CMAKE_DIR} COMPONENT development)

# cpack -G DEB: mcp-hints_VERSION_ARCH.deb and libmcp-hints-dev_VERSION_ARCH.deb.
set(CPACK_PACKAGE_NAME mcp-hints)
set(CPACK_PACKAGE_VENDOR "mcp-hints")
set(CPACK_PACKAGE_CONTACT "mcp-hints maintainers <maintainers@mcp-hints.invalid>")
set(CPACK_PACKAGE_HOMEPAGE_URL ${PROJECT_HOMEPAGE_URL})
set(CPACK_PACKAGING_INSTALL_PREFIX ${MCP_HINTS_PACKAGE_PREFIX})
set(CPACK_COMPONENTS_ALL runtime development)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME mcp-hints)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)  # Depends from the libraries the command links
# Each component's description: its first line is the Debian synopsis (no package-wide summary is
# set, so CPack prepends none).
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "conformance suite and mock servers for MCP tool-safety hints
mcp-hints lints saved tools/list results and live servers against the MCP tool-safety hint
proposals, and certifies clients against scripted mock servers.")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libmcp-hints-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
# The static libraries' own dependencies, as a consumer's find_package(mcp_hints) needs them, and
# the command's package, whose HTTP module the wire role loads.
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "nlohmann-json3-dev (>= 3.11), libboost-dev (>= 1.74), libboost-filesystem-dev (>= 1.74), nettle-dev, libtomlplusplus-dev (>= 3), mcp-hints (= ${PROJECT_VERSION})")
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION "mcp-hints role libraries (static) and their CMake package
The mcp-hints library, one static library per role, with headers and a CMake package:
find_package(mcp_hints) gives the targets mcp_hints::json, ::vocab, ::checks, ::wire, ::live,
::report, ::mock and ::conformance.")
include(CPack)
