/*
 * badmin hstartup [host_name ... | all]: start sbatchd on hosts, as LSF's
 * does it.  mbatchd cannot do this (a host without sbatchd has no link),
 * so the command starts the daemon itself: on the host it runs on
 * directly, on any other host through LSF_RSH from lsf.conf (default
 * ssh) as "LSF_RSH host LSF_SERVERDIR/sbatchd".  A site that uses it needs
 * the administrator's password-less LSF_RSH login as root to every host
 * and LSF_SERVERDIR pointing at the installed daemons.  sbatchd detaches
 * itself; the command waits for the start (or the remote shell) to
 * return and reports each host in LSF's words:
 *
 *   Start up slave batch daemon on <hostA> ...... done
 *
 * The exit code is 0 only when every host was started.  Administrators
 * only (root or lsf.cluster's ClusterAdmins).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd-main.h"
#include "cmd-util.h"
#include "conf/conf.h"
#include "badmin-hstartup.h"

#ifndef BS_SBINDIR
#define BS_SBINDIR "/usr/local/sbin"
#endif

static gboolean
is_local(const char *host)
{
	char name[256];
	g_autofree char *shortname = NULL;

	if (strcmp(host, "localhost") == 0)
		return TRUE;
	if (gethostname(name, sizeof name) != 0)
		return FALSE;
	name[sizeof name - 1] = '\0';
	shortname = g_strndup(name, strcspn(name, "."));
	return g_ascii_strcasecmp(host, name) == 0 ||
	    g_ascii_strcasecmp(host, shortname) == 0;
}

/* Run argv and wait; FALSE with the reason in why. */
static gboolean
run_wait(char **argv, char **why)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *errout = NULL;
	int status = 0;

	if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH |
	    G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &errout, &status, &err)) {
		*why = g_strdup(err->message);
		return FALSE;
	}
	if (!g_spawn_check_wait_status(status, &err)) {
		g_strchomp(errout != NULL ? errout : (errout = g_strdup("")));
		*why = g_strdup(*errout ? errout : err->message);
		return FALSE;
	}
	return TRUE;
}

static gboolean
start_one(const BsConfig *cfg, const char *host, char **why)
{
	const char *dir = cfg->lsf->lsf_serverdir != NULL ?
	    cfg->lsf->lsf_serverdir : BS_SBINDIR;
	const char *rsh = g_hash_table_lookup(cfg->lsf->values, "LSF_RSH");
	g_autofree char *sbd = g_build_filename(dir, "sbatchd", NULL);
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	g_auto(GStrv) rsh_argv = NULL;
	g_autoptr(GError) err = NULL;

	if (is_local(host)) {
		g_ptr_array_add(argv, g_strdup(sbd));
	} else {
		if (!g_shell_parse_argv(rsh != NULL && *rsh ? rsh : "ssh", NULL,
		    &rsh_argv, &err)) {
			*why = g_strdup_printf("LSF_RSH: %s", err->message);
			return FALSE;
		}
		for (guint i = 0; rsh_argv[i] != NULL; i++)
			g_ptr_array_add(argv, g_strdup(rsh_argv[i]));
		g_ptr_array_add(argv, g_strdup(host));
		g_ptr_array_add(argv, g_strdup(sbd));
	}
	g_ptr_array_add(argv, NULL);
	return run_wait((char **)argv->pdata, why);
}

int
badmin_hstartup_main(int argc, char **argv, gboolean admin)
{
	g_autoptr(BsDiags) d = bs_diags_new();
	g_autoptr(GPtrArray) hosts = g_ptr_array_new_with_free_func(g_free);
	BsConfig *cfg;
	int code = CMD_EXIT_OK;
	char name[256];

	if (!admin) {
		fprintf(stderr, "User permission denied\n");
		return CMD_EXIT_FAIL;
	}
	cfg = bs_config_load(NULL, (gint64)time(NULL), d);
	if (cfg == NULL) {
		g_autofree char *text = bs_diags_to_string(d);

		fprintf(stderr, "%s", text);
		return CMD_EXIT_FAIL;
	}
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "-f") == 0)
			continue;       /* LSF's: no confirmation asked */
		if (argv[i][0] == '-') {
			fprintf(stderr, "Usage: badmin hstartup [-f] [host_name ... | all]\n");
			bs_config_free(cfg);
			return CMD_EXIT_FAIL;
		}
		if (strcmp(argv[i], "all") == 0) {
			for (guint k = 0; k < cfg->cluster->hosts->len; k++) {
				const BsClusterHost *h = g_ptr_array_index(cfg->cluster->hosts, k);

				if (h->server)
					g_ptr_array_add(hosts, g_strdup(h->name));
			}
		} else if (bs_config_cluster_host(cfg, argv[i]) == NULL) {
			fprintf(stderr, "%s: Bad host name, host group name or cluster "
			    "name\n", argv[i]);
			code = CMD_EXIT_FAIL;
		} else {
			g_ptr_array_add(hosts, g_strdup(argv[i]));
		}
	}
	/* LSF's default: the host the command runs on. */
	if (hosts->len == 0 && code == CMD_EXIT_OK && gethostname(name, sizeof name) == 0) {
		name[sizeof name - 1] = '\0';
		g_ptr_array_add(hosts, g_strdup(name));
	}
	for (guint i = 0; i < hosts->len; i++) {
		const char *h = g_ptr_array_index(hosts, i);
		g_autofree char *why = NULL;

		if (start_one(cfg, h, &why)) {
			printf("Start up slave batch daemon on <%s> ...... done\n", h);
		} else {
			printf("Start up slave batch daemon on <%s> ...... failed: %s\n",
			    h, why);
			code = CMD_EXIT_FAIL;
		}
		fflush(stdout);
	}
	bs_config_free(cfg);
	return code;
}
