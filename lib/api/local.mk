# lib/api: the client API the commands share (lsb_*): finding mbatchd
# through LSF_ENVDIR and lsf.conf, and calling its BatchService.  Links
# lib/rpc's blocking client only: no GIO, no configuration reader.
noinst_LIBRARIES += %reldir%/libbsapi.a
%canon_reldir%_libbsapi_a_SOURCES = %reldir%/api.c %reldir%/api.h %reldir%/jobs.c \
	%reldir%/remote.c %reldir%/remote.h \
	%reldir%/escape-msg.c %reldir%/arena.c %reldir%/arena.h
$(%canon_reldir%_libbsapi_a_OBJECTS): $(PROTO_GEN_H)

# What a program links to use lib/api, in dependency order.
BSAPI_LIBS = lib/api/libbsapi.a lib/auth/libbsauth.a lib/rpc/libbsrpc.a \
	proto/libbsproto.a lib/util/libbsutil.a $(GLIB_LIBS) $(PROTOBUF_C_LIBS) \
	$(MUNGE_LIBS)
