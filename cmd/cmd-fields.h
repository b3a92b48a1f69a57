/*
 * The -o "field[:[-]width[:unit]] ... [delimiter='c']" language that LSF
 * shares between bjobs, bqueues and bhosts, and the custom and -json
 * output built from it.  Each command keeps its own table of fields and
 * hands the parser a lookup; the widths, the delimiter, the cutting of
 * cells and the JSON quoting are the same for all of them, so they live
 * here once (cmd-fields.c).
 */
#ifndef BS_CMD_FIELDS_H
#define BS_CMD_FIELDS_H

#include <glib.h>

#include "cmd-util.h"

/* What the parser needs to know of a command's field. */
typedef struct {
	const void *def;       /* the command's own definition */
	guint width;           /* its recommended width, for "field:" */
	gboolean has_kb;       /* a memory field: "field:width:unit" allowed */
} CmdFieldRef;

/* Finds a field by name or alias (case-insensitive); FALSE if unknown. */
typedef gboolean (*CmdFieldFind)(const char *name, CmdFieldRef *ref);

typedef struct {
	const void *def;
	guint width;           /* 0: the value's own length */
	gboolean right;        /* "field:-N" */
	int unit;              /* memory unit as a power of 1024 over KB, -1 none */
} CmdField;

typedef struct {
	GArray *fields;        /* of CmdField */
	char *delimiter;
} CmdFields;

/*
 * prog names the command in the error ("bqueues: Invalid field name or
 * format in -o: x").  expand, when not NULL, is called for the word "all"
 * and returns the spec it stands for (LSF's "all" of bqueues/bhosts).
 */
CmdFields *cmd_fields_parse(const char *prog, const char *spec,
			    CmdFieldFind find, const char *all_spec,
			    GError **error);
void cmd_fields_free(CmdFields *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CmdFields, cmd_fields_free)

/* One cell of custom output: padded or cut to the field's width; the
 * last column is not padded.  Headers are cut with CMD_FIT_CUT. */
void cmd_fields_cell(GString *out, const CmdField *fld, const char *text,
		     CmdFit fit, gboolean last);
/* A size in KB shown in a unit ("12.50 MB"), for "field:width:unit". */
void cmd_fields_mem(GString *v, int unit, guint64 kb);
/* s as a JSON string, quotes included. */
void cmd_json_string(GString *out, const char *s);

/*
 * A plain field table, for commands whose fields need nothing but their
 * record (bqueues, bhosts): get appends the value, FALSE when there is
 * none ("-" in custom output, "" in JSON).
 */
typedef struct {
	const char *names;     /* blank-separated: name then aliases */
	const char *header;    /* column header and JSON key */
	guint width;           /* LSF's recommended width */
	gboolean (*get)(GString *v, const void *rec);
} CmdFieldDef;

/* Writers for a CmdFieldDef's get, shared by the commands' tables: a
 * string (none when empty), a number, and a limit (none when negative,
 * so custom output shows "-"). */
gboolean cmd_field_str(GString *v, const char *s);
gboolean cmd_field_int(GString *v, gint64 n);
gboolean cmd_field_limit(GString *v, gint64 n);

/* The entry of table[0..n) named name (or by an alias), or NULL. */
const CmdFieldDef *cmd_field_def_find(const CmdFieldDef *table, gsize n,
				      const char *name);
/* A CmdFieldFind over a plain table: *ref for that entry at its width
 * (no memory unit); FALSE when table[0..n) has no such field. */
gboolean cmd_field_def_ref(const CmdFieldDef *table, gsize n,
			   const char *name, CmdFieldRef *ref);
/* Custom output of records over CmdFieldDef fields, header unless
 * noheader. */
void cmd_fields_print(GString *out, const CmdFields *f, gboolean noheader,
		      const void *const *recs, gsize n);
/* LSF's -json document: {"COMMAND":command, count_key:n, "RECORDS":[...]}. */
void cmd_fields_json(GString *out, const CmdFields *f, const char *command,
		     const char *count_key, const void *const *recs, gsize n);

#endif
