/*
 * Folding events into per-job histories (see hist-model.h).
 *
 * Time accounting is one rule: every event that changes a job's state
 * closes the interval since the previous change and charges it to the
 * column of the state it closes.  Finished states charge nothing, so the
 * gap between an exit and a later requeue belongs to no column, and a
 * requeued job keeps what it had accumulated: bhist's TOTAL is the time
 * the job spent in the system, not the age of its latest run.
 */
#include "config.h"

#include <string.h>

#include "hist-model.h"

/* bhist -l's words for a reclaim notice (EvJobReclaim). */
static char *
hist_reclaim_text(const Basalt__EvJobReclaim *e)
{
	GString *t = g_string_new(NULL);
	g_autoptr(GDateTime) d = e->deadline > 0 ?
	    g_date_time_new_from_unix_local(e->deadline) : NULL;
	g_autofree char *when = d != NULL ?
	    g_date_time_format(d, "%a %b %e %H:%M:%S %Y") : g_strdup("now");

	if (e->for_consumer != NULL && *e->for_consumer != '\0')
		g_string_append_printf(t, "Reclaimed for consumer <%s>", e->for_consumer);
	else if (e->kind != NULL && *e->kind != '\0' && strcmp(e->kind, "host") != 0)
		g_string_append(t, "Reclaimed at a plan change");
	else
		g_string_append(t, "Reclaimed: its host is closed with -reclaim");
	if (e->kind != NULL && *e->kind != '\0' && strcmp(e->kind, "host") != 0)
		g_string_append_printf(t, " (%s slots", e->kind);
	if (e->from_consumer != NULL && *e->from_consumer != '\0' &&
	    e->kind != NULL && *e->kind != '\0' && strcmp(e->kind, "host") != 0)
		g_string_append_printf(t, " of consumer <%s>", e->from_consumer);
	if (e->kind != NULL && *e->kind != '\0' && strcmp(e->kind, "host") != 0)
		g_string_append_c(t, ')');
	if (e->signal > 0)
		g_string_append_printf(t, "; warning action signal <%d> sent", e->signal);
	else
		g_string_append(t, "; no warning action");
	g_string_append_printf(t, "; grace period %d seconds, until %s;",
	    e->grace, when);
	return g_string_free(t, FALSE);
}

struct HistSpec {
	guint ref;
	Basalt__JobSpec *spec;
};

/*
 * A private copy without the environment and the spooled script: history
 * never prints them, and they are most of a spec's bytes.
 */
static HistSpec *
spec_new(const Basalt__JobSpec *spec)
{
	Basalt__JobSpec shallow = BASALT__JOB_SPEC__INIT;
	HistSpec *hs = g_new0(HistSpec, 1);
	gsize len;
	guint8 *buf;

	if (spec != NULL)
		shallow = *spec;
	shallow.n_env = 0;
	shallow.env = NULL;
	shallow.script = (char *)"";
	len = basalt__job_spec__get_packed_size(&shallow);
	buf = g_malloc(len > 0 ? len : 1);
	basalt__job_spec__pack(&shallow, buf);
	hs->spec = basalt__job_spec__unpack(NULL, len, buf);
	g_free(buf);
	g_assert(hs->spec != NULL);
	hs->ref = 1;
	return hs;
}

static HistSpec *
spec_ref(HistSpec *hs)
{
	hs->ref++;
	return hs;
}

static void
spec_unref(HistSpec *hs)
{
	if (hs != NULL && --hs->ref == 0) {
		basalt__job_spec__free_unpacked(hs->spec, NULL);
		g_free(hs);
	}
}

static void
step_free(gpointer p)
{
	HistStep *s = p;

	g_free(s->text);
	g_free(s->term_reason);
	if (s->effective != NULL)
		basalt__job_effective__free_unpacked(s->effective, NULL);
	g_free(s);
}

/* The step's own copy of a dispatch's stamp (the event is freed after
 * it is fed); through the wire form, so free_unpacked frees it. */
static Basalt__JobEffective *
effective_copy(const Basalt__JobEffective *e)
{
	gsize len = basalt__job_effective__get_packed_size(e);
	g_autofree guint8 *buf = g_malloc(len > 0 ? len : 1);

	basalt__job_effective__pack(e, buf);
	return basalt__job_effective__unpack(NULL, len, buf);
}

static void
job_free(gpointer p)
{
	HistJob *j = p;

	g_free(j->user);
	g_free(j->name);
	g_free(j->base_name);
	g_free(j->queue);
	g_free(j->from_host);
	spec_unref(j->spec);
	g_strfreev(j->exec_hosts);
	g_ptr_array_unref(j->steps);
	g_free(j);
}

/* Keys are (id << 32 | index) in a guint64; ids stay far below 2^32. */
static guint64 *
key_new(guint64 id, guint32 index)
{
	guint64 *k = g_new(guint64, 1);

	*k = id << 32 | index;
	return k;
}

/*
 * Not g_int64_hash: before GLib 2.80 it keeps only the low 32 bits, the
 * array index here, so every plain job shared one hash and reading a
 * long history was quadratic (bhist -a over 35,000 jobs: 18 s).
 */
static guint
key_hash(gconstpointer k)
{
	guint64 v = *(const guint64 *)k;

	return (guint)((v >> 32) ^ (v & 0xffffffffu) * 0x9e3779b1u);
}

HistModel *
hist_model_new(void)
{
	HistModel *m = g_new0(HistModel, 1);

	m->by_key = g_hash_table_new_full(key_hash, g_int64_equal, g_free,
	    NULL);
	m->jobs = g_ptr_array_new_with_free_func(job_free);
	m->leases = hist_leases_new();
	return m;
}

void
hist_model_free(HistModel *m)
{
	if (m == NULL)
		return;
	g_hash_table_unref(m->by_key);
	g_ptr_array_unref(m->jobs);
	hist_leases_free(m->leases);
	g_free(m);
}

HistJob *
hist_model_job(const HistModel *m, guint64 id, guint32 index)
{
	guint64 k = id << 32 | index;

	return g_hash_table_lookup(m->by_key, &k);
}

const Basalt__JobSpec *
hist_job_spec(const HistJob *j)
{
	return j->spec->spec;
}

const char *
hist_job_project(const HistJob *j)
{
	const char *p = j->spec->spec->project;

	return p != NULL && *p != '\0' ? p : "default";
}

static gboolean
state_finished(Basalt__JobState s)
{
	return s == BASALT__JOB_STATE__JOB_STATE_DONE ||
	    s == BASALT__JOB_STATE__JOB_STATE_EXIT;
}

gboolean
hist_job_finished(const HistJob *j)
{
	return state_finished(j->state);
}

/* The column a state charges, or -1 for the finished states. */
static int
state_col(Basalt__JobState s)
{
	switch (s) {
	case BASALT__JOB_STATE__JOB_STATE_PEND: return HIST_PEND;
	case BASALT__JOB_STATE__JOB_STATE_PSUSP: return HIST_PSUSP;
	case BASALT__JOB_STATE__JOB_STATE_RUN: return HIST_RUN;
	case BASALT__JOB_STATE__JOB_STATE_USUSP: return HIST_USUSP;
	case BASALT__JOB_STATE__JOB_STATE_SSUSP: return HIST_SSUSP;
	case BASALT__JOB_STATE__JOB_STATE_UNKWN:
	case BASALT__JOB_STATE__JOB_STATE_ZOMBI: return HIST_UNKWN;
	default: return -1;
	}
}

/* Closes the current interval at t and enters state s. */
static void
enter(HistJob *j, Basalt__JobState s, gint64 t)
{
	int col = state_col(j->state);

	if (col >= 0 && t > j->since)
		j->secs[col] += t - j->since;
	j->state = s;
	j->since = t;
}

gint64
hist_job_times(const HistJob *j, gint64 now, gint64 secs[HIST_NCOLS])
{
	int col = state_col(j->state);
	gint64 total = 0;

	memcpy(secs, j->secs, sizeof j->secs);
	if (col >= 0 && now > j->since)
		secs[col] += now - j->since;
	for (int i = 0; i < HIST_NCOLS; i++)
		total += secs[i];
	return total;
}

static HistStep *
add_step(HistJob *j, const Basalt__Event *ev, HistStepKind kind)
{
	HistStep *s = g_new0(HistStep, 1);

	s->seq = ev->seq;
	s->time = ev->time;
	s->kind = kind;
	s->state = j->state;
	g_ptr_array_add(j->steps, s);
	return s;
}

static void
add_job(HistModel *m, const Basalt__Event *ev, HistSpec *spec, guint32 index)
{
	const Basalt__EvJobNew *e = ev->job_new;
	HistJob *j = g_new0(HistJob, 1);
	const char *base = e->job_name != NULL && *e->job_name ? e->job_name :
	    spec->spec->command;

	j->id = e->job_id;
	j->index = index;
	j->user = g_strdup(e->user);
	j->base_name = g_strdup(base);
	j->name = index > 0 ? g_strdup_printf("%s[%u]", base, index) :
	    g_strdup(base);
	j->queue = g_strdup(e->queue);
	j->from_host = g_strdup(e->from_host);
	j->spec = spec_ref(spec);
	j->submit_time = ev->time;
	j->since = ev->time;
	j->state = spec->spec->hold ? BASALT__JOB_STATE__JOB_STATE_PSUSP :
	    BASALT__JOB_STATE__JOB_STATE_PEND;
	j->steps = g_ptr_array_new_with_free_func(step_free);
	add_step(j, ev, HIST_STEP_SUBMIT)->text = g_strdup(e->queue);
	if (g_hash_table_contains(m->by_key, &(guint64){ e->job_id << 32 | index })) {
		job_free(j);
		return;
	}
	g_hash_table_insert(m->by_key, key_new(e->job_id, index), j);
	g_ptr_array_add(m->jobs, j);
}

static void
feed_new(HistModel *m, const Basalt__Event *ev)
{
	const Basalt__EvJobNew *e = ev->job_new;
	HistSpec *spec = spec_new(e->spec);

	if (e->n_array_indexes == 0)
		add_job(m, ev, spec, 0);
	for (size_t i = 0; i < e->n_array_indexes; i++)
		add_job(m, ev, spec, e->array_indexes[i]);
	spec_unref(spec);
}

static void
feed_dispatch(HistJob *j, const Basalt__Event *ev)
{
	const Basalt__EvJobDispatch *e = ev->job_dispatch;
	GString *hosts = g_string_new(NULL);
	HistStep *s;

	enter(j, BASALT__JOB_STATE__JOB_STATE_RUN, ev->time);
	j->dispatch_time = ev->time;
	j->end_time = 0;
	g_strfreev(j->exec_hosts);
	j->exec_hosts = g_new0(char *, e->n_exec_hosts + 1);
	for (size_t i = 0; i < e->n_exec_hosts; i++)
		j->exec_hosts[i] = g_strdup(e->exec_hosts[i]);
	for (size_t i = 0; i < e->n_exec_hosts; i++)
		g_string_append_printf(hosts, "%s%s", i > 0 ? " " : "",
		    e->exec_hosts[i]);
	s = add_step(j, ev, HIST_STEP_DISPATCH);
	s->text = g_string_free(hosts, FALSE);
	if (e->effective != NULL)
		s->effective = effective_copy(e->effective);
}

static void
feed_status(HistJob *j, const Basalt__Event *ev)
{
	const Basalt__EvJobStatus *e = ev->job_status;
	HistStep *s;

	enter(j, e->state, ev->time);
	if (e->usage != NULL) {
		j->cpu_us = e->usage->utime_us + e->usage->stime_us;
		j->max_rss_kb = MAX(j->max_rss_kb, e->usage->max_rss_kb);
		j->acct.max_rss_kb = j->max_rss_kb;
		j->acct.avg_rss_kb = e->usage->avg_rss_kb;
		j->acct.max_nprocs = e->usage->max_nprocs;
		j->acct.max_nthreads = e->usage->max_nthreads;
		j->acct.max_swap_kb = e->usage->max_swap_kb;
	}
	s = add_step(j, ev, HIST_STEP_STATUS);
	s->text = g_strdup(e->reason);
	if (!state_finished(e->state))
		return;
	j->end_time = ev->time;
	j->exit_status = e->exit_status;
	j->term_signal = e->term_signal;
	s->exit_status = e->exit_status;
	s->term_signal = e->term_signal;
	s->cpu_us = j->cpu_us;
	if (e->term_reason != NULL && *e->term_reason != '\0')
		s->term_reason = g_strdup(e->term_reason);
}

static void
feed_requeue(HistJob *j, const Basalt__Event *ev)
{
	const Basalt__EvJobRequeue *e = ev->job_requeue;
	HistStep *s;

	enter(j, e->hold ? BASALT__JOB_STATE__JOB_STATE_PSUSP :
	    BASALT__JOB_STATE__JOB_STATE_PEND, ev->time);
	j->end_time = 0;
	j->exit_status = 0;
	j->term_signal = 0;
	j->cpu_us = 0;
	basalt__resource_usage__init(&j->acct);
	s = add_step(j, ev, HIST_STEP_REQUEUE);
	s->text = g_strdup(e->reason);
}

/* A pre-exec failure: pending again (shown as a requeue with its reason)
 * or, retries spent, the end of the job. */
static void
feed_preexec(HistJob *j, const Basalt__Event *ev)
{
	const Basalt__EvJobPreexec *e = ev->job_preexec;
	HistStep *s;

	if (!e->give_up || e->hold) {
		enter(j, e->hold ? BASALT__JOB_STATE__JOB_STATE_PSUSP :
		    BASALT__JOB_STATE__JOB_STATE_PEND, ev->time);
		j->end_time = 0;
		j->cpu_us = 0;
		s = add_step(j, ev, HIST_STEP_REQUEUE);
		s->text = g_strdup(e->reason);
		return;
	}
	enter(j, BASALT__JOB_STATE__JOB_STATE_EXIT, ev->time);
	s = add_step(j, ev, HIST_STEP_STATUS);
	s->text = g_strdup(e->reason);
	j->end_time = ev->time;
	j->exit_status = e->exit_status;
	j->term_signal = 0;
	s->exit_status = e->exit_status;
	s->term_signal = 0;
	s->cpu_us = j->cpu_us;
}

static void
feed_switch(HistJob *j, const Basalt__Event *ev)
{
	HistStep *s = add_step(j, ev, HIST_STEP_SWITCH);

	g_free(j->queue);
	j->queue = g_strdup(ev->job_switch->queue);
	s->text = g_strdup(ev->job_switch->queue);
}

static void
change_str(GString *out, const char *what, const char *from, const char *to)
{
	if (g_strcmp0(from != NULL ? from : "", to != NULL ? to : "") == 0)
		return;
	if (to == NULL || *to == '\0')
		g_string_append_printf(out, "%s is reset;\n", what);
	else
		g_string_append_printf(out, "%s changes to : %s;\n", what, to);
}

static void
change_num(GString *out, const char *what, guint64 from, guint64 to)
{
	if (from == to)
		return;
	if (to == 0)
		g_string_append_printf(out, "%s is reset;\n", what);
	else
		g_string_append_printf(out, "%s changes to : %" G_GUINT64_FORMAT
		    ";\n", what, to);
}

static char *
join(char **v, size_t n)
{
	GString *s = g_string_new(NULL);

	for (size_t i = 0; i < n; i++)
		g_string_append_printf(s, "%s%s", i > 0 ? " " : "", v[i]);
	return g_string_free(s, FALSE);
}

static void
change_list(GString *out, const char *what, char **from, size_t nfrom,
    char **to, size_t nto)
{
	g_autofree char *a = join(from, nfrom);
	g_autofree char *b = join(to, nto);

	change_str(out, what, a, b);
}

/* bmod's changes in LSF's words: "Job name changes to : x;" per line. */
static char *
spec_diff(const Basalt__JobSpec *o, const Basalt__JobSpec *n)
{
	GString *out = g_string_new(NULL);

	change_str(out, "Job name", o->job_name, n->job_name);
	change_str(out, "Command", o->command, n->command);
	change_list(out, "Job queue", o->queues, o->n_queues, n->queues,
	    n->n_queues);
	change_str(out, "Input file", o->stdin_path, n->stdin_path);
	change_str(out, "Output file", o->stdout_path, n->stdout_path);
	change_str(out, "Error file", o->stderr_path, n->stderr_path);
	change_num(out, "Min processors", o->min_slots, n->min_slots);
	change_num(out, "Max processors", o->max_slots, n->max_slots);
	change_str(out, "Resource requirement", o->resreq, n->resreq);
	change_list(out, "Specified hosts", o->hosts, o->n_hosts, n->hosts,
	    n->n_hosts);
	change_str(out, "Dependency condition", o->dependency, n->dependency);
	change_num(out, "RUNLIMIT (seconds)", o->runlimit_s, n->runlimit_s);
	change_num(out, "CPULIMIT (seconds)", o->cpulimit_s, n->cpulimit_s);
	change_num(out, "MEMLIMIT (KB)", o->memlimit_kb, n->memlimit_kb);
	change_str(out, "Project", o->project, n->project);
	change_str(out, "User group", o->user_group, n->user_group);
	change_str(out, "Job group", o->job_group, n->job_group);
	change_str(out, "Pre-execution command", o->pre_exec, n->pre_exec);
	change_str(out, "Post-execution command", o->post_exec, n->post_exec);
	change_str(out, "Mail user", o->mail_user, n->mail_user);
	change_num(out, "Begin time", (guint64)o->begin_time,
	    (guint64)n->begin_time);
	if (o->rerunnable != n->rerunnable)
		g_string_append(out, n->rerunnable ? "Job is rerunnable;\n" :
		    "Job is not rerunnable;\n");
	if (out->len > 0)
		g_string_truncate(out, out->len - 1);
	return g_string_free(out, FALSE);
}

static void
feed_modify(HistJob *j, const Basalt__Event *ev)
{
	const Basalt__JobSpec *n = ev->job_modify->spec;
	HistSpec *spec = spec_new(n);
	HistStep *s = add_step(j, ev, HIST_STEP_MODIFY);

	s->text = spec_diff(j->spec->spec, spec->spec);
	spec_unref(j->spec);
	j->spec = spec;
	if (j->index == 0 && n != NULL && n->job_name != NULL &&
	    *n->job_name != '\0') {
		g_free(j->name);
		j->name = g_strdup(n->job_name);
		g_free(j->base_name);
		j->base_name = g_strdup(n->job_name);
	}
}

static void
feed_job_event(HistJob *j, const Basalt__Event *ev)
{
	HistStep *s;

	switch (ev->body_case) {
	case BASALT__EVENT__BODY_JOB_DISPATCH:
		feed_dispatch(j, ev);
		break;
	case BASALT__EVENT__BODY_JOB_START:
		s = add_step(j, ev, HIST_STEP_START);
		s->pid = ev->job_start->pgid;
		break;
	case BASALT__EVENT__BODY_JOB_STATUS:
		feed_status(j, ev);
		break;
	case BASALT__EVENT__BODY_JOB_REQUEUE:
		feed_requeue(j, ev);
		break;
	case BASALT__EVENT__BODY_JOB_PREEXEC:
		feed_preexec(j, ev);
		break;
	case BASALT__EVENT__BODY_JOB_SWITCH:
		feed_switch(j, ev);
		break;
	case BASALT__EVENT__BODY_JOB_MODIFY:
		feed_modify(j, ev);
		break;
	case BASALT__EVENT__BODY_JOB_MOVE:
		s = add_step(j, ev, HIST_STEP_MOVE);
		s->position = ev->job_move->position;
		s->to_bottom = ev->job_move->to_bottom;
		break;
	case BASALT__EVENT__BODY_JOB_CLEAN:
		j->cleaned = TRUE;
		break;
	case BASALT__EVENT__BODY_JOB_SIGNAL:
		s = add_step(j, ev, HIST_STEP_SIGNAL);
		s->pid = ev->job_signal->signal;
		s->text = g_strdup(ev->job_signal->user);
		break;
	case BASALT__EVENT__BODY_JOB_MESSAGE:
		/* Who and which index only: the text is the job's own, shown
		 * by bread to those who may read it. */
		s = add_step(j, ev, HIST_STEP_MESSAGE);
		s->position = ev->job_message->index;
		s->text = g_strdup(ev->job_message->user);
		break;
	case BASALT__EVENT__BODY_JOB_RECLAIM:
		s = add_step(j, ev, HIST_STEP_RECLAIM);
		s->text = hist_reclaim_text(ev->job_reclaim);
		break;
	case BASALT__EVENT__BODY_JOB_CONSUMER_PEND:
		s = add_step(j, ev, HIST_STEP_QUOTA_PEND);
		s->text = g_strdup(ev->job_consumer_pend->pending ?
		    ev->job_consumer_pend->reason : NULL);
		break;
	default:
		break;
	}
}

/* The (id, index) a job event is about; FALSE for other events. */
static gboolean
event_job(const Basalt__Event *ev, guint64 *id, guint32 *index)
{
	switch (ev->body_case) {
#define JOB_CASE(CASE, field) \
	case BASALT__EVENT__BODY_ ## CASE: \
		*id = ev->field->job_id; \
		*index = ev->field->array_index; \
		return TRUE;
	JOB_CASE(JOB_DISPATCH, job_dispatch)
	JOB_CASE(JOB_START, job_start)
	JOB_CASE(JOB_STATUS, job_status)
	JOB_CASE(JOB_REQUEUE, job_requeue)
	JOB_CASE(JOB_SWITCH, job_switch)
	JOB_CASE(JOB_MODIFY, job_modify)
	JOB_CASE(JOB_MOVE, job_move)
	JOB_CASE(JOB_CLEAN, job_clean)
	JOB_CASE(JOB_SIGNAL, job_signal)
	JOB_CASE(JOB_PREEXEC, job_preexec)
	JOB_CASE(JOB_MESSAGE, job_message)
	JOB_CASE(JOB_CONSUMER_PEND, job_consumer_pend)
	JOB_CASE(JOB_RECLAIM, job_reclaim)
#undef JOB_CASE
	default:
		return FALSE;
	}
}

void
hist_model_feed(HistModel *m, const Basalt__Event *ev)
{
	guint64 id;
	guint32 index;
	HistJob *j;

	m->events++;
	if (ev->body_case == BASALT__EVENT__BODY_JOB_NEW) {
		feed_new(m, ev);
		return;
	}
	if (!event_job(ev, &id, &index)) {
		hist_leases_feed(m->leases, ev);
		return;
	}
	j = hist_model_job(m, id, index);
	if (j == NULL) {
		m->orphans++;
		return;
	}
	feed_job_event(j, ev);
	if (ev->body_case == BASALT__EVENT__BODY_JOB_DISPATCH)
		hist_leases_job_placed(m->leases, j);
}
