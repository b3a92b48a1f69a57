# Section 5: the configuration files Basalt reads.
dist_man_MANS += \
	%reldir%/man5/lsf.conf.5 \
	%reldir%/man5/lsf.shared.5 \
	%reldir%/man5/lsf.cluster.5 \
	%reldir%/man5/lsb.params.5 \
	%reldir%/man5/lsb.queues.5 \
	%reldir%/man5/lsb.hosts.5 \
	%reldir%/man5/lsb.users.5 \
	%reldir%/man5/lsb.resources.5 \
	%reldir%/man5/lsb.applications.5 \
	%reldir%/man5/lsb.consumers.5 \
	%reldir%/man5/basalt-scenario.5 \
	%reldir%/man5/lsb.acct.5 \
	%reldir%/man5/lsb.events.5

# Section 8: the daemons.
dist_man_MANS += %reldir%/man8/mbatchd.8 %reldir%/man8/sbatchd.8 \
	%reldir%/man8/lsadmin.8

# Section 8: the policy scenario tool (tools/scenario).
dist_man_MANS += %reldir%/man8/bscenario.8

# Sections 1 and 8: the user commands and badmin (cmd/).
dist_man_MANS += \
	%reldir%/man1/bsub.1 \
	%reldir%/man1/bjobs.1 \
	%reldir%/man1/bqueues.1 \
	%reldir%/man1/bhosts.1 \
	%reldir%/man1/bparams.1 \
	%reldir%/man1/busers.1 \
	%reldir%/man1/blimits.1 \
	%reldir%/man1/bconsumers.1 \
	%reldir%/man1/lsid.1 \
	%reldir%/man1/bugroup.1 \
	%reldir%/man1/bmgroup.1 \
	%reldir%/man1/bapp.1 \
	%reldir%/man1/bjdepinfo.1 \
	%reldir%/man1/bslots.1 \
	%reldir%/man1/lsclusters.1 \
	%reldir%/man1/lshosts.1 \
	%reldir%/man1/lsload.1 \
	%reldir%/man1/lsinfo.1 \
	%reldir%/man1/bwait.1 \
	%reldir%/man1/bpost.1 \
	%reldir%/man1/bgadd.1 \
	%reldir%/man1/bgdel.1 \
	%reldir%/man1/bgmod.1 \
	%reldir%/man1/bjgroup.1 \
	%reldir%/man1/bread.1 \
	%reldir%/man1/bkill.1 \
	%reldir%/man1/bstop.1 \
	%reldir%/man1/bresume.1 \
	%reldir%/man1/brequeue.1 \
	%reldir%/man1/bswitch.1 \
	%reldir%/man1/bmod.1 \
	%reldir%/man1/btop.1 \
	%reldir%/man1/bbot.1 \
	%reldir%/man1/bpeek.1 \
	%reldir%/man1/bhist.1 \
	%reldir%/man1/bacct.1 \
	%reldir%/man1/blaunch.1 \
	%reldir%/man8/badmin.8
