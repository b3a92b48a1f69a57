# The shipped configuration: a complete one-host cluster.  `make install`
# puts it under $(sysconfdir)/basalt with the state and log directories
# pointed at $(localstatedir); the source copy keeps relative paths so it
# runs from the tree (scripts/try-basalt.sh).
basaltconfdir = $(sysconfdir)/basalt
dist_basaltconf_DATA = %reldir%/lsf.conf %reldir%/lsf.shared %reldir%/lsf.cluster.basalt
basaltlsbdir = $(basaltconfdir)/lsbatch/basalt/configdir
dist_basaltlsb_DATA = \
	%reldir%/lsbatch/basalt/configdir/lsb.params \
	%reldir%/lsbatch/basalt/configdir/lsb.queues \
	%reldir%/lsbatch/basalt/configdir/lsb.hosts \
	%reldir%/lsbatch/basalt/configdir/lsb.users \
	%reldir%/lsbatch/basalt/configdir/lsb.resources \
	%reldir%/lsbatch/basalt/configdir/lsb.applications

install-data-hook: install-conf-paths
install-conf-paths:
	$(SED) -i \
		-e 's|^LSB_SHAREDIR=.*|LSB_SHAREDIR=$(localstatedir)/lib/basalt|' \
		-e 's|^LSF_LOGDIR=.*|LSF_LOGDIR=$(localstatedir)/log/basalt|' \
		'$(DESTDIR)$(basaltconfdir)/lsf.conf'
.PHONY: install-conf-paths
