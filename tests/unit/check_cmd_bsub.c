/* cmd/bsub-args: every option, #BSUB scripts, overrides, exact errors. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "bsub-args.h"
#include "jobctl-format.h"
#include "cmd-util.h"

static char *test_env[] = { "HOME=/home/alice", "PATH=/bin", "A=1", NULL };

static BsubContext
ctx(void)
{
	/* Tue Nov 22 2022 10:00:00 UTC */
	BsubContext c = { test_env, "/home/alice/w", "hostA", 1669111200 };
	return c;
}

/* Parses a shell-quoted command line. */
static BsubArgs *
parse(const char *line, GError **error)
{
	g_auto(GStrv) argv = NULL;
	int argc;
	BsubContext c = ctx();

	ck_assert(g_shell_parse_argv(line, &argc, &argv, NULL));
	return bsub_args_parse(argc, argv, &c, error);
}

static Basalt__JobSpec *
spec_of(BsubArgs *a)
{
	ck_assert_ptr_nonnull(a);
	ck_assert(!a->needs_script);
	return a->req->spec;
}

/* Expects a parse error with exactly this message. */
static void
parse_fails(const char *line, const char *msg)
{
	GError *err = NULL;
	BsubArgs *a = parse(line, &err);

	ck_assert_ptr_null(a);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->message, msg);
	g_error_free(err);
}

START_TEST(test_plain_command)
{
	g_autoptr(BsubArgs) a = parse("bsub sleep 100", NULL);
	Basalt__JobSpec *s = spec_of(a);

	ck_assert_str_eq(s->command, "sleep 100");
	ck_assert_str_eq(s->cwd, "/home/alice/w");
	ck_assert_str_eq(s->submit_host, "hostA");
	ck_assert_uint_eq(s->n_queues, 0);
	ck_assert_uint_eq(s->n_env, 3);
	ck_assert_str_eq(s->env[2], "A=1");
	ck_assert_str_eq(s->script, "");
}
END_TEST

/* -consumer: an absolute path, kept as written; mbatchd checks the plan. */
START_TEST(test_consumer)
{
	g_autoptr(BsubArgs) a = parse("bsub -consumer /eng/a true", NULL);

	ck_assert_str_eq(spec_of(a)->consumer, "/eng/a");
	parse_fails("bsub -consumer eng/a true", "bsub: Bad consumer: eng/a: a "
	    "consumer is an absolute path such as /dept/team. Job not submitted.");
	parse_fails("bsub -consumer '/a\nb' true", "bsub: Bad consumer: /a\\nb: a "
	    "consumer is an absolute path such as /dept/team. Job not submitted.");
}
END_TEST

/* -wa and -wt: LSF's job warning action and time. */
START_TEST(test_warning_action)
{
	g_autoptr(BsubArgs) a = parse("bsub -wa URG -wt 1:30 true", NULL);
	g_autoptr(BsubArgs) b = parse("bsub -wa 10 -wt 5 true", NULL);

	ck_assert_str_eq(spec_of(a)->warning_action, "URG");
	ck_assert_int_eq(spec_of(a)->warning_time, 90 * 60);
	ck_assert_str_eq(spec_of(b)->warning_action, "10");
	ck_assert_int_eq(spec_of(b)->warning_time, 5 * 60);
	parse_fails("bsub -wa NOSUCH true", "bsub: Bad job warning action: NOSUCH: "
	    "a signal name or number such as URG or USR1");
	parse_fails("bsub -wt 1:99 true", "bsub: Bad job warning time "
	    "specification: 1:99");
}
END_TEST

START_TEST(test_string_options)
{
	g_autoptr(BsubArgs) a = parse("bsub -J job1 -o out.%J -e err -i in "
				      "-R \"span[hosts=1]\" -cwd /tmp -P proj "
				      "-G grp -w 'done(12)' -u a@b -E 'true' "
				      "-app prof -L /bin/bash ./run.sh x", NULL);
	Basalt__JobSpec *s = spec_of(a);

	ck_assert_str_eq(s->job_name, "job1");
	ck_assert_str_eq(s->stdout_path, "out.%J");
	ck_assert(!s->stdout_overwrite);
	ck_assert_str_eq(s->stderr_path, "err");
	ck_assert_str_eq(s->stdin_path, "in");
	ck_assert_str_eq(s->resreq, "span[hosts=1]");
	ck_assert_str_eq(s->cwd, "/tmp");
	ck_assert_str_eq(s->project, "proj");
	ck_assert_str_eq(s->user_group, "grp");
	ck_assert_str_eq(s->dependency, "done(12)");
	ck_assert_str_eq(s->mail_user, "a@b");
	ck_assert_str_eq(s->pre_exec, "true");
	ck_assert_str_eq(s->app_profile, "prof");
	ck_assert_str_eq(a->login_shell, "/bin/bash");
	ck_assert_str_eq(s->command, "./run.sh x");
}
END_TEST

START_TEST(test_flags)
{
	g_autoptr(BsubArgs) a = parse("bsub -H -r -K -x -B -N hostname", NULL);
	Basalt__JobSpec *s = spec_of(a);

	ck_assert(s->hold);
	ck_assert(s->rerunnable);
	ck_assert(s->interactive_wait);
	ck_assert(a->exclusive);
	ck_assert(a->notify_begin);
	ck_assert(a->notify_end);
	ck_assert(s->notify_begin);
	ck_assert(s->notify_end);
	ck_assert_str_eq(s->command, "hostname");
}
END_TEST

/* A relative -cwd or -outdir is taken against the submission directory;
 * patterns are left for the execution host. */
START_TEST(test_cwd_outdir)
{
	g_autoptr(BsubArgs) a = parse("bsub -cwd run/%J -outdir out/%U true", NULL);
	g_autoptr(BsubArgs) b = parse("bsub -cwd /abs/%J -outdir /o true", NULL);
	g_autoptr(BsubArgs) c = parse("bsub true", NULL);
	Basalt__JobSpec *s = spec_of(a);

	ck_assert_str_eq(s->cwd, "/home/alice/w/run/%J");
	ck_assert_str_eq(s->outdir, "/home/alice/w/out/%U");
	ck_assert_str_eq(s->sub_cwd, "/home/alice/w");
	s = spec_of(b);
	ck_assert_str_eq(s->cwd, "/abs/%J");
	ck_assert_str_eq(s->outdir, "/o");
	s = spec_of(c);
	ck_assert_str_eq(s->cwd, "/home/alice/w");
	ck_assert_str_eq(s->outdir, "");
	ck_assert(!s->notify_begin && !s->notify_end);
}
END_TEST

START_TEST(test_overwrite_outputs)
{
	g_autoptr(BsubArgs) a = parse("bsub -oo o -eo e true", NULL);
	Basalt__JobSpec *s = spec_of(a);

	ck_assert_str_eq(s->stdout_path, "o");
	ck_assert(s->stdout_overwrite);
	ck_assert_str_eq(s->stderr_path, "e");
	ck_assert(s->stderr_overwrite);
}
END_TEST

START_TEST(test_queue_and_host_lists)
{
	g_autoptr(BsubArgs) a = parse("bsub -q \"short normal\" -m \"h1 h2  h3\" ls",
				      NULL);
	Basalt__JobSpec *s = spec_of(a);

	ck_assert_uint_eq(s->n_queues, 2);
	ck_assert_str_eq(s->queues[0], "short");
	ck_assert_str_eq(s->queues[1], "normal");
	ck_assert_uint_eq(s->n_hosts, 3);
	ck_assert_str_eq(s->hosts[2], "h3");
}
END_TEST

START_TEST(test_slots)
{
	g_autoptr(BsubArgs) a = parse("bsub -n 4 ls", NULL);
	g_autoptr(BsubArgs) b = parse("bsub -n 2,8 ls", NULL);

	ck_assert_uint_eq(spec_of(a)->min_slots, 4);
	ck_assert_uint_eq(spec_of(a)->max_slots, 4);
	ck_assert_uint_eq(spec_of(b)->min_slots, 2);
	ck_assert_uint_eq(spec_of(b)->max_slots, 8);
}
END_TEST

START_TEST(test_bad_slots)
{
	parse_fails("bsub -n 0 ls", "bsub: Bad argument for option -n: 0");
	parse_fails("bsub -n 8,2 ls", "bsub: Bad argument for option -n: 8,2");
	parse_fails("bsub -n x ls", "bsub: Bad argument for option -n: x");
	parse_fails("bsub -n 1,2,3 ls", "bsub: Bad argument for option -n: 1,2,3");
	parse_fails("bsub -n -4 ls", "bsub: Bad argument for option -n: -4");
}
END_TEST

START_TEST(test_limits)
{
	g_autoptr(BsubArgs) a = parse("bsub -W 1:30 -c 45 -M 2GB ls", NULL);
	g_autoptr(BsubArgs) b = parse("bsub -W 210/hostB -c 0:5 -M 512 ls", NULL);

	ck_assert_uint_eq(spec_of(a)->runlimit_s, 5400);
	ck_assert_uint_eq(spec_of(a)->cpulimit_s, 2700);
	ck_assert_uint_eq(spec_of(a)->memlimit_kb, 2 * 1024 * 1024);
	ck_assert_ptr_null(a->runlimit_host);
	ck_assert_uint_eq(spec_of(b)->runlimit_s, 210 * 60);
	ck_assert_str_eq(b->runlimit_host, "hostB");
	ck_assert_uint_eq(spec_of(b)->cpulimit_s, 300);
	ck_assert_uint_eq(spec_of(b)->memlimit_kb, 512);
}
END_TEST

/* Several -R strings merge, on the command line and in a script alike. */
START_TEST(test_resreq_merged)
{
	g_autoptr(BsubArgs) a = parse("bsub -n 6 -R span[hosts=1] "
	    "-R rusage[mem=10] ls", NULL);
	g_autoptr(BsubArgs) one = parse("bsub -R 'select[mem>=2048MB] "
	    "rusage[mem=2048MB]' ls", NULL);
	g_autoptr(BsubArgs) sc = parse("bsub", NULL);
	g_autoptr(BsubArgs) cli = parse("bsub -R 'order[ut]'", NULL);
	const char *text = "#!/bin/sh\n#BSUB -R \"select[mem>100]\"\n"
	    "#BSUB -R span[ptile=2]\nhostname\n";
	BsubContext c = ctx();

	ck_assert_str_eq(spec_of(a)->resreq, "rusage[mem=10] span[hosts=1]");
	/* One string goes as written. */
	ck_assert_str_eq(spec_of(one)->resreq,
	    "select[mem>=2048MB] rusage[mem=2048MB]");
	ck_assert(bsub_args_add_script(sc, text, &c, NULL));
	ck_assert_str_eq(spec_of(sc)->resreq, "select[mem>100] span[ptile=2]");
	/* The command line's -R replace the script's, as other options do. */
	ck_assert(bsub_args_add_script(cli, text, &c, NULL));
	ck_assert_str_eq(spec_of(cli)->resreq, "order[ut]");
	parse_fails("bsub -R span[hosts=1] -R span[ptile=2] ls",
	    "bsub: bad resource requirement \"span[ptile=2]\": span[] "
	    "conflicts with the span[] of an earlier -R string; a job has one "
	    "span at column 6. Job not submitted.");
}
END_TEST

/* LSF 10.1's compound and alternative -R: sent as written; a compound
 * one's slot counts add up to the job's. */
START_TEST(test_resreq_forms)
{
	g_autoptr(BsubArgs) cmp = parse("bsub -R '2*{select[a]} + 1*{select[b]}' "
	    "ls", NULL);
	g_autoptr(BsubArgs) same_n = parse("bsub -n 3 -R '2*{select[a]} + "
	    "{select[b]}' ls", NULL);
	g_autoptr(BsubArgs) alt = parse("bsub -n 2 -R '{select[a]} || "
	    "{select[b]}' ls", NULL);

	ck_assert_str_eq(spec_of(cmp)->resreq, "2*{select[a]} + 1*{select[b]}");
	ck_assert_uint_eq(spec_of(cmp)->min_slots, 3);
	ck_assert_uint_eq(spec_of(cmp)->max_slots, 3);
	ck_assert_uint_eq(spec_of(same_n)->min_slots, 3);
	ck_assert_str_eq(spec_of(alt)->resreq, "{select[a]} || {select[b]}");
	ck_assert_uint_eq(spec_of(alt)->min_slots, 2);
	parse_fails("bsub -n 4 -R '2*{select[a]} + 1*{select[b]}' ls",
	    "bsub: -n 4 does not match the compound resource requirement's 3 "
	    "slots. Job not submitted.");
	parse_fails("bsub -n 2,3 -R '3*{select[a]}' ls",
	    "bsub: -n 2 does not match the compound resource requirement's 3 "
	    "slots. Job not submitted.");
	parse_fails("bsub -R '{select[a]} || {select[b}' ls",
	    "bsub: bad resource requirement \"select[b\": missing ']' for "
	    "this '[' at column 7. Job not submitted.");
}
END_TEST

/* LSF_UNIT_FOR_LIMITS: the unit of a bare size, in -M and in -R. */
START_TEST(test_unit_for_limits)
{
	g_autoptr(BsubArgs) kb = parse("bsub -M 100 ls", NULL);
	g_autoptr(BsubArgs) mb = NULL, gb = NULL, gbr = NULL, pb = NULL;

	ck_assert_uint_eq(spec_of(kb)->memlimit_kb, 100);
	cmd_set_mem_unit(BS_MEM_MB);
	mb = parse("bsub -M 100 -R rusage[mem=100] ls", NULL);
	ck_assert_uint_eq(spec_of(mb)->memlimit_kb, 100 * 1024);
	ck_assert_str_eq(spec_of(mb)->resreq, "rusage[mem=100]");
	cmd_set_mem_unit(BS_MEM_GB);
	gb = parse("bsub -M 2 ls", NULL);
	gbr = parse("bsub -M 512MB -R 'select[mem>2] rusage[mem=1]' ls", NULL);
	pb = parse("bsub -M 1P ls", NULL);
	ck_assert_uint_eq(spec_of(gb)->memlimit_kb, 2 * 1024 * 1024);
	ck_assert_uint_eq(spec_of(gbr)->memlimit_kb, 512 * 1024);
	ck_assert_str_eq(spec_of(gbr)->resreq,
	    "select[mem>2048MB] rusage[mem=1024MB]");
	ck_assert_uint_eq(spec_of(pb)->memlimit_kb,
	    G_GUINT64_CONSTANT(1024) * 1024 * 1024 * 1024);
	cmd_set_mem_unit(BS_MEM_KB);
}
END_TEST

START_TEST(test_bad_limits)
{
	parse_fails("bsub -W 1:2:3 ls", "bsub: Bad RUNLIMIT specification: 1:2:3");
	parse_fails("bsub -W abc ls", "bsub: Bad RUNLIMIT specification: abc");
	parse_fails("bsub -W 0 ls", "bsub: Bad RUNLIMIT specification: 0");
	parse_fails("bsub -W 10/ ls", "bsub: Bad RUNLIMIT specification: 10/");
	parse_fails("bsub -c :5 ls", "bsub: Bad CPULIMIT specification: :5");
	parse_fails("bsub -M 4X ls", "bsub: Bad MEMLIMIT specification: 4X");
	parse_fails("bsub -sp 0 ls", "bsub: Bad argument for option -sp: 0");
}
END_TEST

/* -v -F -D -S -C -p -T: sizes through the memory units, counts above 0,
 * absent when not given; -C 0 is a limit (no core file). */
START_TEST(test_host_limits)
{
	g_autoptr(BsubArgs) a = parse("bsub -v 2G -F 100 -D 4MB -S 8192 -C 0 "
				      "-p 4 -T 16 ls", NULL);
	g_autoptr(BsubArgs) b = parse("bsub ls", NULL);
	Basalt__JobSpec *s = spec_of(a);

	ck_assert_uint_eq(s->swaplimit_kb->value, 2 * 1024 * 1024);
	ck_assert_uint_eq(s->filelimit_kb->value, 100);
	ck_assert_uint_eq(s->datalimit_kb->value, 4096);
	ck_assert_uint_eq(s->stacklimit_kb->value, 8192);
	ck_assert_ptr_nonnull(s->corelimit_kb);
	ck_assert_uint_eq(s->corelimit_kb->value, 0);
	ck_assert_uint_eq(s->processlimit->value, 4);
	ck_assert_uint_eq(s->threadlimit->value, 16);
	ck_assert_str_eq(s->command, "ls");
	s = spec_of(b);
	ck_assert_ptr_null(s->swaplimit_kb);
	ck_assert_ptr_null(s->corelimit_kb);
	ck_assert_ptr_null(s->threadlimit);
	parse_fails("bsub -v 0 ls", "bsub: Bad SWAPLIMIT specification: 0");
	parse_fails("bsub -F 1X ls", "bsub: Bad FILELIMIT specification: 1X");
	parse_fails("bsub -p 0 ls", "bsub: Bad PROCESSLIMIT specification: 0");
	parse_fails("bsub -T many ls", "bsub: Bad THREADLIMIT specification: many");
}
END_TEST

START_TEST(test_begin_time)
{
	g_autoptr(BsubArgs) a = parse("bsub -b 11:30 ls", NULL);
	g_autoptr(BsubArgs) b = parse("bsub -b 9:00 ls", NULL);
	g_autoptr(BsubArgs) c = parse("bsub -b 1:8:00 -t 12:25:23:59 ls", NULL);
	g_autoptr(BsubArgs) d = parse("bsub -b 3:15:00 ls", NULL);
	g_autoptr(BsubArgs) e = parse("bsub -b 3:15:10:00 ls", NULL);

	/* now = 2022-11-22 10:00 UTC */
	ck_assert_int_eq(spec_of(a)->begin_time, 1669116600);  /* today 11:30 */
	ck_assert_int_eq(spec_of(b)->begin_time, 1669194000);  /* tomorrow 9:00 */
	ck_assert_int_eq(spec_of(c)->begin_time, 1669881600);  /* Dec 1 08:00 */
	ck_assert_int_eq(c->term_time, 1672012740);            /* Dec 25 23:59 */
	ck_assert_int_eq(spec_of(d)->begin_time, 1670079600);  /* Dec 3 15:00 */
	ck_assert_int_eq(spec_of(e)->begin_time, 1678874400);  /* 2023-03-15 */
}
END_TEST

START_TEST(test_bad_times)
{
	parse_fails("bsub -b 10 ls", "bsub: Bad begin time specification: 10");
	parse_fails("bsub -b 24:00 ls", "bsub: Bad begin time specification: 24:00");
	parse_fails("bsub -b 13:1:10:00 ls",
		    "bsub: Bad begin time specification: 13:1:10:00");
	parse_fails("bsub -t 1:2:3:4:5 ls",
		    "bsub: Bad termination time specification: 1:2:3:4:5");
}
END_TEST

/* A large submission environment keeps its order; a later entry for a
 * KEY replaces the earlier one in place, and KEY matches KEY= only. */
START_TEST(test_env_large_and_replaced)
{
	g_autoptr(GPtrArray) envp = g_ptr_array_new_with_free_func(g_free);
	g_auto(GStrv) argv = NULL;
	g_autoptr(BsubArgs) a = NULL;
	BsubContext c = ctx();
	int argc;

	for (int i = 0; i < 2000; i++)
		g_ptr_array_add(envp, g_strdup_printf("V%d=%d", i, i));
	g_ptr_array_add(envp, g_strdup("V7=again"));
	g_ptr_array_add(envp, g_strdup("V"));
	g_ptr_array_add(envp, g_strdup("V1=x=y"));
	g_ptr_array_add(envp, NULL);
	c.envp = (char **)envp->pdata;
	ck_assert(g_shell_parse_argv("bsub -env \"all, V5=five, V\" ls", &argc,
	    &argv, NULL));
	a = bsub_args_parse(argc, argv, &c, NULL);
	ck_assert_uint_eq(spec_of(a)->n_env, 2001);
	ck_assert_str_eq(spec_of(a)->env[0], "V0=0");
	ck_assert_str_eq(spec_of(a)->env[1], "V1=x=y");
	ck_assert_str_eq(spec_of(a)->env[5], "V5=five");
	ck_assert_str_eq(spec_of(a)->env[7], "V7=again");
	ck_assert_str_eq(spec_of(a)->env[1999], "V1999=1999");
	/* "V" has no value: kept, and "V" from -env (not in the
	 * environment as V=...) adds nothing. */
	ck_assert_str_eq(spec_of(a)->env[2000], "V");
}
END_TEST

START_TEST(test_env_variants)
{
	g_autoptr(BsubArgs) none = parse("bsub -env none ls", NULL);
	g_autoptr(BsubArgs) all = parse("bsub -env \"all, A=2, X=y\" ls", NULL);
	g_autoptr(BsubArgs) some = parse("bsub -env \"PATH, B=x, NOPE\" ls", NULL);

	ck_assert_uint_eq(spec_of(none)->n_env, 0);
	ck_assert(none->env_none);
	ck_assert_uint_eq(spec_of(all)->n_env, 4);
	ck_assert_str_eq(spec_of(all)->env[2], "A=2");
	ck_assert_str_eq(spec_of(all)->env[3], "X=y");
	ck_assert_uint_eq(spec_of(some)->n_env, 2);
	ck_assert_str_eq(spec_of(some)->env[0], "PATH=/bin");
	ck_assert_str_eq(spec_of(some)->env[1], "B=x");
	parse_fails("bsub -env \"none, A=1\" ls",
		    "bsub: Bad argument for option -env: none, A=1");
	parse_fails("bsub -env \"A,,B\" ls", "bsub: Bad argument for option -env: A,,B");
}
END_TEST

START_TEST(test_double_dash)
{
	g_autoptr(BsubArgs) a = parse("bsub -q normal -- -weird -q x", NULL);

	ck_assert_str_eq(spec_of(a)->command, "-weird -q x");
	ck_assert_uint_eq(spec_of(a)->n_queues, 1);
}
END_TEST

START_TEST(test_command_options_stay)
{
	g_autoptr(BsubArgs) a = parse("bsub ls -l -q", NULL);

	ck_assert_str_eq(spec_of(a)->command, "ls -l -q");
}
END_TEST

START_TEST(test_illegal_option)
{
	parse_fails("bsub -z ls", "bsub: illegal option -- z\nUsage: " BSUB_USAGE);
	parse_fails("bsub -qq x ls", "bsub: illegal option -- qq\nUsage: " BSUB_USAGE);
	parse_fails("bsub -q", "bsub: option requires an argument -- q\nUsage: "
		    BSUB_USAGE);
}
END_TEST

START_TEST(test_output_conflicts)
{
	parse_fails("bsub -o a -oo b ls", "bsub: -o and -oo cannot be used together");
	parse_fails("bsub -eo a -e b ls", "bsub: -e and -eo cannot be used together");
}
END_TEST

START_TEST(test_interactive_rejected)
{
	parse_fails("bsub -I -K ls", "bsub: -K cannot be used with -I, -Ip or -Is. "
		    "Job not submitted.");
	parse_fails("bsub -tty ls", "bsub: -tty can only be used with -I, -Ip or "
		    "-Is. Job not submitted.");
	parse_fails("bsub -Is -J \"a[1-2]\" bash", "bsub: An interactive job "
		    "cannot be a job array. Job not submitted.");
}
END_TEST

START_TEST(test_interactive_modes)
{
	const char *lines[] = { "bsub -I ls", "bsub -Ip vi", "bsub -Is bash" };

	for (guint i = 0; i < G_N_ELEMENTS(lines); i++) {
		g_autoptr(BsubArgs) a = parse(lines[i], NULL);

		ck_assert_uint_eq(spec_of(a)->interactive, i + 1);
		ck_assert(!spec_of(a)->interactive_tty);
	}
	g_autoptr(BsubArgs) t = parse("bsub -I -tty -o out ls", NULL);

	ck_assert_uint_eq(spec_of(t)->interactive, 1);
	ck_assert(spec_of(t)->interactive_tty);
	g_autoptr(BsubArgs) b = parse("bsub ls", NULL);

	ck_assert_uint_eq(spec_of(b)->interactive, 0);
}
END_TEST

START_TEST(test_job_arrays)
{
	g_autoptr(BsubArgs) a = parse("bsub -J \"arr[1-100:2,200]%10\" ls", NULL);

	ck_assert_str_eq(spec_of(a)->job_name, "arr[1-100:2,200]%10");
	ck_assert(bsub_check_job_name("a[1]"));
	ck_assert(bsub_check_job_name("plain"));
	ck_assert(!bsub_check_job_name("a[1-"));
	ck_assert(!bsub_check_job_name("a[]"));
	ck_assert(!bsub_check_job_name("a[0]"));
	ck_assert(!bsub_check_job_name("a[5-2]"));
	ck_assert(!bsub_check_job_name("a[1-5:0]"));
	ck_assert(!bsub_check_job_name("a[1]%"));
	ck_assert(!bsub_check_job_name("a[1]x"));
	ck_assert(!bsub_check_job_name("a]1["));
	ck_assert(!bsub_check_job_name("a[[1]]"));
	parse_fails("bsub -J \"a[1-x]\" ls", "bsub: Bad job name: a[1-x]");
	/* A newline would forge lines in logs and listings. */
	parse_fails("bsub -J \"a\nJob <9> is submitted\" ls", "bsub: Bad job name: "
	    "a\\nJob <9> is submitted: a job name cannot contain a newline or other "
	    "control characters");
}
END_TEST

START_TEST(test_needs_script)
{
	g_autoptr(BsubArgs) a = parse("bsub -q normal", NULL);

	ck_assert_ptr_nonnull(a);
	ck_assert(a->needs_script);
	ck_assert_ptr_null(a->req);
}
END_TEST

static const char script[] =
	"#!/bin/sh\n"
	"# a comment\n"
	"#BSUB -q short\n"
	"#BSUB -J \"from script\" -n 2\n"
	"\n"
	"#BSUB -o s.out\n"
	"echo hello\n"
	"#BSUB -P late\n";

START_TEST(test_script_options)
{
	g_autoptr(BsubArgs) a = parse("bsub", NULL);
	BsubContext c = ctx();
	Basalt__JobSpec *s;

	ck_assert(bsub_args_add_script(a, script, &c, NULL));
	s = spec_of(a);
	ck_assert_uint_eq(s->n_queues, 1);
	ck_assert_str_eq(s->queues[0], "short");
	ck_assert_str_eq(s->job_name, "from script");
	ck_assert_uint_eq(s->min_slots, 2);
	ck_assert_str_eq(s->stdout_path, "s.out");
	/* #BSUB after the first command line does not count */
	ck_assert_str_eq(s->project, "");
	ck_assert_str_eq(s->script, script);
	ck_assert_str_eq(s->command, "#!/bin/sh; # a comment; #BSUB -q short; "
			 "#BSUB -J \"from script\" -n 2; #BSUB -o s.out; "
			 "echo hello; #BSUB -P late");
}
END_TEST

/* -nnodes N (CSM LSF, Parsl): N whole hosts, one slot on each, exclusive. */
START_TEST(test_nnodes)
{
	g_autoptr(BsubArgs) a = parse("bsub -nnodes 3 -R \"rusage[mem=10]\" true", NULL);
	g_autoptr(BsubArgs) b = parse("bsub", NULL);
	BsubContext c = ctx();
	Basalt__JobSpec *s = spec_of(a);

	ck_assert_uint_eq(s->min_slots, 3);
	ck_assert_uint_eq(s->max_slots, 3);
	ck_assert(s->exclusive);
	ck_assert(a->exclusive);
	ck_assert_ptr_nonnull(strstr(s->resreq, "span[ptile=1]"));
	ck_assert_ptr_nonnull(strstr(s->resreq, "rusage[mem=10"));
	ck_assert(bsub_args_add_script(b, "#!/bin/bash\n#BSUB -P parsl\n"
	    "#BSUB -nnodes 2\nhostname\n", &c, NULL));
	s = spec_of(b);
	ck_assert_uint_eq(s->min_slots, 2);
	ck_assert(s->exclusive);
	ck_assert_ptr_nonnull(strstr(s->resreq, "span[ptile=1]"));
	parse_fails("bsub -nnodes 2 -n 2 true",
	    "bsub: -nnodes and -n cannot be used together. Job not submitted.");
	parse_fails("bsub -nnodes 0 true",
	    "bsub: Bad argument for option -nnodes: 0. Job not submitted.");
}
END_TEST

START_TEST(test_script_name_control)
{
	g_autoptr(BsubArgs) a = parse("bsub", NULL);
	BsubContext c = ctx();
	GError *err = NULL;

	ck_assert(!bsub_args_add_script(a, "#!/bin/sh\n#BSUB -J x\x1b[2Jy\ntrue\n",
	    &c, &err));
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err->message, "Bad job name: x\\x1b[2Jy") != NULL, "%s",
	    err->message);
	g_error_free(err);
}
END_TEST

START_TEST(test_cli_overrides_script)
{
	g_autoptr(BsubArgs) a = parse("bsub -q normal -oo cli.out -n 8", NULL);
	BsubContext c = ctx();
	Basalt__JobSpec *s;

	ck_assert(bsub_args_add_script(a, script, &c, NULL));
	s = spec_of(a);
	ck_assert_str_eq(s->queues[0], "normal");
	ck_assert_str_eq(s->stdout_path, "cli.out");
	ck_assert(s->stdout_overwrite);
	ck_assert_uint_eq(s->min_slots, 8);
	ck_assert_str_eq(s->job_name, "from script");
}
END_TEST

START_TEST(test_script_errors)
{
	BsubContext c = ctx();
	GError *err = NULL;
	g_autoptr(BsubArgs) a = parse("bsub", NULL);
	g_autoptr(BsubArgs) b = parse("bsub", NULL);
	g_autoptr(BsubArgs) d = parse("bsub", NULL);

	ck_assert(!bsub_args_add_script(a, "\n  \n", &c, &err));
	ck_assert_str_eq(err->message, "bsub: a job command or script is required");
	g_clear_error(&err);
	ck_assert(!bsub_args_add_script(b, "#BSUB -y\nls\n", &c, &err));
	ck_assert_str_eq(err->message, "bsub: illegal option -- y\nUsage: " BSUB_USAGE);
	g_clear_error(&err);
	ck_assert(!bsub_args_add_script(d, "#BSUB -q a extra\nls\n", &c, &err));
	ck_assert_str_eq(err->message, "bsub: bad #BSUB line: #BSUB -q a extra");
	g_clear_error(&err);
}
END_TEST

START_TEST(test_script_env_and_no_shebang)
{
	g_autoptr(BsubArgs) a = parse("bsub", NULL);
	BsubContext c = ctx();

	ck_assert(bsub_args_add_script(a, "#BSUB -env \"A=9\"\nrun\n", &c, NULL));
	ck_assert_uint_eq(spec_of(a)->n_env, 1);
	ck_assert_str_eq(spec_of(a)->env[0], "A=9");
	ck_assert_str_eq(spec_of(a)->command, "#BSUB -env \"A=9\"; run");
}
END_TEST

START_TEST(test_submit_lines)
{
	Basalt__SubmitReply r = BASALT__SUBMIT_REPLY__INIT;
	Basalt__Error e = BASALT__ERROR__INIT;
	g_autoptr(GString) out = g_string_new(NULL);

	r.job_id = 123;
	r.queue = "normal";
	bsub_format_submitted(out, &r);
	r.default_queue = TRUE;
	bsub_format_submitted(out, &r);
	e.code = BASALT__ERROR_CODE__ERROR_CODE_QUEUE_USER;
	bsub_format_rejected(out, &e, "short");
	e.code = BASALT__ERROR_CODE__ERROR_CODE_NO_QUEUE;
	bsub_format_rejected(out, &e, NULL);
	e.code = BASALT__ERROR_CODE__ERROR_CODE_BAD_REQUEST;
	e.message = "Too many processors requested";
	bsub_format_rejected(out, &e, "short");
	ck_assert_str_eq(out->str,
			 "Job <123> is submitted to queue <normal>.\n"
			 "Job <123> is submitted to default queue <normal>.\n"
			 "short: User cannot use the queue. Job not submitted.\n"
			 "No such queue. Job not submitted.\n"
			 "Too many processors requested. Job not submitted.\n");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cmd_bsub");
	TCase *opts = tcase_create("options");
	TCase *errs = tcase_create("errors");
	TCase *scr = tcase_create("script");

	setenv("TZ", "UTC", 1);
	tcase_add_test(opts, test_plain_command);
	tcase_add_test(opts, test_string_options);
	tcase_add_test(opts, test_consumer);
	tcase_add_test(opts, test_warning_action);
	tcase_add_test(opts, test_flags);
	tcase_add_test(opts, test_cwd_outdir);
	tcase_add_test(opts, test_overwrite_outputs);
	tcase_add_test(opts, test_queue_and_host_lists);
	tcase_add_test(opts, test_slots);
	tcase_add_test(opts, test_limits);
	tcase_add_test(opts, test_host_limits);
	tcase_add_test(opts, test_begin_time);
	tcase_add_test(opts, test_env_variants);
	tcase_add_test(opts, test_env_large_and_replaced);
	tcase_add_test(opts, test_double_dash);
	tcase_add_test(opts, test_command_options_stay);
	tcase_add_test(opts, test_job_arrays);
	tcase_add_test(opts, test_submit_lines);
	tcase_add_test(errs, test_bad_slots);
	tcase_add_test(errs, test_bad_limits);
	tcase_add_test(errs, test_bad_times);
	tcase_add_test(errs, test_illegal_option);
	tcase_add_test(errs, test_output_conflicts);
	tcase_add_test(errs, test_interactive_rejected);
	tcase_add_test(errs, test_interactive_modes);
	tcase_add_test(scr, test_needs_script);
	tcase_add_test(scr, test_script_options);
	tcase_add_test(scr, test_nnodes);
	tcase_add_test(scr, test_script_name_control);
	tcase_add_test(scr, test_cli_overrides_script);
	tcase_add_test(scr, test_resreq_merged);
	tcase_add_test(scr, test_resreq_forms);
	tcase_add_test(scr, test_unit_for_limits);
	tcase_add_test(scr, test_script_errors);
	tcase_add_test(scr, test_script_env_and_no_shebang);
	suite_add_tcase(s, opts);
	suite_add_tcase(s, errs);
	suite_add_tcase(s, scr);
	return bs_run_suite(s);
}
