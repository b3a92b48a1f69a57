# check suites for lib/rpc
check_PROGRAMS += %reldir%/check_frame
TESTS += %reldir%/check_frame
%canon_reldir%_check_frame_SOURCES = %reldir%/check_frame.c
%canon_reldir%_check_frame_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_frame_LDADD = $(BSRPC_LIBS) $(TEST_LIBS)

# Over real sockets; rpc-test.c is the shared harness.
RPC_TEST_SOURCES = %reldir%/rpc-test.c %reldir%/rpc-test.h
check_PROGRAMS += %reldir%/check_rpc
TESTS += %reldir%/check_rpc
%canon_reldir%_check_rpc_SOURCES = %reldir%/check_rpc.c $(RPC_TEST_SOURCES)
%canon_reldir%_check_rpc_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_rpc_LDADD = $(BSRPC_LIBS) $(TEST_LIBS)

check_PROGRAMS += %reldir%/check_rpc_abuse
TESTS += %reldir%/check_rpc_abuse
%canon_reldir%_check_rpc_abuse_SOURCES = %reldir%/check_rpc_abuse.c \
	$(RPC_TEST_SOURCES)
%canon_reldir%_check_rpc_abuse_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_rpc_abuse_LDADD = $(BSRPC_LIBS) $(TEST_LIBS)

# lib/auth against a private munged, and the hello exchange with its hooks.
check_PROGRAMS += %reldir%/check_auth
TESTS += %reldir%/check_auth
%canon_reldir%_check_auth_SOURCES = %reldir%/check_auth.c \
	%reldir%/munged-fixture.c %reldir%/munged-fixture.h $(RPC_TEST_SOURCES)
%canon_reldir%_check_auth_CFLAGS = $(TEST_CFLAGS)
%canon_reldir%_check_auth_LDADD = lib/auth/libbsauth.a $(BSRPC_LIBS) \
	$(MUNGE_LIBS) $(TEST_LIBS)
