# mbatchd: the master daemon.  sched/ is the pure scheduling core (no I/O),
# built as its own library so tests and benchmarks link it alone.
noinst_LIBRARIES += %reldir%/libbssched.a
%canon_reldir%_libbssched_a_SOURCES = \
	%reldir%/sched/sched.h %reldir%/sched/sched.c \
	%reldir%/sched/count.h %reldir%/sched/count.c \
	%reldir%/sched/pass.h %reldir%/sched/preempt.h \
	%reldir%/sched/preempt.c %reldir%/sched/preempt-onehost.c \
	%reldir%/sched/preempt-cand.c %reldir%/sched/preempt-relief.c \
	%reldir%/sched/preempt-try.h %reldir%/sched/relation.c \
	%reldir%/sched/resume.c %reldir%/sched/reason.c \
	%reldir%/sched/pool.c %reldir%/sched/pool-hosts.c \
	%reldir%/sched/pool-hosts.h %reldir%/sched/pool-need.c \
	%reldir%/sched/pool-need.h %reldir%/sched/open.c \
	%reldir%/sched/prehosts.c %reldir%/sched/resreq-host.c \
	%reldir%/sched/plan.c %reldir%/sched/window.c %reldir%/sched/plan-window.c \
	%reldir%/sched/stage-entitle.c %reldir%/sched/stage-order.c \
	%reldir%/sched/stage-place.c %reldir%/sched/stage-preempt.c \
	%reldir%/sched/shape-memo.h %reldir%/sched/shape-memo.c \
	%reldir%/sched/limits.c \
	%reldir%/sched/stage-limits.h %reldir%/sched/stage-limits.c \
	%reldir%/sched/stage-reserve.c %reldir%/sched/reserve.h \
	%reldir%/sched/exclusive.c %reldir%/sched/deadline.c \
	%reldir%/sched/jobgroup-limit.c \
	%reldir%/sched/sched-consumers.h %reldir%/sched/stage-hybrid.c \
	%reldir%/sched/sched-reclaim.h %reldir%/sched/stage-reclaim.c \
	%reldir%/sched/hybrid.h %reldir%/sched/hybrid-quota.c %reldir%/sched/hybrid-place.c \
	%reldir%/sched/hybrid-hosts.c \
	%reldir%/sched/lease.h %reldir%/sched/lease.c \
	%reldir%/sched/stage-lease.c

# What links libbssched.a needs with it: -R evaluation and time windows.
BSSCHED_LIBS = %reldir%/libbssched.a lib/conf/libbsconf.a \
	lib/resreq/libbsresreq.a lib/util/libbsutil.a

# The configuration side of the snapshot (hosts, queues, pools, users),
# shared by the daemon and the policy scenarios (tests/sched, bscenario).
noinst_LIBRARIES += %reldir%/libbsschedin.a
%canon_reldir%_libbsschedin_a_SOURCES = \
	%reldir%/sched-input.h %reldir%/sched-input.c \
	%reldir%/limits-input.c %reldir%/jobgroup-input.c \
	%reldir%/consumers-input.c %reldir%/plan-reload.h %reldir%/plan-reload.c
%canon_reldir%_libbsschedin_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)

# state/: the tables and state_apply(), the only mutator.
noinst_LIBRARIES += %reldir%/libbsstate.a
%canon_reldir%_libbsstate_a_SOURCES = \
	%reldir%/state/state.h %reldir%/state/state.c %reldir%/state/apply.c \
	%reldir%/state/export.c %reldir%/state/depindex.c \
	%reldir%/state/tokens.c %reldir%/state/messages.c \
	%reldir%/state/jobgroups.c \
	%reldir%/state/leases.c \
	%reldir%/state/lease-wire.h %reldir%/state/lease-wire.c

# effective.c: a job's effective parameters from its spec and the
# configuration, without a Manager, so tests and tools link it alone.
noinst_LIBRARIES += %reldir%/libbseffective.a
%canon_reldir%_libbseffective_a_SOURCES = \
	%reldir%/effective.h %reldir%/effective.c \
	%reldir%/effective-prepost.h %reldir%/effective-prepost.c
%canon_reldir%_libbseffective_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)

# The daemon.
sbin_PROGRAMS += %reldir%/mbatchd
%canon_reldir%_mbatchd_SOURCES = \
	%reldir%/mbd.c %reldir%/mbd.h %reldir%/mbd-manager.c \
	%reldir%/mbd-jobgroups.c \
	%reldir%/mbd-events.c %reldir%/mbd-journal.c %reldir%/mbd-hosts.c \
	%reldir%/mbd-acct.h %reldir%/mbd-acct.c %reldir%/acct-record.c \
	%reldir%/events-record.c \
	%reldir%/mbd-snapshot.h %reldir%/mbd-snapshot.c %reldir%/mbd-dispatch.c \
	%reldir%/mbd-reserve.h %reldir%/mbd-reserve.c \
	%reldir%/mbd-usage.c %reldir%/mbd-users.c %reldir%/mbd-auth.c \
	%reldir%/mc-links.h %reldir%/mc-links.c %reldir%/mc-hello.h %reldir%/mc-hello.c %reldir%/mc-journal.c \
	%reldir%/mc-leased.h %reldir%/mc-leased.c \
	%reldir%/mc-lease.h %reldir%/mc-lease.c \
	%reldir%/mc-lease-int.h %reldir%/mc-lease-consumer.c \
	%reldir%/mc-jobs.h %reldir%/mc-jobs-provider.c %reldir%/mc-jobs-consumer.c \
	%reldir%/mbd-orders.h %reldir%/mbd-orders.c %reldir%/mbd-tasks.c \
	%reldir%/mbd-prepost.h %reldir%/mbd-prepost.c \
	%reldir%/mbd-refused.h %reldir%/mbd-refused.c \
	%reldir%/svc/svc.h %reldir%/svc/common.c %reldir%/svc/submit.c \
	%reldir%/svc/query.c %reldir%/svc/job-row.h %reldir%/svc/job-row.c \
	%reldir%/svc/control.c %reldir%/svc/admin.c \
	%reldir%/svc/select.c %reldir%/svc/bounds.c %reldir%/svc/sight.c \
	%reldir%/svc/history.c %reldir%/svc/showconf.c \
	%reldir%/svc/wait.c %reldir%/svc/messages.c \
	%reldir%/svc/jobgroups.c \
	%reldir%/svc/limits.c %reldir%/svc/modify-started.c \
	%reldir%/svc/consumers.c \
	%reldir%/mbd-consumers.h %reldir%/mbd-consumers.c \
	%reldir%/mbd-preview.h %reldir%/mbd-preview.c \
	%reldir%/mbd-preview-cache.c \
	%reldir%/svc/clusters.c
%canon_reldir%_mbatchd_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_mbatchd_LDADD = %reldir%/libbseffective.a \
	%reldir%/libbsstate.a %reldir%/libbsschedin.a %reldir%/libbssched.a \
	lib/journal/libbsjournal.a \
	lib/conf/libbsconf.a lib/resreq/libbsresreq.a lib/job/libbsjob.a \
	lib/auth/libbsauth.a $(BSRPC_LIBS) $(MUNGE_LIBS) -lm
