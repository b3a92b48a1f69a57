/*
 * bmod of a started job (RUN, USUSP, SSUSP), as LSF allows it with
 * LSB_MOD_ALL_JOBS=Y in lsf.conf: the CPU limit (-c, -cn), the run limit
 * (-W, -Wn), the memory limit (-M, -Mn), the reserved resources (-R with
 * only rusage[]), the output and error files (-o -oo -on, -e -eo -en),
 * the post-exec (-Ep, -Epn) and -r/-rn.  Anything else of a started job
 * is fixed: its run has it already.  Without LSB_MOD_ALL_JOBS a started
 * job cannot be modified at all (LSF's "Job has already started").
 *
 * The job's new spec and its new dispatch stamp (the run, CPU and memory
 * limits re-resolved from the new spec, everything else as dispatched)
 * are journaled in one EvJobModify; the limits and the post-exec reach
 * the job's sbatchd through orders_modify(), which applies them to the
 * running job.  rusage[] is the scheduler's: the snapshot counts what the
 * spec reserves.  -o also says where the job report goes at the end (its
 * host is told); -o and -e do not move the run's output, which stays in
 * the files it opened at its start.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/effective.h"
#include "mbatchd/effective-prepost.h"
#include "mbatchd/mbd-orders.h"
#include "resreq/resreq.h"
#include "svc.h"

#define E(code) BASALT__ERROR_CODE__ERROR_CODE_##code

/* LSF's bound on a command line option; bs-jobwrap's buffer is larger. */
#define STARTED_POST_EXEC_MAX 4094

/* The fields a started job may change, with the option that names them. */
static const struct {
	const char *field;
	const char *option;
} started_fields[] = {
	{ "cpulimit_s", "-c" },
	{ "runlimit_s", "-W" },
	{ "memlimit_kb", "-M" },
	{ "resreq", "-R" },
	{ "stdout_path", "-o" },
	{ "stdout_overwrite", "-oo" },
	{ "stderr_path", "-e" },
	{ "stderr_overwrite", "-eo" },
	{ "post_exec", "-Ep" },
	{ "rerunnable", "-r" },
	{ "est_runtime_s", "-We" },
};

static gboolean
allowed(const char *field)
{
	for (gsize i = 0; i < G_N_ELEMENTS(started_fields); i++)
		if (strcmp(started_fields[i].field, field) == 0)
			return TRUE;
	return FALSE;
}

static gboolean
named(char **fields, size_t n, const char *field)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(fields[i], field) == 0)
			return TRUE;
	return FALSE;
}

gboolean
svc_mod_all_jobs(const Manager *m)
{
	const char *v = g_hash_table_lookup(m->cfg->lsf->values, "LSB_MOD_ALL_JOBS");

	return v != NULL && (v[0] == 'y' || v[0] == 'Y');
}

/* "rusage[...]" and nothing else around it. */
static gboolean
rusage_only(const char *s)
{
	int depth = 0;

	while (g_ascii_isspace(*s))
		s++;
	if (strncmp(s, "rusage[", 7) != 0)
		return FALSE;
	for (s += 6; *s != '\0'; s++) {
		if (*s == '[')
			depth++;
		else if (*s == ']' && --depth == 0)
			break;
	}
	if (*s != ']')
		return FALSE;
	for (s++; g_ascii_isspace(*s); s++)
		;
	return *s == '\0';
}

/* -R of a started job: rusage[] only; the job's other sections stay and
 * the new rusage[] replaces what the old one reserved of the same names. */
static Basalt__Error *
started_resreq(const char *old, const char *asked, char **merged)
{
	g_autoptr(GError) e = NULL;
	g_autoptr(BsResReq) rr = NULL;
	g_autoptr(BsResReq) all = NULL;
	const char *texts[2] = { old, asked };

	if (asked == NULL || *asked == '\0')
		return svc_error(E(JOB_STATE), "Job has already started: -Rn "
		    "cannot remove the resource requirement of a started job");
	rr = bs_resreq_parse(asked, &e);
	if (rr == NULL)
		return svc_error(E(BAD_REQUEST), "Bad resource requirement syntax: %s",
		    e->message);
	if (!rusage_only(asked) || bs_resreq_has_select(rr))
		return svc_error(E(JOB_STATE), "Job has already started: only the "
		    "rusage[] section of a started job's resource requirement "
		    "can be changed");
	if (old == NULL || *old == '\0') {
		*merged = g_strdup(asked);
		return NULL;
	}
	all = bs_resreq_parse_many(texts, 2, BS_MEM_MB, &e);
	if (all == NULL)
		return svc_error(E(BAD_REQUEST), "Bad resource requirement syntax: %s",
		    e->message);
	*merged = bs_resreq_to_string(all);
	return NULL;
}

Basalt__Error *
svc_modify_started(Manager *m, const Caller *c, Job *j, Basalt__JobSpec *spec,
    const Basalt__ModifyRequest *req)
{
	g_autoptr(GString) bad = g_string_new(NULL);
	g_autofree char *resreq = NULL;
	g_autoptr(Basalt__JobEffective) resolved = NULL;
	Basalt__JobEffective eff;
	Basalt__StartJobRequest pp = BASALT__START_JOB_REQUEST__INIT;
	gboolean post = named(req->set_fields, req->n_set_fields, "post_exec") ||
	    named(req->reset_fields, req->n_reset_fields, "post_exec");
	gboolean out = named(req->set_fields, req->n_set_fields, "stdout_path") ||
	    named(req->reset_fields, req->n_reset_fields, "stdout_path");
	g_autoptr(GError) err = NULL;
	Basalt__Error *e;

	if (job_is_finished(j))
		return svc_error(E(JOB_STATE), "Job has already finished");
	if (!svc_mod_all_jobs(m))
		return svc_error(E(JOB_STATE), "Job has already started");
	for (size_t i = 0; i < req->n_set_fields + req->n_reset_fields; i++) {
		const char *f = i < req->n_set_fields ? req->set_fields[i] :
		    req->reset_fields[i - req->n_set_fields];

		if (!allowed(f) && !strstr(bad->str, f))
			g_string_append_printf(bad, "%s%s", bad->len ? ", " : "", f);
	}
	if (bad->len > 0)
		return svc_error(E(JOB_STATE), "Job has already started: %s cannot "
		    "be changed for a started job (only -c -W -We -M -R rusage[] -o "
		    "-e -Ep -r and their n forms)", bad->str);
	if (named(req->set_fields, req->n_set_fields, "resreq") ||
	    named(req->reset_fields, req->n_reset_fields, "resreq")) {
		const char *asked = named(req->reset_fields, req->n_reset_fields,
		    "resreq") ? NULL : spec->resreq;

		if ((e = started_resreq(job_spec(j)->resreq, asked, &resreq)) != NULL)
			return e;
		spec->resreq = resreq;
	}
	if ((e = svc_check_spec(m, c, spec, j->queue)) != NULL)
		return e;
	/* The stamp as dispatched, with the three limits the job's new spec
	 * resolves to under today's configuration (bounded by its maxima). */
	resolved = effective_resolve(m->cfg, bs_config_queue(m->cfg, j->queue),
	    bs_config_app(m->cfg, spec->app_profile), spec);
	eff = j->effective != NULL ? *j->effective : *resolved;
	eff.runlimit_s = resolved->runlimit_s;
	eff.cpulimit_s = resolved->cpulimit_s;
	eff.memlimit_kb = resolved->memlimit_kb;
	/* The job-level post-exec the run ends with: bsub -Ep, else the
	 * profile's (effective-prepost.c decides as at the start). */
	effective_fill_prepost(&eff, spec, &pp);
	/* The job's wrapper reads it into a fixed buffer (jobwrap.c). */
	if (post && pp.post_exec != NULL && strlen(pp.post_exec) > STARTED_POST_EXEC_MAX)
		return svc_error(E(BAD_REQUEST), "The post-execution command of a "
		    "started job can have at most %d characters",
		    STARTED_POST_EXEC_MAX);
	if (!orders_modify(m, j, spec, &eff, post, pp.post_exec, out, &err))
		return svc_error(E(JOB_STATE), "%s", err->message);
	return NULL;
}
