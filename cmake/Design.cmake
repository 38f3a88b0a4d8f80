# The design's one-way arrows between the role libraries (ARCHITECTURE.md draws them). A role
# may link, and so include, the roles it builds on and what those build on; nothing else. Each
# role keeps its headers in its own include/mcp_hints/<role>/ folder, so an include of a role it
# does not link does not build; check_design.cmake also holds the link graph and every source's
# includes to this table, at configure time and as tests.
set(MCP_HINTS_DESIGN
  "json:"                        # bounded input, pointers, canonical JSON, schemas, text, errors
  "vocab:json"                   # vocabularies, crosswalk, hint model, translate, infer
  "checks:vocab"                 # lint rules, their registry, lint
  "wire:json"                    # JSON-RPC, transports, child processes, MCP client sessions
  "live:wire,checks"             # check-server
  "report:checks"                # every output format, and the helpers they share
  "mock:wire"                    # scenario format, mock server, recorder (does not judge)
  "conformance:mock,vocab,report"  # judge, harness, reference policy, certification report
)
# Where each role's sources live, below the source root.
set(MCP_HINTS_ROLE_DIRS
  "json:core/json" "vocab:core/vocab" "checks:core/checks" "wire:core/wire" "live:core/live"
  "report:core/report" "mock:mock-servers" "conformance:conformance")

# The roles `role` builds on, directly or through others.
function(mcp_hints_design_reach role out_var)
  set(reach "")
  set(todo ${role})
  while(todo)
    list(POP_FRONT todo current)
    foreach(entry IN LISTS MCP_HINTS_DESIGN)
      string(REPLACE ":" ";" parts "${entry}")
      list(GET parts 0 name)
      if(name STREQUAL current)
        list(SUBLIST parts 1 -1 deps)
        string(REPLACE "," ";" deps "${deps}")
        foreach(dep IN LISTS deps)
          if(dep AND NOT dep IN_LIST reach)
            list(APPEND reach ${dep})
            list(APPEND todo ${dep})
          endif()
        endforeach()
      endif()
    endforeach()
  endwhile()
  set(${out_var} ${reach} PARENT_SCOPE)
endfunction()

function(mcp_hints_design_roles out_var)
  set(roles "")
  foreach(entry IN LISTS MCP_HINTS_DESIGN)
    string(REGEX REPLACE ":.*" "" name "${entry}")
    list(APPEND roles ${name})
  endforeach()
  set(${out_var} ${roles} PARENT_SCOPE)
endfunction()
