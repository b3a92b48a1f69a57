/* lib/conf: the lexer (continuations, tables, #if time blocks, balance
 * checks) and time windows, fed from strings. */
#include "config.h"

#include <string.h>

#include "tap.h"
#include "conf/conf_time.h"
#include "conf/lsf_lex.h"

/* Lex `text` as file "t"; returns the file and leaves diagnostics in *out. */
static BsLexFile *
lex(const char *text, gint64 now, char **out)
{
	BsDiags *d = bs_diags_new();
	BsLexFile *f = bs_lex_text("t", text, strlen(text), BS_LEX_SECTIONS, now, d);

	bs_diags_sort_from(d, 0, NULL);
	*out = bs_diags_to_string(d);
	bs_diags_free(d);
	return f;
}

static char *
lex_errors(const char *text)
{
	char *out;

	bs_lex_file_free(lex(text, 0, &out));
	return out;
}

static const BsLexPair *
pair(const BsLexFile *f, guint sec, guint i)
{
	return ((BsLexSection *)f->sections->pdata[sec])->pairs->pdata[i];
}

START_TEST(test_continuation_lines)
{
	g_autofree char *err = NULL;
	g_autoptr(BsLexFile) f = lex("# head\n"
	    "Begin Queue\n"
	    "QUEUE_NAME = q1   # comment\n"
	    "DESCRIPTION = one \\\n"
	    "   two \\\n"
	    "   three\n"
	    "PRIORITY = 3\n"
	    "End Queue\n", 0, &err);

	ck_assert_str_eq(err, "");
	ck_assert_uint_eq(f->sections->len, 1);
	ck_assert_str_eq(pair(f, 0, 0)->value, "q1");
	ck_assert_int_eq(pair(f, 0, 1)->line, 4);
	ck_assert_str_eq(pair(f, 0, 1)->value, "one two three");
	ck_assert_str_eq(pair(f, 0, 2)->key, "PRIORITY");
	ck_assert_int_eq(pair(f, 0, 2)->line, 7);
}
END_TEST

START_TEST(test_table_cells)
{
	g_autofree char *err = NULL;
	g_autoptr(BsLexFile) f = lex("Begin UserGroup\r\n"
	    "GROUP_NAME GROUP_MEMBER USER_SHARES\r\n"
	    "groupB (user4 user5) ([user4, 2] [user5, 4])\r\n"
	    "groupQ \"a b\" ()   # trailing comment\r\n"
	    "groupD -  select[a && b]\r\n"
	    "End UserGroup\r\n", 0, &err);
	const BsLexSection *s;
	const BsLexRow *r;

	ck_assert_str_eq(err, "");
	s = f->sections->pdata[0];
	ck_assert(s->table);
	ck_assert_uint_eq(s->columns->len, 3);
	ck_assert_int_eq(bs_lex_column(s, "user_shares"), 2);
	ck_assert_uint_eq(s->rows->len, 3);
	r = s->rows->pdata[0];
	ck_assert_int_eq(r->line, 3);
	ck_assert_int_eq(((BsLexCell *)r->cells->pdata[1])->kind, BS_CELL_GROUP);
	ck_assert_str_eq(((BsLexCell *)r->cells->pdata[1])->text, "user4 user5");
	ck_assert_str_eq(((BsLexCell *)r->cells->pdata[2])->text, "[user4, 2] [user5, 4]");
	r = s->rows->pdata[1];
	ck_assert_int_eq(((BsLexCell *)r->cells->pdata[1])->kind, BS_CELL_QUOTED);
	ck_assert_str_eq(((BsLexCell *)r->cells->pdata[1])->text, "a b");
	ck_assert(bs_lex_cell_is_default(r->cells->pdata[2]));
	r = s->rows->pdata[2];
	ck_assert(bs_lex_cell_is_default(r->cells->pdata[1]));
	ck_assert_str_eq(((BsLexCell *)r->cells->pdata[2])->text, "select[a && b]");
}
END_TEST

START_TEST(test_row_column_count)
{
	g_autofree char *err = lex_errors("Begin Host\n"
	    "HOST_NAME MXJ JL/U\n"
	    "hostA 1 2 3\n"
	    "hostB 1\n"
	    "hostC (1 2\n"
	    "End Host\n");

	ck_assert_str_eq(err,
	    "t:3: row has 4 values but the Host header at line 2 has 3 columns\n"
	    "t:4: row has 2 values but the Host header at line 2 has 3 columns\n"
	    "t:5: unbalanced quotes, parentheses or brackets in row\n");
}
END_TEST

START_TEST(test_balance_errors)
{
	g_autofree char *e1 = lex_errors("\nBegin Queue\nQUEUE_NAME = a\n");
	g_autofree char *e2 = lex_errors("Begin Queue\nQUEUE_NAME = a\nEnd Host\n");
	g_autofree char *e3 = lex_errors("Begin Queue\nQUEUE_NAME = a\nBegin Queue\nQUEUE_NAME = b\n"
	    "End Queue\n");
	g_autofree char *e4 = lex_errors("PRIORITY = 3\nEnd Queue\nbegin queue\nEND QUEUE\n");
	g_autofree char *e5 = lex_errors("Begin\n");

	ck_assert_str_eq(e1, "t:2: Begin Queue without End Queue\n");
	ck_assert_str_eq(e2, "t:3: End Host does not match Begin Queue at line 1\n");
	ck_assert_str_eq(e3, "t:3: Begin Queue inside section Queue begun at line 1 "
	    "(missing End Queue?)\n");
	ck_assert_str_eq(e4, "t:1: text outside a section: PRIORITY = 3\n"
	    "t:2: End Queue without Begin Queue\n");
	ck_assert_str_eq(e5, "t:1: Begin without a section name\n");
}
END_TEST

START_TEST(test_duplicate_key)
{
	g_autofree char *err = lex_errors("Begin Queue\nQUEUE_NAME = a\nPRIORITY = 1\n"
	    "priority = 2\nEnd Queue\n");

	ck_assert_str_eq(err, "t:4: duplicate priority (first set at line 3)\n");
}
END_TEST

START_TEST(test_horizontal_syntax)
{
	g_autofree char *err = lex_errors("Begin Queue\nQUEUE_NAME a\nEnd Queue\n"
	    "Begin Parameters\nA = 1\nB 2\nEnd Parameters\n");

	ck_assert_str_eq(err, "t:2: expected KEY = value in section Queue\n"
	    "t:6: expected KEY = value in section Parameters\n");
}
END_TEST

static gint64
local_time(int day, int hour, int minute)
{
	/* 2024-01-07 is a Sunday: day 0 in LSF's numbering. */
	g_autoptr(GDateTime) t = g_date_time_new_local(2024, 1, 7 + day, hour, minute, 0);

	return g_date_time_to_unix(t);
}

static const char *time_text =
    "Begin Parameters\n"
    "#if time(8:00-18:00)\n"
    "MBD_SLEEP_TIME = 10\n"
    "#elif time(18:00-20:00)\n"
    "MBD_SLEEP_TIME = 20\n"
    "#else\n"
    "MBD_SLEEP_TIME = 30\n"
    "#endif\n"
    "  #if time(0:9:00-0:10:00)\n"
    "SUNDAY = Y\n"
    "  #endif\n"
    "End Parameters\n";

static char *
time_value(gint64 now, guint *npairs)
{
	g_autofree char *err = NULL;
	g_autoptr(BsLexFile) f = lex(time_text, now, &err);

	ck_assert_str_eq(err, "");
	*npairs = ((BsLexSection *)f->sections->pdata[0])->pairs->len;
	return g_strdup(pair(f, 0, 0)->value);
}

START_TEST(test_if_time)
{
	guint n;
	g_autofree char *day = time_value(local_time(3, 9, 0), &n);
	g_autofree char *evening = time_value(local_time(3, 19, 30), &n);
	g_autofree char *night = time_value(local_time(3, 23, 0), &n);
	g_autofree char *sunday = time_value(local_time(0, 9, 30), &n);

	ck_assert_str_eq(day, "10");
	ck_assert_str_eq(evening, "20");
	ck_assert_str_eq(night, "30");
	ck_assert_str_eq(sunday, "10");
	ck_assert_uint_eq(n, 2);
}
END_TEST

START_TEST(test_if_errors)
{
	g_autofree char *e1 = lex_errors("#endif\n#else\n#if time(8:00-18:00)\n");
	g_autofree char *e2 = lex_errors("#if time(25:00-18:00)\n#endif\n#if time(8-9)\n#else\n"
	    "#elif time(1-2)\n#endif\n");
	g_autofree char *e3 = lex_errors("#if day(1)\n#endif\n");

	ck_assert_str_eq(e1, "t:1: #endif without #if\nt:2: #else without #if\n"
	    "t:3: #if without #endif\n");
	ck_assert_str_eq(e2, "t:1: bad #if expression: hour '25' is not 0-23\n"
	    "t:5: #elif after #else (the #if is at line 3)\n");
	ck_assert_str_eq(e3, "t:1: bad #if expression: 'day(1)' is not time(window ...)\n");
}
END_TEST

START_TEST(test_limits)
{
	GString *text = g_string_new("Begin Queue\nQUEUE_NAME = ");
	g_autofree char *err = NULL;

	g_string_append_c_inline(text, 'x');
	for (int i = 0; i < BS_LEX_MAX_LINE; i++)
		g_string_append_c(text, 'y');
	g_string_append(text, "\nEnd Queue\n");
	err = lex_errors(text->str);
	ck_assert_str_eq(err, "t:2: line longer than 4096 characters\n");
	g_string_free(text, TRUE);
}
END_TEST

START_TEST(test_windows)
{
	g_autoptr(GArray) w = NULL;
	g_autoptr(GString) why = g_string_new(NULL);
	g_autofree char *s = NULL;
	g_autoptr(GDateTime) fri_night = g_date_time_new_local(2024, 1, 12, 23, 0, 0);
	g_autoptr(GDateTime) mon_noon = g_date_time_new_local(2024, 1, 8, 12, 0, 0);
	g_autoptr(GDateTime) tue_noon = g_date_time_new_local(2024, 1, 9, 12, 0, 0);

	ck_assert(bs_conf_windows_parse("5:19:00-1:8:30  20:00-8:30", &w, why));
	s = bs_conf_windows_format(w);
	ck_assert_str_eq(s, "5:19:00-1:8:30 20:00-8:30");
	ck_assert(bs_conf_windows_open(w, fri_night));
	ck_assert(bs_conf_windows_open(w, mon_noon) == FALSE);
	g_array_unref(g_steal_pointer(&w));
	ck_assert(bs_conf_windows_parse("1:8-2:8", &w, why));	/* hour:minute, 1:08-2:08 */
	ck_assert(bs_conf_windows_open(w, tue_noon) == FALSE);
	ck_assert(!bs_conf_windows_parse("7:8:00-1:9:00", NULL, why));
	ck_assert_str_eq(why->str, "day '7' is not 0-6");
	g_string_truncate(why, 0);
	ck_assert(!bs_conf_windows_parse("1:8:00-9:00", NULL, why));
	ck_assert_str_eq(why->str, "'1:8:00-9:00': give a day on both ends of the window or on neither");
	g_string_truncate(why, 0);
	ck_assert(!bs_conf_windows_parse("8:60-9", NULL, why));
	ck_assert_str_eq(why->str, "minute '60' is not 0-59");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("conf_lex");
	TCase *tc = tcase_create("lex");

	tcase_add_test(tc, test_continuation_lines);
	tcase_add_test(tc, test_table_cells);
	tcase_add_test(tc, test_row_column_count);
	tcase_add_test(tc, test_balance_errors);
	tcase_add_test(tc, test_duplicate_key);
	tcase_add_test(tc, test_horizontal_syntax);
	tcase_add_test(tc, test_if_time);
	tcase_add_test(tc, test_if_errors);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_windows);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
