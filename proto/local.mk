# C from the .proto files is generated into the build tree, never committed.
# automake derives object names at automake time, so the generated files are
# listed literally rather than computed from PROTO_FILES.
PROTO_FILES = %reldir%/rpc.proto %reldir%/common.proto %reldir%/batch.proto \
	%reldir%/host.proto %reldir%/cluster.proto %reldir%/event.proto \
	%reldir%/interactive.proto
PROTO_GEN_C = %reldir%/rpc.pb-c.c %reldir%/common.pb-c.c %reldir%/batch.pb-c.c \
	%reldir%/host.pb-c.c %reldir%/cluster.pb-c.c %reldir%/event.pb-c.c \
	%reldir%/interactive.pb-c.c
PROTO_GEN_H = %reldir%/rpc.pb-c.h %reldir%/common.pb-c.h %reldir%/batch.pb-c.h \
	%reldir%/host.pb-c.h %reldir%/cluster.pb-c.h %reldir%/event.pb-c.h \
	%reldir%/interactive.pb-c.h

EXTRA_DIST += $(PROTO_FILES)
BUILT_SOURCES += $(PROTO_GEN_H) $(PROTO_GEN_C)
CLEANFILES += $(PROTO_GEN_H) $(PROTO_GEN_C) %reldir%/proto.stamp

# One protoc-c run produces every file; the stamp keeps make from running it
# once per output.
%reldir%/proto.stamp: $(PROTO_FILES:%=$(srcdir)/%)
	@$(MKDIR_P) %reldir%
	$(AM_V_GEN)$(PROTOC_C) --proto_path=$(srcdir)/%reldir% \
		--c_out=%reldir% $(PROTO_FILES:%=$(srcdir)/%)
	@touch $@
$(PROTO_GEN_C) $(PROTO_GEN_H): %reldir%/proto.stamp

noinst_LIBRARIES += %reldir%/libbsproto.a
nodist_%canon_reldir%_libbsproto_a_SOURCES = \
	%reldir%/rpc.pb-c.c %reldir%/common.pb-c.c %reldir%/batch.pb-c.c \
	%reldir%/host.pb-c.c %reldir%/cluster.pb-c.c %reldir%/event.pb-c.c \
	%reldir%/interactive.pb-c.c
%canon_reldir%_libbsproto_a_CFLAGS = $(AM_CFLAGS) -Wno-missing-prototypes
