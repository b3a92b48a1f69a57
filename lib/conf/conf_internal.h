/*
 * Internal interfaces between the per-file loaders of lib/conf.  Each
 * loader takes an already lexed file (so tests and the fuzzer can feed it
 * text) and a BsConfCtx naming the file for diagnostics; conf_config.c
 * finds and reads the files and runs the cross-file checks (conf_check.c)
 * once everything is loaded.
 */
#ifndef BS_CONF_INTERNAL_H
#define BS_CONF_INTERNAL_H

#include "conf/conf.h"
#include "conf/conf_schema.h"

/* Read and lex a file.  Absent: NULL, and *missing set (no diagnostic). */
BsLexFile *bs_conf_read(const char *path, const char *name, BsLexMode mode,
    gint64 now, BsDiags *d, gboolean *missing);
/* Warn about a section a file does not use. */
void bs_conf_unknown_section(const BsConfCtx *ctx, const BsLexSection *s);

BsLsfConf *bs_conf_lsf_load(const char *envdir, gint64 now, BsDiags *d);
void bs_conf_lsf_free(BsLsfConf *lsf);

BsClusterConf *bs_conf_cluster_new(void);
void bs_conf_cluster_free(BsClusterConf *c);
void bs_conf_shared_load(BsClusterConf *c, const BsConfCtx *ctx, const BsLexFile *f);
void bs_conf_cluster_file_load(BsClusterConf *c, const BsConfCtx *ctx, const BsLexFile *f);

BsParamsConf *bs_conf_params_new(void);
void bs_conf_params_free(BsParamsConf *p);
void bs_conf_params_load(BsParamsConf *p, const BsConfCtx *ctx, const BsLexFile *f);
/* Resolve defaults that depend on other keys (POOL_USAGE_HALF_LIFE). */
void bs_conf_params_finish(BsParamsConf *p);

BsQueueConf *bs_conf_queue_new(void);
void bs_conf_queue_free(BsQueueConf *q);
void bs_conf_queues_load(BsConfig *cfg, const BsConfCtx *ctx, const BsLexFile *f);
void bs_conf_queues_add_default(BsConfig *cfg);

void bs_conf_app_free(BsAppConf *a);
void bs_conf_apps_load(BsConfig *cfg, const BsConfCtx *ctx, const BsLexFile *f);

BsHostsConf *bs_conf_hosts_new(void);
void bs_conf_hosts_free(BsHostsConf *h);
void bs_conf_hosts_load(BsHostsConf *h, const BsConfCtx *ctx, const BsLexFile *f);
void bs_conf_expand_word(const BsConfig *cfg, const char *word, gboolean exclude,
    GHashTable *in, GHashTable *out, int depth);
char **bs_conf_hosts_in_order(const BsConfig *cfg, GHashTable *in, GHashTable *out);

BsUsersConf *bs_conf_users_new(void);
void bs_conf_users_free(BsUsersConf *u);
void bs_conf_users_load(BsUsersConf *u, const BsConfCtx *ctx, const BsLexFile *f);

BsResourcesConf *bs_conf_resources_new(void);
void bs_conf_resources_free(BsResourcesConf *r);
void bs_conf_resources_load(BsResourcesConf *r, const BsConfCtx *ctx, const BsLexFile *f);
/* conf_limits.c: type one Limit section (its rows, in the column form)
 * into r->limits, reporting bad values at their line. */
void bs_conf_limits_load(BsResourcesConf *r, const BsConfCtx *ctx, const BsLexSection *s);
void bs_conf_limit_free(gpointer p);
/* Names a Limit section gives that the configuration does not know
 * (queues, host groups, profiles): warnings, at the section's line. */
void bs_conf_limits_check(const BsConfig *cfg, const BsConfCtx *ctx);

/* conf_consumers.c: a consumer path `/X/A` (CONSUMER of lsb.queues). */
gboolean bs_conf_valid_consumer_path(const char *s, GString *why);
gboolean bs_conf_parse_consumer_path(const BsConfKey *k, const char *v, void *f, GString *why);

/* conf_consumers_check.c: lsb.queues CONSUMER against lsb.consumers. */
void bs_conf_consumers_check(BsConfig *cfg, BsDiags *d);
/* conf_export.c: type one HostExport section into r->exports. */
void bs_conf_export_load(BsResourcesConf *r, const BsConfCtx *ctx, const BsResourceSection *s);
void bs_conf_export_free(gpointer p);
void bs_conf_import_free(gpointer p);
/* The exports against lsf.shared and the cluster's hosts, the shared-lease
 * rules, and the consumer side gathered from lsb.queues HOSTS. */
void bs_conf_exports_check(BsConfig *cfg, const BsConfCtx *ctx);

/* Cross-file checks; file names are those used in diagnostics. */
void bs_conf_check(BsConfig *cfg, BsDiags *d);

#endif
