/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-probe: the probe's cache. A stand-in bwrap (/bin/true, /bin/false)
 * answers, so these run anywhere; the real bwrap is exercised by the
 * integration tests. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe.h"

typedef struct
{
  char *dir;
} Fixture;

static int
setup (void **state)
{
  Fixture *f = g_new0 (Fixture, 1);

  f->dir = g_dir_make_tmp ("cordon-probe-XXXXXX", NULL);
  assert_non_null (f->dir);
  *state = f;
  return 0;
}

static int
teardown (void **state)
{
  Fixture *f = *state;
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f);
  return 0;
}

static CordonProbe *
probe (Fixture *f,
       const char *bwrap,
       gboolean refresh)
{
  CordonProbeRequest req = { bwrap, 0x3f, getuid (), f->dir, refresh, FALSE, 0, 0, NULL };
  g_autoptr(GError) error = NULL;
  CordonProbe *p = cordon_probe_run (&req, &error);

  assert_null (error);
  assert_non_null (p);
  return p;
}

static void
test_probe_answers_fresh_then_from_the_cache (void **state)
{
  g_autoptr(CordonProbe) first = probe (*state, "/bin/true", FALSE);
  g_autoptr(CordonProbe) second = probe (*state, "/bin/true", FALSE);

  assert_int_equal (first->result, CORDON_PROBE_OK);
  assert_false (first->cached);
  assert_int_equal (second->result, CORDON_PROBE_OK);
  assert_true (second->cached);
  assert_string_equal (first->cache_path, second->cache_path);
}

static void
test_probe_refresh_ignores_the_cache (void **state)
{
  g_autoptr(CordonProbe) first = probe (*state, "/bin/true", FALSE);
  g_autoptr(CordonProbe) again = probe (*state, "/bin/true", TRUE);

  assert_false (again->cached);
}

static void
test_probe_rewrites_a_corrupt_cache (void **state)
{
  g_autoptr(CordonProbe) first = probe (*state, "/bin/true", FALSE);
  g_autoptr(CordonProbe) second = NULL;
  g_autoptr(CordonProbe) third = NULL;

  assert_true (g_file_set_contents (first->cache_path, "garbage\n", -1, NULL));
  second = probe (*state, "/bin/true", FALSE);
  assert_false (second->cached);
  third = probe (*state, "/bin/true", FALSE);
  assert_true (third->cached);
}

static void
test_probe_ignores_a_cache_others_can_write (void **state)
{
  g_autoptr(CordonProbe) first = probe (*state, "/bin/true", FALSE);
  g_autoptr(CordonProbe) second = NULL;

  assert_int_equal (chmod (first->cache_path, 0666), 0);
  second = probe (*state, "/bin/true", FALSE);
  assert_false (second->cached);
}

static void
test_probe_ignores_a_cache_that_is_a_symlink (void **state)
{
  Fixture *f = *state;
  g_autoptr(CordonProbe) first = probe (f, "/bin/true", FALSE);
  g_autofree char *real = g_build_filename (f->dir, "elsewhere", NULL);
  g_autoptr(CordonProbe) second = NULL;

  assert_int_equal (g_rename (first->cache_path, real), 0);
  assert_int_equal (symlink (real, first->cache_path), 0);
  second = probe (f, "/bin/true", FALSE);
  assert_false (second->cached);
}

static void
test_probe_keys_the_cache_by_bwrap_binary (void **state)
{
  g_autoptr(CordonProbe) with_true = probe (*state, "/bin/true", FALSE);
  g_autoptr(CordonProbe) with_false = probe (*state, "/bin/false", FALSE);

  assert_string_not_equal (with_true->cache_path, with_false->cache_path);
  assert_false (with_false->cached);
}

static void
test_probe_classifies_a_bwrap_that_always_fails (void **state)
{
  g_autoptr(CordonProbe) p = probe (*state, "/bin/false", FALSE);

  /* /bin/false fails with and without /proc: not a masked /proc. */
  assert_int_not_equal (p->result, CORDON_PROBE_OK);
  assert_int_not_equal (p->result, CORDON_PROBE_PROC_MASKED);
  assert_non_null (p->detail);
}

static void
test_probe_does_not_cache_a_negative_answer (void **state)
{
  g_autoptr(CordonProbe) first = probe (*state, "/bin/false", FALSE);
  g_autoptr(CordonProbe) second = probe (*state, "/bin/false", FALSE);

  /* A failure may have been passing; it is asked again. */
  assert_false (second->cached);
  assert_false (g_file_test (first->cache_path, G_FILE_TEST_EXISTS));
}

static void
test_probe_does_not_trust_a_forged_negative_answer (void **state)
{
  g_autoptr(CordonProbe) first = probe (*state, "/bin/true", FALSE);
  g_autoptr(CordonProbe) second = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GString) forged = NULL;

  assert_true (g_file_get_contents (first->cache_path, &text, NULL, NULL));
  forged = g_string_new (text);
  g_string_replace (forged, "result=ok", "result=proc-masked", 1);
  assert_true (g_file_set_contents (first->cache_path, forged->str, -1, NULL));
  assert_int_equal (chmod (first->cache_path, 0600), 0);
  second = probe (*state, "/bin/true", FALSE);
  assert_false (second->cached);
  assert_int_equal (second->result, CORDON_PROBE_OK);
}

static void
test_probe_ignores_a_cache_directory_others_can_write (void **state)
{
  Fixture *f = *state;
  g_autoptr(CordonProbe) first = probe (f, "/bin/true", FALSE);
  g_autoptr(CordonProbe) second = NULL;

  assert_int_equal (chmod (f->dir, 0777), 0);
  second = probe (f, "/bin/true", FALSE);
  assert_false (second->cached);
  assert_int_equal (chmod (f->dir, 0700), 0);
}

static void
test_probe_cache_key_names_uid_and_namespaces (void **state)
{
  CordonProbeRequest a = { "/bin/true", 0x3f, 1000, NULL, FALSE, FALSE, 0, 0, NULL };
  CordonProbeRequest b = { "/bin/true", 0x3e, 1000, NULL, FALSE, FALSE, 0, 0, NULL };
  CordonProbeRequest c = { "/bin/true", 0x3f, 1001, NULL, FALSE, FALSE, 0, 0, NULL };
  g_autofree char *ka = cordon_probe_cache_key (&a, NULL);
  g_autofree char *kb = cordon_probe_cache_key (&b, NULL);
  g_autofree char *kc = cordon_probe_cache_key (&c, NULL);

  assert_non_null (strstr (ka, "boot="));
  assert_non_null (strstr (ka, "mntns="));
  assert_non_null (strstr (ka, "pidns="));
  assert_string_not_equal (ka, kb);
  assert_string_not_equal (ka, kc);
}

static void
test_probe_reports_a_missing_bwrap_as_an_error (void **state)
{
  Fixture *f = *state;
  CordonProbeRequest req = { "/nonexistent/bwrap", 0x3f, getuid (), f->dir, FALSE, FALSE, 0, 0, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonProbe) p = cordon_probe_run (&req, &error);

  assert_null (p);
  assert_non_null (error);
  assert_non_null (strstr (error->message, "/nonexistent/bwrap"));
}

static void
test_probe_default_cache_dir_prefers_xdg_runtime_dir (void **state)
{
  const char *both[] = { "XDG_RUNTIME_DIR=/run/user/7", "HOME=/home/u", NULL };
  const char *home[] = { "HOME=/home/u", NULL };
  const char *none[] = { "XDG_RUNTIME_DIR=relative", NULL };
  g_autofree char *a = cordon_probe_default_cache_dir (both);
  g_autofree char *b = cordon_probe_default_cache_dir (home);
  g_autofree char *c = cordon_probe_default_cache_dir (none);

  assert_string_equal (a, "/run/user/7/cordon");
  assert_string_equal (b, "/home/u/.cache/cordon");
  assert_null (c);
}

static void
test_probe_bwrap_args_hold_proc_only_when_asked (void **state)
{
  g_auto(GStrv) with = cordon_probe_bwrap_args (0x5, TRUE);
  g_auto(GStrv) without = cordon_probe_bwrap_args (0x5, FALSE);
  g_autofree char *w = g_strjoinv (" ", with);
  g_autofree char *wo = g_strjoinv (" ", without);

  assert_string_equal (w, "--unshare-user --unshare-pid --ro-bind / / --dev /dev --proc /proc");
  assert_string_equal (wo, "--unshare-user --unshare-pid --ro-bind / / --dev /dev");
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown (f, setup, teardown)
    T (test_probe_answers_fresh_then_from_the_cache),
    T (test_probe_refresh_ignores_the_cache),
    T (test_probe_rewrites_a_corrupt_cache),
    T (test_probe_ignores_a_cache_others_can_write),
    T (test_probe_ignores_a_cache_that_is_a_symlink),
    T (test_probe_keys_the_cache_by_bwrap_binary),
    T (test_probe_classifies_a_bwrap_that_always_fails),
    T (test_probe_does_not_cache_a_negative_answer),
    T (test_probe_does_not_trust_a_forged_negative_answer),
    T (test_probe_ignores_a_cache_directory_others_can_write),
    T (test_probe_cache_key_names_uid_and_namespaces),
    T (test_probe_reports_a_missing_bwrap_as_an_error),
    T (test_probe_default_cache_dir_prefers_xdg_runtime_dir),
    T (test_probe_bwrap_args_hold_proc_only_when_asked),
#undef T
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
