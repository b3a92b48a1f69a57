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

# Every benchmark there is so far.
.PHONY: bench
bench: bench-journal bench-preempt bench-pool

# ---- end-to-end figures (bench/fig/*.sh, one run per invocation) ----------
# submit.sh: bsub rate against the /bin/true floor; latency.sh: submit to
# start on an idle host; drain.sh: 10,000 `true` jobs on 4 virtual hosts
# against sbatchd's own fork/exec floor (forkexec-floor).
EXTRA_DIST += %reldir%/fig/submit.sh %reldir%/fig/latency.sh \
	%reldir%/fig/drain.sh

# bs-stamp: writes the time, then execs a program (latency.sh's two ends).
EXTRA_PROGRAMS += %reldir%/bs-stamp
%canon_reldir%_bs_stamp_SOURCES = %reldir%/bs-stamp.c
CLEANFILES += %reldir%/bs-stamp$(EXEEXT)

# forkexec-floor: starts `true` through sbatchd's launch code (bs_launch,
# bs-jobwrap), N at a time, and prints the rate.
EXTRA_PROGRAMS += %reldir%/forkexec-floor
%canon_reldir%_forkexec_floor_SOURCES = %reldir%/forkexec-floor.c
%canon_reldir%_forkexec_floor_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) \
	-I$(top_srcdir)/sbatchd
%canon_reldir%_forkexec_floor_LDADD = sbatchd/libsbdexec.a \
	lib/util/libbsutil.a $(GLIB_LIBS)
CLEANFILES += %reldir%/forkexec-floor$(EXEEXT)

# The programs the figure scripts need.
bench_fig_programs = %reldir%/bs-stamp$(EXEEXT) %reldir%/forkexec-floor$(EXEEXT)
.PHONY: bench-fig-programs
bench-fig-programs: all $(bench_fig_programs)
