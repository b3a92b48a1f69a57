# Section 5: the configuration files Basalt reads.
dist_man_MANS += \
	%reldir%/man5/lsf.conf.5 \
	%reldir%/man5/lsf.shared.5 \
	%reldir%/man5/lsf.cluster.5 \
	%reldir%/man5/lsb.params.5 \
	%reldir%/man5/lsb.queues.5 \
	%reldir%/man5/lsb.hosts.5 \
	%reldir%/man5/lsb.users.5 \
	%reldir%/man5/lsb.resources.5

# Section 8: the daemons.
dist_man_MANS += %reldir%/man8/mbatchd.8 %reldir%/man8/sbatchd.8
