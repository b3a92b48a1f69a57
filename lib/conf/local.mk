# lib/conf: the LSF configuration reader (lexer, typed schema, one loader
# per file, cross-file checks).  Depends on glib and lib/util only.
noinst_LIBRARIES += %reldir%/libbsconf.a
%canon_reldir%_libbsconf_a_SOURCES = \
	%reldir%/conf_time.c %reldir%/conf_time.h \
	%reldir%/diag.c %reldir%/diag.h \
	%reldir%/lsf_lex.c %reldir%/lsf_lex.h
