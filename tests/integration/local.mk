# Integration tests: real mbatchd and sbatchd on loopback, real commands.
INTEGRATION_TESTS = \
	%reldir%/t0010-run.sh \
	%reldir%/t0020-jobctl.sh \
	%reldir%/t0030-queue-ops.sh \
	%reldir%/t0040-limits.sh \
	%reldir%/t0050-arrays-deps.sh \
	%reldir%/t0060-runlimit.sh \
	%reldir%/t0070-users.sh \
	%reldir%/t0080-sbd-restart.sh \
	%reldir%/t0090-host-fail.sh \
	%reldir%/t0100-reconfig.sh \
	%reldir%/t0200-preempt.sh \
	%reldir%/t0205-bresume-slot.sh \
	%reldir%/t0210-app.sh \
	%reldir%/t0220-effective.sh \
	%reldir%/t0230-lsb-limits.sh \
	%reldir%/t0945-lease-config.sh \
	%reldir%/t0300-pool.sh \
	%reldir%/t0302-pool-usage.sh \
	%reldir%/t0305-pool-limits.sh \
	%reldir%/t0310-windows.sh \
	%reldir%/t0320-resreq.sh \
	%reldir%/t0730-resreq-merge-units.sh \
	%reldir%/t0870-resreq-forms.sh \
	%reldir%/t0400-loadgen.sh
# Crash, torn and damaged journal, full disk, both daemons restarted.
INTEGRATION_TESTS += \
	%reldir%/t0110-kill9-soak.sh \
	%reldir%/t0115-kill9-parallel-submit.sh \
	%reldir%/t0120-torn-journal.sh \
	%reldir%/t0121-journal-prealloc.sh \
	%reldir%/t0125-replay-skip.sh \
	%reldir%/t0126-checkpoint-env.sh \
	%reldir%/t0130-flipped-byte.sh \
	%reldir%/t0140-disk-full.sh \
	%reldir%/t0150-both-restart.sh
# Issue 11: orders commit before they leave, job instances.
INTEGRATION_TESTS += \
	%reldir%/t0145-disk-full-window.sh \
	%reldir%/t0160-preempt-race.sh \
	%reldir%/t0170-ghost.sh \
	%reldir%/t0180-start-order-limit.sh
# Issue 13: bounded cost per client (rpc-abuser plays the bad client).
check_PROGRAMS += %reldir%/rpc-abuser
%canon_reldir%_rpc_abuser_SOURCES = %reldir%/rpc-abuser.c
%canon_reldir%_rpc_abuser_CFLAGS = $(AM_CFLAGS) $(GLIB_CFLAGS) $(PROTOBUF_C_CFLAGS)
%canon_reldir%_rpc_abuser_LDADD = $(BSRPC_LIBS)
INTEGRATION_TESTS += \
	%reldir%/t0540-huge-query.sh \
	%reldir%/t0550-idle-flood.sh \
	%reldir%/t0560-slow-readers.sh \
	%reldir%/t0570-job-sight.sh \
	%reldir%/t0580-history-sight.sh
# Issue 13: the execution host trusts a user name; bpeek reads as the user;
# names cannot forge log lines or listing rows; no job is submitted twice.
INTEGRATION_TESTS += \
	%reldir%/t0600-exec-user.sh \
	%reldir%/t0610-names.sh \
	%reldir%/t0620-submit-retry.sh
# Issue 14: a job's life on its host: interpreter, paths, report, environment.
INTEGRATION_TESTS += \
	%reldir%/t0670-job-script.sh \
	%reldir%/t0675-job-paths.sh \
	%reldir%/t0680-job-report.sh \
	%reldir%/t0685-job-env.sh
# Issue 14 item 7: blaunch, tasks on every host of a parallel job.
INTEGRATION_TESTS += \
	%reldir%/t0690-blaunch.sh \
	%reldir%/t0700-mpi.sh \
	%reldir%/t0701-mpich.sh
# Issue 14: limits applied on the host, accounting.
INTEGRATION_TESTS += \
	%reldir%/t0630-memlimit.sh \
	%reldir%/t0635-rlimits.sh \
	%reldir%/t0636-cpulimit.sh
# Issue 15: bjobs -o/-json fields, selection options, lsid layout.
INTEGRATION_TESTS += \
	%reldir%/t0750-bjobs-o.sh \
	%reldir%/t0751-bjobs-json.sh \
	%reldir%/t0752-bjobs-select.sh \
	%reldir%/t0753-lsid.sh \
	%reldir%/t0754-bjobs-name-sight.sh \
	%reldir%/t0755-bjobs-fields.sh \
	%reldir%/t0756-bjobs-pages.sh
# Issue 15: status commands (bqueues, bhosts, bslots, ... as LSF 10.1).
INTEGRATION_TESTS += \
	%reldir%/t0810-bqueues-o.sh \
	%reldir%/t0811-bhosts-o.sh \
	%reldir%/t0812-groups-app.sh \
	%reldir%/t0813-bjdepinfo.sh \
	%reldir%/t0814-bslots.sh \
	%reldir%/t0815-bacct-opts.sh
# Issue 15: workflow engines' LSF command lines, replayed.
INTEGRATION_TESTS += \
	%reldir%/t0830-engine-nextflow.sh \
	%reldir%/t0831-engine-dask.sh \
	%reldir%/t0832-engine-parsl.sh \
	%reldir%/t0833-engine-snakemake.sh \
	%reldir%/t0834-engine-cromwell.sh \
	%reldir%/t0835-engine-snakemake-profile.sh
# Issue 15: job groups (bgadd, bgmod, bgdel, bjgroup, bsub -g, limits).
INTEGRATION_TESTS += \
	%reldir%/t0880-jobgroups.sh
# Issue 15: job messages (bpost, bread).
INTEGRATION_TESTS += \
	%reldir%/t0860-bpost.sh
# Issue 15: bkill -b -stat -app -g.
INTEGRATION_TESTS += \
	%reldir%/t0850-bkill-opts.sh \
	%reldir%/t0851-badmin-hist.sh
# Issue 15: bmod of running jobs, badmin hrestart/hshutdown/hstartup.
INTEGRATION_TESTS += \
	%reldir%/t0890-bmod-running.sh \
	%reldir%/t0891-badmin-hosts.sh
# Issue 15: accounting files and cluster commands for tools written for LSF.
INTEGRATION_TESTS += \
	%reldir%/t0790-lsb-acct.sh \
	%reldir%/t0791-profile-lsf.sh \
	%reldir%/t0792-ls-cmds.sh \
	%reldir%/t0793-bwait.sh \
	%reldir%/t0794-lsb-events.sh
# Issue 12: slot reservation and backfill.
INTEGRATION_TESTS += \
	%reldir%/t0330-reserve.sh
# Issue 14 item 2 and 10: pre/post-exec, JOB_CONTROLS commands,
# JOB_STARTER, a job refused on its host.
INTEGRATION_TESTS += \
	%reldir%/t0650-preexec-hosts.sh \
	%reldir%/t0651-preexec-retry.sh \
	%reldir%/t0652-postexec.sh \
	%reldir%/t0995-prepost-user.sh \
	%reldir%/t0653-jobctl-cmd.sh \
	%reldir%/t0654-job-starter.sh \
	%reldir%/t0655-refused.sh
# Issue 14 item 8: submission options -x, -t, -sp (-We), -L.
INTEGRATION_TESTS += \
	%reldir%/t0710-exclusive.sh \
	%reldir%/t0711-termtime.sh \
	%reldir%/t0712-user-priority.sh \
	%reldir%/t0713-login-shell.sh
TESTS += $(INTEGRATION_TESTS)
EXTRA_DIST += $(INTEGRATION_TESTS) %reldir%/mpi-common.sh
SH_LOG_COMPILER = $(SHELL)
# Issue 13: trust.  bs-fakepeer plays the hostile host, master and client.
check_PROGRAMS += tests/tools/bs-fakepeer
tests_tools_bs_fakepeer_SOURCES = tests/tools/bs-fakepeer.c
tests_tools_bs_fakepeer_LDADD = lib/auth/libbsauth.a $(BSRPC_LIBS) $(MUNGE_LIBS)
$(tests_tools_bs_fakepeer_OBJECTS): $(PROTO_GEN_H)
INTEGRATION_TESTS += \
	%reldir%/t0500-fake-host.sh \
	%reldir%/t0510-fake-master.sh \
	%reldir%/t0520-remote.sh
# Issue 16: interactive jobs.  bs-ptydrive types at a real pseudo-terminal.
INTEGRATION_TESTS += \
	%reldir%/t0770-interactive-shell.sh \
	%reldir%/t0771-interactive-pipes.sh \
	%reldir%/t0772-interactive-stream.sh \
	%reldir%/t0773-interactive-kill.sh \
	%reldir%/t0774-interactive-auth.sh \
	%reldir%/t0775-interactive-local.sh \
	%reldir%/t0776-interactive-impostor.sh \
	%reldir%/t0777-interactive-suspend.sh \
	%reldir%/t0778-interactive-limits.sh \
	%reldir%/t0779-interactive-pending.sh
EXTRA_DIST += tests/tools/bs-ptydrive.py tests/tools/bs-iafake.py
# Issue 17: resource plans (lsb.consumers, bsub -consumer, bconsumers).
INTEGRATION_TESTS += \
	%reldir%/t0900-consumers-surface.sh \
	%reldir%/t0901-consumers-quota.sh \
	%reldir%/t0960-reclaim-notice.sh \
	%reldir%/t0961-reclaim-hclose.sh \
	%reldir%/t0962-warning-runlimit.sh \
	%reldir%/t0980-plan-window-switch.sh \
	%reldir%/t0981-reconfig-preview.sh \
	%reldir%/t1040-plan-change-no-demand.sh \
	%reldir%/t1041-reconfig-unchanged-plan.sh
# Issue 19: MultiCluster links between mbatchds (two and three clusters on
# loopback).  bs-fakecluster plays a stranger dialing as another master.
check_PROGRAMS += tests/tools/bs-fakecluster
tests_tools_bs_fakecluster_SOURCES = tests/tools/bs-fakecluster.c
tests_tools_bs_fakecluster_LDADD = lib/auth/libbsauth.a $(BSRPC_LIBS) $(MUNGE_LIBS)
$(tests_tools_bs_fakecluster_OBJECTS): $(PROTO_GEN_H)
INTEGRATION_TESTS += \
	%reldir%/t0930-mc-two-clusters.sh \
	%reldir%/t0931-mc-three-clusters.sh \
	%reldir%/t0932-mc-stranger.sh \
	%reldir%/t0933-mc-hung-master.sh
# Issue 19: leases on live links (mbatchd/mc-lease.c, mc-leased.c).
# bs-fakeconsumer plays a consumer whose running slots a test sets.
check_PROGRAMS += tests/tools/bs-fakeconsumer
tests_tools_bs_fakeconsumer_SOURCES = tests/tools/bs-fakeconsumer.c
tests_tools_bs_fakeconsumer_LDADD = lib/auth/libbsauth.a $(BSRPC_LIBS) $(MUNGE_LIBS)
$(tests_tools_bs_fakeconsumer_OBJECTS): $(PROTO_GEN_H)
INTEGRATION_TESTS += \
	%reldir%/t1000-lease-exclusive.sh \
	%reldir%/t1001-lease-shared-faults.sh \
	%reldir%/t1002-lease-rebalance.sh \
	%reldir%/t1003-lease-consumer-trust.sh \
	%reldir%/t1004-lease-res-select-once.sh
# Issue 19: the job relay to leased hosts (consumer and provider mbatchds,
# the provider's sbatchd).
INTEGRATION_TESTS += \
	%reldir%/t1020-mc-job-relay.sh \
	%reldir%/t1021-mc-relay-link-cut.sh \
	%reldir%/t1022-mc-relay-restarts.sh \
	%reldir%/t1023-mc-relay-host-fail.sh \
	%reldir%/t1024-mc-relay-lost-answer.sh \
	%reldir%/t1025-mc-shared-relay.sh \
	%reldir%/t1026-mc-shared-provider-restart.sh \
	%reldir%/t1027-mc-relay-preexec.sh \
	%reldir%/t1030-mc-hist-lease.sh
# The test library itself: its exit trap under a lingering process.
INTEGRATION_TESTS += \
	%reldir%/t0990-cleanup-user-procs.sh
# bsub -I keeps a quick job's output when its own write to the link fails.
INTEGRATION_TESTS += \
	%reldir%/t0991-interactive-quick-end.sh
# A closed terminal kills an -Is job, also when bsub reads its end first.
INTEGRATION_TESTS += \
	%reldir%/t0992-interactive-hangup.sh
# Review findings: bconsumers -at's cost bounded, job groups per user,
# bmod -Ep/-Epn of a running job and LSB_PRE_POST_EXEC_USER.
INTEGRATION_TESTS += \
	%reldir%/t1050-preview-bounded.sh \
	%reldir%/t1051-jobgroup-per-user.sh \
	%reldir%/t1052-bmod-postexec-user.sh
