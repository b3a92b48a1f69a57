# lib/rpc: frame codec, main-loop server and connections, blocking client.
# Only glib, protobuf-c and POSIX: the connections use raw fds on the
# GMainLoop (see conn.c), and client.c/frame.c stay free of GIO so the
# commands can link them without it.
noinst_LIBRARIES += %reldir%/libbsrpc.a
%canon_reldir%_libbsrpc_a_SOURCES = \
	%reldir%/frame.c %reldir%/frame.h \
	%reldir%/rpc.h %reldir%/conn-private.h \
	%reldir%/conn.c %reldir%/mux.c %reldir%/call.c %reldir%/server.c \
	%reldir%/dial.c %reldir%/admit.c %reldir%/admit.h \
	%reldir%/client.c %reldir%/client.h
# The generated headers must exist before these compile.
$(%canon_reldir%_libbsrpc_a_OBJECTS): $(PROTO_GEN_H)

# What a program links to use lib/rpc, in dependency order.
BSRPC_LIBS = lib/rpc/libbsrpc.a proto/libbsproto.a \
	lib/util/libbsutil.a \
	$(GLIB_LIBS) $(PROTOBUF_C_LIBS)
