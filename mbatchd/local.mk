# mbatchd: the master daemon.  sched/ is the pure scheduling core (no I/O),
# built as its own library so tests and benchmarks link it alone.
noinst_LIBRARIES += %reldir%/libbssched.a
%canon_reldir%_libbssched_a_SOURCES = \
	%reldir%/sched/sched.h %reldir%/sched/sched.c \
	%reldir%/sched/count.h %reldir%/sched/count.c \
	%reldir%/sched/reason.c

# state/: the tables and state_apply(), the only mutator.
noinst_LIBRARIES += %reldir%/libbsstate.a
%canon_reldir%_libbsstate_a_SOURCES = \
	%reldir%/state/state.h %reldir%/state/state.c %reldir%/state/apply.c
