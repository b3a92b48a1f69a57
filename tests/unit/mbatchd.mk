check_PROGRAMS += %reldir%/check_sched
TESTS += %reldir%/check_sched
%canon_reldir%_check_sched_SOURCES = %reldir%/check_sched.c
%canon_reldir%_check_sched_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_sched_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_sched_LDADD = $(BSSCHED_LIBS) $(TEST_LIBS) -lm

# The per-shape memo of a placement pass (mbatchd/sched/shape-memo.c).
check_PROGRAMS += %reldir%/check_shape_memo
TESTS += %reldir%/check_shape_memo
%canon_reldir%_check_shape_memo_SOURCES = %reldir%/check_shape_memo.c
%canon_reldir%_check_shape_memo_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_shape_memo_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_shape_memo_LDADD = $(BSSCHED_LIBS) $(TEST_LIBS) -lm

# Queue-based fairshare over many passes: decayed usage keeps each pool
# queue at its share (the real scheduler in a simulated loop).
check_PROGRAMS += %reldir%/check_pool_usage
TESTS += %reldir%/check_pool_usage
%canon_reldir%_check_pool_usage_SOURCES = %reldir%/check_pool_usage.c
%canon_reldir%_check_pool_usage_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_pool_usage_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_pool_usage_LDADD = $(BSSCHED_LIBS) $(TEST_LIBS) -lm

check_PROGRAMS += %reldir%/check_state
TESTS += %reldir%/check_state
%canon_reldir%_check_state_SOURCES = %reldir%/check_state.c
%canon_reldir%_check_state_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_state_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_state_LDADD = mbatchd/libbsstate.a proto/libbsproto.a \
	lib/resreq/libbsresreq.a lib/job/libbsjob.a \
	lib/util/libbsutil.a $(TEST_LIBS)

# Masked JobInfo rows packed by hand, byte for byte as protobuf-c packs them.
check_PROGRAMS += %reldir%/check_job_row
TESTS += %reldir%/check_job_row
%canon_reldir%_check_job_row_SOURCES = %reldir%/check_job_row.c \
	mbatchd/svc/job-row.c
%canon_reldir%_check_job_row_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_job_row_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_job_row_LDADD = proto/libbsproto.a lib/util/libbsutil.a \
	$(TEST_LIBS)

check_PROGRAMS += %reldir%/check_depindex
TESTS += %reldir%/check_depindex
%canon_reldir%_check_depindex_SOURCES = %reldir%/check_depindex.c
%canon_reldir%_check_depindex_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_depindex_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_depindex_LDADD = mbatchd/libbsstate.a proto/libbsproto.a \
	lib/resreq/libbsresreq.a lib/job/libbsjob.a \
	lib/util/libbsutil.a $(TEST_LIBS)

# mbatchd/sched stays closed: no daemon header, no daemon symbol.
TESTS += %reldir%/sched-closed.sh
EXTRA_DIST += %reldir%/sched-closed.sh

# effective.c: the precedence of a job's effective parameters.  Reads its
# configuration from conf-data like the lib/conf suites.
check_PROGRAMS += %reldir%/check_effective
TESTS += %reldir%/check_effective
%canon_reldir%_check_effective_SOURCES = %reldir%/check_effective.c %reldir%/conf_test.h
%canon_reldir%_check_effective_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_effective_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_effective_LDADD = mbatchd/libbseffective.a \
	mbatchd/libbsstate.a lib/conf/libbsconf.a proto/libbsproto.a \
	lib/resreq/libbsresreq.a lib/job/libbsjob.a lib/util/libbsutil.a \
	$(TEST_LIBS)

# effective-prepost.c and EvJobPreexec: which pre/post-exec commands a
# start order carries, the retry bounds, and a pre-exec failure's effect.
check_PROGRAMS += %reldir%/check_prepost
TESTS += %reldir%/check_prepost
%canon_reldir%_check_prepost_SOURCES = %reldir%/check_prepost.c %reldir%/conf_test.h
%canon_reldir%_check_prepost_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_prepost_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_prepost_LDADD = mbatchd/libbseffective.a \
	mbatchd/libbsstate.a lib/conf/libbsconf.a proto/libbsproto.a \
	lib/resreq/libbsresreq.a lib/job/libbsjob.a lib/util/libbsutil.a \
	$(TEST_LIBS)

# mbatchd/mc-links.c: the MultiCluster link state machine between two
# in-process masters over TCP with a private munged.
check_PROGRAMS += %reldir%/check_mc_links
TESTS += %reldir%/check_mc_links
%canon_reldir%_check_mc_links_SOURCES = %reldir%/check_mc_links.c \
	%reldir%/munged-fixture.c %reldir%/munged-fixture.h \
	mbatchd/mc-links.c mbatchd/mc-links.h mbatchd/mc-hello.c mbatchd/mc-hello.h
%canon_reldir%_check_mc_links_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_mc_links_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_mc_links_LDADD = lib/conf/libbsconf.a lib/auth/libbsauth.a \
	$(BSRPC_LIBS) $(MUNGE_LIBS) $(TEST_LIBS)
$(%canon_reldir%_check_mc_links_OBJECTS): $(PROTO_GEN_H)

# Job groups: path rules, the state's group records and their replay, and
# the scheduler's limit counting.
check_PROGRAMS += %reldir%/check_jobgroups
TESTS += %reldir%/check_jobgroups
%canon_reldir%_check_jobgroups_SOURCES = %reldir%/check_jobgroups.c
%canon_reldir%_check_jobgroups_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_jobgroups_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_jobgroups_LDADD = mbatchd/libbsstate.a $(BSSCHED_LIBS) \
	proto/libbsproto.a lib/resreq/libbsresreq.a lib/job/libbsjob.a \
	lib/util/libbsutil.a $(TEST_LIBS) -lm

# lsb.consumers into the snapshot, kept per configuration
# (consumers-input.c), and the queue index by name (sched-input.c).
check_PROGRAMS += %reldir%/check_consumers_input
TESTS += %reldir%/check_consumers_input
%canon_reldir%_check_consumers_input_SOURCES = %reldir%/check_consumers_input.c \
	%reldir%/conf_test.h
%canon_reldir%_check_consumers_input_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_consumers_input_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_consumers_input_LDADD = mbatchd/libbsschedin.a \
	$(BSSCHED_LIBS) $(TEST_LIBS) -lm

# Resource plans: invariants over generated plans (stage-hybrid.c).
check_PROGRAMS += %reldir%/check_hybrid_invariants
TESTS += %reldir%/check_hybrid_invariants
%canon_reldir%_check_hybrid_invariants_SOURCES = %reldir%/check_hybrid_invariants.c
%canon_reldir%_check_hybrid_invariants_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_hybrid_invariants_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_hybrid_invariants_LDADD = $(BSSCHED_LIBS) $(TEST_LIBS) -lm

# MultiCluster leases: the lease stage's invariants, and the lease state
# journaled, replayed and checkpointed (mbatchd/state/leases.c).
check_PROGRAMS += %reldir%/check_lease
TESTS += %reldir%/check_lease
%canon_reldir%_check_lease_SOURCES = %reldir%/check_lease.c
%canon_reldir%_check_lease_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_lease_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_lease_LDADD = mbatchd/libbsstate.a $(BSSCHED_LIBS) proto/libbsproto.a \
	lib/job/libbsjob.a lib/util/libbsutil.a $(TEST_LIBS) -lm
# Resource reclaim: selection and invariants (stage-reclaim.c).
check_PROGRAMS += %reldir%/check_reclaim
TESTS += %reldir%/check_reclaim
%canon_reldir%_check_reclaim_SOURCES = %reldir%/check_reclaim.c
%canon_reldir%_check_reclaim_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_reclaim_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_reclaim_LDADD = $(BSSCHED_LIBS) $(TEST_LIBS) -lm
# Which resource groups a badmin reconfig changes (mbatchd/plan-reload.c).
check_PROGRAMS += %reldir%/check_plan_reload
TESTS += %reldir%/check_plan_reload
%canon_reldir%_check_plan_reload_SOURCES = %reldir%/check_plan_reload.c %reldir%/conf_test.h
%canon_reldir%_check_plan_reload_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_plan_reload_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_plan_reload_LDADD = mbatchd/libbsschedin.a $(BSSCHED_LIBS) $(TEST_LIBS) -lm

# lsb.acct's JOB_FINISH record: exitInfo, postExecCmd and its quoting.
check_PROGRAMS += %reldir%/check_acct_record
TESTS += %reldir%/check_acct_record
%canon_reldir%_check_acct_record_SOURCES = %reldir%/check_acct_record.c \
	mbatchd/acct-record.c
%canon_reldir%_check_acct_record_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_check_acct_record_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_acct_record_LDADD = mbatchd/libbsstate.a \
	lib/conf/libbsconf.a proto/libbsproto.a lib/resreq/libbsresreq.a \
	lib/job/libbsjob.a lib/util/libbsutil.a $(TEST_LIBS)
