#!/bin/sh
# JOB_STARTER (issue 14, item 2): the queue's starter wraps the job's
# command, %USRCMD marking where the command goes; a starter without
# %USRCMD gets the command appended; an application profile's starter
# overrides the queue's.  A job script given on standard input is wrapped
# the same way.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
lsb="$T/conf/lsbatch/basalt/configdir"
cat >"$lsb/lsb.queues" <<Q
Begin Queue
QUEUE_NAME  = normal
PRIORITY    = 30
JOB_STARTER = echo starter-before; %USRCMD; echo starter-after
End Queue

Begin Queue
QUEUE_NAME  = nice
PRIORITY    = 20
JOB_STARTER = nice -n 7
End Queue
Q
cat >"$lsb/lsb.applications" <<A
Begin Application
NAME        = wrapped
JOB_STARTER = env BS_STARTER=app %USRCMD
End Application
A
start_mbd || exit 1
start_sbd vh1 || exit 1
# output_is FILE TEXT: the job's output (without the job report), its
# lines joined by blanks, is TEXT.
output_is() { [ "$(job_output "$1" | tr '\n' ' ')" = "$2" ]; }

id=$(bsub -o "$T/a.out" 'echo the-job' | job_id_of)
check "the job ends DONE" wait_for 15 state_is "$id" DONE
check "the starter ran around the command" \
	output_is "$T/a.out" 'starter-before the-job starter-after '

id2=$(bsub -q nice -o "$T/b.out" nice | job_id_of)
check "a starter without %USRCMD runs the command as its argument" wait_for 15 state_is "$id2" DONE
# Relative to the niceness the suite runs with (sbatchd inherits it).
want=$(( $(nice) + 7 )); [ "$want" -le 19 ] || want=19
check "(nice -n 7 nice: the command's nice value is 7 above sbatchd's)" sh -c "tr -d ' ' <'$T/b.out' | grep -qx $want"

id3=$(bsub -app wrapped -o "$T/c.out" 'printenv BS_STARTER' | job_id_of)
check "the profile's starter replaces the queue's" wait_for 15 state_is "$id3" DONE
check "(its environment reached the job, the queue's echo did not run)" \
	output_is "$T/c.out" 'app '

printf '#!/bin/sh\necho from-script\n' | bsub -o "$T/d.out" >"$T/d.sub"
id4=$(job_id_of <"$T/d.sub")
check "a script on stdin is wrapped too" wait_for 15 state_is "$id4" DONE
check "(starter, script, starter)" \
	output_is "$T/d.out" 'starter-before from-script starter-after '
done_testing
