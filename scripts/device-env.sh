# shellcheck shell=sh
# Sourced, not run: `. scripts/device-env.sh [DIR]` points the compiler, the
# linker and the loader at the libraries that scripts/device-deps.sh packed
# into DIR (default: build-devdeps), on a machine that lacks GLPK, jansson or
# hwloc and has no package registry to install them from; CMAKE_INCLUDE_PATH
# and CMAKE_LIBRARY_PATH let CMake find hwloc there.  Does nothing when DIR
# is missing.  libgmp, zlib and libudev are taken from DIR/lib-fallback only
# when the machine has none of its own.
vine_deps=${1:-build-devdeps}
if [ -d "$vine_deps/lib" ]; then
    vine_deps=$(cd "$vine_deps" && pwd)
    vine_libs=$vine_deps/lib
    for vine_lib in libgmp.so.10 libz.so.1 libudev.so.1; do
        if ! { ldconfig -p 2>/dev/null | grep -q "$vine_lib"; } &&
            ! ls /lib/*/"$vine_lib" /usr/lib/*/"$vine_lib" /usr/lib64/"$vine_lib" >/dev/null 2>&1; then
            vine_libs=$vine_libs:$vine_deps/lib-fallback
            break
        fi
    done
    export CPATH="$vine_deps/include${CPATH:+:$CPATH}"
    export LIBRARY_PATH="$vine_libs${LIBRARY_PATH:+:$LIBRARY_PATH}"
    export LD_LIBRARY_PATH="$vine_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export CMAKE_INCLUDE_PATH="$vine_deps/include${CMAKE_INCLUDE_PATH:+:$CMAKE_INCLUDE_PATH}"
    export CMAKE_LIBRARY_PATH="$vine_deps/lib${CMAKE_LIBRARY_PATH:+:$CMAKE_LIBRARY_PATH}"
    echo "device-env.sh: GLPK, jansson and hwloc from $vine_libs"
    unset vine_lib vine_libs
fi
unset vine_deps
