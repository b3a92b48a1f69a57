#!/bin/sh
# A listing of several pages (each reply at most 2 MB): every job comes
# once, in order, whether the query asks for the table's fields alone
# (about 38,000 jobs a page) or for every field (-o, a few thousand a
# page), and the pages after the first take the kept selection's jobs.
. "$top_srcdir/tests/lib.sh"

make_cluster vh1
sed -i 's/^End Parameters/MAX_JOB_ARRAY_SIZE = 10000\nEnd Parameters/' \
	"$T/conf/lsbatch/basalt/configdir/lsb.params"
start_mbd || exit 1

# No sbatchd: every element stays pending, in submission order.
ids=""
for a in 1 2 3 4 5 6 7; do
	id=$(bsub -J "big$a[1-10000]" -o /dev/null true | job_id_of)
	[ -n "$id" ] || { not_ok "array $a submitted"; break; }
	ids="$ids $id"
done
check "70,000 jobs pending" \
	sh -c "[ \$(bjobs -u all -noheader -o stat | grep -c PEND) -eq 70000 ]"

bjobs -w -u all >"$T/table" 2>"$T/table.err"
check "the table lists each job once, in order" awk -v ids="$ids" '
	BEGIN { n = split(ids, id, " "); want = 0 }
	NR == 1 { next }  # the header; EXEC_HOST is blank, so the name is $6
	{
		a = int(want / 10000) + 1; i = want % 10000 + 1
		if ($1 != id[a] || $3 != "PEND" || $6 != "big" a "[" i "]") { bad = 1; exit }
		want++
	}
	END { exit bad || want != 70000 }' "$T/table"
check "and says nothing on stderr" sh -c "[ ! -s '$T/table.err' ]"

bjobs -u all -noheader -o "jobid job_name cpu_used" >"$T/full" 2>"$T/full.err"
check "so do full records, over many more pages" awk -v ids="$ids" '
	BEGIN { n = split(ids, id, " "); want = 0 }
	{
		a = int(want / 10000) + 1; i = want % 10000 + 1
		if ($1 != id[a] || $2 != "big" a "[" i "]") { bad = 1; exit }
		want++
	}
	END { exit bad || want != 70000 }' "$T/full"

bkill $ids >/dev/null 2>&1
done_testing
