# Small helpers every program uses: logging, the error domain and escaping.
noinst_LIBRARIES += %reldir%/libbsutil.a
%canon_reldir%_libbsutil_a_SOURCES = \
	%reldir%/error.c %reldir%/error.h \
	%reldir%/log.c %reldir%/log.h \
	%reldir%/escape.c %reldir%/escape.h \
	%reldir%/warning.c %reldir%/warning.h \
	%reldir%/crc32c.c %reldir%/crc32c.h \
	%reldir%/memunit.c %reldir%/memunit.h \
	%reldir%/writeall.c %reldir%/writeall.h
