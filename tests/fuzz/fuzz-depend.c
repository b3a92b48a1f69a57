/*
 * libFuzzer target for lib/job/depend: any input must parse or fail
 * cleanly; what parses must print to a canonical form that parses back to
 * itself, and must evaluate against jobs whose state depends on the
 * reference.  Not built by make; by hand:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -Ilib \
 *     tests/fuzz/fuzz-depend.c lib/job/depend.c lib/util/error.c \
 *     $(pkg-config --cflags --libs glib-2.0) -o fuzz-depend
 *
 * (-I. must reach a config.h: run from a configured tree, or add
 * -I<builddir>.)
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "job/depend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Zero to three jobs, their states derived from the reference. */
static void
lookup(const BsDependRef *ref, GArray *jobs, void *data)
{
	guint64 h = ref->job_id + ref->index + (ref->name ? strlen(ref->name) : 0);

	for (guint64 i = 0; i < h % 4; i++) {
		BsDependJob j = {
			(BsDependJobState)((h + i) % 6), (int)((h * 7 + i) % 256),
			(BsDependPost)((h + i) % 3),
		};

		g_array_append_val(jobs, j);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = g_strndup((const char *)data, size);
	GError *err = NULL;
	BsDepend *d = bs_depend_parse(text, &err), *again;
	GPtrArray *refs;
	char *s, *s2;

	if (d == NULL) {
		if (err == NULL)
			abort();
		g_error_free(err);
		g_free(text);
		return 0;
	}
	(void)bs_depend_eval(d, lookup, NULL);
	(void)bs_depend_check_refs(d, lookup, NULL, NULL);
	refs = bs_depend_collect_refs(d);
	if (refs->len == 0)
		abort();
	g_ptr_array_free(refs, TRUE);
	s = bs_depend_to_string(d);
	if (strlen(s) <= BS_DEPEND_MAX_LEN) {
		again = bs_depend_parse(s, &err);
		if (again == NULL)
			abort();
		s2 = bs_depend_to_string(again);
		if (strcmp(s, s2) != 0)
			abort();
		g_free(s2);
		bs_depend_free(again);
	}
	g_free(s);
	bs_depend_free(d);
	g_free(text);
	return 0;
}
