# Small helpers every program uses: logging and the error domain.
noinst_LIBRARIES += %reldir%/libbsutil.a
%canon_reldir%_libbsutil_a_SOURCES = \
	%reldir%/error.c %reldir%/error.h \
	%reldir%/log.c %reldir%/log.h \
	%reldir%/crc32c.c %reldir%/crc32c.h
