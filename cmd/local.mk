# cmd: the transport-free halves of the user commands (argument parsing
# into request messages, output formatting from replies).  The programs'
# main() functions come with the client library.
noinst_LIBRARIES += %reldir%/libbscmd.a
%canon_reldir%_libbscmd_a_SOURCES = \
	%reldir%/cmd-util.c %reldir%/cmd-util.h \
	%reldir%/jobctl-format.c %reldir%/jobctl-format.h \
	%reldir%/select-args.c %reldir%/select-args.h \
	%reldir%/bsub-args.c %reldir%/bsub-args.h \
	%reldir%/bjobs-format.c %reldir%/bjobs-fields.c %reldir%/bjobs-format.h \
	%reldir%/bqueues-format.c %reldir%/bqueues-format.h \
	%reldir%/bhosts-format.c %reldir%/busers-format.c \
	%reldir%/bparams-format.c \
	%reldir%/pb.h

# What a program links to use cmd/, in dependency order.
BSCMD_LIBS = cmd/libbscmd.a proto/libbsproto.a \
	lib/util/libbsutil.a $(GLIB_LIBS) $(PROTOBUF_C_LIBS)

# The generated headers must exist before these compile.
$(%canon_reldir%_libbscmd_a_OBJECTS): $(PROTO_GEN_H)
