include(${CMAKE_CURRENT_LIST_DIR}/Design.cmake)
include(GNUInstallDirs)

# mcp_hints_role(NAME SOURCES ... [ROLES role ...] [PUBLIC_LIBS ...] [PRIVATE_LIBS ...]): the
# static library mcp_hints_NAME with its headers in include/mcp_hints/NAME/, linked to the role
# libraries it builds on.
function(mcp_hints_role name)
  cmake_parse_arguments(ARG "" "" "SOURCES;ROLES;PUBLIC_LIBS;PRIVATE_LIBS" ${ARGN})
  add_library(mcp_hints_${name} STATIC ${ARG_SOURCES})
  # Four sources to a unit, as the test suites (tests/CMakeLists.txt): the headers they share and
  # the templates instantiated from them are compiled once per unit, not once per source.
  set_target_properties(mcp_hints_${name} PROPERTIES UNITY_BUILD ${MCP_HINTS_UNITY_LIBRARIES} UNITY_BUILD_BATCH_SIZE 4)
  mcp_hints_profile_guided(mcp_hints_${name})
  # Installed as mcp_hints::NAME (find_package(mcp_hints), cmake/Packaging.cmake); the same name
  # works in the build tree.
  add_library(mcp_hints::${name} ALIAS mcp_hints_${name})
  set_target_properties(mcp_hints_${name} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(mcp_hints_${name} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
                                                      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  list(TRANSFORM ARG_ROLES PREPEND mcp_hints_ OUTPUT_VARIABLE role_targets)
  target_link_libraries(mcp_hints_${name} PUBLIC ${role_targets} ${ARG_PUBLIC_LIBS} PRIVATE ${ARG_PRIVATE_LIBS})
  set_property(GLOBAL APPEND PROPERTY MCP_HINTS_ROLE_LIBRARIES ${name})
  install(TARGETS mcp_hints_${name} EXPORT mcp_hints_targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)
endfunction()

# Writes the link graph between the role libraries to FILE and holds it to the design: an arrow
# against it stops the configuration.
function(mcp_hints_check_link_graph file)
  get_property(roles GLOBAL PROPERTY MCP_HINTS_ROLE_LIBRARIES)
  set(graph "")
  foreach(role IN LISTS roles)
    get_target_property(links mcp_hints_${role} LINK_LIBRARIES)
    set(deps "")
    foreach(link IN LISTS links)
      if(link MATCHES "^mcp_hints_(.+)$")
        list(APPEND deps ${CMAKE_MATCH_1})
      endif()
    endforeach()
    list(JOIN deps " " deps)
    string(APPEND graph "${role}: ${deps}\n")
  endforeach()
  file(WRITE ${file} "${graph}")
  execute_process(COMMAND ${CMAKE_COMMAND} -DGRAPH=${file} -P ${PROJECT_SOURCE_DIR}/cmake/check_design.cmake
                  RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${out}")
  endif()
endfunction()
