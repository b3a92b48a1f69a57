# cmd: the transport-free halves of the user commands (argument parsing
# into request messages, output formatting from replies).  The programs'
# main() functions come with the client library.
noinst_LIBRARIES += %reldir%/libbscmd.a
%canon_reldir%_libbscmd_a_SOURCES = \
	%reldir%/cmd-util.c %reldir%/cmd-util.h \
	%reldir%/jobctl-format.c %reldir%/jobctl-format.h \
	%reldir%/select-args.c %reldir%/select-args.h \
	%reldir%/cmd-jobgroup.c %reldir%/cmd-jobgroup.h \
	%reldir%/bsub-args.c %reldir%/bsub-args.h \
	%reldir%/bsub-limits.c %reldir%/bsub-limits.h \
	%reldir%/bjobs-format.c %reldir%/bjobs-format.h \
	%reldir%/bjobs-fields.c %reldir%/bjobs-fields.h %reldir%/bjobs-custom.c \
	%reldir%/bjobs-summary.c \
	%reldir%/bjobs-subopts.c \
	%reldir%/cmd-fields.c %reldir%/cmd-fields.h \
	%reldir%/bqueues-format.c %reldir%/bqueues-format.h \
	%reldir%/bqueues-fields.c %reldir%/bhosts-fields.c \
	%reldir%/bhosts-format.c %reldir%/busers-format.c \
	%reldir%/blimits-format.c \
	%reldir%/bconsumers-format.c %reldir%/bconsumers-format.h \
	%reldir%/consumers-preview.c %reldir%/consumers-preview.h \
	%reldir%/bparams-format.c \
	%reldir%/bclusters-format.c %reldir%/bclusters-format.h \
	%reldir%/ls-format.c %reldir%/ls-format.h \
	%reldir%/effective-format.c %reldir%/effective-format.h \
	%reldir%/usage-format.c %reldir%/usage-format.h \
	%reldir%/pb.h

# What a program links to use cmd/, in dependency order.
BSCMD_LIBS = cmd/libbscmd.a lib/job/libbsjob.a lib/resreq/libbsresreq.a proto/libbsproto.a \
	lib/util/libbsutil.a $(GLIB_LIBS) $(PROTOBUF_C_LIBS) -lm

# The generated headers must exist before these compile.
$(%canon_reldir%_libbscmd_a_OBJECTS): $(PROTO_GEN_H)

# The programs: one small main() each over lib/api and the helpers above.
# cmd-main.c is their shared tail (I/O, calls); it stays out of libbscmd.a
# so that library remains transport-free.
noinst_LIBRARIES += %reldir%/libbscmdmain.a
%canon_reldir%_libbscmdmain_a_SOURCES = %reldir%/cmd-main.c %reldir%/cmd-main.h
$(%canon_reldir%_libbscmdmain_a_OBJECTS): $(PROTO_GEN_H)

# $(CMD_DEP_LIBS) is GLib, protobuf-c and libmunge, linked statically where
# configure found their archives: a command starts once per request, and the
# dynamic loader's work for those libraries was most of a bsub's own CPU
# time (libmunge alone, once MUNGE came in: an object mapped and relocated,
# 44,000 instructions, for a credential a local submission never asks for).
CMD_PROG_LIBS = cmd/libbscmdmain.a lib/api/libbsapi.a lib/auth/libbsauth.a \
	lib/rpc/libbsrpc.a cmd/libbscmd.a lib/job/libbsjob.a \
	lib/resreq/libbsresreq.a proto/libbsproto.a lib/util/libbsutil.a \
	$(CMD_DEP_LIBS) -lm

bin_PROGRAMS += \
	%reldir%/bsub \
	%reldir%/bjobs \
	%reldir%/bqueues \
	%reldir%/bhosts \
	%reldir%/bparams \
	%reldir%/busers \
	%reldir%/blimits \
	%reldir%/bconsumers \
	%reldir%/lsid \
	%reldir%/lsclusters \
	%reldir%/lshosts \
	%reldir%/lsload \
	%reldir%/lsinfo \
	%reldir%/lsadmin \
	%reldir%/bwait \
	%reldir%/bpost \
	%reldir%/bjgroup \
	%reldir%/bgadd \
	%reldir%/bgmod \
	%reldir%/bgdel \
	%reldir%/bread \
	%reldir%/bkill \
	%reldir%/bstop \
	%reldir%/bresume \
	%reldir%/brequeue \
	%reldir%/bswitch \
	%reldir%/bmod \
	%reldir%/btop \
	%reldir%/bbot \
	%reldir%/bpeek \
	%reldir%/badmin \
	%reldir%/bhist \
	%reldir%/bacct \
	%reldir%/bugroup \
	%reldir%/bmgroup \
	%reldir%/bapp \
	%reldir%/bjdepinfo \
	%reldir%/bslots \
	%reldir%/bclusters
%canon_reldir%_bsub_SOURCES = %reldir%/bsub.c \
	%reldir%/bsub-interactive.c %reldir%/bsub-interactive.h
%canon_reldir%_bsub_LDADD = lib/iact/libbsiact.a $(CMD_PROG_LIBS)
%canon_reldir%_bjobs_SOURCES = %reldir%/bjobs.c
%canon_reldir%_bjobs_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bqueues_SOURCES = %reldir%/bqueues.c
%canon_reldir%_bqueues_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bhosts_SOURCES = %reldir%/bhosts.c
%canon_reldir%_bhosts_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bparams_SOURCES = %reldir%/bparams.c
%canon_reldir%_bparams_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_busers_SOURCES = %reldir%/busers.c
%canon_reldir%_busers_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_blimits_SOURCES = %reldir%/blimits.c
%canon_reldir%_blimits_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bconsumers_SOURCES = %reldir%/bconsumers.c
%canon_reldir%_bconsumers_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_lsid_SOURCES = %reldir%/lsid.c
%canon_reldir%_lsid_LDADD = $(CMD_PROG_LIBS)
# lsclusters, lshosts, lsload: one source, three programs (ls-hostcmd.c).
%canon_reldir%_lsclusters_SOURCES = %reldir%/ls-hostcmd.c
%canon_reldir%_lsclusters_CPPFLAGS = $(AM_CPPFLAGS) -DLS_CMD=1
%canon_reldir%_lsclusters_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_lshosts_SOURCES = %reldir%/ls-hostcmd.c
%canon_reldir%_lshosts_CPPFLAGS = $(AM_CPPFLAGS) -DLS_CMD=2
%canon_reldir%_lshosts_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_lsload_SOURCES = %reldir%/ls-hostcmd.c
%canon_reldir%_lsload_CPPFLAGS = $(AM_CPPFLAGS) -DLS_CMD=3
%canon_reldir%_lsload_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bwait_SOURCES = %reldir%/bwait.c
%canon_reldir%_bwait_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bpost_SOURCES = %reldir%/bpost.c
%canon_reldir%_bpost_LDADD = $(CMD_PROG_LIBS)
# Job groups: bjgroup lists them; bgadd, bgmod and bgdel are one source
# whose program name picks the action.
%canon_reldir%_bjgroup_SOURCES = %reldir%/bjgroup.c
%canon_reldir%_bjgroup_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bgadd_SOURCES = %reldir%/bgctl.c
%canon_reldir%_bgadd_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bgmod_SOURCES = %reldir%/bgctl.c
%canon_reldir%_bgmod_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bgdel_SOURCES = %reldir%/bgctl.c
%canon_reldir%_bgdel_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bread_SOURCES = %reldir%/bread.c
%canon_reldir%_bread_LDADD = $(CMD_PROG_LIBS)
# lsinfo reads lsf.shared; lsadmin showconf lim reads lsf.conf.
%canon_reldir%_lsinfo_SOURCES = %reldir%/lsinfo.c
%canon_reldir%_lsinfo_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_lsinfo_LDADD = cmd/libbscmdmain.a lib/api/libbsapi.a \
	lib/auth/libbsauth.a lib/rpc/libbsrpc.a cmd/libbscmd.a \
	lib/conf/libbsconf.a proto/libbsproto.a lib/util/libbsutil.a \
	$(CMD_DEP_LIBS)
%canon_reldir%_lsadmin_SOURCES = %reldir%/lsadmin.c %reldir%/showconf.c \
	%reldir%/showconf.h
%canon_reldir%_lsadmin_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_lsadmin_LDADD = $(%canon_reldir%_lsinfo_LDADD)
%canon_reldir%_bkill_SOURCES = %reldir%/bkill.c
%canon_reldir%_bkill_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bstop_SOURCES = %reldir%/bstop.c \
	%reldir%/cmd-jobaction.c %reldir%/cmd-jobaction.h
%canon_reldir%_bstop_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bresume_SOURCES = %reldir%/bresume.c \
	%reldir%/cmd-jobaction.c %reldir%/cmd-jobaction.h
%canon_reldir%_bresume_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_brequeue_SOURCES = %reldir%/brequeue.c
%canon_reldir%_brequeue_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bswitch_SOURCES = %reldir%/bswitch.c
%canon_reldir%_bswitch_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bmod_SOURCES = %reldir%/bmod.c
%canon_reldir%_bmod_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_btop_SOURCES = %reldir%/btop.c
%canon_reldir%_btop_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bbot_SOURCES = %reldir%/bbot.c
%canon_reldir%_bbot_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bpeek_SOURCES = %reldir%/bpeek.c
%canon_reldir%_bpeek_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_badmin_SOURCES = %reldir%/badmin.c \
	%reldir%/badmin-hist.c %reldir%/badmin-hist.h \
	%reldir%/badmin-hstartup.c %reldir%/badmin-hstartup.h \
	%reldir%/hist-io.c %reldir%/hist-io.h \
	%reldir%/showconf.c %reldir%/showconf.h
# ckconfig without a running mbatchd loads the configuration itself;
# `journal check|salvage` work on the journal files with lib/journal.
%canon_reldir%_badmin_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) \
	-DBS_SBINDIR='"$(sbindir)"'
%canon_reldir%_badmin_LDADD = cmd/libbscmdmain.a lib/api/libbsapi.a lib/auth/libbsauth.a \
	lib/rpc/libbsrpc.a cmd/libbshist.a cmd/libbscmd.a lib/conf/libbsconf.a \
	lib/journal/libbsjournal.a proto/libbsproto.a lib/util/libbsutil.a \
	$(CMD_DEP_LIBS)

# bhist and bacct: the journal's history, folded by the pure history model
# (libbshist.a, unit-tested on its own) and read with lib/journal's reader.
noinst_LIBRARIES += %reldir%/libbshist.a
%canon_reldir%_libbshist_a_SOURCES = \
	%reldir%/hist-model.c %reldir%/hist-model.h %reldir%/hist-select.c \
	%reldir%/hist-format.c %reldir%/hist-acct.c %reldir%/hist-format.h \
	%reldir%/hist-lease.c
$(%canon_reldir%_libbshist_a_OBJECTS): $(PROTO_GEN_H)

HIST_PROG_LIBS = cmd/libbscmdmain.a lib/api/libbsapi.a lib/auth/libbsauth.a \
	lib/rpc/libbsrpc.a cmd/libbshist.a cmd/libbscmd.a \
	lib/journal/libbsjournal.a proto/libbsproto.a lib/util/libbsutil.a \
	$(CMD_DEP_LIBS)
%canon_reldir%_bhist_SOURCES = %reldir%/bhist.c \
	%reldir%/hist-io.c %reldir%/hist-io.h
%canon_reldir%_bhist_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_bhist_LDADD = $(HIST_PROG_LIBS)
%canon_reldir%_bacct_SOURCES = %reldir%/bacct.c \
	%reldir%/hist-io.c %reldir%/hist-io.h
%canon_reldir%_bacct_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)
%canon_reldir%_bacct_LDADD = $(HIST_PROG_LIBS)

# bugroup, bmgroup and bapp show the configuration files (cmd-conf.c):
# no BatchService call lists groups or profiles.
CONF_PROG_LIBS = cmd/libbscmdmain.a lib/api/libbsapi.a lib/auth/libbsauth.a \
	lib/rpc/libbsrpc.a cmd/libbscmd.a lib/conf/libbsconf.a \
	lib/resreq/libbsresreq.a proto/libbsproto.a lib/util/libbsutil.a \
	$(CMD_DEP_LIBS) -lm
%canon_reldir%_bugroup_SOURCES = %reldir%/bugroup.c \
	%reldir%/cmd-groups.c %reldir%/cmd-groups.h \
	%reldir%/cmd-conf.c %reldir%/cmd-conf.h
%canon_reldir%_bugroup_LDADD = $(CONF_PROG_LIBS)
%canon_reldir%_bmgroup_SOURCES = %reldir%/bmgroup.c \
	%reldir%/cmd-groups.c %reldir%/cmd-groups.h \
	%reldir%/cmd-conf.c %reldir%/cmd-conf.h
%canon_reldir%_bmgroup_LDADD = $(CONF_PROG_LIBS)
%canon_reldir%_bapp_SOURCES = %reldir%/bapp.c \
	%reldir%/cmd-conf.c %reldir%/cmd-conf.h
%canon_reldir%_bapp_LDADD = $(CONF_PROG_LIBS)
%canon_reldir%_bjdepinfo_SOURCES = %reldir%/bjdepinfo.c
%canon_reldir%_bjdepinfo_LDADD = cmd/libbscmdmain.a lib/api/libbsapi.a \
	lib/auth/libbsauth.a lib/rpc/libbsrpc.a cmd/libbscmd.a \
	lib/job/libbsjob.a lib/resreq/libbsresreq.a proto/libbsproto.a \
	lib/util/libbsutil.a $(CMD_DEP_LIBS) -lm
%canon_reldir%_bslots_SOURCES = %reldir%/bslots.c
%canon_reldir%_bslots_LDADD = $(CMD_PROG_LIBS)
%canon_reldir%_bclusters_SOURCES = %reldir%/bclusters.c
%canon_reldir%_bclusters_LDADD = $(CMD_PROG_LIBS)

# blaunch: tasks of a parallel job on the hosts of its allocation, through
# each host's sbatchd (its task port).  It serves TaskIoService on its
# connections, so it runs the main-loop side of lib/rpc.  Like the other
# commands it links $(CMD_DEP_LIBS): a job script may start it once per task.
bin_PROGRAMS += %reldir%/blaunch
%canon_reldir%_blaunch_SOURCES = %reldir%/blaunch.c
%canon_reldir%_blaunch_LDADD = lib/api/libbsapi.a lib/auth/libbsauth.a \
	lib/rpc/libbsrpc.a proto/libbsproto.a lib/util/libbsutil.a \
	$(CMD_DEP_LIBS) -lm
$(%canon_reldir%_blaunch_OBJECTS): $(PROTO_GEN_H)
