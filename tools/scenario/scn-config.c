/*
 * A scenario's configuration: the LSF sections written in the file
 * (Begin Queue ... End Queue and the like) are copied verbatim into a
 * temporary configuration directory, with an lsf.conf, lsf.shared and
 * lsf.cluster file generated from the scenario's `host` lines, and read by
 * bs_config_load() like any cluster's.  So a scenario is checked by the
 * very readers mbatchd uses, and an error in a section is reported at its
 * line in the scenario file (each written line remembers where it came
 * from).
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "tools/scenario/scn-internal.h"

/* LSF section name -> the file that holds it.  lsf.cluster's own Host
 * section is generated, so a Host section is lsb.hosts'. */
static const struct {
	const char *section;
	const char *file;
} section_files[] = {
	{ "Queue", "lsb.queues" },
	{ "Host", "lsb.hosts" },
	{ "HostGroup", "lsb.hosts" },
	{ "User", "lsb.users" },
	{ "Users", "lsb.users" },
	{ "UserGroup", "lsb.users" },
	{ "Parameters", "lsb.params" },
	{ "Application", "lsb.applications" },
	{ "Limit", "lsb.resources" },
	{ "ResourceGroup", "lsb.consumers" },
	{ "Consumer", "lsb.consumers" },
	{ "Plan", "lsb.consumers" },
	{ "HostExport", "lsb.resources" },
};

const char *
scn_section_file(const char *section)
{
	for (guint i = 0; i < G_N_ELEMENTS(section_files); i++)
		if (g_ascii_strcasecmp(section_files[i].section, section) == 0)
			return section_files[i].file;
	return NULL;
}

ScnFile *
scn_file_get(ScnParse *p, const char *name)
{
	ScnFile *f = g_hash_table_lookup(p->files, name);

	if (f == NULL) {
		f = g_new0(ScnFile, 1);
		f->name = g_strdup(name);
		f->text = g_string_new(NULL);
		f->lines = g_array_new(FALSE, FALSE, sizeof(int));
		g_hash_table_insert(p->files, f->name, f);
	}
	return f;
}

void
scn_file_add(ScnFile *f, const char *text, int line)
{
	g_string_append(f->text, text);
	g_string_append_c(f->text, '\n');
	g_array_append_val(f->lines, line);
}

void
scn_file_free(gpointer data)
{
	ScnFile *f = data;

	g_free(f->name);
	g_string_free(f->text, TRUE);
	g_array_free(f->lines, TRUE);
	g_free(f);
}

/* lsf.conf, lsf.shared and the cluster's Host table; lsf.conf gets the
 * directory lines once it is known where the files go. */
static void
generate(ScnParse *p)
{
	ScnFile *f = scn_file_get(p, "lsf.conf");

	scn_file_add(f, "# written by bscenario", 0);
	scn_file_add(f, "LSF_CLUSTER_NAME=scenario", 0);
	f = scn_file_get(p, "lsf.shared");
	scn_file_add(f, "Begin Cluster", 0);
	scn_file_add(f, "ClusterName", 0);
	scn_file_add(f, "scenario", 0);
	for (guint i = 0; i < p->clusters->len; i++)
		scn_file_add(f, p->clusters->pdata[i], 0);
	scn_file_add(f, "End Cluster", 0);
	f = scn_file_get(p, "lsf.cluster.scenario");
	scn_file_add(f, "Begin Host", 0);
	scn_file_add(f, "HOSTNAME model type server", 0);
	for (guint i = 0; i < p->hosts->len; i++) {
		const ScnHostLine *h = g_ptr_array_index(p->hosts, i);
		g_autofree char *row = g_strdup_printf("%s ! ! 1", h->name);

		scn_file_add(f, row, h->line);
	}
	scn_file_add(f, "End Host", 0);
}

/* The scenario line of a diagnostic's file and line, or 0. */
static int
map_line(ScnParse *p, const BsDiag *d)
{
	g_autofree char *base = d->file != NULL ? g_path_get_basename(d->file) : NULL;
	ScnFile *f = base != NULL ? g_hash_table_lookup(p->files, base) : NULL;

	if (f == NULL || d->line <= 0 || (guint)d->line > f->lines->len)
		return 0;
	return g_array_index(f->lines, int, d->line - 1);
}

static void
report(ScnParse *p, const BsDiags *diags, GError **error)
{
	GString *msg = g_string_new(NULL);

	for (guint i = 0; i < diags->items->len; i++) {
		const BsDiag *d = g_ptr_array_index(diags->items, i);
		int line = map_line(p, d);

		if (msg->len > 0)
			g_string_append_c(msg, '\n');
		if (line > 0)
			g_string_append_printf(msg, "%s:%d: %s%s", p->path, line,
			    d->severity == BS_DIAG_WARNING ? "warning: " : "", d->message);
		else
			g_string_append_printf(msg, "%s: %s: %s%s", p->path,
			    d->file != NULL ? d->file : "configuration",
			    d->severity == BS_DIAG_WARNING ? "warning: " : "", d->message);
	}
	g_set_error(error, SCN_ERROR, 0, "%s", msg->str);
	g_string_free(msg, TRUE);
}

BsConfig *
scn_config_load(ScnParse *p, gint64 now, GError **error)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = g_dir_make_tmp("bscenario-XXXXXX", &err);
	g_autoptr(BsDiags) diags = bs_diags_new();
	BsConfig *cfg = NULL;
	GHashTableIter it;
	gpointer v;
	gboolean ok = TRUE;

	if (dir == NULL) {
		g_set_error(error, SCN_ERROR, 0, "%s: %s", p->path, err->message);
		return NULL;
	}
	generate(p);
	g_hash_table_iter_init(&it, p->files);
	while (ok && g_hash_table_iter_next(&it, NULL, &v)) {
		ScnFile *f = v;
		g_autofree char *path = g_build_filename(dir, f->name, NULL);

		ok = g_file_set_contents(path, f->text->str, (gssize)f->text->len, &err);
	}
	if (ok) {
		/* lsf.conf names the directories: the temporary one. */
		g_autofree char *path = g_build_filename(dir, "lsf.conf", NULL);
		ScnFile *f = scn_file_get(p, "lsf.conf");
		g_autofree char *text = g_strdup_printf("%sLSF_CONFDIR=%s\nLSB_CONFDIR=%s\n",
		    f->text->str, dir, dir);

		ok = g_file_set_contents(path, text, -1, &err);
	}
	if (ok)
		cfg = bs_config_load(dir, now, diags);
	g_hash_table_iter_init(&it, p->files);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		g_autofree char *path = g_build_filename(dir, ((ScnFile *)v)->name, NULL);

		g_unlink(path);
	}
	g_rmdir(dir);
	if (!ok) {
		g_set_error(error, SCN_ERROR, 0, "%s: %s", p->path, err->message);
		return NULL;
	}
	if (cfg == NULL)
		report(p, diags, error);
	return cfg;
}
