#!/bin/sh
# profile.lsf and cshrc.lsf, as `make install` writes them: an install
# into a private prefix, then each file sourced from a clean environment
# (sh; csh through tcsh when installed) must put that install's bsub and
# bjobs first on PATH, its manual pages on MANPATH, and set LSF_ENVDIR,
# LSF_BINDIR, LSF_SERVERDIR and LSF_LIBDIR to its directories; sourcing
# twice must not grow PATH.
. "$top_srcdir/tests/lib.sh"

inst="$T/inst"
check "make install into a private prefix" \
	make -s -C "$top_builddir" install prefix="$inst"
etc="$inst/etc/basalt"
check "profile.lsf and cshrc.lsf are installed in the conf dir" \
	test -f "$etc/profile.lsf" -a -f "$etc/cshrc.lsf"

# What a login shell would see: nothing of this test's own PATH.
clean_env() {
	env -i HOME="$T" PATH=/usr/bin:/bin "$@"
}

clean_env sh -c ". '$etc/profile.lsf'; . '$etc/profile.lsf'
	echo \"bsub=\$(command -v bsub)\"
	echo \"bjobs=\$(command -v bjobs)\"
	echo \"mbatchd=\$(command -v mbatchd)\"
	echo \"envdir=\$LSF_ENVDIR\"
	echo \"bindir=\$LSF_BINDIR\"
	echo \"serverdir=\$LSF_SERVERDIR\"
	echo \"libdir=\$LSF_LIBDIR\"
	echo \"path=\$PATH\"
	echo \"man=\$(man -w bsub 2>&1)\"" >"$T/sh.out" 2>&1

# expect FILE: the shell's report says this install, once.
expect() {
	grep -qx "bsub=$inst/bin/bsub" "$1" &&
	grep -qx "bjobs=$inst/bin/bjobs" "$1" &&
	grep -qx "mbatchd=$inst/sbin/mbatchd" "$1" &&
	grep -qx "envdir=$etc" "$1" &&
	grep -qx "bindir=$inst/bin" "$1" &&
	grep -qx "serverdir=$inst/sbin" "$1" &&
	grep -qx "libdir=$inst/lib" "$1" &&
	grep -qx "path=$inst/bin:$inst/sbin:/usr/bin:/bin" "$1" || {
		cat "$1"
		return 1
	}
}
check "sh: bsub and bjobs resolve to the install, the LSF_* variables name it" \
	expect "$T/sh.out"
check "sh: man finds the installed bsub(1)" \
	grep -qx "man=$inst/share/man/man1/bsub.1" "$T/sh.out"

if command -v tcsh >/dev/null 2>&1; then
	clean_env tcsh -f -c "source '$etc/cshrc.lsf'; source '$etc/cshrc.lsf'
		echo bsub=\`which bsub\`
		echo bjobs=\`which bjobs\`
		echo mbatchd=\`which mbatchd\`
		echo envdir=\$LSF_ENVDIR
		echo bindir=\$LSF_BINDIR
		echo serverdir=\$LSF_SERVERDIR
		echo libdir=\$LSF_LIBDIR
		echo path=\$PATH
		echo man=\`man -w bsub\`" >"$T/csh.out" 2>&1
	check "csh: bsub and bjobs resolve to the install, the LSF_* variables name it" \
		expect "$T/csh.out"
	check "csh: man finds the installed bsub(1)" \
		grep -qx "man=$inst/share/man/man1/bsub.1" "$T/csh.out"
	clean_env tcsh -f -c "unsetenv MANPATH; source '$etc/cshrc.lsf'; echo man=\$MANPATH" \
		>"$T/csh2.out" 2>&1
	check "csh: works with no MANPATH set" \
		grep -qx "man=$inst/share/man:" "$T/csh2.out"
else
	diag "tcsh is not installed (Debian package tcsh): cshrc.lsf not sourced"
fi
done_testing
