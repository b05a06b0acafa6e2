# Sourced by build.sh, sanitize.sh and fuzz.sh: sets `launcher` to the
# cmake arguments that put ccache in front of the compilers, or take it
# away. A miss costs ccache a preprocessor run of the TU on top of the
# compile, which for tk's header-heavy TUs is a large part of the compile
# itself, so a build into an empty cache (CI's fresh clone) is slower with
# ccache than without (docs/reliability.md, "Build time").
#   TK_CCACHE=1   use ccache (when installed)
#   TK_CCACHE=0   do not
#   unset         use it when its cache already holds files
tk_ccache_launcher() {
  local use=${TK_CCACHE:-auto}
  if ! command -v ccache >/dev/null; then
    use=0
  elif [ "$use" = auto ]; then
    local files
    files=$(ccache --print-stats 2>/dev/null | sed -n 's/^files_in_cache\t//p')
    if [ "${files:-0}" -gt 0 ]; then use=1; else use=0; fi
  fi
  if [ "$use" = 1 ]; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    # ccache caches TUs that use a precompiled header (TK_PCH) only with
    # these (cmake/PrecompiledHeaders.cmake).
    export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros}
  else
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER= -DCMAKE_C_COMPILER_LAUNCHER=)
  fi
}
