# log/: the durable event journal (segments, group commit, snapshots,
# recovery, check/salvage, history reader).  Depends on lib/util and the
# generated protobuf code only, so commands (bhist, bacct, badmin) link it.
noinst_LIBRARIES += %reldir%/libbslog.a
%canon_reldir%_libbslog_a_SOURCES = \
	%reldir%/evlog.h %reldir%/evlog.c \
	%reldir%/format.h %reldir%/format.c \
	%reldir%/journal.h %reldir%/files.c %reldir%/recover.c \
	%reldir%/repair.h %reldir%/repair.c %reldir%/reader.c \
	%reldir%/snapshot.h %reldir%/snapshot.c
%canon_reldir%_libbslog_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
