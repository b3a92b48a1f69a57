#!/bin/sh
# LSF's job report: unless mail is asked for, the -o file ends with the
# report (header, Successfully completed / Exited with exit code N, the
# resource usage summary), written before bjobs shows the job finished.
# With -N, or without -o, the report goes by mail through lsf.conf
# LSB_MAILPROG instead (without -o followed by the job's output, as LSF),
# to -u, else LSB_MAILTO, else the user; -B mails when the job starts; a
# stand-in mail program records what it is given.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
cat >"$T/mailprog" <<MAIL
#!/bin/sh
# Stand-in for sendmail: one file per message, arguments first.
f=\$(mktemp "$T/mail/msg.XXXXXX")
{ echo "ARGS: \$*"; echo "UID: \$(id -u)"; cat; } >"\$f.tmp" && mv "\$f.tmp" "\$f.mail"
rm -f "\$f"
MAIL
chmod 755 "$T/mailprog"
mkdir -p "$T/mail"
chmod 1777 "$T/mail"
echo "LSB_MAILPROG=$T/mailprog" >>"$T/conf/lsf.conf"
start_mbd || exit 1
start_sbd vh1 || exit 1
mkdir -p "$T/wd"
cd "$T/wd" || exit 1
me=$(id -un)

id=$(bsub -J rep1 -o "$T/ok.out" 'echo the-output' | job_id_of)
check "a job ends DONE" wait_for 20 state_is "$id" DONE
f="$T/ok.out"
check "its output comes first" sh -c "head -n 1 $f | grep -qx the-output"
check "the report follows: Sender" grep -q "^Sender: LSF System <.*@vh1>\$" "$f"
check "Subject names job, name, cluster and Done" grep -qx "Subject: Job $id: <rep1> in cluster <basalt> Done" "$f"
check "the submission line" grep -q "^Job <rep1> was submitted from host <.*> by user <$me> in cluster <basalt> at " "$f"
check "the execution line" grep -q "^Job was executed on host(s) <vh1>, in queue <normal>, as user <$me> in cluster <basalt> at " "$f"
check "the working directory" grep -qx "<$T/wd> was used as the working directory." "$f"
check "start and end times" sh -c "grep -q '^Started at ' $f && grep -q '^Terminated at ' $f"
check "the command" sh -c "grep -A1 -x '# LSBATCH: User input' $f | grep -qx 'echo the-output'"
check "Successfully completed." grep -qx "Successfully completed." "$f"
check "the usage summary" grep -qx "Resource usage summary:" "$f"
check "CPU time" grep -Eq "^    CPU time : +[0-9]+\.[0-9]{2} sec\.\$" "$f"
check "Max Memory" grep -Eq "^    Max Memory : +([0-9]+ MB|-)\$" "$f"
check "Average Memory, Max Processes, Max Threads" sh -c \
	"grep -q '^    Average Memory :' $f && grep -q '^    Max Processes :' $f && grep -q '^    Max Threads :' $f"
check "run time and turnaround" sh -c \
	"grep -Eq '^    Run time : +[0-9]+ sec\.\$' $f && grep -Eq '^    Turnaround time : +[0-9]+ sec\.\$' $f"
check "the report is the end of the file" sh -c "tail -n 2 $f | head -n 1 | grep -qx 'The output (if any) is above this job summary.'"

id=$(bsub -J rep3 -o "$T/bad.out" -e "$T/bad.err" 'echo partial; exit 3' | job_id_of)
check "a job exiting 3 ends EXIT" wait_for 20 state_is "$id" EXIT
check "Subject says Exited" grep -qx "Subject: Job $id: <rep3> in cluster <basalt> Exited" "$T/bad.out"
check "Exited with exit code 3." grep -qx "Exited with exit code 3." "$T/bad.out"
check "the report points to the -e file" grep -qx "Read file <$T/bad.err> for stderr output of this job." "$T/bad.out"
check "the -e file has no report" sh -c "! grep -q Sender $T/bad.err"

# sbatchd restarts while the job runs: the new one still writes the report.
id=$(bsub -J across -o "$T/restart.out" "while [ ! -e $T/go ]; do sleep 0.1; done; echo released" | job_id_of)
check "a waiting job runs" wait_for 20 state_is "$id" RUN
kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null
start_sbd vh1 || exit 1
touch "$T/go"
check "after an sbatchd restart the job ends DONE" wait_for 30 state_is "$id" DONE
check "and its -o file ends with the report" sh -c \
	"grep -qx released $T/restart.out && grep -qx 'Subject: Job $id: <across> in cluster <basalt> Done' $T/restart.out"

# What the report needs is in the job's record, no file of its own.  A
# record of an older sbatchd, with a <key>.info file beside it, still
# gives the report after a restart, and the file goes; a record saying
# the report was begun (an sbatchd that died while writing it) gets none
# a second time.
jobs_dir=$T/sbd/vh1/jobs
restart_vh1() {
	kill -TERM "$(sbd_pid vh1)"
	wait "$(sbd_pid vh1)" 2>/dev/null
	"$@"
	start_sbd vh1
}
split_record() {
	awk '/^\[report\]/ { r = 1 } r' "$1" >"${1%.job}.info" &&
	awk '/^\[report\]/ { exit } 1' "$1" >"$1.new" && mv "$1.new" "$1"
}
mark_begun() {
	sed 's/^\[job\]$/[job]\nreport_begun=true/' "$1" >"$1.new" && mv "$1.new" "$1"
}
id=$(bsub -J legacy -o "$T/legacy.out" "while [ ! -e $T/go2 ]; do sleep 0.1; done; echo released" | job_id_of)
check "a job for an older sbatchd's record runs" wait_for 20 state_is "$id" RUN
# RUN is shown from the dispatch on; the record comes with the start.
wait_for 10 sh -c "ls '$jobs_dir/$id'.*.job" >/dev/null 2>&1
rec=$(ls "$jobs_dir/$id".*.job)
check "its record holds the report's facts, and there is no .info file" \
	sh -c "grep -qx '\[report\]' '$rec' && ! ls '$jobs_dir/$id'.*.info"
restart_vh1 split_record "$rec" || exit 1
check "the record split as an older sbatchd wrote it" test -s "${rec%.job}.info"
touch "$T/go2"
check "after the restart the job ends DONE" wait_for 30 state_is "$id" DONE
check "its -o file ends with the report from the .info file" sh -c \
	"grep -qx released $T/legacy.out && grep -qx 'Subject: Job $id: <legacy> in cluster <basalt> Done' $T/legacy.out"
check "and the .info file is gone" test ! -e "${rec%.job}.info"
id=$(bsub -J begun -o "$T/begun.out" "while [ ! -e $T/go3 ]; do sleep 0.1; done; echo released" | job_id_of)
check "a job whose report will read as begun runs" wait_for 20 state_is "$id" RUN
wait_for 10 sh -c "ls '$jobs_dir/$id'.*.job" >/dev/null 2>&1
rec=$(ls "$jobs_dir/$id".*.job)
restart_vh1 mark_begun "$rec" || exit 1
touch "$T/go3"
check "after the restart it ends DONE" wait_for 30 state_is "$id" DONE
check "with its output and no second report" sh -c \
	"grep -qx released $T/begun.out && ! grep -q '^Subject:' $T/begun.out"

# -N: the report by mail, not in the file.
id=$(bsub -N -u someone@example.org -J mailed -o "$T/mailed.out" 'echo mailed-output' | job_id_of)
check "a -N job ends DONE" wait_for 20 state_is "$id" DONE
mail_for() { grep -l "^Subject: Job $1: <mailed> in cluster <basalt> $2\$" "$T"/mail/*.mail; }
check "the report was mailed" wait_for 20 mail_for "$id" Done
m=$(mail_for "$id" Done | head -n 1)
check "to the -u address" grep -qx "ARGS: -oi someone@example.org" "$m"
check "with the To header" grep -qx "To: someone@example.org" "$m"
check "the mail holds the report" sh -c "grep -qx 'Successfully completed.' $m && grep -qx 'Resource usage summary:' $m"
check "the -o file has the output but no report" sh -c "grep -qx mailed-output $T/mailed.out && ! grep -q '^Sender:' $T/mailed.out"
check "and the mail not the output" sh -c "! grep -qx mailed-output $m"

# -B: a mail when the job starts; without -u it goes to the user.
id=$(bsub -B -J mailed -o /dev/null 'true' | job_id_of)
check "a -B job ends DONE" wait_for 20 state_is "$id" DONE
check "a start mail was sent" wait_for 20 mail_for "$id" started
m=$(mail_for "$id" started | head -n 1)
check "to the job's user" grep -qx "ARGS: -oi $me" "$m"

# The recipient is an argument of the mail program: one that looks like an
# option is not used.
id=$(bsub -N -u "-oQ/tmp/x" -J mailed -o /dev/null 'true' | job_id_of)
check "a job with a hostile -u ends DONE" wait_for 20 state_is "$id" DONE
check "no mail goes to an option-like address" sh -c "! grep -l -- '-oQ' $T/mail/*.mail"

# -u without -o: the report goes by mail to the -u address.
id=$(bsub -u other@example.org -J mailed 'echo spooled-output' | job_id_of)
check "a -u job without -o ends DONE" wait_for 20 state_is "$id" DONE
check "its report was mailed" wait_for 20 mail_for "$id" Done
m=$(mail_for "$id" Done | head -n 1)
check "to the -u address" grep -qx "ARGS: -oi other@example.org" "$m"
check "the mail holds the report" sh -c "grep -qx 'Successfully completed.' $m &&
	grep -qx 'Resource usage summary:' $m"
output_after_report() {    # output_after_report MAIL LINE: LINE follows the report
	sed -n '/^Resource usage summary:$/,$p' "$1" | sed -n '/^The output (if any) follows:$/,$p' |
		grep -qx "$2"
}
check "then the job's output" output_after_report "$m" spooled-output

# Neither -o, -u nor -N: as LSF, the report and the output go by mail to
# the job's user.
quiet=$(bsub -J mailed 'echo quiet-output' | job_id_of)
check "a job with neither -o nor -u ends DONE" wait_for 20 state_is "$quiet" DONE
check "its report was mailed" wait_for 20 mail_for "$quiet" Done
m=$(mail_for "$quiet" Done | head -n 1)
check "to the job's user" grep -qx "ARGS: -oi $me" "$m"
check "with the output after the report" output_after_report "$m" quiet-output

# lsf.conf LSB_MAILTO, !U the user, is the address when -u says none.
echo "LSB_MAILTO=!U@mail.example.org" >>"$T/conf/lsf.conf"
kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null
start_sbd vh1 || exit 1
id=$(bsub -N -J mailed -o /dev/null 'true' | job_id_of)
check "a -N job without -u ends DONE" wait_for 20 state_is "$id" DONE
check "its report was mailed" wait_for 20 mail_for "$id" Done
m=$(mail_for "$id" Done | head -n 1)
check "to LSB_MAILTO with !U replaced by the user" grep -qx "ARGS: -oi $me@mail.example.org" "$m"
check "with the To header" grep -qx "To: $me@mail.example.org" "$m"
id=$(bsub -N -u first@example.org -J mailed -o /dev/null 'true' | job_id_of)
check "a -N -u job ends DONE" wait_for 20 state_is "$id" DONE
check "its report was mailed" wait_for 20 mail_for "$id" Done
m=$(mail_for "$id" Done | head -n 1)
check "-u wins over LSB_MAILTO" grep -qx "ARGS: -oi first@example.org" "$m"

# Run as the job's user, never root, when the job is a user's.
if [ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null; then
	user=bsr$$
	# add_test_user retries while other tests hold /etc/passwd; cleanup
	# removes the user.
	if add_test_user "$user" "$T/home"; then
		mkdir -p "$T/home" && chown "$user" "$T/home"
		cd "$T/home" || exit 1
		uid=$(id -u "$user")
		id=$(runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" \
			bsub -N -J mailed -o out 'echo user-job' | job_id_of)
		check "a user's -N job ends DONE" wait_for 20 state_is "$id" DONE
		check "its mail was sent" wait_for 20 mail_for "$id" Done
		m=$(mail_for "$id" Done | head -n 1)
		check "the mail program ran as the user" grep -qx "UID: $uid" "$m"
		id=$(runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" \
			bsub -o out2 'echo user-job' | job_id_of)
		check "a user's job ends DONE" wait_for 20 state_is "$id" DONE
		check "the report is in the user's file" grep -qx "Successfully completed." "$T/home/out2"
		check "which still belongs to the user" sh -c "[ \$(stat -c %U $T/home/out2) = $user ]"
	else
		ok "# SKIP useradd failed"
	fi
else
	ok "# SKIP needs root and useradd"
fi

# A mail program that is not there: sbatchd says so in its log, and the
# job ends as it would.
sed -i "s|^LSB_MAILPROG=.*|LSB_MAILPROG=$T/no-such-mailprog|" "$T/conf/lsf.conf"
kill -TERM "$(sbd_pid vh1)"
wait "$(sbd_pid vh1)" 2>/dev/null
start_sbd vh1 || exit 1
id=$(bsub -J mailed 'echo unmailed' | job_id_of)
check "a job whose mail cannot go ends DONE" wait_for 20 state_is "$id" DONE
check "sbatchd logs that the mail program is missing" \
	grep -q "job $id.*cannot mail the job report: mail program $T/no-such-mailprog" "$T/log/sbatchd.vh1.out"
done_testing
