# lib/api and the command programs as subprocesses against a fake mbatchd
# (a real bs_rpc_server in the test process).  The programs are bin_PROGRAMS,
# built by `all` before `check` runs this.
check_PROGRAMS += %reldir%/check_api
TESTS += %reldir%/check_api
%canon_reldir%_check_api_SOURCES = %reldir%/check_api.c %reldir%/cmd-run.h \
	%reldir%/fake-mbd.c %reldir%/fake-mbd.h
%canon_reldir%_check_api_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/cmd
%canon_reldir%_check_api_LDADD = lib/api/libbsapi.a lib/auth/libbsauth.a \
	$(BSRPC_LIBS) $(MUNGE_LIBS) \
	cmd/libbscmd.a lib/job/libbsjob.a lib/resreq/libbsresreq.a proto/libbsproto.a lib/util/libbsutil.a $(TEST_LIBS) -lm
