/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-file-util: a file written whole or not at all. The probe cache and
 * the report go through it: a run killed while writing must leave the old
 * file, no file or the new one, and never a temporary name; the mode is
 * the one asked for whatever the umask; a failure names the file. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon-error.h"
#include "file-util.h"
#include "path-util.h"

typedef struct
{
  char *dir;
  mode_t umask_was;
} Fixture;

static int
setup (void **state)
{
  Fixture *f = g_new0 (Fixture, 1);

  f->dir = g_dir_make_tmp ("test-file-util-XXXXXX", NULL);
  f->umask_was = umask (022);
  *state = f;
  return f->dir == NULL;
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static int
teardown (void **state)
{
  Fixture *f = *state;

  umask (f->umask_was);
  remove_tree (f->dir);
  g_free (f->dir);
  g_free (f);
  return 0;
}

/* The names in the fixture's directory, sorted, space-separated. */
static char *
listing (const Fixture *f)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, (gpointer) name);
  g_ptr_array_sort (names, cordon_compare_string_ptrs);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static char *
contents (const Fixture *f,
          const char *base)
{
  g_autofree char *path = g_build_filename (f->dir, base, NULL);
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, NULL);
  return text;
}

/* `base` replaced in the fixture's directory, through its fd. */
static gboolean
replace_in (const Fixture *f,
            const char *base,
            const char *data,
            GError **error)
{
  int dfd = open (f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  gboolean ok;

  assert_true (dfd >= 0);
  ok = cordon_file_replace_at (dfd, base, data, strlen (data), 0600, error);
  close (dfd);
  return ok;
}

static void
test_replace_writes_a_new_file_with_the_mode_asked_for (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = g_build_filename (f->dir, "r.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *names = NULL;
  GStatBuf st;

  umask (0);
  assert_true (replace_in (f, "r.json", "{}\n", NULL));
  text = contents (f, "r.json");
  assert_string_equal (text, "{}\n");
  assert_int_equal (g_stat (path, &st), 0);
  assert_int_equal (st.st_mode & 07777, 0600);
  names = listing (f);
  assert_string_equal (names, "r.json");
}

static void
test_replace_replaces_an_existing_file_and_leaves_no_other_name (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = g_build_filename (f->dir, "cache", NULL);
  g_autofree char *text = NULL;
  g_autofree char *names = NULL;
  GStatBuf st;

  assert_true (g_file_set_contents (path, "old and longer\n", -1, NULL));
  assert_int_equal (g_chmod (path, 0644), 0);
  assert_true (replace_in (f, "cache", "new\n", NULL));
  text = contents (f, "cache");
  assert_string_equal (text, "new\n");
  assert_int_equal (g_stat (path, &st), 0);
  assert_int_equal (st.st_mode & 07777, 0600);
  names = listing (f);
  assert_string_equal (names, "cache");
}

/* A link planted at the name is replaced, not followed: its target,
 * elsewhere, is left as it was. */
static void
test_replace_replaces_a_symlink_without_writing_through_it (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = g_build_filename (f->dir, "r.json", NULL);
  g_autofree char *victim = g_build_filename (f->dir, "victim", NULL);
  g_autofree char *text = NULL;
  g_autofree char *kept = NULL;

  assert_true (g_file_set_contents (victim, "precious\n", -1, NULL));
  assert_int_equal (symlink (victim, path), 0);
  assert_true (replace_in (f, "r.json", "{}\n", NULL));
  assert_false (g_file_test (path, G_FILE_TEST_IS_SYMLINK));
  text = contents (f, "r.json");
  assert_string_equal (text, "{}\n");
  kept = contents (f, "victim");
  assert_string_equal (kept, "precious\n");
}

static void
test_replace_at_writes_through_the_directory_fd (void **state)
{
  Fixture *f = *state;
  int dfd = open (f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_autofree char *text = NULL;

  assert_true (dfd >= 0);
  assert_true (cordon_file_replace_at (dfd, "probe-x", "ok\n", 3, 0600, NULL));
  close (dfd);
  text = contents (f, "probe-x");
  assert_string_equal (text, "ok\n");
}

/* A directory at the name is not removed to make room: the write fails
 * and the directory and what it holds stay. */
static void
test_replace_fails_on_a_directory_and_keeps_it (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = g_build_filename (f->dir, "d", NULL);
  g_autofree char *inner = g_build_filename (path, "keep", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *names = NULL;
  g_autofree char *expected = g_strdup_printf ("cannot write d: %s", g_strerror (EISDIR));

  assert_int_equal (g_mkdir (path, 0700), 0);
  assert_true (g_file_set_contents (inner, "x", -1, NULL));
  assert_false (replace_in (f, "d", "{}\n", &error));
  assert_non_null (error);
  assert_string_equal (error->message, expected);
  assert_true (g_file_test (inner, G_FILE_TEST_IS_REGULAR));
  names = listing (f);
  assert_string_equal (names, "d");
}


/* A file from its offset to the end, past one read's worth. */
static void
test_read_fd_reads_from_the_offset_to_the_end (void **state)
{
  g_autofree char *data = g_malloc (20000);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  int fd = memfd_create ("t", MFD_CLOEXEC);

  for (guint i = 0; i < 20000; i++)
    data[i] = (char) (i % 251);
  assert_true (fd >= 0);
  assert_true (cordon_file_write_all (fd, data, 20000));
  assert_int_equal (lseek (fd, 3, SEEK_SET), 3);
  bytes = cordon_file_read_fd (fd, &error);
  close (fd);
  assert_non_null (bytes);
  assert_int_equal (g_bytes_get_size (bytes), 19997);
  assert_memory_equal (g_bytes_get_data (bytes, NULL), data + 3, 19997);
}

static void
test_read_fd_fails_on_what_cannot_be_read (void **state)
{
  g_autoptr(GError) error = NULL;
  int fds[2];

  assert_int_equal (pipe (fds), 0);
  /* The write end of a pipe: EBADF. */
  assert_null (cordon_file_read_fd (fds[1], &error));
  assert_true (g_error_matches (error, CORDON_ERROR, CORDON_ERROR_HOST));
  close (fds[0]);
  close (fds[1]);
}

/* The directory itself, through real directories only. */
static void
test_open_dir_no_symlink_opens_a_directory_of_real_ones (void **state)
{
  Fixture *f = *state;
  g_autofree char *deep = g_build_filename (f->dir, "a", "b", NULL);
  g_autofree char *odd = g_strconcat (f->dir, "//a/./b/", NULL);
  struct stat want, got;
  int fd;

  assert_int_equal (g_mkdir_with_parents (deep, 0755), 0);
  assert_int_equal (stat (deep, &want), 0);
  fd = cordon_file_open_dir_no_symlink (odd);
  assert_true (fd >= 0);
  assert_int_equal (fstat (fd, &got), 0);
  assert_int_equal (got.st_ino, want.st_ino);
  assert_int_equal (got.st_dev, want.st_dev);
  assert_true ((fcntl (fd, F_GETFD) & FD_CLOEXEC) != 0);
  /* Opened for reading: its entries can be listed through it. */
  assert_true ((fcntl (fd, F_GETFL) & O_ACCMODE) == O_RDONLY);
  close (fd);
}

/* A symlink on the way or at the end is not followed (where open(2)
 * follows it: the control). */
static void
test_open_dir_no_symlink_refuses_a_symlink_on_the_way_or_at_the_end (void **state)
{
  Fixture *f = *state;
  g_autofree char *real = g_build_filename (f->dir, "real", "sub", NULL);
  g_autofree char *link = g_build_filename (f->dir, "link", NULL);
  g_autofree char *through = g_build_filename (link, "sub", NULL);
  int fd;

  assert_int_equal (g_mkdir_with_parents (real, 0755), 0);
  assert_int_equal (symlink ("real", link), 0);
  fd = open (through, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  assert_true (fd >= 0);
  close (fd);
  errno = 0;
  assert_int_equal (cordon_file_open_dir_no_symlink (through), -1);
  assert_true (errno == ENOTDIR || errno == ELOOP);
  errno = 0;
  assert_int_equal (cordon_file_open_dir_no_symlink (link), -1);
  assert_true (errno == ENOTDIR || errno == ELOOP);
}

static void
test_open_dir_no_symlink_refuses_a_relative_path_and_dotdot (void **state)
{
  Fixture *f = *state;
  g_autofree char *up = g_build_filename (f->dir, "x", "..", NULL);
  g_autofree char *x = g_build_filename (f->dir, "x", NULL);

  assert_int_equal (g_mkdir_with_parents (x, 0755), 0);
  errno = 0;
  assert_int_equal (cordon_file_open_dir_no_symlink ("tmp"), -1);
  assert_int_equal (errno, EINVAL);
  errno = 0;
  assert_int_equal (cordon_file_open_dir_no_symlink (up), -1);
  assert_int_equal (errno, EINVAL);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown (test_replace_writes_a_new_file_with_the_mode_asked_for, setup, teardown),
    cmocka_unit_test_setup_teardown (test_replace_replaces_an_existing_file_and_leaves_no_other_name, setup, teardown),
    cmocka_unit_test_setup_teardown (test_replace_replaces_a_symlink_without_writing_through_it, setup, teardown),
    cmocka_unit_test_setup_teardown (test_replace_at_writes_through_the_directory_fd, setup, teardown),
    cmocka_unit_test_setup_teardown (test_replace_fails_on_a_directory_and_keeps_it, setup, teardown),
    cmocka_unit_test (test_read_fd_reads_from_the_offset_to_the_end),
    cmocka_unit_test (test_read_fd_fails_on_what_cannot_be_read),
    cmocka_unit_test_setup_teardown (test_open_dir_no_symlink_opens_a_directory_of_real_ones, setup, teardown),
    cmocka_unit_test_setup_teardown (test_open_dir_no_symlink_refuses_a_symlink_on_the_way_or_at_the_end, setup,
                                     teardown),
    cmocka_unit_test_setup_teardown (test_open_dir_no_symlink_refuses_a_relative_path_and_dotdot, setup, teardown),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
