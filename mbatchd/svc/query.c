/*
 * The read-only queries behind bjobs, bqueues, bhosts, bparams, busers and
 * lsid.  Replies point into the state and configuration wherever they can
 * (nothing is copied that protobuf-c can pack in place) and are packed
 * before the handler returns.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/mbd-reserve.h"
#include "mbatchd/mbd-snapshot.h"
#include "mbatchd/mc-leased.h"
#include "mbatchd/sched/pass.h"
#include "mbatchd/svc/job-row.h"
#include "mbatchd/svc/svc.h"

#define E(code) BASALT__ERROR_CODE__ERROR_CODE_##code
/* A page of bjobs output: well under the frame limit (BS_FRAME_MAX_DEFAULT). */
#define PAGE_BYTES (2u << 20)

/*
 * The selection behind the listing being paged.  A big listing takes
 * several pages, each a call with skip set; selecting and sorting every
 * job again for each page made bjobs quadratic.  The next page reuses the
 * selection when nothing was applied to the state since (same last_seq),
 * the query is the same one, and so is the caller (who "users" defaults
 * to); otherwise it selects again, as the first page does.  The jobs are
 * kept as pointers, used only while no job at all has been freed since
 * (state_jobs_freed), and otherwise looked up again by key: a million
 * lookups in a million-job table cost a quarter of a listing.
 */
static struct {
	GBytes *query;            /* packed JobQuery, skip 0, + caller's name */
	guint64 seq;
	guint64 freed;            /* state_jobs_freed() when selected */
	guint64 *keys;            /* job_key of each selected job, in order */
	Job **jobs;               /* the same jobs */
	guint n;
} pages;

static GBytes *
query_key(const Basalt__JobQuery *req, const Caller *c)
{
	Basalt__JobQuery q = *req;
	gsize len, ulen = strlen(c->user) + 1;
	guint8 *buf;

	q.skip = 0;
	len = basalt__job_query__get_packed_size(&q);
	buf = g_malloc(len + 1 + ulen);
	basalt__job_query__pack(&q, buf);
	buf[len] = c->known;
	memcpy(buf + len + 1, c->user, ulen);
	return g_bytes_new_take(buf, len + 1 + ulen);
}

static void
pages_forget(void)
{
	g_clear_pointer(&pages.query, g_bytes_unref);
	g_clear_pointer(&pages.keys, g_free);
	g_clear_pointer(&pages.jobs, g_free);
	pages.n = 0;
}

/* Jobs the caller may not see at all (SECURE_JOB_INFO_LEVEL 2-4) leave
 * the listing before it is kept for the next pages, and so do jobs that
 * only their hidden name matched. */
static void
hide_unseen(Manager *m, const Caller *c, const Basalt__JobQuery *q,
    GPtrArray *jobs)
{
	Sight *s = svc_sight_new(m, c);
	guint k = 0;

	/* Each job would say so: a million of them need not be read. */
	if (svc_sight_all(s)) {
		svc_sight_free(s);
		return;
	}
	for (guint i = 0; i < jobs->len; i++)
		if (svc_sight_of(s, jobs->pdata[i]) != SIGHT_NONE &&
		    svc_sight_name_matches(s, q, jobs->pdata[i]))
			jobs->pdata[k++] = jobs->pdata[i];
	g_ptr_array_set_size(jobs, k);
	svc_sight_free(s);
}

/*
 * The jobs of this listing, in order: selected now (the first page, or a
 * listing that changed), or kept from the previous page as pages.keys.
 * Returns the fresh selection, or NULL when the kept one serves: then
 * listed_job looks up only the jobs of this page, not the whole listing
 * again for each page (a 100,000-job listing is 5 pages).
 */
static GPtrArray *
listing(Manager *m, const Basalt__JobQuery *req, const Caller *c)
{
	GBytes *key = query_key(req, c);
	GPtrArray *jobs;

	if (req->skip > 0 && pages.query != NULL && pages.seq == m->st->last_seq &&
	    g_bytes_equal(pages.query, key)) {
		g_bytes_unref(key);
		return NULL;
	}
	pages_forget();
	jobs = svc_select_jobs(m, req, c->known ? c->user : NULL);
	hide_unseen(m, c, req, jobs);
	pages.query = key;
	pages.seq = m->st->last_seq;
	pages.freed = state_jobs_freed();
	pages.n = jobs->len;
	pages.keys = g_new(guint64, jobs->len + 1);
	pages.jobs = g_new(Job *, jobs->len + 1);
	for (guint i = 0; i < jobs->len; i++) {
		pages.jobs[i] = jobs->pdata[i];
		pages.keys[i] = pages.jobs[i]->key;
	}
	return jobs;
}

/* The i-th job of the listing; NULL for a kept one that is gone (none
 * is while last_seq stays the same). */
static Job *
listed_job(Manager *m, GPtrArray *fresh, guint i)
{
	if (fresh != NULL)
		return fresh->pdata[i];
	if (pages.freed == state_jobs_freed())
		return pages.jobs[i];
	return g_hash_table_lookup(m->st->jobs, &pages.keys[i]);
}

/*
 * A page of packed jobs.  Each job is packed once, into the page, as soon
 * as it is measured, and the reply carries the packed jobs as the bytes of
 * its field 2 (JobList.jobs): protobuf-c writes a message's unknown fields
 * as they are, so the client unpacks them as the repeated jobs they are.
 * Handing protobuf-c the 20,000 JobInfo of a page instead measured every
 * job three times over (for the page's limit, for the frame's length, and
 * again inside pack for each job's own length prefix) before packing it.
 */
typedef struct {
	guint8 *buf;
	gsize len, cap;
	GArray *fields;           /* ProtobufCMessageUnknownField, data = offset */
} Page;

/* row: info holds only the fields JobQuery.fields names (job-row.h). */
static void
page_add(Page *p, const Basalt__JobInfo *info, gsize size, gboolean row)
{
	ProtobufCMessageUnknownField f = { 0 };
	gsize need = p->len + 10 + size;
	guint8 *at;
	gsize n = 0;

	if (need > p->cap) {
		p->cap = MAX(need, p->cap * 2);
		p->buf = g_realloc(p->buf, p->cap);
	}
	at = p->buf + p->len;
	/* The length prefix of a length-delimited field, then the job. */
	for (gsize v = size; ; v >>= 7) {
		at[n++] = (guint8)(v & 0x7f) | (v >= 0x80 ? 0x80 : 0);
		if (v < 0x80)
			break;
	}
	if (row)
		svc_job_row_pack(info, at + n);
	else
		basalt__job_info__pack(info, at + n);
	f.tag = 2;
	f.wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
	f.len = n + size;
	f.data = GSIZE_TO_POINTER(p->len);
	g_array_append_val(p->fields, f);
	p->len += n + size;
}

void
svc_jobs(Basalt__BatchService_Service *svc, const Basalt__JobQuery *req,
    Basalt__JobList_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__JobList reply = BASALT__JOB_LIST__INIT;
	GPtrArray *fresh;
	Page page = { 0 };
	guint n;
	gsize size;
	Caller c;
	Sight *sight;

	svc_caller(m, call, &c);
	fresh = listing(m, req, &c);
	n = fresh != NULL ? fresh->len : pages.n;
	sight = svc_sight_new(m, &c);
	page.fields = g_array_new(FALSE, FALSE, sizeof(ProtobufCMessageUnknownField));
	/* Fill a page up to half a frame; the client pages on with skip. */
	for (guint i = req->skip; i < n; i++) {
		const Job *j = listed_job(m, fresh, i);
		Basalt__JobInfo info;
		Basalt__JobSpec spec;
		gboolean detail;

		if (j == NULL)
			continue;
		detail = svc_sight_of(sight, j) == SIGHT_DETAIL;
		svc_fill_job(m, j, req, &info);
		if (!detail)
			svc_sight_hide_name(j, &info);
		/* The submission environment stays here: no command shows it,
		 * and it would make the reply ten times bigger. */
		if (info.spec != NULL) {
			spec = *info.spec;
			spec.env = NULL;
			spec.n_env = 0;
			if (!detail)
				svc_sight_hide_details(&spec);
			info.spec = &spec;
		}
		size = req->fields != 0 ? svc_job_row_size(&info) :
		    basalt__job_info__get_packed_size(&info);
		/* A job that would take the page past its size starts the
		 * next page, so a page is at most PAGE_BYTES or one job (and
		 * submit.c bounds a job well under a frame). */
		if (page.fields->len > 0 && page.len + size + 8 > PAGE_BYTES) {
			svc_free_job_info(&info);
			reply.more = TRUE;
			reply.next_skip = i;
			break;
		}
		page_add(&page, &info, size, req->fields != 0);
		svc_free_job_info(&info);
	}
	/* The last page: the selection is not needed any more. */
	if (!reply.more)
		pages_forget();
	for (guint i = 0; i < page.fields->len; i++) {
		ProtobufCMessageUnknownField *f = &g_array_index(page.fields,
		    ProtobufCMessageUnknownField, i);

		f->data = page.buf + GPOINTER_TO_SIZE(f->data);
	}
	reply.base.n_unknown_fields = page.fields->len;
	reply.base.unknown_fields = (ProtobufCMessageUnknownField *)page.fields->data;
	closure(&reply, call);
	g_array_free(page.fields, TRUE);
	g_free(page.buf);
	if (fresh != NULL)
		g_ptr_array_free(fresh, TRUE);
	svc_sight_free(sight);
}

/* Slots by state per queue, as bqueues counts them (a 4-slot job is 4). */
typedef struct {
	guint pend, run, susp, ususp, ssusp;
} Counts;

/* Every queue's counts from one pass over the jobs: queue -> Counts. */
static GHashTable *
count_queues(Manager *m)
{
	GHashTable *by_queue = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	    g_free);
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, m->st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const Job *j = v;
		Counts *n;

		if (job_is_finished(j))
			continue;
		n = g_hash_table_lookup(by_queue, j->queue);
		if (n == NULL) {
			n = g_new0(Counts, 1);
			g_hash_table_insert(by_queue, (gpointer)j->queue, n);
		}
		if (job_is_pending(j))
			n->pend += (guint)job_slots(j);
		else if (j->state == JS_RUN || j->state == JS_UNKWN)
			n->run += (guint)job_slots(j);
		else if (j->state == JS_USUSP || j->state == JS_SSUSP) {
			n->susp += (guint)job_slots(j);
			*(j->state == JS_USUSP ? &n->ususp : &n->ssusp) +=
			    (guint)job_slots(j);
		}
	}
	return by_queue;
}

static void
queue_counts(GHashTable *by_queue, const char *queue, Counts *n)
{
	const Counts *c = g_hash_table_lookup(by_queue, queue);

	if (c != NULL)
		*n = *c;
	else
		memset(n, 0, sizeof *n);
}

static char *
limit_text(const BsLimit *l)
{
	if (l->max == BS_CONF_UNLIMITED)
		return NULL;
	if (l->def != BS_CONF_UNLIMITED)
		return g_strdup_printf("%" G_GINT64_FORMAT ".0 min %" G_GINT64_FORMAT
		    ".0 min", l->def, l->max);
	return g_strdup_printf("%" G_GINT64_FORMAT ".0 min", l->max);
}

static void
preemption_text(GString *s, const BsPreemption *p)
{
	if (p->preemptive) {
		g_string_append(s, "PREEMPTIVE");
		if (p->preemptive_queues != NULL) {
			g_string_append_c(s, '[');
			for (guint i = 0; i < p->preemptive_queues->len; i++) {
				const BsQueueRef *r = g_ptr_array_index(p->preemptive_queues, i);

				g_string_append_printf(s, "%s%s", i ? " " : "", r->queue);
				if (r->has_pref)
					g_string_append_printf(s, "+%d", r->pref);
			}
			g_string_append_c(s, ']');
		}
	}
	if (p->preemptable) {
		g_string_append_printf(s, "%sPREEMPTABLE", s->len ? " " : "");
		if (p->preemptable_queues != NULL) {
			g_string_append_c(s, '[');
			for (guint i = 0; i < p->preemptable_queues->len; i++) {
				const BsQueueRef *r = g_ptr_array_index(p->preemptable_queues, i);

				g_string_append_printf(s, "%s%s", i ? " " : "", r->queue);
			}
			g_string_append_c(s, ']');
		}
	}
}

/* KEY = value lines for bqueues -l, only for what is set. */
static GPtrArray *
queue_params(Manager *m, const BsQueueConf *q, GHashTable *counts)
{
	GPtrArray *p = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *run = limit_text(&q->runlimit);
	g_autofree char *cpu = limit_text(&q->cpulimit);
	g_autoptr(GString) pre = g_string_new(NULL);
	g_auto(GStrv) hosts = NULL;

	g_ptr_array_add(p, g_strdup_printf("NICE = %d", q->nice));
	if (run != NULL)
		g_ptr_array_add(p, g_strdup_printf("RUNLIMIT = %s", run));
	if (cpu != NULL)
		g_ptr_array_add(p, g_strdup_printf("CPULIMIT = %s", cpu));
	if (q->users == NULL) {
		g_ptr_array_add(p, g_strdup("USERS = all"));
	} else {
		g_autofree char *u = g_strjoinv(" ", q->users);

		g_ptr_array_add(p, g_strdup_printf("USERS = %s", u));
	}
	hosts = bs_config_queue_hosts(m->cfg, q);
	if (q->hosts == NULL) {
		g_ptr_array_add(p, g_strdup("HOSTS = all"));
	} else {
		g_autofree char *h = g_strjoinv(" ", hosts);

		g_ptr_array_add(p, g_strdup_printf("HOSTS = %s", h));
	}
	preemption_text(pre, &q->preemption);
	if (pre->len > 0)
		g_ptr_array_add(p, g_strdup_printf("PREEMPTION = %s", pre->str));
	if (q->max_job_preempt != BS_CONF_UNLIMITED)
		g_ptr_array_add(p, g_strdup_printf("MAX_JOB_PREEMPT = %d", q->max_job_preempt));
	if (q->run_window != NULL) {
		g_autofree char *w = bs_conf_windows_format(q->run_window);

		g_ptr_array_add(p, g_strdup_printf("RUN_WINDOW = %s", w));
	}
	if (q->dispatch_window != NULL) {
		g_autofree char *w = bs_conf_windows_format(q->dispatch_window);

		g_ptr_array_add(p, g_strdup_printf("DISPATCH_WINDOW = %s", w));
	}
	if (q->slot_pool != NULL)
		g_ptr_array_add(p, g_strdup_printf("SLOT_POOL = %s", q->slot_pool));
	if (q->slot_share > 0)
		g_ptr_array_add(p, g_strdup_printf("SLOT_SHARE = %d%%", q->slot_share));
	if (q->slot_pool != NULL) {
		gpointer d = g_hash_table_lookup(m->deserved, q->name);
		Counts n;

		queue_counts(counts, q->name, &n);
		g_ptr_array_add(p, g_strdup_printf("DESERVED_SLOTS = %d",
		    d != NULL ? GPOINTER_TO_INT(d) - 1 : 0));
		g_ptr_array_add(p, g_strdup_printf("SLOTS_IN_USE = %u", n.run + n.susp));
	}
	if (q->consumer != NULL)
		g_ptr_array_add(p, g_strdup_printf("CONSUMER = %s", q->consumer));
	if (q->job_starter != NULL)
		g_ptr_array_add(p, g_strdup_printf("JOB_STARTER = %s", q->job_starter));
	if (q->job_warning_action != NULL)
		g_ptr_array_add(p, g_strdup_printf("JOB_WARNING_ACTION = %s",
		    q->job_warning_action));
	if (q->job_action_warning_time > 0)
		g_ptr_array_add(p, g_strdup_printf("JOB_ACTION_WARNING_TIME = %d",
		    q->job_action_warning_time / 60));
	if (q->pre_exec != NULL)
		g_ptr_array_add(p, g_strdup_printf("PRE_EXEC = %s", q->pre_exec));
	if (q->post_exec != NULL)
		g_ptr_array_add(p, g_strdup_printf("POST_EXEC = %s", q->post_exec));
	if (q->res_req != NULL)
		g_ptr_array_add(p, g_strdup_printf("RES_REQ = %s", q->res_req));
	/* The queue accepts bsub -x. */
	if (q->exclusive.enabled)
		g_ptr_array_add(p, g_strdup("EXCLUSIVE = Y"));
	if (q->fairshare != NULL) {
		g_autoptr(GString) fs = g_string_new("FAIRSHARE = USER_SHARES[");

		for (guint i = 0; i < q->fairshare->len; i++) {
			const BsShare *sh = g_ptr_array_index(q->fairshare, i);

			g_string_append_printf(fs, "[%s, %d]", sh->name, sh->shares);
		}
		g_string_append_c(fs, ']');
		g_ptr_array_add(p, g_string_free(g_steal_pointer(&fs), FALSE));
	}
	return p;
}

/*
 * bqueues -u: "all" selects the queues open to every user; a user group
 * the queues that name it (or every user); a user the queues that accept
 * that user's jobs, as at submission.
 */
static gboolean
queue_for_user(Manager *m, const BsQueueConf *q, const char *user)
{
	if (user == NULL || user[0] == '\0' || q->users == NULL)
		return TRUE;
	if (strcmp(user, "all") == 0 ||
	    bs_config_user_group(m->cfg, user) != NULL)
		return g_strv_contains((const char *const *)q->users, user) ||
		    g_strv_contains((const char *const *)q->users, "all");
	return svc_queue_accepts_user(m, q, user);
}

/*
 * bqueues -m: "all" selects the queues that use every host (HOSTS unset
 * or all); a host group the queues that can use any of its hosts; a host
 * the queues that can dispatch to it.
 */
static gboolean
queue_for_host(Manager *m, const BsQueueConf *q, const char *host)
{
	g_auto(GStrv) hosts = NULL;
	g_auto(GStrv) members = NULL;

	if (host == NULL || host[0] == '\0')
		return TRUE;
	if (strcmp(host, "all") == 0) {
		for (guint i = 0; q->hosts != NULL && i < q->hosts->len; i++) {
			const BsHostRef *r = g_ptr_array_index(q->hosts, i);

			if (strcmp(r->name, "all") == 0 && !r->exclude)
				return TRUE;
		}
		return q->hosts == NULL;
	}
	hosts = bs_config_queue_hosts(m->cfg, q);
	members = bs_config_host_group_expand(m->cfg, host);
	if (members == NULL)
		return hosts != NULL &&
		    g_strv_contains((const char *const *)hosts, host);
	for (guint i = 0; hosts != NULL && members[i] != NULL; i++)
		if (g_strv_contains((const char *const *)hosts, members[i]))
			return TRUE;
	return FALSE;
}

/* The names of a request as a set, NULL for none: one lookup per
 * candidate, however many names the request carries. */
static GHashTable *
name_set(char **names, size_t n)
{
	GHashTable *set;

	if (n == 0)
		return NULL;
	set = g_hash_table_new(g_str_hash, g_str_equal);
	for (size_t i = 0; i < n; i++)
		g_hash_table_add(set, names[i]);
	return set;
}

static gboolean
named(GHashTable *set, const char *name)
{
	return set == NULL || g_hash_table_contains(set, name);
}

void
svc_queues(Basalt__BatchService_Service *svc, const Basalt__QueueQuery *req,
    Basalt__QueueList_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__QueueList reply = BASALT__QUEUE_LIST__INIT;
	GPtrArray *queues = m->cfg->queues;
	Basalt__QueueInfo *infos = g_new0(Basalt__QueueInfo, queues->len);
	GPtrArray *params = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	GDateTime *now = g_date_time_new_now_local();
	GHashTable *counts = count_queues(m);
	GHashTable *names = name_set(req->names, req->n_names);

	for (size_t i = 0; i < req->n_names; i++)
		if (bs_config_queue(m->cfg, req->names[i]) == NULL) {
			reply.error = svc_error(E(NO_QUEUE), "%s: No such queue",
			    req->names[i]);
			break;
		}
	if (reply.error == NULL && req->host != NULL && req->host[0] != '\0' &&
	    strcmp(req->host, "all") != 0 &&
	    bs_config_cluster_host(m->cfg, req->host) == NULL &&
	    bs_config_host_group(m->cfg, req->host) == NULL)
		reply.error = svc_error(E(NO_HOST),
		    "%s: Bad host name, host group name or cluster name",
		    req->host);
	reply.queues = g_new(Basalt__QueueInfo *, queues->len);
	for (guint i = 0; reply.error == NULL && i < queues->len; i++) {
		const BsQueueConf *q = g_ptr_array_index(queues, i);
		QueueRt *rt = state_queue_ensure(m->st, q->name);
		Basalt__QueueInfo *qi = &infos[reply.n_queues];
		gboolean win = bs_conf_windows_open(q->dispatch_window, now) &&
		    bs_conf_windows_open(q->run_window, now);
		Counts n;

		if (!named(names, q->name) || !queue_for_user(m, q, req->user) ||
		    !queue_for_host(m, q, req->host))
			continue;
		basalt__queue_info__init(qi);
		queue_counts(counts, q->name, &n);
		qi->name = q->name;
		qi->priority = q->priority;
		qi->open = rt->open;
		qi->active = rt->active && win;
		qi->inactive_reason = !rt->active ? "Inact_Adm" : !win ? "Inact_Win" : "";
		qi->qjob_limit = q->qjob_limit;
		qi->ujob_limit = q->ujob_limit;
		qi->pjob_limit = q->pjob_limit;
		qi->hjob_limit = q->hjob_limit;
		qi->pend = n.pend;
		qi->run = n.run;
		qi->susp = n.susp;
		qi->ususp = n.ususp;
		qi->ssusp = n.ssusp;
		qi->njobs = n.pend + n.run + n.susp;
		qi->description = q->description != NULL ? q->description : "";
		if (req->detail) {
			GPtrArray *p = queue_params(m, q, counts);

			qi->params = (char **)p->pdata;
			qi->n_params = p->len;
			g_ptr_array_add(params, p);
		}
		reply.queues[reply.n_queues++] = qi;
	}
	closure(&reply, call);
	svc_error_free(reply.error);
	g_free(reply.queues);
	g_free(infos);
	g_ptr_array_free(params, TRUE);
	if (names != NULL)
		g_hash_table_destroy(names);
	g_hash_table_destroy(counts);
	g_date_time_unref(now);
}

/* A host an exclusive job (bsub -x) holds, as LSF's bhosts names it. */
#define EXCL_STATUS "closed_Excl"

/* Slots of started jobs per host, from one pass over the jobs (not one
 * pass per host: 10,000 hosts times 100,000 jobs). */
static GHashTable *
count_hosts(Manager *m)
{
	GHashTable *by_host = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	    g_free);
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, m->st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const Job *j = v;

		if (!job_is_started(j) || j->exec_hosts == NULL)
			continue;
		for (guint i = 0; j->exec_hosts[i] != NULL; i++) {
			Basalt__HostInfo *c = g_hash_table_lookup(by_host, j->exec_hosts[i]);

			if (c == NULL) {
				c = g_new0(Basalt__HostInfo, 1);
				g_hash_table_insert(by_host, j->exec_hosts[i], c);
			}
			c->njobs++;
			/* bsub -x: the host takes no other job while this one
			 * holds it, suspended or not. */
			if (job_spec(j)->exclusive)
				c->status = (char *)EXCL_STATUS;
			if (j->state == JS_SSUSP)
				c->ssusp++;
			else if (j->state == JS_USUSP)
				c->ususp++;
			else
				c->run++;
		}
	}
	return by_host;
}

static void
host_counts(GHashTable *by_host, const char *host, Basalt__HostInfo *hi)
{
	const Basalt__HostInfo *c = g_hash_table_lookup(by_host, host);

	if (c == NULL)
		return;
	hi->njobs = c->njobs;
	hi->run = c->run;
	hi->ssusp = c->ssusp;
	hi->ususp = c->ususp;
	hi->status = c->status;
}

static const char *
host_status(Manager *m, const char *name, const HostLink *l,
    const Basalt__HostInfo *hi, GDateTime *now)
{
	HostRt *rt = g_hash_table_lookup(m->st->hosts, name);
	const BsHostConf *hc = bs_config_host(m->cfg, name);

	if (l == NULL || l->unavail || (l->conn == NULL && !l->registered))
		return "unavail";
	if (l->conn == NULL)
		return "unreach";
	if (rt != NULL && rt->closed_adm)
		return "closed_Adm";
	if (hc != NULL && !bs_conf_windows_open(hc->dispatch_window, now))
		return "closed_Wind";
	if (g_strcmp0(hi->status, EXCL_STATUS) == 0)
		return EXCL_STATUS;
	if (hi->max_slots >= 0 && (gint)hi->njobs >= hi->max_slots)
		return "closed_Full";
	return "ok";
}

/* The hosts the names ask for (hosts, host groups, `all`); NULL: every
 * host.  Expanded once, not once per host of the cluster. */
static GHashTable *
hosts_wanted(Manager *m, const Basalt__HostQuery *req)
{
	GHashTable *set;

	if (req->n_names == 0)
		return NULL;
	set = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (size_t i = 0; i < req->n_names; i++) {
		g_auto(GStrv) members = NULL;

		if (strcmp(req->names[i], "all") == 0) {
			g_hash_table_destroy(set);
			return NULL;
		}
		/* A name said twice is expanded once. */
		if (g_hash_table_contains(set, req->names[i]))
			continue;
		g_hash_table_add(set, g_strdup(req->names[i]));
		members = bs_config_host_group_expand(m->cfg, req->names[i]);
		for (guint k = 0; members != NULL && members[k] != NULL; k++)
			g_hash_table_add(set, g_strdup(members[k]));
	}
	return set;
}

/* bhosts -R: the scheduler's own test, on the figures it would read. */
static gboolean
host_satisfies(Manager *m, const char *name, guint ncpus, const BsResReq *rr)
{
	SchedHost h = { .name = name, .ncpus = (int)ncpus };

	snapshot_host_resources(m, &h);
	return sched_resreq_host_ok(rr, &h);
}

/*
 * Hosts other clusters lend this one, "host@cluster", after the local
 * ones (mc-leased.h): MAX the slots the lease gives now, NJOBS and RUN
 * this cluster's jobs there, ok while jobs may be placed on it, else
 * closed (the lease inactive or disconnected, or no link).
 */
static void
add_leased_hosts(Manager *m, GHashTable *wanted, GHashTable *counts,
    const BsResReq *rr, Basalt__HostList *reply, Basalt__HostInfo **store)
{
	guint n = mc_leased_host_count(m);

	if (n == 0)
		return;
	*store = g_new0(Basalt__HostInfo, n);
	reply->hosts = g_renew(Basalt__HostInfo *, reply->hosts, reply->n_hosts + n);
	for (guint i = 0; i < n; i++) {
		const McLeasedHost *lh = mc_leased_host_nth(m, i);
		Basalt__HostInfo *hi = &(*store)[i];

		if (wanted != NULL && !g_hash_table_contains(wanted, lh->name))
			continue;
		if (rr != NULL) {
			SchedHost h = { .name = lh->name, .ncpus = lh->ncpus,
			    .type = lh->type, .model = lh->model, .maxmem = lh->maxmem };

			if (!sched_resreq_host_ok(rr, &h))
				continue;
		}
		basalt__host_info__init(hi);
		hi->name = lh->name;
		hi->max_slots = lh->slots;
		hi->jl_u = BS_CONF_UNLIMITED;
		hi->ncpus = (guint32)MAX(lh->ncpus, 0);
		host_counts(counts, lh->name, hi);
		hi->status = (char *)(!lh->usable ? "closed" :
		    (gint)hi->njobs >= hi->max_slots ? "closed_Full" : "ok");
		hi->model = lh->model != NULL ? lh->model : (char *)"";
		hi->type = lh->type != NULL ? lh->type : (char *)"";
		hi->resources = lh->resources;
		hi->n_resources = g_strv_length(lh->resources);
		hi->mem_kb = (guint64)(lh->maxmem * 1024);
		hi->remote = TRUE;
		hi->cluster = lh->provider;
		hi->lease = lh->policy;
		reply->hosts[reply->n_hosts++] = hi;
	}
}

void
svc_hosts(Basalt__BatchService_Service *svc, const Basalt__HostQuery *req,
    Basalt__HostList_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__HostList reply = BASALT__HOST_LIST__INIT;
	GPtrArray *hosts = m->cfg->cluster->hosts;
	Basalt__HostInfo *infos = g_new0(Basalt__HostInfo, hosts->len);
	Basalt__HostInfo *leased = NULL;
	GDateTime *now = g_date_time_new_now_local();
	GHashTable *counts = count_hosts(m);
	GHashTable *wanted = hosts_wanted(m, req);
	g_autoptr(BsResReq) rr = NULL;
	g_autoptr(GHashTable) checked = g_hash_table_new(g_str_hash, g_str_equal);

	for (size_t i = 0; i < req->n_names; i++) {
		g_auto(GStrv) members = NULL;

		if (bs_config_cluster_host(m->cfg, req->names[i]) != NULL ||
		    mc_leased_host_find(m, req->names[i]) != NULL ||
		    !g_hash_table_add(checked, req->names[i]))
			continue;
		members = bs_config_host_group_expand(m->cfg, req->names[i]);
		if (strcmp(req->names[i], "all") != 0 && members == NULL &&
		    bs_config_cluster_host(m->cfg, req->names[i]) == NULL) {
			reply.error = svc_error(E(NO_HOST), "%s: Bad host name, host "
			    "group name or cluster name", req->names[i]);
			break;
		}
	}
	if (reply.error == NULL && req->res_req != NULL &&
	    req->res_req[0] != '\0') {
		g_autoptr(GError) err = NULL;

		rr = bs_resreq_parse(req->res_req, &err);
		if (rr == NULL)
			reply.error = svc_error(E(BAD_REQUEST), "%s",
			    err->message);
	}
	reply.hosts = g_new(Basalt__HostInfo *, hosts->len);
	for (guint i = 0; reply.error == NULL && i < hosts->len; i++) {
		const BsClusterHost *ch = g_ptr_array_index(hosts, i);
		const HostLink *l = manager_link(m, ch->name);
		const BsHostConf *hc = bs_config_host(m->cfg, ch->name);
		Basalt__HostInfo *hi = &infos[reply.n_hosts];
		guint ncpus = l != NULL && l->ncpus > 0 ? l->ncpus : 1;

		if (!ch->server || (wanted != NULL && !g_hash_table_contains(wanted, ch->name)))
			continue;
		if (rr != NULL && !host_satisfies(m, ch->name, ncpus, rr))
			continue;
		basalt__host_info__init(hi);
		hi->name = ch->name;
		hi->max_slots = hc == NULL || hc->mxj == BS_CONF_MXJ_NCPUS ? (gint)ncpus : hc->mxj;
		hi->jl_u = hc != NULL ? hc->jl_u : BS_CONF_UNLIMITED;
		hi->ncpus = ncpus;
		host_counts(counts, ch->name, hi);
		/* Reserved slots are part of NJOBS, as LSF counts them. */
		hi->rsv = reserve_on_host(m, ch->name);
		hi->njobs += hi->rsv;
		hi->status = (char *)host_status(m, ch->name, l, hi, now);
		if (l != NULL) {
			hi->mem_kb = l->mem_kb;
			hi->r15s = l->load.r15s;
			hi->r1m = l->load.r1m;
			hi->r15m = l->load.r15m;
			hi->ut = l->load.ut;
			hi->mem_free_kb = l->load.mem_free_kb;
			hi->swap_free_kb = l->load.swap_free_kb;
			hi->tmp_free_kb = l->load.tmp_free_kb;
		}
		hi->model = ch->model != NULL ? ch->model : "";
		hi->type = ch->type != NULL ? ch->type : "";
		hi->resources = ch->resources;
		hi->n_resources = ch->resources != NULL ?
		    g_strv_length(ch->resources) : 0;
		reply.hosts[reply.n_hosts++] = hi;
	}
	if (reply.error == NULL)
		add_leased_hosts(m, wanted, counts, rr, &reply, &leased);
	closure(&reply, call);
	svc_error_free(reply.error);
	g_free(reply.hosts);
	g_free(infos);
	g_free(leased);
	g_hash_table_destroy(counts);
	if (wanted != NULL)
		g_hash_table_destroy(wanted);
	g_date_time_unref(now);
}

static void
params_lsb(Basalt__BatchService_Service *svc, const Basalt__ParamsQuery *req,
    Basalt__ParamsReply_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	const BsParamsConf *p = m->cfg->params;
	Basalt__ParamsReply reply = BASALT__PARAMS_REPLY__INIT;
	GPtrArray *kv = g_ptr_array_new();
	GPtrArray *strs = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *dq = g_strjoinv(" ", (char **)bs_config_default_queues(m->cfg));
	struct {
		const char *key;
		char *value;
	} items[] = {
		{ "DEFAULT_QUEUE", g_strdup(dq) },
		{ "DEFAULT_PROJECT", g_strdup(p->default_project) },
		{ "MBD_SLEEP_TIME", g_strdup_printf("%d", p->mbd_sleep_time) },
		{ "SBD_SLEEP_TIME", g_strdup_printf("%d", p->sbd_sleep_time) },
		{ "JOB_ACCEPT_INTERVAL", g_strdup_printf("%d", p->job_accept_interval) },
		{ "CLEAN_PERIOD", g_strdup_printf("%d", p->clean_period) },
		{ "MAX_JOB_NUM", g_strdup_printf("%d", p->max_job_num) },
		{ "MAX_SBD_FAIL", g_strdup_printf("%d", p->max_sbd_fail) },
		{ "MAX_JOB_ARRAY_SIZE", g_strdup_printf("%d", p->max_job_array_size) },
		{ "MAX_JOBID", g_strdup_printf("%d", p->max_jobid) },
		{ "JOB_TERMINATE_INTERVAL", g_strdup_printf("%d", p->job_terminate_interval) },
		{ "HIST_HOURS", g_strdup_printf("%d", p->hist_hours) },
		{ "MAX_JOB_PREEMPT", p->max_job_preempt == BS_CONF_UNLIMITED ? NULL :
		    g_strdup_printf("%d", p->max_job_preempt) },
		{ "DEFAULT_JOBGROUP", p->default_jobgroup != NULL &&
		    *p->default_jobgroup ? g_strdup(p->default_jobgroup) : NULL },
		{ "JOB_GROUP_CLEAN", p->job_group_clean ? g_strdup("Y") : NULL },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(items); i++) {
		Basalt__KeyValue *e;

		if (items[i].value == NULL)
			continue;
		e = g_new(Basalt__KeyValue, 1);
		basalt__key_value__init(e);
		e->key = (char *)items[i].key;
		e->value = items[i].value;
		g_ptr_array_add(strs, items[i].value);
		g_ptr_array_add(kv, e);
	}
	(void)req;
	reply.params = (Basalt__KeyValue **)kv->pdata;
	reply.n_params = kv->len;
	closure(&reply, call);
	g_ptr_array_set_free_func(kv, g_free);
	g_ptr_array_free(kv, TRUE);
	g_ptr_array_free(strs, TRUE);
}

void
svc_params(Basalt__BatchService_Service *svc, const Basalt__ParamsQuery *req,
    Basalt__ParamsReply_Closure closure, void *call)
{
	if (req->lsf_conf)
		svc_params_lsf_conf(svc_manager(svc), closure, call);
	else
		params_lsb(svc, req, closure, call);
}

void
svc_users(Basalt__BatchService_Service *svc, const Basalt__UserQuery *req,
    Basalt__UserList_Closure closure, void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__UserList reply = BASALT__USER_LIST__INIT;
	GHashTable *by_user = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	GHashTable *names = name_set(req->names, req->n_names);
	GHashTableIter it;
	gpointer v;
	GPtrArray *out = g_ptr_array_new();
	Caller c;

	svc_caller(m, call, &c);
	g_hash_table_iter_init(&it, m->st->jobs);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const Job *j = v;
		Basalt__UserInfo *u = g_hash_table_lookup(by_user, j->user);
		guint n = (guint)job_slots(j);

		if (job_is_finished(j))
			continue;
		if (u == NULL) {
			u = g_new(Basalt__UserInfo, 1);
			basalt__user_info__init(u);
			u->name = (char *)j->user;
			u->max_jobs = -1;
			u->jl_p = -1;
			g_hash_table_insert(by_user, (gpointer)j->user, u);
		}
		u->njobs += n;
		if (job_is_pending(j)) {
			const MbdReserve *r = reserve_of(m, j);

			u->pend += n;
			/* Slots its pending jobs hold reserved (SLOT_RESERVE). */
			if (r != NULL && r->hosts != NULL)
				u->rsv += g_strv_length(r->hosts);
		} else if (j->state == JS_SSUSP)
			u->ssusp += n;
		else if (j->state == JS_USUSP)
			u->ususp += n;
		else
			u->run += n;
	}
	/* Named users (or the caller) are listed even without jobs. */
	for (size_t i = 0; i <= req->n_names; i++) {
		const char *name = i < req->n_names ? req->names[i] :
		    req->n_names == 0 && c.known ? c.user : NULL;

		if (name == NULL || strcmp(name, "all") == 0 ||
		    g_hash_table_contains(by_user, name))
			continue;
		{
			Basalt__UserInfo *u = g_new(Basalt__UserInfo, 1);

			/* The request's own string, valid until we reply: a
			 * name without jobs is not kept in the state. */
			basalt__user_info__init(u);
			u->name = (char *)name;
			u->max_jobs = -1;
			u->jl_p = -1;
			g_hash_table_insert(by_user, (gpointer)name, u);
		}
	}
	g_hash_table_iter_init(&it, by_user);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		Basalt__UserInfo *u = v;
		gboolean want = req->n_names == 0 ? (!c.known || strcmp(u->name, c.user) == 0) : FALSE;

		if (names != NULL)
			want = g_hash_table_contains(names, "all") ||
			    g_hash_table_contains(names, u->name);
		if (want)
			g_ptr_array_add(out, u);
	}
	reply.users = (Basalt__UserInfo **)out->pdata;
	reply.n_users = out->len;
	closure(&reply, call);
	g_ptr_array_free(out, TRUE);
	g_hash_table_destroy(by_user);
	if (names != NULL)
		g_hash_table_destroy(names);
}

void
svc_cluster(Basalt__BatchService_Service *svc,
    const Basalt__ClusterInfoRequest *req, Basalt__ClusterInfo_Closure closure,
    void *call)
{
	Manager *m = svc_manager(svc);
	Basalt__ClusterInfo reply = BASALT__CLUSTER_INFO__INIT;

	(void)req;
	reply.cluster_name = m->cfg->cluster->name;
	reply.master_name = m->master_name;
	reply.version = PACKAGE_VERSION;
	reply.admins = m->cfg->cluster->admins;
	reply.n_admins = m->cfg->cluster->admins != NULL ?
	    g_strv_length(m->cfg->cluster->admins) : 0;
	closure(&reply, call);
}
