# lib/journal: the durable event journal (segments, group commit,
# checkpoints, recovery, check/salvage, history reader).  A library, not a
# part of mbatchd: it depends on lib/util and the generated protobuf code
# only, so the daemon and the commands (bhist, bacct, badmin) link the same
# code and cannot disagree about the format.
noinst_LIBRARIES += %reldir%/libbsjournal.a
%canon_reldir%_libbsjournal_a_SOURCES = \
	%reldir%/evlog.h %reldir%/evlog.c \
	%reldir%/format.h %reldir%/format.c \
	%reldir%/readback.h %reldir%/files.c %reldir%/recover.c \
	%reldir%/repair.h %reldir%/repair.c %reldir%/reader.c \
	%reldir%/checkpoint.h %reldir%/checkpoint.c \
	%reldir%/skip.h %reldir%/skip.c
