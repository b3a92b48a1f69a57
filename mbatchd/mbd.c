/*
 * mbatchd: the master batch daemon.
 *
 *   mbatchd [-h] [-V] [-C] [-f] [-d envdir] [-a address]
 *
 * -C checks the configuration and exits, as LSF's `mbatchd -C` (and so
 * `badmin ckconfig`) does.  -f keeps it in the foreground logging to
 * stderr, for systemd and tests; otherwise it detaches and logs to
 * $LSF_LOGDIR/mbatchd.log.<host>.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf/conf.h"
#include "mbatchd/mbd.h"
#include "util/log.h"

static const char usage[] =
    "Usage: mbatchd [-h] [-V] [-C] [-f] [-d env_dir] [-a address]\n"
    "  -C          check the configuration files and exit\n"
    "  -f          stay in the foreground and log to stderr\n"
    "  -d env_dir  directory of lsf.conf (default: $LSF_ENVDIR)\n"
    "  -a address  TCP address to listen on (default: LSB_MBD_ADDRESS)\n";

static int
check_config(const char *envdir)
{
	g_autoptr(BsDiags) d = bs_diags_new();
	BsConfig *cfg = bs_config_load(envdir, g_get_real_time() / G_USEC_PER_SEC, d);
	g_autofree char *text = bs_diags_to_string(d);

	fputs(text, stdout);
	if (cfg == NULL) {
		printf("There are %u error(s) in the configuration files.\n", d->n_errors);
		return 1;
	}
	printf("No errors found.\n");
	bs_config_free(cfg);
	return 0;
}

static gboolean
on_quit(gpointer data)
{
	log_notice("shutting down on signal");
	manager_quit(data);
	return G_SOURCE_CONTINUE;
}

static gboolean
on_hup(gpointer data)
{
	Manager *m = data;
	g_autoptr(BsDiags) d = bs_diags_new();

	if (!manager_reconfig(m, d)) {
		g_autofree char *text = bs_diags_to_string(d);

		log_err("reconfiguration refused, the running configuration is "
		    "unchanged:\n%s", text);
	}
	return G_SOURCE_CONTINUE;
}

static void
detach(void)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0) {
		perror("mbatchd: fork");
		exit(1);
	}
	if (pid > 0)
		_exit(0);
	setsid();
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
}

static void
open_log(const Manager *m)
{
	const char *dir = m->cfg->lsf->lsf_logdir;
	g_autofree char *path = NULL;

	if (dir == NULL)
		return;
	g_mkdir_with_parents(dir, 0755);
	path = g_strdup_printf("%s/mbatchd.log.%s", dir, m->master_name);
	if (!bs_log_open_file(path))
		log_warning("cannot open %s: %s", path, g_strerror(errno));
}

int
main(int argc, char **argv)
{
	const char *envdir = NULL, *address = NULL;
	gboolean check = FALSE, foreground = FALSE;
	ManagerOptions opts = { 0 };
	GError *err = NULL;
	Manager *m;
	int c;

	/*
	 * Big blocks from the operating system, and back to it when freed.
	 * mbatchd's big blocks are transient and sized by the number of jobs
	 * (each scheduling pass's snapshot and plan, a page of bjobs); by
	 * default glibc raises its mmap threshold to the largest block freed
	 * (up to 32 MB), so the next such blocks come from the heap, between
	 * jobs' records, and stay resident once freed: several hundred bytes
	 * per job, more than a pending job itself holds.  A fixed threshold
	 * also fixes the trim threshold, so the heap's free top goes back.
	 */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);

	while ((c = getopt(argc, argv, "hVCfd:a:")) != -1) {
		switch (c) {
		case 'h':
			fputs(usage, stdout);
			return 0;
		case 'V':
			printf("Basalt %s\n", PACKAGE_VERSION);
			return 0;
		case 'C':
			check = TRUE;
			break;
		case 'f':
			foreground = TRUE;
			break;
		case 'd':
			envdir = optarg;
			break;
		case 'a':
			address = optarg;
			break;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "mbatchd: unexpected argument '%s'\n%s", argv[optind], usage);
		return 2;
	}
	if (check)
		return check_config(envdir);

	bs_log_init("mbatchd", BS_LOG_INFO);
	signal(SIGPIPE, SIG_IGN);
	if (!foreground)
		detach();
	opts.argv = argv;
	opts.envdir = envdir;
	opts.tcp_address = address;
	m = manager_new(&opts, &err);
	if (m == NULL) {
		log_err("cannot start: %s", err->message);
		if (!foreground)
			fprintf(stderr, "mbatchd: %s\n", err->message);
		g_error_free(err);
		return 1;
	}
	if (!foreground)
		open_log(m);
	bs_log_set_level((BsLogLevel)MAX(m->cfg->lsf->log_mask, BS_LOG_NOTICE));
	g_unix_signal_add(SIGTERM, on_quit, m);
	g_unix_signal_add(SIGINT, on_quit, m);
	g_unix_signal_add(SIGHUP, on_hup, m);
	log_notice("mbatchd %s started for cluster %s", PACKAGE_VERSION,
	    m->cfg->cluster->name);
	manager_run(m);
	manager_free(m);
	return 0;
}
