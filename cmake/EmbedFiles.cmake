# mcp_hints_embed(OUT_VAR DIR PATTERN FUNCTION): a generated source that compiles the files of DIR
# that match PATTERN into the library, reachable as std::span<const EmbeddedFile> FUNCTION() in
# namespace mcp_hints (the library declares it in its own header).
function(mcp_hints_embed out_var dir pattern function)
  file(GLOB files RELATIVE ${dir} CONFIGURE_DEPENDS ${dir}/${pattern})
  list(TRANSFORM files PREPEND ${dir}/ OUTPUT_VARIABLE paths)
  string(REPLACE ";" "|" file_list "${files}")
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${function}.cpp)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} "-DFILES=${file_list}" -DBASE=${dir} -DFUNCTION=${function}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
    DEPENDS ${paths} ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
    COMMENT "Embedding ${dir}"
    VERBATIM)
  # Each such source names its data alike (file_0, files): it is built on its own, never in a unity
  # batch, which it would only make slower to rebuild.
  set_source_files_properties(${out} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
