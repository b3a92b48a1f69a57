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

# journal-fill: the journal a busy mbatchd would have written, for the
# restart figure (bench/fig/restart.sh).
EXTRA_PROGRAMS += %reldir%/journal-fill
%canon_reldir%_journal_fill_SOURCES = %reldir%/journal-fill.c
%canon_reldir%_journal_fill_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_journal_fill_LDADD = mbatchd/log/libbslog.a \
	proto/libbsproto.a lib/util/libbsutil.a $(GLIB_LIBS) $(PROTOBUF_C_LIBS)
CLEANFILES += %reldir%/journal-fill$(EXEEXT)
EXTRA_DIST += %reldir%/fig/restart.sh
