# lib/iact: the interactive link's framing and credentials (bsub -I*).
# Plain C with protobuf-c and libmunge only, no GLib: bs-jobwrap links it.
noinst_LIBRARIES += %reldir%/libbsiact.a
%canon_reldir%_libbsiact_a_SOURCES = %reldir%/iact-wire.c %reldir%/iact-wire.h
%canon_reldir%_libbsiact_a_CFLAGS = $(AM_CFLAGS) $(MUNGE_CFLAGS)
$(%canon_reldir%_libbsiact_a_OBJECTS): $(PROTO_GEN_H)
BSIACT_LIBS = lib/iact/libbsiact.a proto/libbsproto.a $(PROTOBUF_C_LIBS) $(MUNGE_LIBS)
