#!/bin/sh
# A job script runs under the interpreter its #! line names (a bash script
# given on stdin does not run under dash), its #BSUB lines still count, and
# a command longer than one execve() argument may be (128 KiB) runs from
# the job file.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
mkdir -p "$T/wd"
cd "$T/wd" || exit 1

# [[ ]], arrays and $BASH_VERSION are bash's: dash fails on each.
id=$(bsub <<'SCRIPT' | job_id_of
#!/bin/bash
#BSUB -J bashonly
#BSUB -o bash.out
a=(one two three)
if [[ ${#a[@]} -eq 3 && -n "$BASH_VERSION" ]]; then
	echo "bash ran ${a[2]}"
fi
SCRIPT
)
check "the bash script ends DONE" wait_for 20 state_is "$id" DONE
check "it ran under bash" grep -qx "bash ran three" "$T/wd/bash.out"
check "its #BSUB -J named it" sh -c "bjobs -a -noheader -o job_name $id | grep -qx bashonly"

# Without a #! line a script runs under /bin/sh, as before.
id=$(printf '#BSUB -o sh.out\necho "plain $((6 * 7))"\n' | bsub | job_id_of)
check "a script without #! runs under sh" wait_for 20 state_is "$id" DONE
check "and prints its output" grep -qx "plain 42" "$T/wd/sh.out"

if command -v python3 >/dev/null 2>&1; then
	id=$(bsub -o py.out <<'SCRIPT' | job_id_of
#!/usr/bin/env python3
import sys
print("python", sys.version_info[0], sum(range(10)))
SCRIPT
)
	check "a python3 script ends DONE" wait_for 20 state_is "$id" DONE
	check "and ran under python3" grep -qx "python 3 45" "$T/wd/py.out"
else
	ok "# SKIP python3 is not installed"
fi

# An interpreter with an argument: the rest of the #! line is one argument.
id=$(printf '#!/bin/sh -e\necho before\nfalse\necho after\n' | bsub -o e.out | job_id_of)
check "the #! argument is given (sh -e stops at false)" wait_for 20 state_is "$id" EXIT
check "so only the first line ran" sh -c "grep -qx before $T/wd/e.out && ! grep -qx after $T/wd/e.out"

# 300 KiB in one command line: as one "sh -c" argument execve() refuses it.
# bsub gets it as many arguments, each well under the limit.
words=$(seq 100000 160000 | tr '\n' ' ')
id=$(bsub -o long.out echo start $words end | job_id_of)
check "a 300 KiB command is accepted" test -n "$id"
check "it runs to DONE" wait_for 30 state_is "$id" DONE
check "with every word" sh -c "head -n 1 $T/wd/long.out | grep -q '^start 100000 100001 .* 160000 end\$'"
bsub -K -o jf.out 'grep -c marker-xyz "$LSB_JOBFILENAME"' >/dev/null 2>&1
check "LSB_JOBFILENAME holds the command" sh -c "head -n 1 $T/wd/jf.out | grep -qx 1"
done_testing
