/*
 * mbatchd/sched/shape-memo.c: the per-shape memo placement keeps in a
 * pass.  A shape is found by all of its fields; a value is replaced, not
 * added twice; growing keeps every shape and its value; clearing forgets
 * them all, also once the table grew, and the set form keeps no value.
 */
#include "config.h"

#include <string.h>

#include "mbatchd/sched/shape-memo.h"
#include "tap.h"

static Shape
shape(guint i)
{
	Shape s;

	memset(&s, 0, sizeof s);
	s.queue = i % 7;
	s.user = i;
	s.min_slots = 1;
	return s;
}

START_TEST(test_lookup_insert_replace)
{
	ShapeMemo *m = shape_memo_new(sizeof(int));
	Shape a = shape(1), b = shape(1);
	int v = 10, *got;

	ck_assert_ptr_null(shape_memo_lookup(m, &a));
	shape_memo_insert(m, &a, &v);
	got = shape_memo_lookup(m, &a);
	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(*got, 10);
	/* Each field tells shapes apart. */
	b.run_limit = 60;
	ck_assert_ptr_null(shape_memo_lookup(m, &b));
	b = a;
	b.consumer = 2;
	ck_assert_ptr_null(shape_memo_lookup(m, &b));
	v = 20;
	shape_memo_insert(m, &a, &v);
	ck_assert_int_eq(*(int *)shape_memo_lookup(m, &a), 20);
	shape_memo_free(m);
}
END_TEST

START_TEST(test_grow_and_clear)
{
	ShapeMemo *m = shape_memo_new(sizeof(int));

	for (guint i = 0; i < 1000; i++) {
		Shape s = shape(i);
		int v = (int)i * 3;

		shape_memo_insert(m, &s, &v);
	}
	for (guint i = 0; i < 1000; i++) {
		Shape s = shape(i);
		int *got = shape_memo_lookup(m, &s);

		ck_assert_ptr_nonnull(got);
		ck_assert_int_eq(*got, (int)i * 3);
	}
	shape_memo_clear(m);
	for (guint i = 0; i < 1000; i++) {
		Shape s = shape(i);

		ck_assert_ptr_null(shape_memo_lookup(m, &s));
	}
	/* Kept again after a clear, in the slots the old ones held. */
	{
		Shape s = shape(5);
		int v = 7;

		shape_memo_insert(m, &s, &v);
		ck_assert_int_eq(*(int *)shape_memo_lookup(m, &s), 7);
		s = shape(6);
		ck_assert_ptr_null(shape_memo_lookup(m, &s));
	}
	shape_memo_free(m);
}
END_TEST

START_TEST(test_set)
{
	ShapeMemo *m = shape_memo_new(0);
	Shape a = shape(3), b = shape(4);

	shape_memo_insert(m, &a, NULL);
	shape_memo_insert(m, &a, NULL);
	ck_assert_ptr_nonnull(shape_memo_lookup(m, &a));
	ck_assert_ptr_null(shape_memo_lookup(m, &b));
	shape_memo_clear(m);
	ck_assert_ptr_null(shape_memo_lookup(m, &a));
	shape_memo_clear(NULL);
	shape_memo_free(m);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("shape-memo");
	TCase *tc = tcase_create("memo");

	tcase_add_test(tc, test_lookup_insert_replace);
	tcase_add_test(tc, test_grow_and_clear);
	tcase_add_test(tc, test_set);
	suite_add_tcase(s, tc);
	return bs_run_suite(s);
}
