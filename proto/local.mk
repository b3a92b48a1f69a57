# C from the .proto files is generated into the build tree, never committed.
PROTO_FILES = %reldir%/rpc.proto %reldir%/common.proto %reldir%/batch.proto \
	%reldir%/host.proto %reldir%/cluster.proto
PROTO_GEN_C = $(PROTO_FILES:%reldir%/%.proto=%reldir%/%.pb-c.c)
PROTO_GEN_H = $(PROTO_FILES:%reldir%/%.proto=%reldir%/%.pb-c.h)

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
nodist_%canon_reldir%_libbsproto_a_SOURCES = $(PROTO_GEN_C) $(PROTO_GEN_H)
%canon_reldir%_libbsproto_a_CFLAGS = $(AM_CFLAGS) -Wno-missing-prototypes
