/* Helpers for the lib/conf suites: temporary config directories built from
 * tests/unit/conf-data (found through $top_srcdir, so VPATH builds and
 * distcheck work). */
#ifndef BS_TEST_CONF_H
#define BS_TEST_CONF_H

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "conf/conf.h"

static inline char *
conf_data(const char *sub)
{
	const char *top = g_getenv("top_srcdir");

	return g_build_filename(top != NULL ? top : "..", "tests", "unit", "conf-data", sub, NULL);
}

static inline void
copy_file(const char *from, const char *to)
{
	g_autofree char *text = NULL;
	gsize len;

	g_assert_true(g_file_get_contents(from, &text, &len, NULL));
	g_assert_true(g_file_set_contents(to, text, (gssize)len, NULL));
}

/* Copy the good config's files named in `only` (NULL = all) into a new
 * temporary directory. */
static inline char *
conf_tmpdir(const char *const *only)
{
	g_autofree char *good = conf_data("good");
	char *dir = g_dir_make_tmp("bsconf-XXXXXX", NULL);
	GDir *d = g_dir_open(good, 0, NULL);
	const char *name;

	while ((name = g_dir_read_name(d)) != NULL) {
		g_autofree char *from = g_build_filename(good, name, NULL);
		g_autofree char *to = g_build_filename(dir, name, NULL);

		if (only == NULL || g_strv_contains(only, name))
			copy_file(from, to);
	}
	g_dir_close(d);
	return dir;
}

static inline void
conf_write(const char *dir, const char *name, const char *text)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);

	if (text == NULL)
		g_unlink(path);
	else
		g_assert_true(g_file_set_contents(path, text, -1, NULL));
}

/* Remove a temporary directory tree (two levels are enough here). */
static inline void
conf_rmtree(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		g_autofree char *p = g_build_filename(dir, name, NULL);

		if (g_file_test(p, G_FILE_TEST_IS_DIR))
			conf_rmtree(p);
		else
			g_unlink(p);
	}
	if (d != NULL)
		g_dir_close(d);
	g_rmdir(dir);
}

/* Load `dir`; the diagnostics text goes to *diags. */
static inline BsConfig *
conf_load_dir(const char *dir, char **diags)
{
	BsDiags *d = bs_diags_new();
	BsConfig *cfg = bs_config_load(dir, 0, d);

	*diags = bs_diags_to_string(d);
	bs_diags_free(d);
	return cfg;
}

#endif
