/*
 * Typed schema for LSF configuration sections (internal to lib/conf).
 *
 * Why not libconfuse (c-idioms.md 2c): fed LSF text it reports wrong line
 * numbers (look-ahead), keeps duplicate keys silently (last wins), accepts a
 * file with a missing `End`, and has no notion of LSF's column tables.  So a
 * dedicated lexer (lsf_lex.c) does the grammar, and this file does the
 * types: one table per section, {key, type, offset, range, keywords,
 * default, custom parser}, in the style of tmux's options_table and
 * systemd's ConfigTableItem.  Defaults are written as LSF text and parsed by
 * the same code as the file, so a table row says everything about a key.
 */
#ifndef BS_CONF_SCHEMA_H
#define BS_CONF_SCHEMA_H

#include <glib.h>

#include "conf/conf.h"
#include "conf/lsf_lex.h"

typedef enum {
	BS_CT_INT,          /* int, range min..max */
	BS_CT_FLOAT,        /* double, range min..max */
	BS_CT_BOOL,         /* gboolean: Y N YES NO (any case) */
	BS_CT_STRING,       /* char*; max = length limit (0 = none); "..." stripped */
	BS_CT_NAMES,        /* char** (GStrv), blank separated */
	BS_CT_ENUM,         /* int index into names */
	BS_CT_FLAGS,        /* guint, bit i = names[i]; blank separated */
	BS_CT_WINDOWS,      /* GArray* of BsTimeWindow */
	BS_CT_TIME_LIMIT,   /* BsLimit, [hours:]minutes[/spec] */
	BS_CT_SIZE_LIMIT,   /* BsLimit, KB */
	BS_CT_CUSTOM,       /* parse() and free_fn() */
} BsConfType;

typedef struct BsConfKey BsConfKey;
/* Parse `value` into the field; on failure leave the field alone, return
 * FALSE and append a reason to `why`. */
typedef gboolean (*BsConfParseFn)(const BsConfKey *k, const char *value,
    void *field, GString *why);

struct BsConfKey {
	const char *key;
	BsConfType type;
	gsize offset;
	double min, max;
	const char *const *names;
	const char *def;        /* LSF text of the default, NULL = zero/NULL */
	BsConfParseFn parse;
	void (*free_fn)(void *field);
	gboolean alias;         /* shares its field with an earlier key */
};

/* Where diagnostics go while one file is loaded. */
typedef struct {
	BsDiags *diags;
	const char *file;       /* name printed in diagnostics */
	gint64 now;
} BsConfCtx;

#define ctx_error(c, line, ...) bs_diag_error((c)->diags, (c)->file, (line), __VA_ARGS__)
#define ctx_warning(c, line, ...) bs_diag_warning((c)->diags, (c)->file, (line), __VA_ARGS__)

void bs_conf_schema_init(const BsConfKey *table, void *obj);
void bs_conf_schema_clear(const BsConfKey *table, void *obj);
const BsConfKey *bs_conf_schema_find(const BsConfKey *table, const char *key);
/*
 * The unit (a BsMemUnit) of a size limit written without one: the
 * configuration loader sets LSF_UNIT_FOR_LIMITS from lsf.conf before it
 * reads lsb.queues and lsb.applications, and KB again afterwards.
 */
void bs_conf_set_limit_unit(int unit);

gboolean bs_conf_schema_set(const BsConfKey *k, void *obj, const char *value, GString *why);

/* Set one KEY = value through the table, reporting a bad value as
 * `bad value 'v' for KEY: why`.  FALSE only when the key is unknown. */
gboolean bs_conf_set_pair(const BsConfCtx *ctx, const BsConfKey *table, void *obj,
    const char *key, const char *value, int line);
/* Same for a table cell; `-` and `()` keep the default. */
void bs_conf_set_cell(const BsConfCtx *ctx, const BsConfKey *k, void *obj,
    const BsLexCell *cell, int line);
/* Warn about columns not in `table` (or in `also`), once, at the header line. */
void bs_conf_check_columns(const BsConfCtx *ctx, const BsLexSection *s,
    const BsConfKey *table, const char *const *also);
void bs_conf_record_line(GHashTable **lines, const char *key, int line);

/* Value parsers shared by the loaders. */
gboolean bs_conf_parse_int(const char *s, double min, double max, int *out, GString *why);
gboolean bs_conf_parse_double(const char *s, double min, double max, double *out, GString *why);
gboolean bs_conf_parse_bool(const char *s, gboolean *out, GString *why);
/* conf_warning.c: JOB_WARNING_ACTION (char *) and
 * JOB_ACTION_WARNING_TIME (int seconds) of lsb.queues and lsb.applications. */
gboolean bs_conf_parse_warning_action(const BsConfKey *k, const char *value,
    void *field, GString *why);
gboolean bs_conf_parse_warning_time(const BsConfKey *k, const char *value,
    void *field, GString *why);
void bs_conf_free_string(void *field);
char **bs_conf_split_words(const char *s);
/* `[name, n] [name, n] ...` into BsShare*. */
gboolean bs_conf_parse_shares(const char *s, GPtrArray **out, GString *why);
void bs_conf_share_free(gpointer p);
/* `sched/stop`, `sched`, `/stop` for load index `index`. */
gboolean bs_conf_parse_threshold(const char *index, const char *s,
    BsLoadThreshold **out, GString *why);
void bs_conf_threshold_free(gpointer p);
gboolean bs_conf_is_load_index(const char *name);

/* `WORD[args] WORD WORD[args]`: name/arg pairs (arg NULL without brackets). */
typedef struct {
	char *name;
	char *arg;
} BsKwArg;
gboolean bs_conf_parse_kwargs(const char *s, GPtrArray **out, GString *why);

/* Report every cycle among groups whose members may name other groups
 * (`~` and a trailing `@` ignored), at the line of the group closing it:
 * `<what> cycle: a -> b -> a`.  `members` returns NULL for a non-group. */
typedef const char *const *(*BsGroupMembersFn)(gconstpointer data, const char *name, int *line);
void bs_conf_find_cycles(const BsConfCtx *ctx, const char *what, GPtrArray *names,
    BsGroupMembersFn members, gconstpointer data);

#endif
