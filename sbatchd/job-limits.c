/*
 * From a job's dispatch stamp to setrlimit()s and whole-job limits (see
 * job-limits.h for the mapping and why each limit is where it is).
 */
#include "config.h"

#include <sys/resource.h>

#include "job-limits.h"

const char *
sbd_limits_end_term(gboolean died_of_xcpu, gint64 cpulimit_s, gboolean oom_killed)
{
	if (died_of_xcpu && cpulimit_s > 0)
		return "TERM_CPULIMIT";
	if (oom_killed)
		return "TERM_MEMLIMIT";
	return NULL;
}

void
sbd_limits_none(SbdJobLimits *l)
{
	l->cpulimit_s = l->memlimit_kb = l->swaplimit_kb = -1;
	l->processlimit = l->threadlimit = -1;
}

static gint64
value(const Basalt__JobLimit *lim)
{
	if (lim == NULL)
		return -1;
	return lim->value > G_MAXINT64 ? G_MAXINT64 : (gint64)lim->value;
}

void
sbd_limits_from_effective(const Basalt__JobEffective *e, SbdJobLimits *l)
{
	sbd_limits_none(l);
	if (e == NULL)
		return;
	l->cpulimit_s = value(e->cpulimit_s);
	l->memlimit_kb = value(e->memlimit_kb);
	l->swaplimit_kb = value(e->swaplimit_kb);
	l->processlimit = value(e->processlimit);
	l->threadlimit = value(e->threadlimit);
}

static rlim_t
kb_to_bytes(guint64 kb)
{
	if (kb > (guint64)RLIM_INFINITY / 1024)
		return RLIM_INFINITY;
	return (rlim_t)kb * 1024;
}

static void
add(BsLaunchLimit *out, guint *n, int resource, rlim_t soft, rlim_t hard)
{
	out[*n].resource = resource;
	out[*n].limit.rlim_cur = soft;
	out[*n].limit.rlim_max = hard;
	(*n)++;
}

guint
sbd_limits_rlimits(const Basalt__JobEffective *e, BsLaunchLimit *out)
{
	guint n = 0;

	if (e == NULL)
		return 0;
	/* CPU: SIGXCPU at the limit, and no hard limit: at a hard limit equal
	 * to the soft one the kernel sends SIGKILL at once, while LSF gives
	 * the job SIGXCPU to act on (sbatchd's whole-job check follows up). */
	if (e->cpulimit_s != NULL && e->cpulimit_s->value > 0)
		add(out, &n, RLIMIT_CPU, e->cpulimit_s->value >= (guint64)RLIM_INFINITY ?
		    RLIM_INFINITY : (rlim_t)e->cpulimit_s->value, RLIM_INFINITY);
	if (e->filelimit_kb != NULL)
		add(out, &n, RLIMIT_FSIZE, kb_to_bytes(e->filelimit_kb->value),
		    kb_to_bytes(e->filelimit_kb->value));
	if (e->datalimit_kb != NULL)
		add(out, &n, RLIMIT_DATA, kb_to_bytes(e->datalimit_kb->value),
		    kb_to_bytes(e->datalimit_kb->value));
	if (e->stacklimit_kb != NULL)
		add(out, &n, RLIMIT_STACK, kb_to_bytes(e->stacklimit_kb->value),
		    kb_to_bytes(e->stacklimit_kb->value));
	if (e->corelimit_kb != NULL)
		add(out, &n, RLIMIT_CORE, kb_to_bytes(e->corelimit_kb->value),
		    kb_to_bytes(e->corelimit_kb->value));
	return n;
}

static gboolean
below(rlim_t a, rlim_t b)
{
	if (a == RLIM_INFINITY)
		return FALSE;
	return b == RLIM_INFINITY || a < b;
}

void
sbd_limits_clamp(BsLaunchLimit *lims, guint n, gboolean root)
{
	for (guint i = 0; i < n && !root; i++) {
		struct rlimit cur;

		if (getrlimit(lims[i].resource, &cur) < 0)
			continue;
		if (below(cur.rlim_max, lims[i].limit.rlim_max))
			lims[i].limit.rlim_max = cur.rlim_max;
		if (below(lims[i].limit.rlim_max, lims[i].limit.rlim_cur))
			lims[i].limit.rlim_cur = lims[i].limit.rlim_max;
	}
}

void
sbd_limits_cpu_policy(const char *conf, SbdJobLimits *l, BsLaunchLimit *lims,
		      guint *n)
{
	if (conf == NULL)
		return;
	if (g_ascii_strcasecmp(conf, "n") == 0) {
		l->cpulimit_s = -1;
		return;
	}
	if (g_ascii_strcasecmp(conf, "y") != 0)
		return;
	for (guint i = 0; i < *n; i++) {
		if (lims[i].resource != RLIMIT_CPU)
			continue;
		lims[i] = lims[*n - 1];
		(*n)--;
		return;
	}
}

static gboolean
over(gint64 limit, gint64 used)
{
	return limit >= 0 && used > limit;
}

const char *
sbd_limits_check(const SbdJobLimits *l, const SbdJobSample *s)
{
	if (over(l->memlimit_kb, s->mem_kb))
		return "TERM_MEMLIMIT";
	if (over(l->swaplimit_kb, s->swap_kb))
		return "TERM_SWAP";
	if (l->cpulimit_s > 0 && s->cpu_us / G_USEC_PER_SEC >= l->cpulimit_s)
		return "TERM_CPULIMIT";
	if (over(l->processlimit, s->nprocs))
		return "TERM_PROCESSLIMIT";
	if (over(l->threadlimit, s->nthreads))
		return "TERM_THREADLIMIT";
	return NULL;
}

const char *
sbd_limits_kill_reason(const char *term)
{
	static const struct {
		const char *term, *reason;
	} reasons[] = {
		{ "TERM_MEMLIMIT", "MEMLIMIT was reached;" },
		{ "TERM_SWAP", "SWAPLIMIT was reached;" },
		{ "TERM_CPULIMIT", "CPULIMIT was reached;" },
		{ "TERM_PROCESSLIMIT", "PROCESSLIMIT was reached;" },
		{ "TERM_THREADLIMIT", "THREADLIMIT was reached;" },
		{ "TERM_RUNLIMIT", "RUNLIMIT was reached;" },
	};

	for (gsize i = 0; term != NULL && i < G_N_ELEMENTS(reasons); i++)
		if (g_str_equal(term, reasons[i].term))
			return reasons[i].reason;
	return NULL;
}
