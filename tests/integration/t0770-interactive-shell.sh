#!/bin/sh
# bsub -Is: an interactive shell on a pseudo-terminal, driven through a
# real pty by bs-ptydrive.  The shell sees the user's window size and a
# later resize, ^C interrupts a foreground sleep without ending the shell,
# ^Z stops it (job control), and bsub exits with the shell's exit status;
# -Ip with -o and -tty.
# Over TCP with MUNGE (the default cluster of tests/lib.sh).
. "$top_srcdir/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
command -v bash >/dev/null 2>&1 || skip_all "bash is not installed"
make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
drive() { python3 "$top_srcdir/tests/tools/bs-ptydrive.py" "$@"; }

# The stopped job is killed and the shell waits until it has reaped it
# (kill -0 holds while the zombie is there): a bare "wait" returns at once
# for a stopped job, and a shell that still lists it at "exit" answers
# "There are stopped jobs." and stays.

check "an interactive shell runs commands, resizes, takes ^C and ^Z" \
	drive --size 33 101 -- bsub -Is 'env PS1="PROMPT> " bash --norc --noprofile -i' <<'S'
expect <<Waiting for dispatch \.\.\.>>
expect <<Starting on vh1>>
expect PROMPT>
send stty size\r
expect 33 101
send test -t 0 && echo "on a tt""y, job $LSB_JOBID"\r
expect on a tty, job [0-9]+
resize 40 120
send until [ "$(stty size)" = "40 120" ]; do sleep 0.1; done; echo "resi""zed to $(stty size)"\r
expect resized to 40 120
send sh -c 'echo "sleep""ing"; exec sleep 100'; echo "sleep en""ded"\r
expect sleeping
send \x03
expect PROMPT>
send echo "shell st""ill here"\r
expect shell still here
send sh -c 'echo "z-rea""dy"; exec sleep 200'\r
expect z-ready
send \x1a
expect Stopped
send echo "stopped=$(jobs -l | grep -c Stopped)"; p=$(jobs -p %1); kill -9 %1; while kill -0 $p 2>/dev/null; do sleep 0.1; done; echo "rea""ped"\r
expect stopped=1
expect reaped
expect PROMPT>
send exit 5\r
exit 5
S
check "bjobs -l shows the shell mode" \
	says bjobs 1 'Interactive pseudo-terminal shell mode'
no_job_left() { [ -z "$(cluster_job_pids)" ]; }
check "no process of the job is left" wait_for 60 no_job_left

# bsub -Ip: a pseudo-terminal without shell mode; a program that needs a
# terminal gets one, and the exit status passes through.
check "bsub -Ip gives the job a terminal and passes its exit status" \
	drive -- bsub -Ip 'test -t 1 && echo "ter""minal $(stty size)"; exit 3' <<'S'
expect terminal 24 80
exit 3
S
# ^C at -Ip's terminal is the program's SIGINT, nothing more: a program
# that traps it goes on (here: exits 9 from its trap), it is not hung up.
check "bsub -Ip: ^C reaches the program as SIGINT only" \
	drive -- bsub -Ip 'trap "echo got-int; exit 9" INT; echo "rea""dy"; sleep 100 & wait' <<'S'
expect ready
send \x03
expect got-int
exit 9
S

# -Ip -tty -o: the terminal shows the output and the -o file gets it too
# (one stream on a pseudo-terminal); without -tty only the file does.
check "bsub -Ip -tty -o: the output reaches the terminal" \
	drive -- bsub -Ip -tty -o "$T/ptty.out" 'echo "on-bo""th"; test -t 1 && echo "still a t""ty"' <<'S'
expect on-both
expect still a tty
exit 0
S
on_both() { job_output "$T/ptty.out" | grep -q "^$1"; }
check "and the -o file" on_both on-both
check "and the job's stdout was the terminal" on_both 'still a tty'
check "bsub -Ip -o: the output does not reach the terminal" \
	drive --screen "$T/pfile.screen" -- bsub -Ip -o "$T/pfile.out" 'echo "in-the-fi""le"' <<'S'
exit 0
S
check "it is only in the -o file" sh -c \
	"grep -q in-the-file '$T/pfile.out' && ! grep -q in-the-file '$T/pfile.screen'"
done_testing
