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

/* A host's value for a resource name, as the select evaluator asks. */
static BsResValue
host_value(const char *name, void *data)
{
	const SchedHost *h = data;
	BsResValue v = { .kind = BS_RES_NUMBER };

	if (strcmp(name, "hname") == 0) {
		v.kind = BS_RES_STRING;
		v.str = h->name;
	} else if (strcmp(name, "type") == 0 ||
	    strcmp(name, BS_RESREQ_LOCAL_TYPE) == 0) {
		v.kind = BS_RES_STRING;
		v.str = h->type != NULL ? h->type : "LINUX";
	} else if (strcmp(name, "model") == 0 ||
	    strcmp(name, BS_RESREQ_LOCAL_MODEL) == 0) {
		v.kind = BS_RES_STRING;
		v.str = h->model != NULL ? h->model : "LINUX";
	} else if (strcmp(name, "ncpus") == 0) {
		v.num = h->ncpus;
	} else if (strcmp(name, "maxmem") == 0) {
		v.num = h->maxmem;
	} else if (!h->load_known) {
		/* No report from the host yet: its load is unknown, and a
		 * select on it is not satisfied. */
		v.kind = BS_RES_UNDEFINED;
	} else if (strcmp(name, "mem") == 0) {
		v.num = h->mem;
	} else if (strcmp(name, "swp") == 0) {
		v.num = h->swp;
	} else if (strcmp(name, "tmp") == 0) {
		v.num = h->tmp;
	} else if (strcmp(name, "r15s") == 0) {
		v.num = h->r15s;
	} else if (strcmp(name, "r1m") == 0) {
		v.num = h->r1m;
	} else if (strcmp(name, "r15m") == 0) {
		v.num = h->r15m;
	} else if (strcmp(name, "ut") == 0) {
		v.num = h->ut;
	} else {
		v.kind = BS_RES_UNDEFINED;
	}
	return v;
}

gboolean
sched_resreq_constrains(const BsResReq *rr)
{
	return rr != NULL &&
	    (bs_resreq_has_select(rr) || bs_resreq_rusage_mem_mb(rr) > 0);
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
