/*
 * lsf.conf: `KEY=value` lines, values optionally in single or double
 * quotes, `#` comments.  Every key is kept in `values` (sites carry many we
 * do not use, so unknown keys are not warned about); the ones Basalt uses
 * are typed below.  Finding the file: the envdir argument, else
 * $LSF_ENVDIR, else SYSCONFDIR (see conf.h for the whole rule).
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "conf/conf_internal.h"
#include "util/log.h"
#include "util/memunit.h"

#define L(f) offsetof(BsLsfConf, f)

static gboolean
parse_log_mask(const BsConfKey *k, const char *value, void *field, GString *why)
{
	BsLogLevel l;

	if (!bs_log_level_parse(value, &l)) {
		g_string_append(why, "expected LOG_ERR, LOG_WARNING, LOG_NOTICE, LOG_INFO or LOG_DEBUG");
		return FALSE;
	}
	*(int *)field = (int)l;
	return TRUE;
}

/* KB MB GB TB PB (or K M G T P): the unit of sizes written without one. */
static gboolean
parse_mem_unit(const BsConfKey *k, const char *value, void *field, GString *why)
{
	BsMemUnit u;

	(void)k;
	if (!bs_mem_unit_parse(value, strlen(value), &u)) {
		g_string_append(why, "expected KB, MB, GB, TB or PB");
		return FALSE;
	}
	*(int *)field = (int)u;
	return TRUE;
}

static const BsConfKey lsf_table[] = {
	{ "LSF_CONFDIR", BS_CT_STRING, .offset = L(lsf_confdir), 0, 4095 },
	{ "LSB_CONFDIR", BS_CT_STRING, .offset = L(lsb_confdir), 0, 4095 },
	{ "LSF_LOGDIR", BS_CT_STRING, .offset = L(lsf_logdir), 0, 4095 },
	{ "LSF_LOG_MASK", BS_CT_CUSTOM, .offset = L(log_mask), .def = "LOG_WARNING", .parse = parse_log_mask },
	{ "LSF_CLUSTER_NAME", BS_CT_STRING, .offset = L(lsf_cluster_name), 0, 255 },
	{ "LSB_SHAREDIR", BS_CT_STRING, .offset = L(lsb_sharedir), 0, 4095 },
	{ "LSF_SERVERDIR", BS_CT_STRING, .offset = L(lsf_serverdir), 0, 4095 },
	{ "LSB_MBD_PORT", BS_CT_INT, .offset = L(mbd_port), 0, 65535, .def = "6881" },
	{ "LSB_SBD_PORT", BS_CT_INT, .offset = L(sbd_port), 0, 65535, .def = "6882" },
	/* What one client may cost mbatchd (lsf.conf(5)); read at start. */
	{ "LSB_MBD_MAX_CONNS", BS_CT_INT, .offset = L(mbd_max_conns), 16, 1000000, .def = "-1" },
	{ "LSB_MBD_MAX_CONNS_PER_USER", BS_CT_INT, .offset = L(mbd_max_conns_per_user), 0, 1000000,
	    .def = "256" },
	{ "LSB_MBD_CLIENT_IDLE_TIMEOUT", BS_CT_INT, .offset = L(mbd_client_idle_timeout), 0, 86400,
	    .def = "60" },
	{ "LSB_MBD_MAX_QUEUED_OUTPUT", BS_CT_INT, .offset = L(mbd_max_queued_output), 0, 1048576,
	    .def = "256" },
	{ "LSF_UNIT_FOR_LIMITS", BS_CT_CUSTOM, .offset = L(unit_for_limits), .def = "KB",
	    .parse = parse_mem_unit },
	{ NULL },
};

void
bs_conf_lsf_free(BsLsfConf *lsf)
{
	if (lsf == NULL)
		return;
	bs_conf_schema_clear(lsf_table, lsf);
	g_free(lsf->path);
	if (lsf->values != NULL)
		g_hash_table_unref(lsf->values);
	g_free(lsf);
}

static char *
unquote_any(const char *v)
{
	gsize n = strlen(v);

	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0])
		return g_strndup(v + 1, n - 2);
	return g_strdup(v);
}

static void
relative_to(const char *envdir, char **path)
{
	char *abs;

	if (*path == NULL || g_path_is_absolute(*path))
		return;
	abs = g_canonicalize_filename(*path, envdir);
	g_free(*path);
	*path = abs;
}

BsLsfConf *
bs_conf_lsf_load(const char *envdir, gint64 now, BsDiags *d)
{
	BsLsfConf *lsf = g_new0(BsLsfConf, 1);
	BsConfCtx ctx = { d, "lsf.conf", now };
	g_autoptr(BsLexFile) f = NULL;
	gboolean missing = FALSE;

	bs_conf_schema_init(lsf_table, lsf);
	lsf->values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	lsf->path = g_build_filename(envdir, "lsf.conf", NULL);
	f = bs_conf_read(lsf->path, "lsf.conf", BS_LEX_FLAT, now, d, &missing);
	if (missing)
		ctx_error(&ctx, 0, "cannot read %s: no such file", lsf->path);
	for (guint i = 0; f != NULL && i < f->sections->len; i++) {
		const BsLexSection *s = f->sections->pdata[i];

		for (guint j = 0; j < s->pairs->len; j++) {
			const BsLexPair *pr = s->pairs->pdata[j];
			g_autofree char *v = unquote_any(pr->value);

			bs_conf_set_pair(&ctx, lsf_table, lsf, pr->key, v, pr->line);
			g_hash_table_replace(lsf->values, g_strdup(pr->key), g_steal_pointer(&v));
		}
	}
	if (lsf->lsf_confdir == NULL)
		lsf->lsf_confdir = g_strdup(envdir);
	if (lsf->lsb_confdir == NULL)
		lsf->lsb_confdir = g_strdup(envdir);
	/* Basalt extension: a relative directory is relative to LSF_ENVDIR,
	 * so a configuration directory can be copied anywhere and run. */
	relative_to(envdir, &lsf->lsf_confdir);
	relative_to(envdir, &lsf->lsb_confdir);
	relative_to(envdir, &lsf->lsf_logdir);
	relative_to(envdir, &lsf->lsb_sharedir);
	relative_to(envdir, &lsf->lsf_serverdir);
	return lsf;
}
