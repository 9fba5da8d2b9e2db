# vine: build, demo and tests.
#
#   make          configure and build into build/ (tools in build/bin/)
#   make demo     install missing packages, build, then scripts/demo.sh: every
#                 algorithm against the MPI library on this machine (checked,
#                 plotted) and a vine sim traffic table on a Dragonfly (lumi);
#                 results in results/demo-DATE-TIME/ (DEMO_OUT to choose)
#   make test     install missing packages, then every test stage in turn:
#                 build/ (unit, verify, mpi), build-asan/ (the same under
#                 AddressSanitizer + UBSan), build-smpi/ (SimGrid),
#                 build-mpich/ (unit, mpi against MPICH), install
#   make fuzz     libFuzzer on every parser for FUZZ_SECONDS each (default
#                 60; clang and libclang-rt-14-dev), tests/fuzz/run.sh
#   make verify-large  the Bine algorithms' verifier sweep at p = 96, 2048,
#                 4095 and 4096, and the shm family's at every node size up to
#                 64 and 100, 127, 128 (about 50 minutes of CPU; not in make test)
#   make test-mpich-asan  the MPICH stage's tests with VINE_SANITIZE=ON in
#                 build-mpich-asan/ (about 50 minutes on 2 cores; not in make test)
#   make clean    remove the build directories
#
# scripts/deps.sh installs what is missing on Debian 12 and does nothing when
# everything is present.  Variables: JOBS (parallel build and test jobs,
# default: the number of cores), NP (demo ranks, default: cores, at least 2),
# DEMO_SIZES (the demo's sizes), DEMO_OUT (its results directory),
# BUILD_TYPE (default RelWithDebInfo), MPICH_CC and MPICH_MPIEXEC (MPICH's
# compiler wrapper and launcher, default: Debian's mpicc.mpich and
# mpiexec.mpich, which sit beside Open MPI's mpicc and mpirun).

NPROC := $(shell nproc 2>/dev/null || echo 2)
JOBS ?= $(NPROC)
NP ?= $(shell if [ $(NPROC) -lt 2 ]; then echo 2; else echo $(NPROC); fi)
BUILD_TYPE ?= RelWithDebInfo
DEMO_SIZES ?= 8B,1KiB,64KiB,1MiB
MPICH_CC ?= mpicc.mpich
MPICH_MPIEXEC ?= mpiexec.mpich

CMAKE ?= cmake
CTEST ?= ctest
CTEST_FLAGS := --output-on-failure --timeout 1200
MPIRUN := sh scripts/mpirun.sh

# A UBSan report ends the test (the build also uses -fno-sanitize-recover).
# A quarantine of 8 MiB instead of 256 (freed memory ASan keeps unusable to
# catch later uses of it): a use after free is still caught while less than
# 8 MiB has been freed since, which covers a use within a case of the
# verifier's sweeps (they free a few MiB per case) and within a collective
# call; the sweeps, faulting far fewer fresh pages in, ran twice as fast as
# with 64 or 256 MiB (verify.allreduce: 10 s against 19-20).
SAN_ENV := ASAN_OPTIONS=halt_on_error=1:strict_string_checks=1:quarantine_size_mb=8 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

TEST_STAGES := test-build test-asan test-smpi test-mpich test-install

# The stages share build directories and cores: never run them in parallel.
.NOTPARALLEL:
.PHONY: all build deps demo test $(TEST_STAGES) test-mpich-asan verify-large fuzz clean

all: build

deps:
	@sh scripts/deps.sh

build:
	@command -v $(CMAKE) >/dev/null 2>&1 || \
		{ echo "make: cmake is missing: run 'make deps' (make demo and make test do)" >&2; exit 1; }
	$(CMAKE) -S . -B build -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
	$(CMAKE) --build build -j $(JOBS)

# Seconds to a minute on two cores, depending on the load; the options of
# scripts/demo.sh: sh scripts/demo.sh --help.
demo: deps build
	sh scripts/demo.sh --bin build/bin --np $(NP) --sizes $(DEMO_SIZES) \
		--launcher "$(MPIRUN)"$(if $(DEMO_OUT), --out "$(DEMO_OUT)")

# Runs every stage even when one fails, prints the time of each, and fails at
# the end if any stage failed.
test: deps
	@failed=""; summary=""; passed=0; \
	for stage in $(TEST_STAGES); do \
		start=$$(date +%s); \
		if $(MAKE) --no-print-directory $$stage; then result=ok; passed=$$((passed + 1)); \
		else result=FAILED; failed="$$failed $$stage"; fi; \
		summary="$$summary$$(printf '  %-13s %-7s %4d s' $$stage $$result $$(( $$(date +%s) - start )))\n"; \
	done; \
	printf '\nmake test: stages\n%b' "$$summary"; \
	nfailed=$$(echo $$failed | wc -w); \
	echo "stages: $$passed passed, $$nfailed failed"; \
	test -z "$$failed"

# MPI tests run in parallel too: Open MPI yields the core when oversubscribed,
# and most of a short test's time is mpirun starting up.
test-build: build
	cd build && $(CTEST) $(CTEST_FLAGS) -j $(JOBS) -LE '^(smpi|install|verify_large)$$'

# scripts/mpirun.sh turns leak detection off for the MPI tests (see there);
# the unit and verifier tests keep it.  The large-size vine-bench runs and the
# 16-rank BBS broadcasts, the 8-rank runs of the levels inside the node and
# the verifier's sweeps over them run the same code as their smaller siblings
# (unit.levels_inner, mpi.node_levels.*.np4), which stay; so does the demo's
# run (mpi.demo.run), while its variants without gnuplot and with a corrupt
# file only change what the script prints.  Of the hierarchical MPI runs the
# uneven maps stay: the remapped, the rule-made and the cyclic maps build
# schedules that the verifier's sweeps check under the sanitizers already
# (verify.levels.*), mpi.levels.* finds maps by rule, and the uneven runs take
# the same MPI paths.  The torus algorithms' sweeps on 16 x 16 and 8 x 8 x 8
# (256 and 512 ranks) run the code of 4 x 4 x 4 x 2 and the smaller shapes,
# which stay; of their MPI runs the 2 x 3 torus stays (the flat and the
# cyclic ones run the same executor paths, and the verifier checks their
# schedules here).  The 34-rank shm run (the bcast tree) runs the executor
# paths of the 8-rank ones.  The plain build runs them all (CI time).
ASAN_SKIP := ^mpi\.shm_tree\.|^mpi\.bench\.coll\..*\.large\.|^mpi\.bcast_bbs\..*\.np16$$|^mpi\.node_levels\..*\.np8$$|^verify\.levels_inner\.|^mpi\.demo\.(nognuplot|corrupt)\.|^mpi\.hier\.(remap|rule|cyclic)\.|^verify\.(torus|swing)\.(multiport\.)?(16x16|8x8x8)(\.|$$)|^mpi\.torus\.(flat|cyclic)\.
test-asan:
	$(CMAKE) -S . -B build-asan -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DVINE_SANITIZE=ON
	$(CMAKE) --build build-asan -j $(JOBS)
	cd build-asan && $(SAN_ENV) $(CTEST) $(CTEST_FLAGS) -j $(JOBS) -L '^(unit|verify|mpi)$$' \
		-E '$(ASAN_SKIP)'

# Each SimGrid test is one single-threaded process: they run side by side.
test-smpi:
	$(CMAKE) -S . -B build-smpi -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DVINE_SMPI=ON \
		-DCMAKE_C_COMPILER=smpicc
	$(CMAKE) --build build-smpi -j $(JOBS) --target test_smpi
	cd build-smpi && $(CTEST) $(CTEST_FLAGS) -j $(JOBS) -L '^smpi$$'

# The library built with MPICH's compiler wrapper, its tests started by
# MPICH's launcher (tests/mpi/launcher.cmake picks scripts/mpirun-mpich.sh).
# The verify tier needs no MPI and has run in build/ already; so have the
# tools' own tests (vine-bench's sweeps, the demo, the 12- and 16-rank BBS
# broadcasts), the 8-rank runs of the levels inside the node and the
# hierarchical runs on pretend hosts (mpi.hier.*), which call MPI the way the
# per-collective harness does; how vine finds the levels under MPICH is
# mpi.levels.*, which stays.  Of the torus algorithms' MPI runs the 2 x 3
# torus stays (the flat and cyclic ones call MPI the same way), and so does
# mpi.shm.* for the 34-rank mpi.shm_tree.  The ldd check makes sure that the
# wrapper really linked MPICH and not Open MPI.
MPICH_SKIP := ^mpi\.(bench\.coll|demo|hier|shm_tree)\.|^mpi\.bcast_bbs\..*\.np1[26]$$|^mpi\.node_levels\..*\.np8$$|^mpi\.torus\.(flat|cyclic)\.
test-mpich:
	@command -v $(MPICH_MPIEXEC) >/dev/null 2>&1 || \
		{ echo "make test-mpich: $(MPICH_MPIEXEC) is missing: run 'make deps'" >&2; exit 1; }
	$(CMAKE) -S . -B build-mpich -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
		-DMPI_C_COMPILER=$(MPICH_CC) -DMPIEXEC_EXECUTABLE=$$(command -v $(MPICH_MPIEXEC))
	$(CMAKE) --build build-mpich -j $(JOBS)
	@ldd build-mpich/lib/libvine.so | grep -q 'libmpich\.so' && \
		! ldd build-mpich/lib/libvine.so | grep -q 'libmpi\.so' || \
		{ echo "make test-mpich: build-mpich/lib/libvine.so does not link MPICH alone:" >&2; \
		  ldd build-mpich/lib/libvine.so >&2; exit 1; }
	cd build-mpich && $(CTEST) $(CTEST_FLAGS) -j $(JOBS) -L '^(unit|mpi)$$' \
		-E '$(MPICH_SKIP)'

# The MPICH stage under the sanitizers: the only build in which the drop-in's
# MPI-4 persistent entry points (MPI_Allreduce_init ..., declared by MPICH 4's
# header, not by Open MPI 4.1's) run with AddressSanitizer.  It takes about 50
# minutes on 2 cores (MPICH's polling ranks lose the yield shim, which the
# sanitizer runtime must precede), so `make test` leaves it out.
test-mpich-asan:
	@command -v $(MPICH_MPIEXEC) >/dev/null 2>&1 || \
		{ echo "make test-mpich-asan: $(MPICH_MPIEXEC) is missing: run 'make deps'" >&2; exit 1; }
	$(CMAKE) -S . -B build-mpich-asan -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DVINE_SANITIZE=ON \
		-DMPI_C_COMPILER=$(MPICH_CC) -DMPIEXEC_EXECUTABLE=$$(command -v $(MPICH_MPIEXEC))
	$(CMAKE) --build build-mpich-asan -j $(JOBS)
	cd build-mpich-asan && $(SAN_ENV) $(CTEST) $(CTEST_FLAGS) -j $(JOBS) -L '^(unit|mpi)$$' \
		-E '$(MPICH_SKIP)'

test-install: build
	cd build && $(CTEST) $(CTEST_FLAGS) -L '^install$$'

# The Bine algorithms at p = 96, 2048, 4095 and 4096 (issue 4, about 23
# minutes of CPU), the shm family at node sizes 1-64, 100, 127 and 128
# with a region of 64 elements (issue 18, about 26 minutes) and every
# algorithm's standard sweep at p = 1000 and 1024 (verify.p1000.*, about 4
# minutes), so not part of `make test`.
verify-large: build
	cd build && $(CTEST) $(CTEST_FLAGS) -j $(JOBS) -L '^verify_large$$'

FUZZ_SECONDS ?= 60
fuzz:
	sh tests/fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf build build-asan build-smpi build-mpich build-mpich-asan build-install build-fuzz
