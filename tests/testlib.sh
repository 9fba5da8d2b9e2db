# shellcheck shell=sh
# Helpers shared by the shell tests; a test sources it with
#   . "$(dirname "$0")/../testlib.sh"

# Prints "FAIL: ..." and ends the test.
fail() {
    echo "FAIL: $*"
    exit 1
}

# Runs the command, keeping stdout in out.txt and stderr in err.txt; sets rc.
run() {
    "$@" >out.txt 2>err.txt
    # shellcheck disable=SC2034 # rc is the caller's
    rc=$?
}

# expect STATUS TEXT command...: runs the command, shows its output, and
# wants that exit status and TEXT in its standard error.
expect() {
    want=$1
    text=$2
    shift 2
    run "$@"
    cat out.txt err.txt
    [ "$rc" = "$want" ] || fail "exit status $rc, want $want: $*"
    grep -q -- "$text" err.txt || fail "no '$text' in the message: $*"
}

# Empties the directory $1 (made if missing) and makes it the current one.
fresh_workdir() {
    rm -rf "$1"
    if ! mkdir -p "$1" || ! cd "$1"; then
        fail "cannot make and enter $1"
    fi
}

# Prints the file of a launcher's standard error without the lines Open MPI
# adds when a rank exits non-zero (noise in a test that wants that status).
show_mpi_stderr() {
    grep -v -e '^---' -e 'non-zero' -e 'Per user-direction' -e 'Process name' -e 'Exit code' \
        -e 'The first process' -e 'terminated normally' -e 'job has been aborted' \
        -e 'thus causing' -e '^ *$' -e 'the job to be terminated' "$1"
}
