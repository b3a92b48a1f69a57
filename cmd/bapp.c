/*
 * bapp: the application profiles of lsb.applications with the slots of
 * their unfinished jobs, LSF's layout:
 *
 *   APPLICATION_NAME NJOBS  PEND   RUN  SUSP
 *   fluent               4     2     2     0
 *
 * -l: per profile its description, STATISTICS and PARAMETERS.  -w does
 * not cut names.  The profiles are read from the configuration files
 * (cmd-conf.h; no BatchService call lists them), the counts come from
 * mbatchd's job list (Jobs, all users, -app name), so they cover the
 * jobs the caller may see.  An unknown name: "<name>: No such
 * application profile", exit 255.
 */
#include "config.h"

#include <stdio.h>

#include "cmd-conf.h"
#include "cmd-main.h"
#include "cmd-util.h"

#define BAPP_USAGE "bapp [-h] [-V] [-l | -w] [application_profile ...]"

enum { O_L, O_W, O_N };
static const CmdOpt opts[] = {
	[O_L] = { "-l", FALSE }, [O_W] = { "-w", FALSE },
	[O_N] = { NULL, FALSE },
};

typedef struct {
	guint pend, run, ssusp, ususp;
} AppCounts;

static guint
slots_of(const Basalt__JobInfo *j)
{
	if (j->n_exec_hosts > 0)
		return (guint)j->n_exec_hosts;
	return j->spec != NULL && j->spec->min_slots > 0 ? j->spec->min_slots : 1;
}

/* FALSE when mbatchd could not be asked (the message is printed). */
static gboolean
count(const char *app, AppCounts *c)
{
	Basalt__JobQuery q = BASALT__JOB_QUERY__INIT;
	char *all[] = { (char *)"all" };
	Basalt__JobList *l;

	*c = (AppCounts){ 0 };
	q.users = all;
	q.n_users = 1;
	q.app_profile = (char *)app;
	q.detail = TRUE;
	l = (Basalt__JobList *)cmd_main_call(LSB_JOBS, &q.base);
	if (l == NULL)
		return FALSE;
	for (size_t i = 0; l->error == NULL && i < l->n_jobs; i++) {
		const Basalt__JobInfo *j = l->jobs[i];
		guint n = slots_of(j);

		switch (j->state) {
		case BASALT__JOB_STATE__JOB_STATE_PEND:
		case BASALT__JOB_STATE__JOB_STATE_PSUSP:
			c->pend += n;
			break;
		case BASALT__JOB_STATE__JOB_STATE_RUN:
		case BASALT__JOB_STATE__JOB_STATE_UNKWN:
			c->run += n;
			break;
		case BASALT__JOB_STATE__JOB_STATE_SSUSP:
			c->ssusp += n;
			break;
		case BASALT__JOB_STATE__JOB_STATE_USUSP:
			c->ususp += n;
			break;
		default:
			break;
		}
	}
	basalt__job_list__free_unpacked(l, NULL);
	return TRUE;
}

static void
limit_block(GString *out, const char *key, const BsLimit *l, gboolean kb)
{
	if (l->max == BS_CONF_UNLIMITED)
		return;
	g_string_append_printf(out, "\n%s\n ", key);
	if (l->def != BS_CONF_UNLIMITED)
		g_string_append_printf(out, kb ? "%" G_GINT64_FORMAT " K " :
				       "%" G_GINT64_FORMAT ".0 min ", l->def);
	g_string_append_printf(out, kb ? "%" G_GINT64_FORMAT " K\n" :
			       "%" G_GINT64_FORMAT ".0 min\n", l->max);
}

static void
string_line(GString *out, const char *key, const char *v)
{
	if (v != NULL)
		g_string_append_printf(out, "\n%s: %s\n", key, v);
}

static void
long_app(GString *out, const BsAppConf *a, const AppCounts *c)
{
	g_string_append_printf(out, "\nAPPLICATION NAME: %s\n", a->name);
	if (a->description != NULL)
		g_string_append_printf(out, " -- %s\n", a->description);
	g_string_append_printf(out, "\nSTATISTICS:\n"
	    "   NJOBS     PEND      RUN    SSUSP    USUSP      RSV\n"
	    "%8u %8u %8u %8u %8u %8u\n\nPARAMETERS:\n",
	    c->pend + c->run + c->ssusp + c->ususp, c->pend, c->run, c->ssusp,
	    c->ususp, 0u);
	limit_block(out, "CPULIMIT", &a->cpulimit, FALSE);
	limit_block(out, "RUNLIMIT", &a->runlimit, FALSE);
	limit_block(out, "MEMLIMIT", &a->memlimit, TRUE);
	limit_block(out, "CORELIMIT", &a->corelimit, TRUE);
	limit_block(out, "DATALIMIT", &a->datalimit, TRUE);
	limit_block(out, "FILELIMIT", &a->filelimit, TRUE);
	limit_block(out, "STACKLIMIT", &a->stacklimit, TRUE);
	limit_block(out, "SWAPLIMIT", &a->swaplimit, TRUE);
	if (a->processlimit != BS_CONF_UNLIMITED)
		g_string_append_printf(out, "\nPROCESSLIMIT\n %d\n",
				       a->processlimit);
	if (a->max_job_preempt != BS_CONF_UNLIMITED)
		g_string_append_printf(out, "\nMAX_JOB_PREEMPT: %d\n",
				       a->max_job_preempt);
	string_line(out, "RES_REQ", a->res_req);
	string_line(out, "JOB_STARTER", a->job_starter);
	string_line(out, "PRE_EXEC", a->pre_exec);
	string_line(out, "POST_EXEC", a->post_exec);
	if (a->env_vars != NULL) {
		g_autofree char *e = g_strjoinv(",", a->env_vars);

		string_line(out, "ENV_VARS", e);
	}
}

static gboolean
show(GString *out, const BsAppConf *a, const char **v, gboolean first)
{
	AppCounts c;

	if (!count(a->name, &c))
		return FALSE;
	if (v[O_L] != NULL) {
		if (!first)
			g_string_append(out, "------------------------------"
			    "------------------------------------------------\n");
		long_app(out, a, &c);
		return TRUE;
	}
	cmd_cell(out, a->name, 16, v[O_W] != NULL ? CMD_FIT_WIDE : CMD_FIT_HEAD,
		 FALSE);
	g_string_append_printf(out, " %5u %5u %5u %5u\n",
	    c.pend + c.run + c.ssusp + c.ususp, c.pend, c.run,
	    c.ssusp + c.ususp);
	return TRUE;
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GPtrArray) apps = g_ptr_array_new();
	g_auto(GStrv) names = NULL;
	const char *v[O_N];
	BsConfig *cfg;
	int code;

	if (cmd_main_hv(argc, argv, BAPP_USAGE, &code))
		return code;
	names = cmd_main_opts("bapp", argc, argv, opts, v, BAPP_USAGE, &err);
	if (names == NULL)
		return cmd_main_fail(err);
	cfg = cmd_conf_load("bapp");
	if (cfg == NULL)
		return CMD_EXIT_FAIL;
	for (guint i = 0; names[0] == NULL && i < cfg->apps->len; i++)
		g_ptr_array_add(apps, g_ptr_array_index(cfg->apps, i));
	for (guint i = 0; names[i] != NULL; i++) {
		const BsAppConf *a = bs_config_app(cfg, names[i]);

		if (a == NULL) {
			fprintf(stderr, "%s: No such application profile\n",
			    names[i]);
			code = CMD_EXIT_FAIL;
		} else {
			g_ptr_array_add(apps, (gpointer)a);
		}
	}
	if (names[0] == NULL && apps->len == 0) {
		fprintf(stderr, "No application profiles found.\n");
		code = CMD_EXIT_FAIL;
	}
	if (apps->len > 0 && v[O_L] == NULL)
		g_string_append(out, "APPLICATION_NAME NJOBS  PEND   RUN  SUSP\n");
	for (guint i = 0; i < apps->len; i++)
		if (!show(out, g_ptr_array_index(apps, i), v, i == 0)) {
			code = CMD_EXIT_FAIL;
			break;
		}
	if (code == CMD_EXIT_OK || apps->len > 0)
		cmd_main_out(out);
	bs_config_free(cfg);
	return code;
}
