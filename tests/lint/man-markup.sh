#!/bin/sh
# The man pages are written by hand.  A font escape written through a tool
# that reads "\f" as an escape of its own (a non-raw Python string, printf,
# echo -e) lands as a form-feed byte followed by B, I or R: groff drops the
# byte with a warning and prints the letter, so the page shows "clusterR,".
# Every page must hold no control byte but tab and newline, and format with
# groff without a single warning (-Tascii: the utf8 device has a glyph
# for a form feed and would pass it in silence).
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"

cd "$top_srcdir" || exit 1
echo "1..2"
failed=0
hits=$(LC_ALL=C grep -rnP '[\x00-\x08\x0B-\x1F\x7F]' man --include='*.[1-8]' |
	LC_ALL=C sed 's/[\x00-\x08\x0B-\x1F\x7F]/^?/g')
if [ -z "$hits" ]; then
	# printf %s: echo would turn this backslash-f into the very byte.
	printf '%s\n' 'ok 1 - no control byte in man/ (a font escape is \fB, \fI, \fR)'
else
	echo "not ok 1 - control bytes in man/ (shown as ^?):"
	printf '%s\n' "$hits" | sed 's/^/# /'
	failed=1
fi
if ! command -v groff >/dev/null 2>&1; then
	echo "ok 2 # SKIP groff is not installed"
else
	warn=$(for f in man/*/*.[1-8]; do groff -man -Tascii -ww -z "$f" 2>&1; done)
	if [ -z "$warn" ]; then
		echo "ok 2 - every page formats without a groff warning"
	else
		echo "not ok 2 - groff warns:"
		printf '%s\n' "$warn" | sed 's/^/# /'
		failed=1
	fi
fi
[ "$failed" -eq 0 ]
