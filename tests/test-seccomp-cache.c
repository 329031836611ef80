/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-seccomp-cache: the filters' cache, in a private directory of the
 * test's own: a filter read back is the very program libseccomp makes;
 * each input of the filter (kind, profile, allow=, deny=) is a file of
 * its own; and a copy is read only from a directory and a file that are
 * the caller's and nobody else's to write, not a symlink, whole and for
 * the same key: anything else is made again and replaced. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <linux/filter.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seccomp-cache.h"

typedef struct
{
  char *dir;
  CordonPlan *plan;
} Fixture;

static int
setup (void **state)
{
  Fixture *f = g_new0 (Fixture, 1);

  f->dir = g_dir_make_tmp ("test-seccomp-cache-XXXXXX", NULL);
  assert_non_null (f->dir);
  f->plan = cordon_plan_new ("test");
  f->plan->seccomp = CORDON_SECCOMP_DEFAULT;
  *state = f;
  return 0;
}

static int
teardown (void **state)
{
  Fixture *f = *state;
  g_autoptr(GDir) d = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  cordon_plan_free (f->plan);
  g_free (f);
  return 0;
}

static GBytes *
get (Fixture *f,
     CordonSeccompFilterKind kind,
     uid_t uid,
     gboolean *out_cached)
{
  g_autoptr(GError) error = NULL;
  GBytes *bpf = cordon_seccomp_cache_get (f->plan, kind, f->dir, uid, out_cached, &error);

  assert_non_null (bpf);
  assert_null (error);
  return bpf;
}

static char *
path_of (Fixture *f,
         CordonSeccompFilterKind kind)
{
  g_autofree char *name = cordon_seccomp_cache_name (f->plan, kind);

  return g_build_filename (f->dir, name, NULL);
}

/* The file of `kind`, its program replaced by one that lets every call
 * through: a filter planted under the right name and key. */
static void
plant (Fixture *f,
       CordonSeccompFilterKind kind,
       mode_t mode)
{
  g_autofree char *path = path_of (f, kind);
  g_autofree char *text = NULL;
  gsize len = 0;
  const struct sock_filter allow = BPF_STMT (BPF_RET | BPF_K, 0x7fff0000U);
  char *body;
  GString *planted;

  assert_true (g_file_get_contents (path, &text, &len, NULL));
  body = strchr (strchr (text, '\n') + 1, '\n') + 1;
  planted = g_string_new_len (text, body - text);
  g_string_append_len (planted, (const char *) &allow, sizeof allow);
  assert_true (g_file_set_contents (path, planted->str, (gssize) planted->len, NULL));
  assert_int_equal (chmod (path, mode), 0);
  g_string_free (planted, TRUE);
}

static void
test_seccomp_cache_gives_back_the_program_it_was_given (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) fresh = cordon_seccomp_bpf (f->plan, CORDON_SECCOMP_FILTER_LISTENED, &error);
  gboolean cached = TRUE;
  g_autoptr(GBytes) first = get (f, CORDON_SECCOMP_FILTER_LISTENED, getuid (), &cached);
  g_autoptr(GBytes) second = NULL;

  assert_false (cached);
  second = get (f, CORDON_SECCOMP_FILTER_LISTENED, getuid (), &cached);
  assert_true (cached);
  assert_true (g_bytes_equal (fresh, first));
  assert_true (g_bytes_equal (fresh, second));
}

static void
test_seccomp_cache_keeps_each_input_apart (void **state)
{
  Fixture *f = *state;
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint kind = 0; kind < CORDON_SECCOMP_FILTER_MAX; kind++)
    g_hash_table_add (names, cordon_seccomp_cache_name (f->plan, kind));
  f->plan->seccomp = CORDON_SECCOMP_STRICT;
  g_hash_table_add (names, cordon_seccomp_cache_name (f->plan, CORDON_SECCOMP_FILTER_ERRNO));
  g_ptr_array_add (f->plan->seccomp_allow, g_strdup ("ptrace"));
  g_hash_table_add (names, cordon_seccomp_cache_name (f->plan, CORDON_SECCOMP_FILTER_ERRNO));
  g_ptr_array_add (f->plan->seccomp_deny, g_strdup ("chroot"));
  g_hash_table_add (names, cordon_seccomp_cache_name (f->plan, CORDON_SECCOMP_FILTER_ERRNO));
  assert_int_equal (g_hash_table_size (names), CORDON_SECCOMP_FILTER_MAX + 3);
}

static void
test_seccomp_cache_reads_nothing_without_a_directory (void **state)
{
  Fixture *f = *state;
  g_autoptr(GError) error = NULL;
  gboolean cached = TRUE;
  g_autoptr(GBytes) bpf = cordon_seccomp_cache_get (f->plan, CORDON_SECCOMP_FILTER_ERRNO, NULL, getuid (),
                                                    &cached, &error);
  g_autoptr(GDir) d = g_dir_open (f->dir, 0, NULL);

  assert_non_null (bpf);
  assert_false (cached);
  assert_null (g_dir_read_name (d));
}

/* The control: a planted program in a trusted file is read (the run's
 * verification is what stops it, seccomp-cache.test). */
static void
test_seccomp_cache_reads_a_file_of_the_callers_own (void **state)
{
  Fixture *f = *state;
  g_autoptr(GBytes) made = get (f, CORDON_SECCOMP_FILTER_ERRNO, getuid (), NULL);
  g_autoptr(GBytes) read = NULL;
  gboolean cached = FALSE;

  plant (f, CORDON_SECCOMP_FILTER_ERRNO, 0600);
  read = get (f, CORDON_SECCOMP_FILTER_ERRNO, getuid (), &cached);
  assert_true (cached);
  assert_int_equal (g_bytes_get_size (read), sizeof (struct sock_filter));
}

static void
assert_made_again (Fixture *f,
                   uid_t uid)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) fresh = cordon_seccomp_bpf (f->plan, CORDON_SECCOMP_FILTER_ERRNO, &error);
  gboolean cached = TRUE;
  g_autoptr(GBytes) bpf = get (f, CORDON_SECCOMP_FILTER_ERRNO, uid, &cached);

  assert_false (cached);
  assert_true (g_bytes_equal (fresh, bpf));
}

static void
test_seccomp_cache_does_not_read_a_file_others_may_write (void **state)
{
  Fixture *f = *state;
  g_autoptr(GBytes) made = get (f, CORDON_SECCOMP_FILTER_ERRNO, getuid (), NULL);
  g_autoptr(GBytes) again = NULL;
  g_autofree char *path = path_of (f, CORDON_SECCOMP_FILTER_ERRNO);
  struct stat st;
  gboolean cached = FALSE;

  plant (f, CORDON_SECCOMP_FILTER_ERRNO, 0602);
  assert_made_again (f, getuid ());
  plant (f, CORDON_SECCOMP_FILTER_ERRNO, 0620);
  assert_made_again (f, getuid ());
  /* What replaced it is the real program, the caller's alone to write. */
  assert_int_equal (stat (path, &st), 0);
  assert_int_equal (st.st_mode & 0777, 0600);
  again = get (f, CORDON_SECCOMP_FILTER_ERRNO, getuid (), &cached);
  assert_true (cached);
  assert_true (g_bytes_equal (made, again));
}

static void
test_seccomp_cache_does_not_read_a_file_of_another_uid (void **state)
{
  Fixture *f = *state;
  g_autoptr(GBytes) made = get (f, CORDON_SECCOMP_FILTER_ERRNO, getuid (), NULL);
  gboolean cached = TRUE;
  g_autoptr(GBytes) again = NULL;

  plant (f, CORDON_SECCOMP_FILTER_ERRNO, 0600);
  /* Asked as another uid, the directory and the file are not its own. */
  again = get (f, CORDON_SECCOMP_FILTER_ERRNO, getuid () + 1, &cached);
  assert_false (cached);
  assert_int_not_equal (g_bytes_get_size (again), sizeof (struct sock_filter));
}

static void
test_seccomp_cache_does_not_follow_a_symlink (void **state)
{
  Fixture *f = *state;
  g_autoptr(GBytes) made = get (f, CORDON_SECCOMP_FILTER_ERRNO, getuid (), NULL);
  g_autofree char *path = path_of (f, CORDON_SECCOMP_FILTER_ERRNO);
  g_autofree char *aside = g_strconcat (path, ".aside", NULL);
  g_autofree char *before = NULL, *after = NULL;

  plant (f, CORDON_SECCOMP_FILTER_ERRNO, 0600);
  assert_int_equal (rename (path, aside), 0);
  assert_int_equal (symlink (aside, path), 0);
  assert_true (g_file_get_contents (aside, &before, NULL, NULL));
  assert_made_again (f, getuid ());
  assert_true (g_file_get_contents (aside, &after, NULL, NULL));
  assert_string_equal (before, after);
}

static void
test_seccomp_cache_does_not_read_a_directory_others_may_write (void **state)
{
  Fixture *f = *state;
  g_autoptr(GBytes) made = get (f, CORDON_SECCOMP_FILTER_ERRNO, getuid (), NULL);

  plant (f, CORDON_SECCOMP_FILTER_ERRNO, 0600);
  assert_int_equal (chmod (f->dir, 0770), 0);
  assert_made_again (f, getuid ());
  assert_int_equal (chmod (f->dir, 0700), 0);
}

static void
test_seccomp_cache_does_not_read_another_key_or_a_broken_program (void **state)
{
  Fixture *f = *state;
  g_autoptr(GBytes) made = get (f, CORDON_SECCOMP_FILTER_ERRNO, getuid (), NULL);
  g_autofree char *path = path_of (f, CORDON_SECCOMP_FILTER_ERRNO);
  g_autofree char *text = NULL;
  gsize len = 0;

  assert_true (g_file_get_contents (path, &text, &len, NULL));
  /* Another key under this name (another build of cordon, or another
   * libseccomp): replaced, not kept beside. */
  text[strlen ("cordon-seccomp 1\nkey=")] ^= 1;
  assert_true (g_file_set_contents (path, text, (gssize) len, NULL));
  assert_int_equal (chmod (path, 0600), 0);
  assert_made_again (f, getuid ());
  {
    g_autoptr(GDir) d = g_dir_open (f->dir, 0, NULL);
    guint n = 0;

    while (g_dir_read_name (d) != NULL)
      n++;
    assert_int_equal (n, 1);
  }
  /* Half an instruction short. */
  g_free (text);
  assert_true (g_file_get_contents (path, &text, &len, NULL));
  assert_true (g_file_set_contents (path, text, (gssize) len - 4, NULL));
  assert_int_equal (chmod (path, 0600), 0);
  assert_made_again (f, getuid ());
  /* No program at all. */
  assert_true (g_file_set_contents (path, text, (gssize) (strchr (strchr (text, '\n') + 1, '\n') + 1 - text),
                                    NULL));
  assert_int_equal (chmod (path, 0600), 0);
  assert_made_again (f, getuid ());
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown (test_seccomp_cache_gives_back_the_program_it_was_given, setup, teardown),
    cmocka_unit_test_setup_teardown (test_seccomp_cache_keeps_each_input_apart, setup, teardown),
    cmocka_unit_test_setup_teardown (test_seccomp_cache_reads_nothing_without_a_directory, setup, teardown),
    cmocka_unit_test_setup_teardown (test_seccomp_cache_reads_a_file_of_the_callers_own, setup, teardown),
    cmocka_unit_test_setup_teardown (test_seccomp_cache_does_not_read_a_file_others_may_write, setup, teardown),
    cmocka_unit_test_setup_teardown (test_seccomp_cache_does_not_read_a_file_of_another_uid, setup, teardown),
    cmocka_unit_test_setup_teardown (test_seccomp_cache_does_not_follow_a_symlink, setup, teardown),
    cmocka_unit_test_setup_teardown (test_seccomp_cache_does_not_read_a_directory_others_may_write, setup,
                                     teardown),
    cmocka_unit_test_setup_teardown (test_seccomp_cache_does_not_read_another_key_or_a_broken_program, setup,
                                     teardown),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
