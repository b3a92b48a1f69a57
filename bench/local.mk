# Benchmarks: built and run on demand, never by `make check` (their
# numbers depend on the machine).  `make bench` runs the figure scripts
# bench/fig/*.sh listed in bench/figures.tsv and prints one table
# (bench/README.md); `make bench-smoke` runs each once at tiny sizes (CI).
# The in-process micro benchmarks below have their own targets.
EXTRA_PROGRAMS += %reldir%/journal-bench
%canon_reldir%_journal_bench_SOURCES = %reldir%/journal-bench.c
%canon_reldir%_journal_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_journal_bench_LDADD = lib/journal/libbsjournal.a \
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
%canon_reldir%_sched_preempt_bench_SOURCES = %reldir%/sched-preempt-bench.c \
	%reldir%/bench-pass.c %reldir%/bench-pass.h
%canon_reldir%_sched_preempt_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_sched_preempt_bench_LDADD = $(BSSCHED_LIBS) $(GLIB_LIBS) -lm
CLEANFILES += %reldir%/sched-preempt-bench$(EXEEXT)

.PHONY: bench-preempt
bench-preempt: %reldir%/sched-preempt-bench$(EXEEXT)
	./%reldir%/sched-preempt-bench$(EXEEXT)

# sched-pool-bench: one pass ordering 100 queues in 10 slot pools over
# 10,000 hosts (`make bench-pool`).
EXTRA_PROGRAMS += %reldir%/sched-pool-bench
%canon_reldir%_sched_pool_bench_SOURCES = %reldir%/sched-pool-bench.c \
	%reldir%/bench-pass.c %reldir%/bench-pass.h
%canon_reldir%_sched_pool_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_sched_pool_bench_LDADD = $(BSSCHED_LIBS) $(GLIB_LIBS) -lm
CLEANFILES += %reldir%/sched-pool-bench$(EXEEXT)

.PHONY: bench-pool
bench-pool: %reldir%/sched-pool-bench$(EXEEXT)
	./%reldir%/sched-pool-bench$(EXEEXT)

# sched-jobgroup-bench: one pass over 100,000 jobs in 1,000 job groups
# whose limits bind at every level (`make bench-jobgroup`).
EXTRA_PROGRAMS += %reldir%/sched-jobgroup-bench
%canon_reldir%_sched_jobgroup_bench_SOURCES = %reldir%/sched-jobgroup-bench.c \
	%reldir%/bench-pass.c %reldir%/bench-pass.h
%canon_reldir%_sched_jobgroup_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_sched_jobgroup_bench_LDADD = $(BSSCHED_LIBS) $(GLIB_LIBS) -lm
CLEANFILES += %reldir%/sched-jobgroup-bench$(EXEEXT)

.PHONY: bench-jobgroup
bench-jobgroup: %reldir%/sched-jobgroup-bench$(EXEEXT)
	./%reldir%/sched-jobgroup-bench$(EXEEXT)
# sched-lease-bench: one run of the MultiCluster lease stage over 1,000
# shared leases of 64 hosts, all due at once (`make bench-lease`).
EXTRA_PROGRAMS += %reldir%/sched-lease-bench
%canon_reldir%_sched_lease_bench_SOURCES = %reldir%/sched-lease-bench.c
%canon_reldir%_sched_lease_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_sched_lease_bench_LDADD = $(BSSCHED_LIBS) $(GLIB_LIBS) -lm
CLEANFILES += %reldir%/sched-lease-bench$(EXEEXT)

.PHONY: bench-lease
bench-lease: %reldir%/sched-lease-bench$(EXEEXT)
	./%reldir%/sched-lease-bench$(EXEEXT)

# sched-cycle-bench: one full scheduling cycle, 100,000 pending jobs over
# 10,000 hosts in 50 queues (`make bench-sched`; the figure sched.cycle).
EXTRA_PROGRAMS += %reldir%/sched-cycle-bench
%canon_reldir%_sched_cycle_bench_SOURCES = %reldir%/sched-cycle-bench.c
%canon_reldir%_sched_cycle_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_sched_cycle_bench_LDADD = $(BSSCHED_LIBS) $(GLIB_LIBS) -lm
CLEANFILES += %reldir%/sched-cycle-bench$(EXEEXT)
EXTRA_DIST += %reldir%/fig/sched.sh %reldir%/fig/sched-limits.sh \
	%reldir%/fig/sched-plans.sh %reldir%/fig/sched-1m.sh \
	%reldir%/fig/sched-lib.sh

# jobgroup-clean-bench: JOB_GROUP_CLEAN's busy groups over 100,000 jobs in
# 1,110 groups, by a walk over the jobs against the per-group counts
# (`make bench-jobgroup-clean`).
EXTRA_PROGRAMS += %reldir%/jobgroup-clean-bench
%canon_reldir%_jobgroup_clean_bench_SOURCES = %reldir%/jobgroup-clean-bench.c
%canon_reldir%_jobgroup_clean_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_jobgroup_clean_bench_LDADD = mbatchd/libbsstate.a proto/libbsproto.a \
	lib/resreq/libbsresreq.a lib/job/libbsjob.a lib/util/libbsutil.a \
	$(GLIB_LIBS) $(PROTOBUF_C_LIBS)
CLEANFILES += %reldir%/jobgroup-clean-bench$(EXEEXT)

.PHONY: bench-jobgroup-clean
bench-jobgroup-clean: %reldir%/jobgroup-clean-bench$(EXEEXT)
	./%reldir%/jobgroup-clean-bench$(EXEEXT)

# consumers-input-bench: the configuration side of a snapshot with a
# 200-consumer lsb.consumers plan over 10,000 hosts, its consumer tables
# built per snapshot against kept for the configuration
# (`make bench-consumers-input`).
EXTRA_PROGRAMS += %reldir%/consumers-input-bench
%canon_reldir%_consumers_input_bench_SOURCES = %reldir%/consumers-input-bench.c
%canon_reldir%_consumers_input_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_consumers_input_bench_LDADD = mbatchd/libbsschedin.a \
	$(BSSCHED_LIBS) $(GLIB_LIBS) -lm
CLEANFILES += %reldir%/consumers-input-bench$(EXEEXT)

.PHONY: bench-consumers-input
bench-consumers-input: %reldir%/consumers-input-bench$(EXEEXT)
	./%reldir%/consumers-input-bench$(EXEEXT)

.PHONY: bench-sched
bench-sched: %reldir%/sched-cycle-bench$(EXEEXT)
	./%reldir%/sched-cycle-bench$(EXEEXT)

# The same cycle with SLOT_RESERVE and BACKFILL switched on.
.PHONY: bench-sched-reserve
bench-sched-reserve: %reldir%/sched-cycle-bench$(EXEEXT)
	./%reldir%/sched-cycle-bench$(EXEEXT) --reserve

# dep-bench: a pass's dependency evaluation, walking every job per
# reference (the old way) against the index state_apply keeps
# (`make bench-dep`).
EXTRA_PROGRAMS += %reldir%/dep-bench
%canon_reldir%_dep_bench_SOURCES = %reldir%/dep-bench.c
%canon_reldir%_dep_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_dep_bench_LDADD = mbatchd/libbsstate.a proto/libbsproto.a \
	lib/resreq/libbsresreq.a lib/job/libbsjob.a lib/util/libbsutil.a \
	$(GLIB_LIBS) $(PROTOBUF_C_LIBS)
CLEANFILES += %reldir%/dep-bench$(EXEEXT)

.PHONY: bench-dep
bench-dep: %reldir%/dep-bench$(EXEEXT)
	./%reldir%/dep-bench$(EXEEXT)

# The kill -9 soak (bench/crash-soak.sh): many rounds of mbatchd crashes
# under load; it counts lost and doubled jobs (both must be 0).
EXTRA_DIST += %reldir%/crash-soak.sh
.PHONY: bench-crash-soak
bench-crash-soak: all
	top_srcdir='$(abs_top_srcdir)' \
		$(SHELL) $(srcdir)/%reldir%/crash-soak.sh '$(abs_top_builddir)'

# MultiCluster links (bench/mc-links-recovery.sh): how fast the link
# between two clusters' masters comes up, is seen lost and comes back.
EXTRA_DIST += %reldir%/mc-links-recovery.sh
.PHONY: bench-mc-links
bench-mc-links: all
	top_srcdir='$(abs_top_srcdir)' \
		$(SHELL) $(srcdir)/%reldir%/mc-links-recovery.sh '$(abs_top_builddir)'

# bconsumers -at (bench/preview-cost.sh): a scheduling pass for the first
# ask, the cycle's cache for the asks that follow.
EXTRA_DIST += %reldir%/preview-cost.sh
.PHONY: bench-preview
bench-preview: all
	top_srcdir='$(abs_top_srcdir)' \
		$(SHELL) $(srcdir)/%reldir%/preview-cost.sh '$(abs_top_builddir)'

# loadgen: thousands of emulated execution hosts and many users against a
# real mbatchd (bench/loadgen.h).  A check program rather than an
# EXTRA_PROGRAM because tests/integration/t0400-loadgen.sh drives it in
# `make check` (so CI compiles it on every run); the figure scripts
# (bench/fig/query.sh, memory.sh) use it through `make bench`.
check_PROGRAMS += %reldir%/loadgen
%canon_reldir%_loadgen_SOURCES = %reldir%/loadgen.c %reldir%/loadgen.h \
	%reldir%/loadgen-hosts.c %reldir%/loadgen-clients.c
%canon_reldir%_loadgen_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_loadgen_LDADD = cmd/libbscmd.a lib/job/libbsjob.a lib/resreq/libbsresreq.a lib/api/libbsapi.a \
	lib/auth/libbsauth.a lib/rpc/libbsrpc.a proto/libbsproto.a \
	lib/util/libbsutil.a $(GLIB_LIBS) $(PROTOBUF_C_LIBS) $(MUNGE_LIBS) -lm
$(%canon_reldir%_loadgen_OBJECTS): $(PROTO_GEN_H)

# The figure scripts of the query and memory figures (bench/fig/).
EXTRA_DIST += %reldir%/fig/query.sh %reldir%/fig/query-1m.sh %reldir%/fig/memory.sh
.PHONY: bench-loadgen
bench-loadgen: all %reldir%/loadgen$(EXEEXT)

# ---- end-to-end figures (bench/fig/*.sh, one run per invocation) ----------
# submit.sh: bsub rate against the /bin/true floor; latency.sh: submit to
# start on an idle host; drain.sh: 10,000 `true` jobs on 4 virtual hosts
# against sbatchd's own fork/exec floor (forkexec-floor).
EXTRA_DIST += %reldir%/fig/submit.sh %reldir%/fig/latency.sh %reldir%/fig/blaunch.sh \
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

# journal-fill: the journal a busy mbatchd would have written, for the
# restart figures (bench/fig/restart.sh, restart-live.sh).
EXTRA_PROGRAMS += %reldir%/journal-fill
%canon_reldir%_journal_fill_SOURCES = %reldir%/journal-fill.c
%canon_reldir%_journal_fill_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_journal_fill_LDADD = lib/journal/libbsjournal.a \
	proto/libbsproto.a lib/util/libbsutil.a $(GLIB_LIBS) $(PROTOBUF_C_LIBS)
CLEANFILES += %reldir%/journal-fill$(EXEEXT)
EXTRA_DIST += %reldir%/fig/restart.sh %reldir%/fig/restart-live.sh \
	%reldir%/fig/restart-lib.sh

# The harness.  Both build every program a figure needs first: the daemons
# and commands (all) and every bench/ program, whether an EXTRA_PROGRAM or
# a check_PROGRAM (expanded when the recipe runs, so entries added further
# down count too).
# Options: BENCH_ONLY=submit,latency BENCH_RUNS=N BENCH_TIMEOUT=S
# BENCH_TMPDIR=DIR (see bench/run-bench.sh).
EXTRA_DIST += %reldir%/run-bench.sh %reldir%/figures.tsv %reldir%/README.md
BENCH_ENV = top_builddir='$(abs_top_builddir)' top_srcdir='$(abs_top_srcdir)' \
	BENCH_ONLY='$(BENCH_ONLY)' BENCH_RUNS='$(BENCH_RUNS)' \
	BENCH_TIMEOUT='$(BENCH_TIMEOUT)' BENCH_TMPDIR='$(BENCH_TMPDIR)'
.PHONY: bench bench-smoke bench-programs
bench-programs:
	@$(MAKE) $(AM_MAKEFLAGS) all \
	    $(filter %reldir%/%,$(EXTRA_PROGRAMS) $(check_PROGRAMS))
bench: bench-programs
	$(BENCH_ENV) BENCH_SMOKE=0 $(SHELL) $(srcdir)/%reldir%/run-bench.sh
# Every figure script once at tiny sizes: fails if a script fails or a
# figure of bench/figures.tsv prints no result.  No timing is judged.
bench-smoke: bench-programs
	$(BENCH_ENV) BENCH_SMOKE=1 $(SHELL) $(srcdir)/%reldir%/run-bench.sh

CLEANFILES += %reldir%/results.md %reldir%/results-smoke.md \
	%reldir%/logs/* %reldir%/logs-smoke/*

# The in-process micro benchmarks, each with its own report.
.PHONY: bench-micro
bench-micro: bench-journal bench-preempt bench-pool bench-dep bench-lease bench-jobgroup \
	bench-consumers-input bench-jobgroup-clean
