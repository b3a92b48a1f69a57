# The policy scenarios: run-scenarios runs every tests/sched/*.scn (and
# refuses every bad/*.scn) as one TAP test case each.
check_PROGRAMS += %reldir%/run-scenarios
TESTS += %reldir%/run-scenarios
%canon_reldir%_run_scenarios_SOURCES = %reldir%/run-scenarios.c
%canon_reldir%_run_scenarios_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_run_scenarios_LDADD = $(SCN_LIBS)

# bscenario as a command: print, paste back, -c, exit codes.
TESTS += %reldir%/bscenario-cli.sh

# The scenario files, by name: the folder itself cannot be listed, since
# the build tree has a tests/sched of its own (objects, logs) that
# `make dist` would copy along.
EXTRA_DIST += %reldir%/README %reldir%/bscenario-cli.sh \
	$(wildcard $(srcdir)/%reldir%/*.scn) \
	$(wildcard $(srcdir)/%reldir%/bad/*.scn)
