# Benchmarks: built and run on demand (`make bench-journal`), never by
# `make check`, since their numbers depend on the machine's disk.
EXTRA_PROGRAMS += %reldir%/journal-bench
%canon_reldir%_journal_bench_SOURCES = %reldir%/journal-bench.c
%canon_reldir%_journal_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_journal_bench_LDADD = mbatchd/log/libbslog.a \
	proto/libbsproto.a lib/util/libbsutil.a $(GLIB_LIBS) $(PROTOBUF_C_LIBS)
CLEANFILES += %reldir%/journal-bench$(EXEEXT)

# BENCH_DIR: where the journal is written (default: a temp dir under the
# build tree, so the numbers are for the disk holding the build).
BENCH_DIR ?= $(abs_top_builddir)/bench
.PHONY: bench-journal
bench-journal: %reldir%/journal-bench$(EXEEXT)
	./%reldir%/journal-bench$(EXEEXT) -d '$(BENCH_DIR)'

# sched-preempt-bench: one scheduling pass that preempts, on a full
# 1,000-host cluster (`make bench-preempt`).
EXTRA_PROGRAMS += %reldir%/sched-preempt-bench
%canon_reldir%_sched_preempt_bench_SOURCES = %reldir%/sched-preempt-bench.c
%canon_reldir%_sched_preempt_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_sched_preempt_bench_LDADD = mbatchd/libbssched.a $(GLIB_LIBS) -lm
CLEANFILES += %reldir%/sched-preempt-bench$(EXEEXT)

.PHONY: bench-preempt
bench-preempt: %reldir%/sched-preempt-bench$(EXEEXT)
	./%reldir%/sched-preempt-bench$(EXEEXT)

# sched-pool-bench: one pass ordering 100 queues in 10 slot pools over
# 10,000 hosts (`make bench-pool`).
EXTRA_PROGRAMS += %reldir%/sched-pool-bench
%canon_reldir%_sched_pool_bench_SOURCES = %reldir%/sched-pool-bench.c
%canon_reldir%_sched_pool_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_sched_pool_bench_LDADD = mbatchd/libbssched.a $(GLIB_LIBS) -lm
CLEANFILES += %reldir%/sched-pool-bench$(EXEEXT)

.PHONY: bench-pool
bench-pool: %reldir%/sched-pool-bench$(EXEEXT)
	./%reldir%/sched-pool-bench$(EXEEXT)

# The kill -9 soak (bench/crash-soak.sh): many rounds of mbatchd crashes
# under load; it counts lost and doubled jobs (both must be 0).
EXTRA_DIST += %reldir%/crash-soak.sh
.PHONY: bench-crash-soak
bench-crash-soak: all
	top_srcdir='$(abs_top_srcdir)' \
		$(SHELL) $(srcdir)/%reldir%/crash-soak.sh '$(abs_top_builddir)'

# loadgen: thousands of emulated execution hosts and many users against a
# real mbatchd (bench/loadgen.h).  A check program rather than an
# EXTRA_PROGRAM because tests/integration/t0400-loadgen.sh drives it in
# `make check` (so CI compiles it on every run); the figure scripts
# (bench/fig/query.sh, memory.sh) use it through `make bench`.
check_PROGRAMS += %reldir%/loadgen
%canon_reldir%_loadgen_SOURCES = %reldir%/loadgen.c %reldir%/loadgen.h \
	%reldir%/loadgen-hosts.c %reldir%/loadgen-clients.c
%canon_reldir%_loadgen_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_loadgen_LDADD = cmd/libbscmd.a lib/api/libbsapi.a \
	lib/rpc/libbsrpc.a proto/libbsproto.a lib/util/libbsutil.a \
	$(GLIB_LIBS) $(PROTOBUF_C_LIBS)
$(%canon_reldir%_loadgen_OBJECTS): $(PROTO_GEN_H)

# The figure scripts of the query and memory figures (bench/fig/).
EXTRA_DIST += %reldir%/fig/query.sh %reldir%/fig/memory.sh
.PHONY: bench-loadgen
bench-loadgen: all %reldir%/loadgen$(EXEEXT)

# Every benchmark there is so far.
.PHONY: bench
bench: bench-journal bench-preempt bench-pool bench-loadgen
