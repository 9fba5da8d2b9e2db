# shellcheck shell=sh
# Sourced, not run: `. scripts/device-env.sh [DIR]` points the compiler, the
# linker and the loader at the libraries that scripts/device-deps.sh packed
# into DIR (default: build-devdeps), on a machine that lacks GLPK or jansson
# and has no package registry to install them from.  Does nothing when DIR
# is missing.  libgmp and zlib are taken from DIR/lib-fallback only when the
# machine has none of its own.
vine_deps=${1:-build-devdeps}
if [ -d "$vine_deps/lib" ]; then
    vine_deps=$(cd "$vine_deps" && pwd)
    vine_libs=$vine_deps/lib
    for vine_lib in libgmp.so.10 libz.so.1; do
        if ! { ldconfig -p 2>/dev/null | grep -q "$vine_lib"; } &&
            ! ls /lib/*/"$vine_lib" /usr/lib/*/"$vine_lib" /usr/lib64/"$vine_lib" >/dev/null 2>&1; then
            vine_libs=$vine_libs:$vine_deps/lib-fallback
            break
        fi
    done
    export CPATH="$vine_deps/include${CPATH:+:$CPATH}"
    export LIBRARY_PATH="$vine_libs${LIBRARY_PATH:+:$LIBRARY_PATH}"
    export LD_LIBRARY_PATH="$vine_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "device-env.sh: GLPK and jansson from $vine_libs"
    unset vine_lib vine_libs
fi
unset vine_deps
