# lib/conf: the LSF configuration reader (lexer, typed schema, one loader
# per file, cross-file checks).  Depends on glib and lib/util only.
noinst_LIBRARIES += %reldir%/libbsconf.a
%canon_reldir%_libbsconf_a_SOURCES = \
	%reldir%/conf.h \
	%reldir%/conf_internal.h \
	%reldir%/conf_schema.c %reldir%/conf_schema.h \
	%reldir%/conf_values.c \
	%reldir%/conf_time.c %reldir%/conf_time.h \
	%reldir%/conf_queue_values.c %reldir%/conf_queue_values.h \
	%reldir%/diag.c %reldir%/diag.h \
	%reldir%/lsf_lex.c %reldir%/lsf_lex.h \
	%reldir%/conf_lsf.c \
	%reldir%/conf_lsf_shown.c \
	%reldir%/conf_cluster.c \
	%reldir%/conf_params.c \
	%reldir%/conf_queues.c \
	%reldir%/conf_hosts.c \
	%reldir%/conf_users.c \
	%reldir%/conf_resources.c \
	%reldir%/conf_limits.c \
	%reldir%/conf_export.c \
	%reldir%/conf_apps.c \
	%reldir%/conf_consumers.c %reldir%/conf_consumers.h \
	%reldir%/conf_check.c %reldir%/conf_consumers_check.c \
	%reldir%/conf_warning.c \
	%reldir%/conf_config.c \
	%reldir%/conf_lookup.c
