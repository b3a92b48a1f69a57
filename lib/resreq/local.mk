# lib/resreq: the pure -R parser and select[] evaluator (glib only).
noinst_LIBRARIES += %reldir%/libbsresreq.a
%canon_reldir%_libbsresreq_a_SOURCES = \
	%reldir%/resreq.c %reldir%/resreq.h \
	%reldir%/resreq-expr.c %reldir%/resreq-eval.c %reldir%/resreq-int.h \
	%reldir%/resreq-forms.c
