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
	SchedInputHost facts;
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
} ScnParse;

const char *scn_section_file(const char *section);
ScnFile *scn_file_get(ScnParse *p, const char *name);
void scn_file_add(ScnFile *f, const char *text, int line);
void scn_file_free(gpointer f);
BsConfig *scn_config_load(ScnParse *p, gint64 now, GError **error);

/* Canonical text of an allocation list, "2*hostA hostB". */
char *scn_hosts_text(const SchedSnapshot *snap, const SchedAlloc *a, guint n);
/* "12" or "12[3]". */
char *scn_job_name(guint64 id, guint64 array_id, guint32 index);

#endif
