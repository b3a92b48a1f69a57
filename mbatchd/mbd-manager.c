/*
 * Manager lifecycle, the commit path and the timers.
 *
 * Scheduling is event-driven: anything that can let a job start (a
 * submission, a job end, a host joining, a reconfig) calls
 * manager_schedule_soon(), which coalesces a burst of such events into one
 * pass a few milliseconds later.  What no event announces but the
 * scheduler can foresee (a time window opening or closing, a begin time
 * coming) it names as the plan's next_wake, and a timer runs a pass then
 * (manager_wake_at).  A slow periodic tick (MBD_SLEEP_TIME) covers the
 * rest: hosts falling silent, usage decay, cleaning.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mbatchd/mbd-acct.h"
#include "mbatchd/mbd-consumers.h"
#include "mbatchd/mc-lease.h"
#include "mbatchd/mc-leased.h"
#include "mbatchd/mc-jobs.h"
#include "mbatchd/mc-links.h"
#include "mbatchd/mbd.h"
#include "mbatchd/mbd-orders.h"
#include "mbatchd/mbd-preview.h"
#include "mbatchd/mbd-reserve.h"
#include "mbatchd/plan-reload.h"
#include "util/error.h"
#include "util/log.h"

#define SCHED_DELAY_MS 2
/* No pass for this long: the cluster is idle, and the event that ends it
 * is passed at once (see manager_schedule_soon). */
#define SCHED_IDLE_MS 20
/* Passes are spaced by this many times their duration (see below). */
#define SCHED_DUTY 3
#define HEARTBEAT_S 5

gint64
manager_now(void)
{
	return g_get_real_time() / G_USEC_PER_SEC;
}

gboolean
manager_is_admin(Manager *m, uid_t uid)
{
	char name[256];
	char **admins = m->cfg->cluster != NULL ? m->cfg->cluster->admins : NULL;

	if (uid == 0)
		return TRUE;
	manager_user_name(m, uid, name, sizeof name);
	for (guint i = 0; admins != NULL && admins[i] != NULL; i++)
		if (strcmp(admins[i], name) == 0)
			return TRUE;
	return FALSE;
}

gboolean
manager_commit(Manager *m, Basalt__Event *ev, GError **err)
{
	GError *local = NULL;

	if (m->storage_failed) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "the event journal cannot "
		    "be written (%s); try again later", m->storage_error);
		return FALSE;
	}
	ev->seq = journal_next_seq(m);
	ev->time = manager_now();
	/* Pack before applying: the event may borrow strings that applying
	 * it frees (bmod replaces the spec it was copied from). */
	if (!journal_append(m, ev, &local)) {
		log_err("event %" G_GUINT64_FORMAT " cannot be journaled: %s",
		    ev->seq, local->message);
		g_propagate_error(err, local);
		return FALSE;
	}
	if (!state_apply(m->st, ev, &local)) {
		journal_cancel_last(m);
		log_warning("event %" G_GUINT64_FORMAT " refused: %s", ev->seq,
		    local->message);
		g_propagate_error(err, local);
		return FALSE;
	}
	acct_note(m, ev);
	mc_jobs_note(m, ev);
	/* Replies and orders from here on wait for this event's sync. */
	bs_rpc_server_set_barrier(m->srv, ev->seq);
	return TRUE;
}

static gboolean
sched_timer_fired(gpointer data)
{
	Manager *m = data;
	gint64 t0 = g_get_monotonic_time();

	m->sched_timer = 0;
	manager_schedule_now(m);
	m->sched_last_end = g_get_monotonic_time();
	m->sched_last_us = m->sched_last_end - t0;
	return G_SOURCE_REMOVE;
}

/*
 * The pass comes sched_delay_ms after the first event, and no sooner than
 * SCHED_DUTY times its own duration after the previous pass ended.  A
 * pass walks every pending job, so with tens of thousands waiting and a
 * submission every millisecond, back-to-back passes would leave little
 * time to answer the submissions; this way passes take at most a quarter
 * of mbatchd's time whatever the backlog (LSF spaces its scheduling
 * sessions too).  An idle cluster's pass takes microseconds, so its jobs
 * still start sched_delay_ms after the event.
 *
 * After SCHED_IDLE_MS without a pass there is no burst to coalesce yet:
 * the first event gets its pass in the next turn of the loop, right after
 * the commit that made it durable (the loop commits before it polls), so
 * an idle cluster's job starts without the coalescing delay.  Nothing is
 * acknowledged or ordered sooner: the pass's dispatches are committed
 * events like any other, and their start orders wait for their sync.  The events
 * that follow within the delay wait for the next pass as before, so a
 * burst still costs one pass per delay.
 */
void
manager_schedule_soon(Manager *m)
{
	gint64 now, wait_us;

	if (m->sched_timer != 0 || m->shutting_down)
		return;
	now = g_get_monotonic_time();
	wait_us = m->sched_last_end + SCHED_DUTY * m->sched_last_us - now;
	if (now - m->sched_last_end >= SCHED_IDLE_MS * 1000 &&
	    m->sched_last_us < SCHED_IDLE_MS * 1000 / SCHED_DUTY)
		wait_us = 0;
	else
		wait_us = MAX(wait_us, (gint64)m->sched_delay_ms * 1000);
	m->sched_timer = g_timeout_add((guint)((wait_us + 999) / 1000),
	    sched_timer_fired, m);
}

static gboolean
wake_timer_fired(gpointer data)
{
	Manager *m = data;

	m->wake_timer = 0;
	manager_schedule_soon(m);
	return G_SOURCE_REMOVE;
}

/* At most this far ahead: the timer is re-armed after every pass anyway,
 * and a short one survives a clock step. */
#define WAKE_MAX_MS (3600 * 1000)

void
manager_wake_at(Manager *m, gint64 t)
{
	gint64 ms;

	if (m->wake_timer != 0) {
		g_source_remove(m->wake_timer);
		m->wake_timer = 0;
	}
	if (t <= 0 || m->shutting_down)
		return;
	/* A window boundary is a whole second: aim just past it. */
	ms = t * 1000 - g_get_real_time() / 1000 + 5;
	m->wake_timer = g_timeout_add((guint)CLAMP(ms, 0, WAKE_MAX_MS),
	    wake_timer_fired, m);
}

/*
 * Finished jobs leave memory after CLEAN_PERIOD, or sooner when more than
 * MAX_JOB_NUM have finished (oldest first); bhist still finds them in the
 * journal.
 */
static void
clean_finished(Manager *m)
{
	gint64 cutoff = manager_now() - m->cfg->params->clean_period;
	guint max = (guint)MAX(m->cfg->params->max_job_num, 0);

	while (m->st->finished.head != NULL) {
		Job *j = m->st->finished.head->data;
		Basalt__Event ev = BASALT__EVENT__INIT;
		Basalt__EvJobClean c = BASALT__EV_JOB_CLEAN__INIT;

		if (j->end_time > cutoff && m->st->finished.length <= max)
			break;
		c.job_id = j->id;
		c.array_index = j->index;
		ev.body_case = BASALT__EVENT__BODY_JOB_CLEAN;
		ev.job_clean = &c;
		if (!manager_commit(m, &ev, NULL))
			break;
	}
}

static gboolean
tick(gpointer data)
{
	Manager *m = data;

	hosts_check_heartbeats(m);
	usage_tick(m);
	clean_finished(m);
	manager_clean_jobgroups(m);
	manager_schedule_soon(m);
	return G_SOURCE_CONTINUE;
}

static void
start_tick(Manager *m)
{
	/* Heartbeats need a finer tick than a 60 s MBD_SLEEP_TIME. */
	guint s = (guint)CLAMP(m->cfg->params->mbd_sleep_time, 1, (int)m->heartbeat_s);

	if (m->tick_timer != 0)
		g_source_remove(m->tick_timer);
	m->tick_timer = g_timeout_add_seconds(s, tick, m);
}

static void
conn_closed(BsRpcConn *conn, const char *reason, void *data)
{
	hosts_conn_closed(data, conn, reason);
	mc_links_conn_closed(data, conn, reason);
}

static gboolean
make_dir(const char *path, GError **err)
{
	if (g_mkdir_with_parents(path, 0755) != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot create %s: %s",
		    path, g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

static gboolean
write_port_file(Manager *m, GError **err)
{
	g_autofree char *path = g_build_filename(m->sharedir, "mbatchd.port", NULL);
	g_autofree char *tmp = g_strconcat(path, ".tmp", NULL);
	g_autofree char *text = g_strdup_printf("%u\n", m->tcp_port);

	/* Written atomically: sbatchd may read it while we start. */
	if (!g_file_set_contents(tmp, text, -1, err))
		return FALSE;
	if (rename(tmp, path) != 0) {
		g_set_error(err, BS_ERROR, BS_ERROR_IO, "cannot rename %s: %s",
		    tmp, g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

static const char *
lsf_value(const Manager *m, const char *key)
{
	return g_hash_table_lookup(m->cfg->lsf->values, key);
}

/*
 * What one client may cost (lsf.conf(5)).  The reserve for daemon links
 * is not a parameter: one link per configured execution host, plus room
 * for hosts a reconfiguration adds and for the links of other masters;
 * clients get the rest of LSB_MBD_MAX_CONNS.
 */
#define DAEMON_RESERVE_SPARE 64

static void
set_client_limits(Manager *m, BsRpcServerOptions *opts)
{
	const BsLsfConf *lsf = m->cfg->lsf;
	guint hosts = m->cfg->cluster != NULL && m->cfg->cluster->hosts != NULL ?
	    m->cfg->cluster->hosts->len : 0;

	if (lsf->mbd_max_conns > 0 &&
	    (guint)lsf->mbd_max_conns < opts->max_connections)
		opts->max_connections = (guint)lsf->mbd_max_conns;
	opts->daemon_reserve = MIN(hosts + DAEMON_RESERVE_SPARE,
	    opts->max_connections / 2);
	opts->max_per_uid = (guint)lsf->mbd_max_conns_per_user;
	opts->client_idle_timeout_ms = (guint)lsf->mbd_client_idle_timeout * 1000;
	opts->max_outbound_total = (gsize)lsf->mbd_max_queued_output << 20;
	log_info("clients: %u connections (%u more kept for daemons), %u per "
	    "user, idle timeout %d s, %d MiB of queued output",
	    opts->max_connections - opts->daemon_reserve, opts->daemon_reserve,
	    opts->max_per_uid, lsf->mbd_client_idle_timeout,
	    lsf->mbd_max_queued_output);
}

static gboolean
start_server(Manager *m, const char *tcp_address, GError **err)
{
	BsRpcServerOptions opts;
	const char *addr = tcp_address;
	struct rlimit rl;

	bs_rpc_server_options_init(&opts);
	opts.server_name = m->cfg->cluster->name;
	/* One connection per execution host: a 10,000-host cluster needs as
	 * many descriptors, so take what the hard limit allows. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			(void)setrlimit(RLIMIT_NOFILE, &rl);
		}
		if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1000000)
			opts.max_connections = 1000000;
		else if (rl.rlim_cur > opts.max_connections + 256)
			opts.max_connections = (guint)rl.rlim_cur - 256;
	}
	set_client_limits(m, &opts);
	/* TCP peers authenticate with MUNGE, or are refused (mbd-auth.c);
	 * the port stays open either way so a refused peer hears why. */
	mbd_auth_setup(m, &opts);
	m->srv = bs_rpc_server_new(&opts, NULL);
	bs_rpc_server_register(m->srv, BASALT__ROLE__ROLE_CLIENT,
	    &m->batch_service.base);
	bs_rpc_server_register(m->srv, BASALT__ROLE__ROLE_EXEC_HOST,
	    &m->host_service.base);
	/* Other clusters' masters (mc-links.c admits and serves them). */
	bs_rpc_server_register(m->srv, BASALT__ROLE__ROLE_MASTER,
	    mc_links_service(m));
	bs_rpc_server_set_callbacks(m->srv, NULL, conn_closed, m);

	if (!bs_rpc_server_listen_unix(m->srv, m->sock_path, err))
		return FALSE;
	if (addr == NULL)
		addr = lsf_value(m, "LSB_MBD_ADDRESS");
	if (addr == NULL)
		addr = "0.0.0.0";
	if (!bs_rpc_server_listen_tcp(m->srv, addr, (guint16)m->cfg->lsf->mbd_port,
	    &m->tcp_port, err))
		return FALSE;
	log_info("listening on %s and %s:%u", m->sock_path, addr, m->tcp_port);
	return write_port_file(m, err);
}

static void
ensure_queues(Manager *m)
{
	for (guint i = 0; i < m->cfg->queues->len; i++) {
		const BsQueueConf *q = g_ptr_array_index(m->cfg->queues, i);

		state_queue_ensure(m->st, q->name);
	}
}

static void commit_start(Manager *m);

Manager *
manager_new(const ManagerOptions *opts, GError **err)
{
	Manager *m = g_new0(Manager, 1);
	g_autoptr(BsDiags) diags = bs_diags_new();
	char host[256];

	m->cfg = bs_config_load(opts->envdir, manager_now(), diags);
	if (m->cfg == NULL) {
		g_autofree char *text = bs_diags_to_string(diags);

		g_set_error(err, BS_ERROR, BS_ERROR_CONFIG,
		    "configuration has errors:\n%s", text);
		g_free(m);
		return NULL;
	}
	m->envdir = g_strdup(m->cfg->envdir);
	m->argv = opts->argv;
	m->sharedir = g_strdup(m->cfg->lsf->lsb_sharedir);
	if (m->sharedir == NULL)
		m->sharedir = g_build_filename(m->envdir, "work", NULL);
	m->sock_path = g_build_filename(m->sharedir, "mbatchd.sock", NULL);
	if (gethostname(host, sizeof host) != 0)
		g_strlcpy(host, "localhost", sizeof host);
	m->master_name = g_strdup(host);
	m->st = state_new();
	m->links = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	    (GDestroyNotify)hosts_link_free);
	m->queue_usage = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	m->deserved = g_hash_table_new(g_str_hash, g_str_equal);
	reserve_table_init(m);
	m->sched_delay_ms = SCHED_DELAY_MS;
	m->heartbeat_s = HEARTBEAT_S;
	m->loop = g_main_loop_new(NULL, FALSE);
	svc_init_batch_service(m);
	hosts_init_services(m);
	orders_init(m);
	mc_links_init(m);
	mc_links_journal_changes(m);
	mc_leased_init(m);
	mc_lease_init(m);
	mc_jobs_init(m);

	if (!make_dir(m->sharedir, err) || !journal_open(m, err) ||
	    !start_server(m, opts->tcp_address, err)) {
		manager_free(m);
		return NULL;
	}
	ensure_queues(m);
	mc_leased_refresh(m);
	hosts_expect_recovered(m);
	journal_start_commits(m);
	commit_start(m);
	start_tick(m);
	mc_links_start(m);
	mc_lease_start(m);
	manager_schedule_soon(m);
	return m;
}

/* badmin mbdhist lists the starts; a start that cannot be journaled (a
 * full disk) is only logged: mbatchd runs all the same. */
static void
commit_start(Manager *m)
{
	Basalt__Event ev = BASALT__EVENT__INIT;
	Basalt__EvMbdStart st = BASALT__EV_MBD_START__INIT;
	g_autoptr(GError) err = NULL;

	st.host = m->master_name;
	st.pid = (guint32)getpid();
	ev.body_case = BASALT__EVENT__BODY_MBD_START;
	ev.mbd_start = &st;
	if (!manager_commit(m, &ev, &err))
		log_warning("the start of mbatchd is not journaled: %s", err->message);
}

/* Before cfg replaces the running configuration: what each group's plan
 * was at the previous pass (plan-reload.h), for the first pass after. */
void
manager_plan_remember(Manager *m, const BsConfig *cfg)
{
	g_autoptr(GDateTime) t = g_date_time_new_from_unix_local(
	    m->sched_prev_now > 0 ? m->sched_prev_now : manager_now());

	if (m->plan_prev == NULL)
		m->plan_prev = plan_reload_table_new();
	if (t != NULL)
		plan_reload_keep(m->plan_prev, m->cfg, cfg, t);
}

gboolean
manager_reconfig(Manager *m, BsDiags *diags)
{
	BsConfig *cfg = bs_config_load(m->envdir, manager_now(), diags);

	if (cfg == NULL)
		return FALSE;
	manager_plan_remember(m, cfg);
	/* Built from the configuration going: rebuilt from the new one. */
	sched_consumers_input_reset(m->consumers_in);
	g_clear_pointer(&m->consumer_names, consumers_names_unref);
	bs_config_free(m->cfg);
	m->cfg = cfg;
	m->plan_reloaded = TRUE;
	ensure_queues(m);
	start_tick(m);
	mc_lease_reconfigured(m);
	manager_schedule_soon(m);
	preview_cache_clear(m);
	log_notice("reconfiguration done: %u queues", cfg->queues->len);
	return TRUE;
}

static gboolean
restart_now(gpointer data)
{
	Manager *m = data;

	if (!journal_flush(m)) {
		log_err("mbdrestart: the journal cannot be written; not restarting");
		return G_SOURCE_REMOVE;
	}
	log_notice("mbdrestart: restarting");
	/* Sockets and the journal are close-on-exec; the new process
	 * replays the journal and the hosts register again. */
	execv("/proc/self/exe", m->argv);
	log_err("mbdrestart: exec failed: %s", g_strerror(errno));
	return G_SOURCE_REMOVE;
}

void
manager_restart_soon(Manager *m)
{
	/* Long enough for the reply to badmin to leave. */
	g_timeout_add(200, restart_now, m);
}

void
manager_run(Manager *m)
{
	g_main_loop_run(m->loop);
}

void
manager_quit(Manager *m)
{
	m->shutting_down = TRUE;
	g_main_loop_quit(m->loop);
}

void
manager_free(Manager *m)
{
	if (m == NULL)
		return;
	if (m->sched_timer != 0)
		g_source_remove(m->sched_timer);
	if (m->tick_timer != 0)
		g_source_remove(m->tick_timer);
	if (m->wake_timer != 0)
		g_source_remove(m->wake_timer);
	if (m->log != NULL && m->srv != NULL)
		journal_flush(m);
	mc_links_free(m);
	mc_lease_free(m);
	mc_leased_free(m);
	mc_jobs_free(m);
	bs_rpc_server_free(m->srv);
	journal_close(m);
	g_hash_table_destroy(m->links);
	orders_free(m);
	g_hash_table_destroy(m->queue_usage);
	manager_user_names_free(m);
	g_hash_table_destroy(m->deserved);
	consumers_figures_free(m->consumer_figs);
	sched_consumers_input_free(m->consumers_in);
	consumers_names_unref(m->consumer_names);
	reserve_table_free(m);
	state_free(m->st);
	preview_cache_free(m);
	if (m->plan_prev != NULL)
		g_hash_table_destroy(m->plan_prev);
	bs_config_free(m->cfg);
	g_main_loop_unref(m->loop);
	g_free(m->envdir);
	g_free(m->sharedir);
	g_free(m->sock_path);
	g_free(m->master_name);
	g_free(m);
}
