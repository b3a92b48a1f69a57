/*
 * Between the parts of the scenario library: what the parser collects
 * before the configuration exists (scn-load.c), the configuration files
 * it writes (scn-config.c).  Not for the tool or the runner.
 */
#ifndef BS_SCN_INTERNAL_H
#define BS_SCN_INTERNAL_H

#include "tools/scenario/scenario.h"

/* One configuration file being written, and where each line came from. */
typedef struct {
	char *name;               /* lsb.queues, lsf.cluster.scenario, ... */
	GString *text;
	GArray *lines;            /* int: scenario line of each written line */
} ScnFile;

typedef struct {
	char *name;
	int line;
	SchedInputHost facts;     /* for the builder */
	/* What -R select[] and rusage[mem] read beyond r15s and r1m, set on
	 * the built host as mbatchd sets them from its host links; MB. */
	double r15m, ut, mem, swp, tmp, maxmem;
} ScnHostLine;

typedef struct {
	char *name;
	int line;
	SchedInputQueue facts;
} ScnQueueLine;

/* A line kept for after the configuration is loaded. */
typedef struct {
	char **argv;
	int line;
} ScnDeferred;

typedef struct {
	const char *path;
	GHashTable *files;        /* name -> ScnFile* */
	GPtrArray *hosts;         /* ScnHostLine* */
	GPtrArray *queues;        /* ScnQueueLine* */
	GPtrArray *jobs;          /* ScnDeferred*: run and pend lines */
	GPtrArray *expects;       /* ScnDeferred*: expect lines */
	GPtrArray *jobgroups;     /* ScnDeferred*: jobgroup lines */
	GPtrArray *lease_lines;   /* ScnDeferred*: the lease timeline (scn-lease.c) */
	GPtrArray *clusters;      /* char*: peer clusters (`cluster` lines) for lsf.shared */
	GArray *leased;           /* SchedInputLeased (strings owned): `leased` lines */
} ScnParse;

const char *scn_section_file(const char *section);
ScnFile *scn_file_get(ScnParse *p, const char *name);
void scn_file_add(ScnFile *f, const char *text, int line);
void scn_file_free(gpointer f);
BsConfig *scn_config_load(ScnParse *p, gint64 now, GError **error);

/* 2026-01-05 is a Monday; noon keeps day windows simple. */
#define SCN_DEFAULT_NOW "2026-01-05T12:00:00Z"

/* Refuse with "file:line: message"; needs `s` (with a path) and `error`. */
#define FAIL(line, ...) do { \
	g_autofree char *m_ = g_strdup_printf(__VA_ARGS__); \
	g_set_error(error, SCN_ERROR, 0, "%s:%d: %s", s->path, (line), m_); \
	return FALSE; \
} while (0)

/* The parts of scn_load(), in order. */
void scn_parse_init(ScnParse *p, const char *path);
void scn_parse_clear(ScnParse *p);
gboolean scn_first_pass(Scenario *s, ScnParse *p, const char *text, GError **error);
gboolean scn_add_jobs(Scenario *s, ScnParse *p, GError **error);
gboolean scn_expect_line(Scenario *s, char **argv, int line, GError **error);
/* scn-expect.c, for every expectation parser: whether a running job of
 * that name ("7", "7[2]") is in the file; an expectation line added. */
gboolean scn_running_known(const Scenario *s, const char *name);
ScnLine *scn_add_expect(Scenario *s, ScnKind k, int line, char *text);
/* scn-reclaim.c: run words (sp=, reclaiming=), expect reclaim lines, and
 * the plan's reclaim decisions as lines.  *handled FALSE: not theirs. */
gboolean scn_reclaim_run_word(Scenario *s, SchedRunning *r, const char *w,
    int line, gboolean *handled, GError **error);
gboolean scn_reclaim_expect(Scenario *s, char **argv, int line,
    gboolean *handled, GError **error);
char *scn_reclaim_line(const Scenario *s, const SchedPlan *plan,
    const SchedDecision *d, const char *job);
/* scn-reclaim-time.c: `at` and `end` lines of a file without leases
 * become the reclaim timeline (lines emptied); else left alone. */
gboolean scn_reclaim_timeline_load(Scenario *s, GPtrArray *lines,
    GError **error);
void scn_reclaim_steps_free(GPtrArray *steps);
void scn_fix_pointers(Scenario *s);
/* scn-lease.c: a line of the lease timeline (lease, at, used, demand,
 * link, noack, expect lease, expect lease-wake); the timeline built once
 * the configuration exists (no lines: no timeline). */
gboolean scn_is_lease_line(char **argv);
gboolean scn_lease_load(Scenario *s, GPtrArray *lines, GError **error);


/* Words (scn-values.c).  The value of "key=value" in word w, else NULL. */
const char *scn_kv(const char *w, const char *key);
gboolean scn_parse_int(const char *v, gint64 lo, gint64 hi, gint64 *out);
gboolean scn_parse_double(const char *v, double *out);
/* N, Ns, Nm, Nh or Nd, optionally negative, in seconds. */
gboolean scn_parse_duration(const char *v, gint64 *out);
/* "12" or "12[3]". */
gboolean scn_parse_job_id(const char *w, guint64 *id, guint32 *index);

/* Canonical text of an allocation list, "2*hostA hostB". */
char *scn_hosts_text(const SchedSnapshot *snap, const SchedAlloc *a, guint n);
/* "wake +30m", in the largest whole unit; in < 0: "wake none". */
char *scn_wake_text(gint64 in);
/* A reservation's start from now: "+10m", "now", or for in < 0 "unknown". */
char *scn_start_text(gint64 in);
/* "12" or "12[3]". */
char *scn_job_name(guint64 id, guint64 array_id, guint32 index);

#endif
