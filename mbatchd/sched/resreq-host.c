/*
 * Placement by resource requirement: whether a host satisfies a job's -R
 * select expression and its rusage[mem], from the figures the snapshot
 * carries for the host (load indices, maxmem, ncpus, type, model, name).
 * Pure: no daemon is asked anything; the same job and host always give the
 * same answer, which lets the pass copy reasons between jobs of one shape.
 *
 * Follows LSF's resource requirement strings (lsfadmin "Specifying
 * resource requirements"): select[] names a host by its static resources
 * and load indices; rusage[mem=N] asks N MB of the host's available
 * memory.  Memory is in MB as LSF shows it.
 */
#include "config.h"

#include <string.h>

#include "pass.h"

typedef enum {
	RES_OTHER, RES_HNAME, RES_TYPE, RES_MODEL, RES_NCPUS, RES_MAXMEM,
	RES_MEM, RES_SWP, RES_TMP, RES_R15S, RES_R1M, RES_R15M, RES_UT,
} ResName;

/* Which resource a name is: the evaluator asks once per host and name,
 * for every host a job with -R looks at, so the first letter picks the
 * few names to compare instead of running through all of them. */
static ResName
res_name(const char *name)
{
	switch (name[0]) {
	case 'h':
		return strcmp(name, "hname") == 0 ? RES_HNAME : RES_OTHER;
	case 't':
		return strcmp(name, "type") == 0 ? RES_TYPE :
		    strcmp(name, "tmp") == 0 ? RES_TMP : RES_OTHER;
	case 'l':
		return strcmp(name, BS_RESREQ_LOCAL_TYPE) == 0 ? RES_TYPE :
		    strcmp(name, BS_RESREQ_LOCAL_MODEL) == 0 ? RES_MODEL :
		    RES_OTHER;
	case 'm':
		return strcmp(name, "model") == 0 ? RES_MODEL :
		    strcmp(name, "maxmem") == 0 ? RES_MAXMEM :
		    strcmp(name, "mem") == 0 ? RES_MEM : RES_OTHER;
	case 'n':
		return strcmp(name, "ncpus") == 0 ? RES_NCPUS : RES_OTHER;
	case 's':
		return strcmp(name, "swp") == 0 ? RES_SWP : RES_OTHER;
	case 'r':
		return strcmp(name, "r15s") == 0 ? RES_R15S :
		    strcmp(name, "r1m") == 0 ? RES_R1M :
		    strcmp(name, "r15m") == 0 ? RES_R15M : RES_OTHER;
	case 'u':
		return strcmp(name, "ut") == 0 ? RES_UT : RES_OTHER;
	default:
		return RES_OTHER;
	}
}

/* A host's value for a resource name, as the select evaluator asks. */
static BsResValue
host_value(const char *name, void *data)
{
	const SchedHost *h = data;
	BsResValue v = { .kind = BS_RES_NUMBER };
	ResName r = res_name(name);

	switch (r) {
	case RES_HNAME:
		v.kind = BS_RES_STRING;
		v.str = h->name;
		return v;
	case RES_TYPE:
		v.kind = BS_RES_STRING;
		v.str = h->type != NULL ? h->type : "LINUX";
		return v;
	case RES_MODEL:
		v.kind = BS_RES_STRING;
		v.str = h->model != NULL ? h->model : "LINUX";
		return v;
	case RES_NCPUS:
		v.num = h->ncpus;
		return v;
	case RES_MAXMEM:
		v.num = h->maxmem;
		return v;
	default:
		break;
	}
	/* No report from the host yet: its load is unknown, and a select on
	 * it is not satisfied. */
	if (!h->load_known) {
		v.kind = BS_RES_UNDEFINED;
		return v;
	}
	switch (r) {
	case RES_MEM: v.num = h->mem; break;
	case RES_SWP: v.num = h->swp; break;
	case RES_TMP: v.num = h->tmp; break;
	case RES_R15S: v.num = h->r15s; break;
	case RES_R1M: v.num = h->r1m; break;
	case RES_R15M: v.num = h->r15m; break;
	case RES_UT: v.num = h->ut; break;
	default: v.kind = BS_RES_UNDEFINED; break;
	}
	return v;
}

gboolean
sched_resreq_constrains(const BsResReq *rr)
{
	return rr != NULL &&
	    (bs_resreq_has_select(rr) || bs_resreq_rusage_mem_mb(rr) > 0);
}

/*
 * The answers for the last -R placement asked, per host: jobs of one
 * array or one spec share their parsed -R, and each walks the hosts
 * again.  A different -R starts a new stamp rather than clearing.
 */
struct ResreqMemo {
	const BsResReq *rr;
	guint32 stamp;
	guint32 *seen;            /* [n_hosts]: stamp when ok[h] is known */
	gboolean *ok;
	guint n_hosts;
};

ResreqMemo *
resreq_memo_new(guint n_hosts)
{
	ResreqMemo *m = g_new0(ResreqMemo, 1);

	m->n_hosts = n_hosts;
	m->seen = g_new0(guint32, MAX(n_hosts, 1u));
	m->ok = g_new0(gboolean, MAX(n_hosts, 1u));
	return m;
}

void
resreq_memo_free(ResreqMemo *m)
{
	if (m == NULL)
		return;
	g_free(m->seen);
	g_free(m->ok);
	g_free(m);
}

gboolean
sched_resreq_host_ok_memo(ResreqMemo *m, const BsResReq *rr,
    const SchedSnapshot *snap, guint h)
{
	if (rr == NULL)
		return TRUE;
	if (m == NULL)
		return sched_resreq_host_ok(rr, &snap->hosts[h]);
	if (m->rr != rr) {
		m->rr = rr;
		if (++m->stamp == 0) {
			memset(m->seen, 0, sizeof(guint32) * MAX(m->n_hosts, 1u));
			m->stamp = 1;
		}
	}
	if (m->seen[h] != m->stamp) {
		m->ok[h] = sched_resreq_host_ok(rr, &snap->hosts[h]);
		m->seen[h] = m->stamp;
	}
	return m->ok[h];
}

gboolean
sched_resreq_host_ok(const BsResReq *rr, const SchedHost *host)
{
	double mem_mb;

	if (rr == NULL)
		return TRUE;
	if (!bs_resreq_select_eval(rr, host_value, (void *)host, NULL))
		return FALSE;
	mem_mb = bs_resreq_rusage_mem_mb(rr);
	/* A host that reported no free memory figure is not held to one. */
	return mem_mb <= 0 || !host->load_known || host->mem <= 0 ||
	    mem_mb <= host->mem;
}
