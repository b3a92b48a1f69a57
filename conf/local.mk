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

# profile.lsf and cshrc.lsf: what users source to get the commands, the
# manual pages and LSF_ENVDIR.  Written at install time, so they name the
# directories this very install used (a `make install prefix=...` too).
EXTRA_DIST += %reldir%/profile.lsf.in %reldir%/cshrc.lsf.in
install-data-hook: install-profile-lsf
install-profile-lsf:
	$(MKDIR_P) '$(DESTDIR)$(basaltconfdir)'
	for f in profile.lsf cshrc.lsf; do \
		$(SED) -e 's|@basaltconfdir[@]|$(basaltconfdir)|g' \
			-e 's|@bindir[@]|$(bindir)|g' \
			-e 's|@sbindir[@]|$(sbindir)|g' \
			-e 's|@libdir[@]|$(libdir)|g' \
			-e 's|@mandir[@]|$(mandir)|g' \
			'$(top_srcdir)/%reldir%/'$$f.in >'$(DESTDIR)$(basaltconfdir)/'$$f || exit 1; \
		chmod 644 '$(DESTDIR)$(basaltconfdir)/'$$f; \
	done
uninstall-local: uninstall-profile-lsf
uninstall-profile-lsf:
	rm -f '$(DESTDIR)$(basaltconfdir)/profile.lsf' '$(DESTDIR)$(basaltconfdir)/cshrc.lsf'
.PHONY: install-profile-lsf uninstall-profile-lsf
