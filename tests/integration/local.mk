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
	%reldir%/t0300-pool.sh \
	%reldir%/t0305-pool-limits.sh \
	%reldir%/t0310-windows.sh \
	%reldir%/t0320-resreq.sh \
	%reldir%/t0400-loadgen.sh
# Crash, torn and damaged journal, full disk, both daemons restarted.
INTEGRATION_TESTS += \
	%reldir%/t0110-kill9-soak.sh \
	%reldir%/t0120-torn-journal.sh \
	%reldir%/t0130-flipped-byte.sh \
	%reldir%/t0140-disk-full.sh \
	%reldir%/t0150-both-restart.sh
# Issue 11: orders commit before they leave, job instances.
INTEGRATION_TESTS += \
	%reldir%/t0145-disk-full-window.sh \
	%reldir%/t0160-preempt-race.sh \
	%reldir%/t0170-ghost.sh \
	%reldir%/t0180-start-order-limit.sh
TESTS += $(INTEGRATION_TESTS)
EXTRA_DIST += $(INTEGRATION_TESTS)
SH_LOG_COMPILER = $(SHELL)
