#!/bin/sh
# Paths as LSF expands them on the execution host: a relative -cwd against
# the submission directory; %J %I %U %G %H %P in -cwd, -o, -e and -outdir;
# "-o dir/" and -o naming a directory mean dir/<jobid>.out (and .err for
# -e); -outdir is created (as the job's user) and relative -o/-e go there;
# -o appends, -oo overwrites.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
start_mbd || exit 1
start_sbd vh1 || exit 1
mkdir -p "$T/sub/rel" "$T/sub/outs"
cd "$T/sub" || exit 1
me=$(id -un)
grp=$(id -gn)

id=$(bsub -cwd rel -o "$T/cwd.out" pwd | job_id_of)
check "a job with a relative -cwd ends DONE" wait_for 20 state_is "$id" DONE
check "it ran in the directory under the submission directory" \
	sh -c "head -n 1 $T/cwd.out | grep -qx $T/sub/rel"

mkdir -p "$T/sub/job-$me"
id=$(bsub -cwd "$T/sub/job-%U" -o "$T/o.%J.%U.%G.%H.%P" -e "$T/e.%J.%I" -P proj \
	'pwd; echo to-err >&2' | job_id_of)
check "a job with patterns ends DONE" wait_for 20 state_is "$id" DONE
check "-o expands %J %U %G %H %P" test -f "$T/o.$id.$me.$grp.vh1.proj"
check "-cwd expands %U" sh -c "head -n 1 '$T/o.$id.$me.$grp.vh1.proj' | grep -qx '$T/sub/job-$me'"
check "-e expands %J %I" grep -qx to-err "$T/e.$id.0"

id=$(bsub -J "arr[1-2]" -o "$T/a.%J.%I" 'echo "i=$LSB_JOBINDEX"' | job_id_of)
check "an array ends DONE" wait_for 20 sh -c "bjobs -a -noheader -o stat $id | grep -c DONE | grep -qx 2"
check "each element's -o names its index" sh -c "grep -qx i=1 $T/a.$id.1 && grep -qx i=2 $T/a.$id.2"

id=$(bsub -o outs/ -e outs/ 'echo dir-out; echo dir-err >&2' | job_id_of)
check "a job with -o dir/ ends DONE" wait_for 20 state_is "$id" DONE
check "its output is dir/<jobid>.out" grep -qx dir-out "$T/sub/outs/$id.out"
check "its errors are dir/<jobid>.err" grep -qx dir-err "$T/sub/outs/$id.err"

id=$(bsub -o outs 'echo plain-dir' | job_id_of)
check "-o naming an existing directory ends DONE" wait_for 20 state_is "$id" DONE
check "writes <jobid>.out in it" grep -qx plain-dir "$T/sub/outs/$id.out"

id=$(bsub -outdir "new/%J/x" -o o.txt -e e.txt 'echo od-out; echo od-err >&2' | job_id_of)
check "a job with -outdir ends DONE" wait_for 20 state_is "$id" DONE
check "-outdir was created with %J expanded" test -d "$T/sub/new/$id/x"
check "relative -o goes into it" grep -qx od-out "$T/sub/new/$id/x/o.txt"
check "relative -e goes into it" grep -qx od-err "$T/sub/new/$id/x/e.txt"

echo old-line >"$T/app.out"
echo old-line >"$T/ow.out"
a=$(bsub -o "$T/app.out" 'echo new-line' | job_id_of)
o=$(bsub -oo "$T/ow.out" 'echo new-line' | job_id_of)
both_done() { state_is "$a" DONE && state_is "$o" DONE; }
check "the -o and -oo jobs end DONE" wait_for 20 both_done
check "-o appends" sh -c "head -n 2 $T/app.out | tr '\n' ' ' | grep -qx 'old-line new-line '"
check "-oo overwrites" sh -c "head -n 1 $T/ow.out | grep -qx new-line && ! grep -q old-line $T/ow.out"

# -outdir is made as the job's user: a user cannot have sbatchd create a
# directory where that user may not.
if [ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null; then
	user=bsj$$
	# add_test_user retries while other tests hold /etc/passwd; cleanup
	# removes the user.
	if add_test_user "$user" "$T/home"; then
		mkdir -p "$T/home" "$T/rootonly" && chown "$user" "$T/home"
		chmod 755 "$T/rootonly"
		cd "$T/home" || exit 1
		id=$(runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" \
			bsub -outdir "$T/rootonly/made-%U" -o o.txt true | job_id_of)
		check "a user's -outdir in a root-only directory fails the job" wait_for 20 state_is "$id" EXIT
		check "and nothing was created there" test ! -e "$T/rootonly/made-$user"
		check "bjobs -l says why" says bjobs "$id" 'cannot create output directory'
		id=$(runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" \
			bsub -outdir "$T/home/d-%U" -o o.txt true | job_id_of)
		check "a user's own -outdir job ends DONE" wait_for 20 state_is "$id" DONE
		check "the directory belongs to the user" sh -c "[ \$(stat -c %U $T/home/d-$user) = $user ]"
		# Whether -o names a directory is asked as the user: root's view
		# of a private directory must not show through the error.
		mkdir -p "$T/private/d" && chmod 700 "$T/private"
		id=$(runuser -u "$user" -- env PATH="$PATH" LSF_ENVDIR="$LSF_ENVDIR" \
			bsub -o "$T/private/d" true | job_id_of)
		check "a user's -o into a directory it cannot see fails the job" wait_for 20 state_is "$id" EXIT
		check "naming the path as given, not a file inside it" sh -c \
			"bjobs -l $id | tr -d ' \n' | grep -q 'cannotopenoutputfile$T/private/d:Permissiondenied'"
	else
		ok "# SKIP useradd failed"
	fi
else
	ok "# SKIP needs root and useradd"
fi
done_testing
