#!/bin/sh
# usage: twoswitch_smoke.sh RUN_SH OUTDIR   (VINE_LIB and DRIVER set by ctest)
# Runs the two-switch experiment in quick mode and checks its exit status and
# that the four tables, each down to its 64 B row, were printed.
run=$1
out=$2
rm -rf "$out"
OUT=$out sh "$run" --quick >"$out.log" 2>&1
rc=$?
cat "$out.log"
if [ $rc -ne 0 ]; then
    echo "twoswitch_smoke: run.sh --quick exited with $rc" >&2
    exit 1
fi
for coll in gather scatter; do
    for cond in quiet busy; do
        if ! grep -q "^# $coll, $cond network: 296 processes" "$out.log"; then
            echo "twoswitch_smoke: no $coll/$cond table" >&2
            exit 1
        fi
    done
done
rows=$(grep -c '^ *64B .* ok$' "$out.log")
if [ "$rows" -ne 4 ]; then
    echo "twoswitch_smoke: $rows checked 64B rows instead of 4" >&2
    exit 1
fi
grep -q '^# vine_topology_info: 2 level(s)' "$out.log" || {
    echo "twoswitch_smoke: the driver did not find the node and switch levels" >&2
    exit 1
}
echo "twoswitch_smoke: passed"
