# Writes the build id of libwixlib.so: "<project version>+<first 12 hex of a SHA-256 over the native
# sources>". The CMake build stamps it into wx_version_string() and the Maven build into the jar
# (org/wixlib/wixlib-build-id.txt); the Java loader refuses a library whose id differs from its jar's.
# The id depends only on the files (not on the machine, compiler or CUDA switch), so a jar built
# without CUDA loads the CUDA library built from the same tree on another machine.
# Usage: cmake -DSOURCE_DIR=<repo> [-DHEADER=<file.h>] [-DTEXT=<file.txt>] -P cmake/build_id.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "build_id.cmake: set -DSOURCE_DIR=<repository root>")
endif()

file(READ "${SOURCE_DIR}/CMakeLists.txt" top)
if(NOT top MATCHES "project\\(wixlib VERSION ([0-9]+\\.[0-9]+\\.[0-9]+)")
  message(FATAL_ERROR "build_id.cmake: no 'project(wixlib VERSION x.y.z' in ${SOURCE_DIR}/CMakeLists.txt")
endif()
set(version "${CMAKE_MATCH_1}")

# What goes into the library: the top CMakeLists.txt (version, flags, architectures) and every source
# and header under native/include and native/src, in a fixed order, each with its relative path.
file(GLOB_RECURSE files RELATIVE "${SOURCE_DIR}"
     "${SOURCE_DIR}/native/include/*" "${SOURCE_DIR}/native/src/*.h" "${SOURCE_DIR}/native/src/*.hpp"
     "${SOURCE_DIR}/native/src/*.cuh" "${SOURCE_DIR}/native/src/*.c" "${SOURCE_DIR}/native/src/*.cpp"
     "${SOURCE_DIR}/native/src/*.cu")
list(APPEND files CMakeLists.txt)
list(SORT files)
set(listing "")
foreach(f IN LISTS files)
  file(SHA256 "${SOURCE_DIR}/${f}" h)
  string(APPEND listing "${h}  ${f}\n")
endforeach()
string(SHA256 digest "${listing}")
string(SUBSTRING "${digest}" 0 12 digest)
set(id "${version}+${digest}")

# Written only when changed, so an unchanged id recompiles nothing.
function(write_if_changed path content)
  if(EXISTS "${path}")
    file(READ "${path}" old)
    if(old STREQUAL content)
      return()
    endif()
  endif()
  file(WRITE "${path}" "${content}")
endfunction()

if(HEADER)
  write_if_changed("${HEADER}" "// Written by cmake/build_id.cmake.\n#define WIXLIB_VERSION_STRING \"${id}\"\n")
endif()
if(TEXT)
  write_if_changed("${TEXT}" "${id}\n")
endif()
