# check suites for lib/rpc
check_PROGRAMS += %reldir%/check_frame
TESTS += %reldir%/check_frame
%canon_reldir%_check_frame_SOURCES = %reldir%/check_frame.c
%canon_reldir%_check_frame_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_frame_LDADD = $(BSRPC_LIBS) $(TEST_LIBS)
