// SPDX-License-Identifier: Apache-2.0
//------------------------------------------------------------------------------
// tests/test_metric_list.c: the metric list is the one list of metrics
//------------------------------------------------------------------------------

// metrics/gxd_metric_list.h declares every metric once; the library's ids,
// tables, dispatch and predefined semirings are expanded from it (and
// gxbdist.h is checked against it when the library compiles).  What cannot
// be expanded from it is checked here: the oracle keeps its own list of
// names (it shares no code with the backends), and docs/metrics.md's
// definitions table is written by hand.  Each must hold exactly the
// metrics of the list, so that a metric added to one and not the other
// fails here rather than drifting.

#include "test_common.h"
#include "gxd_metric_list.h"

#define NAME_OF(U, NAME, ...) #NAME,
static const char *list_names [ ] = { GXD_METRICS (NAME_OF, ~) } ;
#define NLIST ((int) (sizeof (list_names) / sizeof (list_names [0])))

static bool in_list (const char *name)
{
    for (int q = 0 ; q < NLIST ; q++)
        if (strcmp (list_names [q], name) == 0) return true ;
    return false ;
}

static void the_oracle_knows_exactly_the_metrics_of_the_list (void **state)
{
    GXT_START ( ) ;
    int n = 0 ;
    for (const char *name ; (name = GXO_metric_name (n)) != NULL ; n++)
    {
        if (!in_list (name)) GXT_FAIL ("the oracle has %s, the list does not", name) ;
    }
    for (int q = 0 ; q < NLIST ; q++)
    {
        bool found = false ;
        for (int r = 0 ; r < n ; r++)
            found = found || strcmp (GXO_metric_name (r), list_names [q]) == 0 ;
        if (!found) GXT_FAIL ("the list has %s, the oracle does not", list_names [q]) ;
    }
    assert_int_equal (n, NLIST) ;
}

static void the_tests_cover_every_predefined_metric_of_the_list (void **state)
{
    GXT_START ( ) ;
    // gxt_metrics is expanded from the list: its predefined part is the
    // list's rows with a semiring, in order (random_api_ref.c relies on it)
    int q = 0 ;
    for (int i = 0 ; i < gxt_npredefined ; i++)
    {
        while (q < NLIST && strcmp (list_names [q], gxt_metrics [i].name) != 0) q++ ;
        if (q == NLIST) GXT_FAIL ("gxt_metrics [%d] = %s out of the list's order", i, gxt_metrics [i].name) ;
        assert_non_null (*gxt_metrics [i].fp32) ;
        assert_non_null (*gxt_metrics [i].fp64) ;
    }
    // only Minkowski (made from its p) has no predefined semiring
    assert_int_equal (gxt_npredefined, NLIST - 1) ;
}

// the first cell of each row of docs/metrics.md's "## Definitions" table,
// without a parameter ("MINKOWSKI (p)" is MINKOWSKI)
static int docs_names (char names [ ][64], int max)
{
    FILE *f = fopen (GXD_DOCS_DIR "/metrics.md", "r") ;
    if (f == NULL) GXT_FAIL ("cannot open %s", GXD_DOCS_DIR "/metrics.md") ;
    char line [4096] ;
    bool in_section = false, in_table = false ;
    int n = 0 ;
    while (fgets (line, sizeof (line), f) != NULL)
    {
        if (strncmp (line, "## ", 3) == 0) in_section = (strncmp (line, "## Definitions", 14) == 0) ;
        if (!in_section) continue ;
        bool row = (line [0] == '|') ;
        if (in_table && !row) break ;
        in_table = row ;
        // skip the header and the |---| rule
        if (!row || strncmp (line, "| NAME", 6) == 0 || strncmp (line, "|---", 4) == 0) continue ;
        if (n == max) GXT_FAIL ("more than %d rows in docs/metrics.md's definitions", max) ;
        int len = (int) strcspn (line + 2, " |") ;
        if (len >= 64) len = 63 ;
        memcpy (names [n], line + 2, len) ;
        names [n][len] = '\0' ;
        n++ ;
    }
    fclose (f) ;
    return n ;
}

static void docs_metrics_md_defines_exactly_the_metrics_of_the_list (void **state)
{
    GXT_START ( ) ;
    char names [64][64] ;
    int n = docs_names (names, 64) ;
    for (int r = 0 ; r < n ; r++)
    {
        if (!in_list (names [r])) GXT_FAIL ("docs/metrics.md defines %s, the list does not", names [r]) ;
    }
    for (int q = 0 ; q < NLIST ; q++)
    {
        bool found = false ;
        for (int r = 0 ; r < n ; r++) found = found || strcmp (names [r], list_names [q]) == 0 ;
        if (!found) GXT_FAIL ("the list has %s, docs/metrics.md's definitions do not", list_names [q]) ;
    }
    assert_int_equal (n, NLIST) ;
}

int main (void)
{
    const struct CMUnitTest tests [ ] =
    {
        cmocka_unit_test (the_oracle_knows_exactly_the_metrics_of_the_list),
        cmocka_unit_test (the_tests_cover_every_predefined_metric_of_the_list),
        cmocka_unit_test (docs_metrics_md_defines_exactly_the_metrics_of_the_list),
    } ;
    return gxt_main ("metric_list", tests, sizeof (tests) / sizeof (tests [0])) ;
}
