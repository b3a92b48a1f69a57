# sbatchd: the process-control core (launch, reap, job control) as a
# library; the daemon program that drives it over the network comes later.
noinst_LIBRARIES += %reldir%/libsbdexec.a
%canon_reldir%_libsbdexec_a_CPPFLAGS = $(AM_CPPFLAGS) -DBS_LIBEXECDIR='"$(libexecdir)"'
%canon_reldir%_libsbdexec_a_SOURCES = \
	%reldir%/launch.c %reldir%/launch.h \
	%reldir%/launch-child.c %reldir%/launch-child.h \
	%reldir%/launch-report.h \
	%reldir%/procscan.c %reldir%/procscan.h \
	%reldir%/reaper.c %reldir%/reaper.h \
	%reldir%/jobctl.c %reldir%/jobctl.h

# The leader of a job that keeps a status record (see jobwrap.c).  Plain C,
# no GLib, so the commands it forks inherit as little memory as possible.
libexec_PROGRAMS = %reldir%/bs-jobwrap
%canon_reldir%_bs_jobwrap_SOURCES = %reldir%/jobwrap.c %reldir%/launch-report.h
