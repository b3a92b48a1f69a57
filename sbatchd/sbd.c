/*
 * sbatchd: the execution-host daemon.
 *
 * Like LSF's, it needs no argument: LSF_ENVDIR leads to lsf.conf, which
 * names the master (LSF_MASTER_LIST, else the first host of lsf.cluster)
 * and LSB_SHAREDIR, under which each host keeps its state directory.  -N
 * and -S let several sbatchd run on one machine as distinct virtual hosts
 * (tests, a one-machine cluster), each with its own name and state.
 *
 * Stopping sbatchd never stops jobs: SIGTERM ends the daemon only, and the
 * next sbatchd re-adopts the jobs from the state directory.  Only one
 * sbatchd may own a state directory (an flock on <statedir>/lock), since
 * two would both report, and kill, the same jobs.
 *
 * This file is the program's shell: options, configuration, daemonizing,
 * signals.  The parts it starts are listed in sbd.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

#include "sbd-report.h"
#include "sbd.h"
#include "util/error.h"

#ifndef BS_LIBEXECDIR
#define BS_LIBEXECDIR "/usr/local/libexec"
#endif

typedef struct {
	gboolean foreground;
	char *envdir;
	char *host;
	char *statedir;
	int port;
	int task_port;
} Options;

/* ---- logging with context ---- */

static char *log_host;

void
sbd_log_host(const char *host)
{
	g_free(log_host);
	log_host = g_strdup(host);
}

void
sbd_log(BsLogLevel level, const SbdJob *job, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (job != NULL)
		bs_log(level, "host %s: job %" G_GUINT64_FORMAT "[%u]: %s",
		    log_host ? log_host : "?", job->id, job->index, msg);
	else
		bs_log(level, "host %s: %s", log_host ? log_host : "?", msg);
}

/* ---- configuration ---- */

const char *
sbd_conf_value(const Sbd *sbd, const char *key)
{
	const char *v = g_hash_table_lookup(sbd->cfg->lsf->values, key);

	return v != NULL && *v != '\0' ? v : NULL;
}

gboolean
sbd_conf_flag(const Sbd *sbd, const char *key)
{
	const char *v = sbd_conf_value(sbd, key);

	return v != NULL && (g_ascii_strcasecmp(v, "y") == 0 ||
	    g_ascii_strcasecmp(v, "yes") == 0 || g_ascii_strcasecmp(v, "true") == 0 ||
	    strcmp(v, "1") == 0);
}

static BsConfig *
load_config(const char *envdir, GError **error)
{
	g_autoptr(BsDiags) diags = bs_diags_new();
	BsConfig *cfg = bs_config_load(envdir, g_get_real_time() / G_USEC_PER_SEC, diags);

	if (cfg == NULL) {
		g_autofree char *text = bs_diags_to_string(diags);

		g_set_error(error, BS_ERROR, BS_ERROR_CONFIG,
		    "the configuration has errors:\n%s", text);
	}
	return cfg;
}

static void
apply_config(Sbd *sbd)
{
	const char *rex = sbd_conf_value(sbd, "LSF_ROOT_REX");

	bs_log_set_level((BsLogLevel)sbd->cfg->lsf->log_mask);
	sbd->allow_root = sbd_conf_flag(sbd, "LSB_ALLOW_ROOT_JOBS") ||
	    (rex != NULL && g_ascii_strcasecmp(rex, "n") != 0 &&
	    g_ascii_strcasecmp(rex, "no") != 0);
	sbd->exit_if_no_cwd = sbd_conf_flag(sbd, "LSB_EXIT_IF_CWD_NOTEXIST");
}

/* ---- options ---- */

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: sbatchd [-h] [-V] [-f] [-d envdir] [-N hostname] "
	    "[-S statedir] [-p port] [-r port]\n"
	    "  -f            stay in the foreground, log to stderr\n"
	    "  -d envdir     directory of lsf.conf (default $LSF_ENVDIR)\n"
	    "  -N hostname   host name to register as (virtual host)\n"
	    "  -S statedir   state directory (default $LSB_SHAREDIR/sbatchd/<host>)\n"
	    "  -p port       port reported to mbatchd (default LSB_SBD_PORT)\n"
	    "  -r port       task port for blaunch (default LSF_RES_PORT)\n"
	    "  -V            print the version and exit\n"
	    "  -h            print this help and exit\n");
}

static int
parse_options(int argc, char **argv, Options *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->port = -1;
	o->task_port = -1;
	while ((c = getopt(argc, argv, "hVfd:N:S:p:r:")) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return 0;
		case 'f':
			o->foreground = TRUE;
			break;
		case 'd':
			o->envdir = optarg;
			break;
		case 'N':
			o->host = optarg;
			break;
		case 'S':
			o->statedir = optarg;
			break;
		case 'p':
			o->port = atoi(optarg);
			if (o->port < 0 || o->port > 65535) {
				fprintf(stderr, "sbatchd: bad port %s\n", optarg);
				return 2;
			}
			break;
		case 'r':
			o->task_port = atoi(optarg);
			if (o->task_port < 0 || o->task_port > 65535) {
				fprintf(stderr, "sbatchd: bad task port %s\n", optarg);
				return 2;
			}
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "sbatchd: unexpected argument %s\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	return -1;
}

/* ---- the state directory ---- */

static gboolean
make_dir(const char *path, int mode, GError **error)
{
	if (g_mkdir_with_parents(path, mode) == 0 && g_chmod(path, mode) == 0)
		return TRUE;
	g_set_error(error, BS_ERROR, BS_ERROR_IO,
	    "cannot create directory %s: %s", path, g_strerror(errno));
	return FALSE;
}

/* Jobs' owners must reach their spool output and script: x for all. */
static gboolean
prepare_statedir(Sbd *sbd, GError **error)
{
	sbd->jobs_dir = g_build_filename(sbd->statedir, "jobs", NULL);
	sbd->output_dir = g_build_filename(sbd->statedir, "output", NULL);
	return make_dir(sbd->statedir, 0711, error) &&
	    make_dir(sbd->jobs_dir, 0711, error) && make_dir(sbd->output_dir, 0711, error);
}

static int lock_fd = -1;

/* Taken before daemonizing, so a second sbatchd fails where it was started;
 * the lock (one open file description) passes to the daemon child. */
static gboolean
lock_statedir(Sbd *sbd, GError **error)
{
	g_autofree char *path = g_build_filename(sbd->statedir, "lock", NULL);

	lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_FAILED, "%s: %s", path,
		    errno == EWOULDBLOCK ? "another sbatchd runs on this state directory" :
		    g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

static void
write_pid(void)
{
	g_autofree char *pid = g_strdup_printf("%d\n", (int)getpid());

	if (ftruncate(lock_fd, 0) < 0 || pwrite(lock_fd, pid, strlen(pid), 0) < 0)
		sbd_log(BS_LOG_WARNING, NULL, "cannot write the pid to the lock file: %s",
		    g_strerror(errno));
}

static char *
find_wrapper(void)
{
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);

	if (exe != NULL) {
		g_autofree char *dir = g_path_get_dirname(exe);
		char *near = g_build_filename(dir, "bs-jobwrap", NULL);

		if (access(near, X_OK) == 0)
			return near;
		g_free(near);
	}
	return g_build_filename(BS_LIBEXECDIR, "bs-jobwrap", NULL);
}

/* ---- daemon ---- */

static gboolean
daemonize(GError **error)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0) {
		g_set_error(error, BS_ERROR, BS_ERROR_IO,
		    "fork: %s", g_strerror(errno));
		return FALSE;
	}
	if (pid > 0)
		_exit(0);
	(void)setsid();
	if (chdir("/") < 0)
		return FALSE;
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		(void)dup2(fd, 0);
		(void)dup2(fd, 1);
		(void)dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	return TRUE;
}

static void
open_log_file(Sbd *sbd)
{
	g_autofree char *name = NULL;
	g_autofree char *path = NULL;

	if (sbd->cfg->lsf->lsf_logdir == NULL)
		return;
	name = g_strconcat("sbatchd.log.", sbd->host, NULL);
	path = g_build_filename(sbd->cfg->lsf->lsf_logdir, name, NULL);
	(void)g_mkdir_with_parents(sbd->cfg->lsf->lsf_logdir, 0755);
	if (!bs_log_open_file(path))
		fprintf(stderr, "sbatchd: cannot open log file %s: %s\n", path,
		    g_strerror(errno));
}

static gboolean
on_quit(gpointer data)
{
	Sbd *sbd = data;

	sbd_log(BS_LOG_NOTICE, NULL, "stopping; jobs keep running");
	g_main_loop_quit(sbd->loop);
	return G_SOURCE_CONTINUE;
}

/* badmin hrestart: the loop ends, the daemon shuts down as for SIGTERM and
 * then executes again with the same arguments, from the directory it was
 * started in, the program file found at its start (a binary replaced
 * since is the new one); the new process re-adopts the jobs from the
 * state directory. */
static gboolean restart_wanted;
static char **saved_argv;
static char *saved_cwd, *saved_exe;

static gboolean
stop_now(gpointer data)
{
	Sbd *sbd = data;

	sbd_log(BS_LOG_NOTICE, NULL, "%s by the administrator; jobs keep running",
	    restart_wanted ? "restarting" : "shutting down");
	g_main_loop_quit(sbd->loop);
	return G_SOURCE_REMOVE;
}

void
sbd_daemon_stop_soon(Sbd *sbd, gboolean restart)
{
	restart_wanted = restart;
	/* Long enough for the reply to mbatchd to leave. */
	g_timeout_add(200, stop_now, sbd);
}

static gboolean
on_hup(gpointer data)
{
	Sbd *sbd = data;
	g_autoptr(GError) err = NULL;
	BsConfig *cfg = load_config(sbd->envdir, &err);

	if (cfg == NULL) {
		sbd_log(BS_LOG_ERR, NULL, "reload refused, keeping the running "
		    "configuration: %s", err->message);
		return G_SOURCE_CONTINUE;
	}
	bs_config_free(sbd->cfg);
	sbd->cfg = cfg;
	apply_config(sbd);
	sbd_log(BS_LOG_NOTICE, NULL, "configuration reloaded");
	return G_SOURCE_CONTINUE;
}

static void
on_other_child(pid_t pid, int wstatus, gpointer data)
{
	if (sbd_report_child_exited(data, pid, wstatus))
		return;
	sbd_log(BS_LOG_DEBUG, NULL, "reaped process %d that belongs to no job", (int)pid);
}

/* Everything that can fail before the loop runs. */
static gboolean
setup(Sbd *sbd, const Options *o, GError **error)
{
	char name[256];

	sbd->envdir = g_strdup(o->envdir ? o->envdir : g_getenv("LSF_ENVDIR"));
	if ((sbd->cfg = load_config(sbd->envdir, error)) == NULL)
		return FALSE;
	if (sbd->envdir == NULL)
		sbd->envdir = g_strdup(sbd->cfg->envdir);
	if (o->host == NULL && gethostname(name, sizeof name) < 0)
		g_strlcpy(name, "localhost", sizeof name);
	name[sizeof name - 1] = '\0';
	sbd->host = g_strdup(o->host ? o->host : name);
	sbd_log_host(sbd->host);
	if (o->statedir != NULL) {
		sbd->statedir = g_canonicalize_filename(o->statedir, NULL);
	} else if (sbd->cfg->lsf->lsb_sharedir != NULL) {
		sbd->statedir = g_build_filename(sbd->cfg->lsf->lsb_sharedir, "sbatchd",
		    sbd->host, NULL);
	} else {
		g_set_error(error, BS_ERROR, BS_ERROR_CONFIG, "LSB_SHAREDIR is not "
		    "set in lsf.conf: give a state directory with -S");
		return FALSE;
	}
	sbd->port = o->port >= 0 ? (guint)o->port : (guint)sbd->cfg->lsf->sbd_port;
	sbd->task_port = o->task_port;
	apply_config(sbd);
	return prepare_statedir(sbd, error);
}

/* Every signal jobctl sends a job's group reaches what left the group. */
static void
signal_tree(pid_t pgid, int signo, gpointer data)
{
	Sbd *sbd = data;

	if (sbd->reaper != NULL)
		bs_reaper_signal_escaped(sbd->reaper, pgid, signo);
}

static gboolean
start(Sbd *sbd, const Options *o, GError **error)
{
	if (!lock_statedir(sbd, error))
		return FALSE;
	if (!o->foreground) {
		if (!daemonize(error))
			return FALSE;
		open_log_file(sbd);
	}
	write_pid();
	if ((sbd->reaper = bs_reaper_new(sbd->reaper_poll_ms, error)) == NULL)
		return FALSE;
	bs_reaper_set_other_func(sbd->reaper, on_other_child, sbd);
	bs_jobctl_set_tree_hook(signal_tree, sbd);
	if ((sbd->spool = sbd_spool_open(sbd->statedir, error)) == NULL)
		return FALSE;
	sbd->wrapper = find_wrapper();
	sbd->boot_time = g_get_real_time() / G_USEC_PER_SEC;
	sbd->loop = g_main_loop_new(NULL, FALSE);
	sbd_cgroup_init(sbd);
	sbd_jobs_init(sbd);
	sbd_exec_init(sbd);
	sbd_jobs_recover(sbd);
	sbd_fresh_refill(sbd);
	g_unix_signal_add(SIGTERM, on_quit, sbd);
	g_unix_signal_add(SIGINT, on_quit, sbd);
	g_unix_signal_add(SIGHUP, on_hup, sbd);
	sbd_log(BS_LOG_NOTICE, NULL, "sbatchd %s started, state in %s, %u jobs",
	    PACKAGE_VERSION, sbd->statedir, g_hash_table_size(sbd->jobs));
	sbd_link_start(sbd);
	sbd_tasks_start(sbd);
	return TRUE;
}

static void
shutdown_sbd(Sbd *sbd)
{
	if (sbd->loop != NULL) {
		sbd_tasks_stop(sbd);
		sbd_link_stop(sbd);
	}
	/* The reaper first: it holds pointers to the jobs. */
	bs_jobctl_set_tree_hook(NULL, NULL);
	g_clear_pointer(&sbd->reaper, bs_reaper_free);
	if (sbd->jobs != NULL)
		sbd_jobs_free(sbd);
	g_clear_pointer(&sbd->spool, sbd_spool_free);
	g_clear_pointer(&sbd->loop, g_main_loop_unref);
	g_clear_pointer(&sbd->cfg, bs_config_free);
	g_free(sbd->envdir);
	g_free(sbd->host);
	g_free(sbd->statedir);
	g_free(sbd->jobs_dir);
	g_clear_pointer(&sbd->spare_records, g_ptr_array_unref);
	sbd_fresh_free(sbd);
	g_free(sbd->output_dir);
	g_free(sbd->wrapper);
	g_free(sbd->cgroup_parent);
	g_clear_pointer(&log_host, g_free);
	if (lock_fd >= 0)
		close(lock_fd);
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	Options o;
	Sbd sbd;
	int rc = parse_options(argc, argv, &o);

	if (rc >= 0)
		return rc;
	/* Before any thread exists: SIGCHLD only ever through the reaper. */
	if (!bs_reaper_block_sigchld(&err)) {
		fprintf(stderr, "sbatchd: %s\n", err->message);
		return 1;
	}
	bs_log_init("sbatchd", BS_LOG_INFO);
	saved_cwd = g_get_current_dir();
	saved_exe = g_file_read_link("/proc/self/exe", NULL);
	if (saved_exe != NULL && g_str_has_suffix(saved_exe, " (deleted)"))
		saved_exe[strlen(saved_exe) - strlen(" (deleted)")] = '\0';
	memset(&sbd, 0, sizeof sbd);
	sbd.reaper_poll_ms = 200;
	if (!setup(&sbd, &o, &err) || !start(&sbd, &o, &err)) {
		if (o.foreground)
			fprintf(stderr, "sbatchd: %s\n", err->message);
		else
			sbd_log(BS_LOG_ERR, NULL, "%s", err->message);
		shutdown_sbd(&sbd);
		return 1;
	}
	saved_argv = argv;
	g_main_loop_run(sbd.loop);
	shutdown_sbd(&sbd);
	if (restart_wanted) {
		/* Descriptors are close-on-exec; the lock goes with them. */
		if (saved_cwd != NULL && chdir(saved_cwd) < 0)
			sbd_log(BS_LOG_WARNING, NULL, "restart: cannot return to %s: %s",
			    saved_cwd, g_strerror(errno));
		if (saved_exe != NULL)
			execv(saved_exe, saved_argv);
		execv("/proc/self/exe", saved_argv);
		sbd_log(BS_LOG_ERR, NULL, "restart: cannot execute itself: %s",
		    g_strerror(errno));
		return 1;
	}
	return 0;
}
