# lib/job: pure parsers for job dependencies (bsub -w) and job arrays
# (bsub -J "name[1-10]%2", job ids such as "123[1-5]").  glib only.
noinst_LIBRARIES += %reldir%/libbsjob.a
%canon_reldir%_libbsjob_a_SOURCES = \
	%reldir%/depend.c %reldir%/depend.h \
	%reldir%/array.c %reldir%/array.h \
	%reldir%/jobgroup.c %reldir%/jobgroup.h
