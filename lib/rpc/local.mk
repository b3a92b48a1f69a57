# lib/rpc: frame codec, main-loop server and connections, blocking client.
# Only glib, protobuf-c and POSIX: the connections use raw fds on the
# GMainLoop (see conn.c), and client.c/frame.c stay free of GIO so the
# commands can link them without it.
noinst_LIBRARIES += %reldir%/libbsrpc.a
%canon_reldir%_libbsrpc_a_SOURCES = \
	%reldir%/frame.c %reldir%/frame.h \
	%reldir%/rpc.h %reldir%/conn-private.h \
	%reldir%/conn.c %reldir%/call.c %reldir%/server.c %reldir%/dial.c \
	%reldir%/client.c %reldir%/client.h
# The generated headers must exist before these compile.
$(%canon_reldir%_libbsrpc_a_OBJECTS): $(PROTO_GEN_H)

# FIXME(proto): proto/libbsproto.a comes out empty because automake cannot
# expand the pattern substitution in PROTO_GEN_C when it computes the
# objects; proto/local.mk needs the generated files listed literally.  Until
# then this archive supplies the generated code.  Also, protoc-c names each
# service's handler fields after its methods, and BatchService.Switch and
# HostService.Register become the C keywords `switch` and `register`: the
# -D below renames those fields so the generated code compiles at all
# (renaming the methods in the .proto, same order, is the real fix).  It sits after
# proto/libbsproto.a in BSRPC_LIBS, so once that library is fixed the linker
# takes everything from it and this one is inert; delete it then.
noinst_LIBRARIES += %reldir%/libbsproto-fallback.a
nodist_%canon_reldir%_libbsproto_fallback_a_SOURCES = \
	proto/rpc.pb-c.c proto/common.pb-c.c proto/batch.pb-c.c \
	proto/host.pb-c.c proto/cluster.pb-c.c
%canon_reldir%_libbsproto_fallback_a_CFLAGS = $(AM_CFLAGS) \
	-Wno-missing-prototypes -Dswitch=switch_ -Dregister=register_

# What a program links to use lib/rpc, in dependency order.
BSRPC_LIBS = lib/rpc/libbsrpc.a proto/libbsproto.a \
	lib/rpc/libbsproto-fallback.a lib/util/libbsutil.a \
	$(GLIB_LIBS) $(PROTOBUF_C_LIBS)
