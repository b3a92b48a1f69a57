/*
 * loadgen: emulate many execution hosts and many users against a real
 * mbatchd (see loadgen.h and the usage text below).
 *
 * Where mbatchd is comes from $LSF_ENVDIR/lsf.conf, as for sbatchd and the
 * commands: the hosts dial the first LSF_MASTER_LIST entry on LSB_MBD_PORT
 * (or the port in $LSB_SHAREDIR/mbatchd.port when it is 0), the users the
 * Unix socket $LSB_SHAREDIR/mbatchd.sock.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <glib-unix.h>

#include "api/api.h"
#include "auth/auth.h"
#include "bench/loadgen.h"
#include "util/error.h"
#include "util/log.h"

#define TICK_MS 10

static const char usage_text[] =
    "Emulates execution hosts (host mode, -H) and users submitting jobs\n"
    "(client mode, -c/-n) against the mbatchd of $LSF_ENVDIR; both modes may\n"
    "run in one process.  Hosts speak sbatchd's protocol: hello as an\n"
    "execution host, RegisterHost, heartbeats, StartJob answered, each job\n"
    "reported finished after the run time (-t) with exit code -x, reports\n"
    "resent until acknowledged.  The hosts must be in lsf.cluster.<name>:\n"
    "--print-hosts prints that Host section.  Users submit through\n"
    "BatchService.Submit the request bsub would build from the bsub options\n"
    "after \"--\" and loadgen's own environment, directory and host name\n"
    "(default: -o /dev/null true).  mbatchd knows a user by SO_PEERCRED, so\n"
    "all emulated users are the uid running loadgen.\n"
    "\n"
    "Host mode runs until SIGTERM/SIGINT or -D; client mode alone exits when\n"
    "every submission is answered.  The summary goes to stdout:\n"
    "  submitted: N jobs, F refused, in S s: R jobs/s\n"
    "  hosts: N registered of M; jobs started ..., finished ...\n"
    "\n"
    "Example:\n"
    "  loadgen -H 10000 -p lg --print-hosts > hosts.section\n"
    "  loadgen -H 10000 -p lg -t 60 &\n"
    "  (or as two processes: -H 5000 --digits 5, and -H 5000 --first 5000)\n"
    "  loadgen -c 8 -n 100000 -- -q normal -o /dev/null sleep 60";

static gboolean
on_signal(gpointer data)
{
	Lg *lg = data;

	g_printerr("loadgen: stopping on signal\n");
	g_main_loop_quit(lg->loop);
	return G_SOURCE_CONTINUE;
}

static gboolean
on_duration(gpointer data)
{
	Lg *lg = data;

	g_main_loop_quit(lg->loop);
	return G_SOURCE_REMOVE;
}

static gboolean
on_tick(gpointer data)
{
	Lg *lg = data;
	gint64 now = g_get_monotonic_time();

	if (lg->hosts != NULL)
		lg_hosts_tick(lg, now);
	lg_clients_tick(lg, now);
	return G_SOURCE_CONTINUE;
}

guint
lg_method(const ProtobufCServiceDescriptor *d, const char *name)
{
	const ProtobufCMethodDescriptor *m =
	    protobuf_c_service_descriptor_get_method_by_name(d, name);

	g_assert(m != NULL);
	return (guint)(m - d->methods);
}

void
lg_maybe_finish(Lg *lg)
{
	/* Hosts serve until stopped; users alone end when all is answered. */
	if (lg->n_hosts == 0 && lg->clients_done)
		g_main_loop_quit(lg->loop);
}

/* Where mbatchd listens, from lsf.conf as sbatchd and the commands read it. */
static gboolean
locate_mbd(Lg *lg, gboolean need_port, GError **err)
{
	g_autofree char *envdir = lsb_envdir();
	g_autoptr(GHashTable) conf = lsb_read_lsf_conf(envdir, err);
	g_autofree char *share = NULL;
	const char *v;
	guint64 port = 0;

	if (conf == NULL)
		return FALSE;
	share = lsb_conf_path(conf, envdir, "LSB_SHAREDIR");
	if (share == NULL)
		share = g_build_filename(envdir, "work", NULL);
	lg->sock_path = g_build_filename(share, "mbatchd.sock", NULL);
	lg->munge = bs_auth_enabled(conf);
	lg->munge_socket = g_strdup(bs_auth_socket(conf));
	if (!need_port)
		return TRUE;
	v = g_hash_table_lookup(conf, "LSF_MASTER_LIST");
	if (v != NULL) {
		g_auto(GStrv) words = g_strsplit_set(v, " \t,", -1);

		for (char **w = words; *w != NULL && lg->mbd_address == NULL; w++)
			if (**w != '\0' && (lg->mbd_address = bs_rpc_master_address(*w, err)) == NULL)
				return FALSE;
	}
	if (lg->mbd_address == NULL)
		lg->mbd_address = g_strdup("127.0.0.1");
	v = g_hash_table_lookup(conf, "LSB_MBD_PORT");
	if (v != NULL)
		port = g_ascii_strtoull(v, NULL, 10);
	if (port == 0) {
		g_autofree char *path = g_build_filename(share, "mbatchd.port", NULL);
		g_autofree char *text = NULL;

		if (!g_file_get_contents(path, &text, NULL, err))
			return FALSE;
		port = g_ascii_strtoull(g_strstrip(text), NULL, 10);
	}
	if (port == 0 || port > 65535) {
		g_set_error(err, BS_ERROR, BS_ERROR_CONFIG,
		    "no mbatchd port: LSB_MBD_PORT is unset and %s/mbatchd.port is empty",
		    share);
		return FALSE;
	}
	lg->mbd_port = (guint16)port;
	return TRUE;
}

/* Ten thousand links need ten thousand descriptors: take the hard limit. */
static void
raise_fd_limit(guint want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (rlim_t)want + 64)
		g_printerr("loadgen: warning: %u connections need more than the %lu "
		    "descriptors allowed (ulimit -n)\n", want, (unsigned long)rl.rlim_cur);
}

int
main(int argc, char **argv)
{
	Lg lg;
	gint n_hosts = 0, first = 0, ndigits = 0, n_clients = 0, ncpus = 4, exit_code = 0, max_dialing = 256;
	gint query_every = 0;
	gint64 n_jobs = 0;
	double run_s = 1.0, rate = 0, duration = 0;
	gboolean print_hosts = FALSE, verbose = FALSE;
	g_autofree char *prefix = NULL;     /* -p, given or "lg" */
	g_auto(GStrv) rest = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(GOptionContext) ctx = NULL;
	GOptionEntry entries[] = {
		{ "hosts", 'H', 0, G_OPTION_ARG_INT, &n_hosts, "Emulate N execution hosts", "N" },
		{ "prefix", 'p', 0, G_OPTION_ARG_STRING, &prefix, "Host names: PREFIX00001... (default lg)", "PREFIX" },
		{ "first", 0, 0, G_OPTION_ARG_INT, &first, "Number the hosts from K+1 (to split them among processes)", "K" },
		{ "digits", 0, 0, G_OPTION_ARG_INT, &ndigits, "Zero-pad host numbers to D digits (default: as many as the last has)", "D" },
		{ "print-hosts", 0, 0, G_OPTION_ARG_NONE, &print_hosts, "Print the lsf.cluster Host section for the hosts and exit", NULL },
		{ "ncpus", 0, 0, G_OPTION_ARG_INT, &ncpus, "CPUs each host registers with (default 4)", "N" },
		{ "run-time", 't', 0, G_OPTION_ARG_DOUBLE, &run_s, "Each job runs this long (default 1)", "SECONDS" },
		{ "exit", 'x', 0, G_OPTION_ARG_INT, &exit_code, "Each job exits with this code (default 0: DONE)", "CODE" },
		{ "max-dialing", 0, 0, G_OPTION_ARG_INT, &max_dialing, "Hosts connecting at once (default 256)", "N" },
		{ "clients", 'c', 0, G_OPTION_ARG_INT, &n_clients, "Emulate N users, one connection each (default 1 with -n)", "N" },
		{ "jobs", 'n', 0, G_OPTION_ARG_INT64, &n_jobs, "Submit N jobs in all", "N" },
		{ "rate", 'r', 0, G_OPTION_ARG_DOUBLE, &rate, "Submissions per second (default: as fast as possible)", "R" },
		{ "query-every", 'Q', 0, G_OPTION_ARG_INT, &query_every, "Each user lists its jobs after every K submissions", "K" },
		{ "duration", 'D', 0, G_OPTION_ARG_DOUBLE, &duration, "Stop after this many seconds", "SECONDS" },
		{ "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, "Log refused calls and lost links", NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, "[-- bsub options and command]" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};

	ctx = g_option_context_new("[-- bsub-options command...]");
	g_option_context_set_summary(ctx, "Load generator for mbatchd: many hosts, many users.");
	g_option_context_set_description(ctx, usage_text);
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &err)) {
		g_printerr("loadgen: %s\n", err->message);
		return 2;
	}
	if (n_hosts < 0 || first < 0 || ndigits < 0 || ndigits > 9 || n_clients < 0 || n_jobs < 0 || ncpus <= 0 ||
	    max_dialing <= 0 || run_s < 0 || rate < 0 || duration < 0 ||
	    query_every < 0) {
		g_printerr("loadgen: counts, times and rates must not be negative\n");
		return 2;
	}
	if (n_jobs > 0 && n_clients == 0)
		n_clients = 1;
	if (n_hosts == 0 && n_jobs == 0) {
		g_autofree char *help = g_option_context_get_help(ctx, TRUE, NULL);

		g_printerr("loadgen: nothing to do: give -H and/or -n\n%s", help);
		return 2;
	}

	memset(&lg, 0, sizeof lg);
	lg.n_hosts = (guint)n_hosts;
	lg.first = (guint)first;
	lg.digits = (guint)ndigits;
	lg.prefix = prefix != NULL ? prefix : "lg";
	lg.ncpus = (guint)ncpus;
	lg.mem_kb = 16ULL * 1024 * 1024;
	lg.run_s = run_s;
	lg.exit_code = exit_code;
	lg.max_dialing = (guint)max_dialing;
	lg.n_clients = (guint)n_clients;
	lg.n_jobs = (guint64)n_jobs;
	lg.rate = rate;
	lg.query_every = (guint)query_every;
	lg.duration = duration;
	lg.verbose = verbose;
	if (print_hosts) {
		lg_print_hosts(&lg);
		return 0;
	}

	{
		GPtrArray *a = g_ptr_array_new();

		g_ptr_array_add(a, g_strdup("bsub"));
		if (rest == NULL || rest[0] == NULL) {
			g_ptr_array_add(a, g_strdup("-o"));
			g_ptr_array_add(a, g_strdup("/dev/null"));
			g_ptr_array_add(a, g_strdup("true"));
		}
		for (guint i = 0; rest != NULL && rest[i] != NULL; i++)
			if (i > 0 || strcmp(rest[i], "--") != 0)
				g_ptr_array_add(a, g_strdup(rest[i]));
		g_ptr_array_add(a, NULL);
		lg.bsub_argv = (char **)g_ptr_array_free(a, FALSE);
	}

	/* lib/rpc logs through util/log: warnings only, on stderr. */
	bs_log_init("loadgen", verbose ? BS_LOG_INFO : BS_LOG_ERR);
	raise_fd_limit(lg.n_hosts + lg.n_clients);
	if (!locate_mbd(&lg, lg.n_hosts > 0, &err)) {
		g_printerr("loadgen: %s\n", err->message);
		g_strfreev(lg.bsub_argv);
		return 1;
	}
	lg.loop = g_main_loop_new(NULL, FALSE);
	lg.start_us = g_get_monotonic_time();
	g_unix_signal_add(SIGTERM, on_signal, &lg);
	g_unix_signal_add(SIGINT, on_signal, &lg);
	if (duration > 0)
		g_timeout_add((guint)(duration * 1000), on_duration, &lg);
	g_timeout_add(TICK_MS, on_tick, &lg);
	if (lg.n_hosts > 0)
		lg_hosts_start(&lg);
	if (lg.n_jobs > 0 && !lg_clients_start(&lg, &err)) {
		g_printerr("loadgen: %s\n", err->message);
		lg.status = 1;
	} else {
		g_main_loop_run(lg.loop);
	}

	lg.stopping = TRUE;
	if (lg.n_jobs > 0 && !lg.clients_done)
		lg_clients_summary(&lg);
	if (lg.n_hosts > 0)
		lg_hosts_summary(&lg);
	lg_clients_stop(&lg);
	lg_hosts_stop(&lg);
	/* Let the closes reach the wire before exiting. */
	while (g_main_context_iteration(NULL, FALSE))
		;
	if (lg.n_jobs > 0 && lg.submits_ok < lg.n_jobs)
		lg.status = 1;
	g_main_loop_unref(lg.loop);
	g_strfreev(lg.bsub_argv);
	g_free(lg.mbd_address);
	g_free(lg.sock_path);
	g_free(lg.munge_socket);
	return lg.status;
}
