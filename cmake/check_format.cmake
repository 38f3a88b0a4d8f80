# Holds the C++ sources to .clang-format:
#   cmake -DROOT=DIR -DCLANG_FORMAT=clang-format [-DCONFIG=.clang-format] -P check_format.cmake
# Lists every file clang-format would change and exits 1 if there is one. The build tree and the
# planted unformatted file (tests/design/unformatted/, this check's negative control) are skipped
# unless ROOT is that folder itself.
cmake_minimum_required(VERSION 3.25)
if(NOT CONFIG)
  set(CONFIG ${ROOT}/.clang-format)
endif()
# Paths relative to ROOT, so a checkout that itself lies below a folder named build is still read.
file(GLOB_RECURSE sources RELATIVE "${ROOT}" "${ROOT}/*.cpp" "${ROOT}/*.hpp")
list(FILTER sources EXCLUDE REGEX "^(build[^/]*|node/node_modules|\\.git)/")
if(NOT ROOT MATCHES "/tests/design/unformatted$")
  list(FILTER sources EXCLUDE REGEX "^tests/design/unformatted/")
endif()
list(TRANSFORM sources PREPEND "${ROOT}/")
list(LENGTH sources count)
# One clang-format run for every file; its complaints ("FILE:LINE:COL: error: ...") name the files.
execute_process(COMMAND ${CLANG_FORMAT} --style=file:${CONFIG} --dry-run --Werror ${sources}
                RESULT_VARIABLE result OUTPUT_QUIET ERROR_VARIABLE complaints)
set(unformatted "")
if(NOT result EQUAL 0)
  string(REGEX MATCHALL "[^\n]+:[0-9]+:[0-9]+: error:" lines "${complaints}")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE ":[0-9]+:[0-9]+: error:$" "" source "${line}")
    file(RELATIVE_PATH shown "${ROOT}" "${source}")
    list(APPEND unformatted ${shown})
  endforeach()
  list(REMOVE_DUPLICATES unformatted)
  if(NOT unformatted)
    message(FATAL_ERROR "clang-format failed: ${complaints}")
  endif()
endif()
if(unformatted)
  foreach(f IN LISTS unformatted)
    message("not formatted: ${f} (clang-format -i ${f})")
  endforeach()
  message(FATAL_ERROR "of ${count} C++ files, some are not formatted as .clang-format says")
endif()
message("all ${count} C++ files are formatted as .clang-format says")
