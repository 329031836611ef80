/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-report-target: the report's destination is settled when it is
 * opened, and what the sandbox does to the path afterwards cannot move
 * it: a directory swapped for a symlink, a symlink, a directory, a FIFO or
 * a foreign file planted at the name. Paths that name an open fd are
 * written through it; everything else that is not the caller's regular
 * file is refused at once. "Another user" is simulated by naming an owner
 * other than the test's own uid, so these run without root. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <string.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cordon-error.h"
#include "fixture-host.h"
#include "report-target.h"

typedef struct
{
  char *dir;
} Fixture;

/* A plan without a writable path. */
static const char * const no_writable[] = { NULL };

static int
setup (void **state)
{
  Fixture *f = g_new0 (Fixture, 1);

  f->dir = g_dir_make_tmp ("test-report-target-XXXXXX", NULL);
  *state = f;
  return f->dir == NULL;
}

static int
teardown (void **state)
{
  Fixture *f = *state;

  fixture_rm_rf (f->dir);
  g_free (f->dir);
  g_free (f);
  return 0;
}

static char *
in_dir (const Fixture *f,
        const char *name)
{
  return g_build_filename (f->dir, name, NULL);
}

static char *
contents_of (const char *path)
{
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, NULL);
  return text;
}

static ino_t
inode_of (const char *path)
{
  GStatBuf st;

  return g_lstat (path, &st) == 0 ? st.st_ino : 0;
}

/* A directory with a bait file in it: what an attack aims at. */
static char *
make_victim (const Fixture *f)
{
  g_autofree char *victim = in_dir (f, "victim");
  g_autofree char *bait = g_build_filename (victim, "r.json", NULL);

  assert_int_equal (g_mkdir (victim, 0700), 0);
  assert_true (g_file_set_contents (bait, "bait\n", -1, NULL));
  return g_steal_pointer (&bait);
}

/* `error` is passed by address: it is read after the call that sets it
 * (the order in which arguments are evaluated is unspecified). */
static void
assert_refused (CordonReportTarget *target,
                GError **error,
                const char *fragment)
{
  assert_null (target);
  assert_non_null (*error);
  assert_true ((*error)->domain == CORDON_ERROR);
  assert_int_equal ((*error)->code, CORDON_ERROR_USAGE);
  if (strstr ((*error)->message, fragment) == NULL)
    fail_msg ("'%s' does not say '%s'", (*error)->message, fragment);
}

static void
test_a_new_name_is_written_in_its_directory_with_mode_0600 (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = in_dir (f, "r.json");
  g_autoptr(CordonReportTarget) target = cordon_report_target_open (path, geteuid (), NULL);
  g_autofree char *text = NULL;
  GStatBuf st;

  assert_non_null (target);
  assert_int_equal (cordon_report_target_get_kind (target), CORDON_REPORT_TARGET_FILE);
  assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  assert_true (cordon_report_target_write (target, "{}\n", 3, NULL));
  text = contents_of (path);
  assert_string_equal (text, "{}\n");
  assert_int_equal (g_stat (path, &st), 0);
  assert_int_equal (st.st_mode & 07777, 0600);
}

static void
test_the_callers_regular_file_is_replaced_by_a_new_one (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = in_dir (f, "r.json");
  g_autoptr(CordonReportTarget) target = NULL;
  g_autofree char *text = NULL;
  ino_t old;

  assert_true (g_file_set_contents (path, "old and longer\n", -1, NULL));
  old = inode_of (path);
  target = cordon_report_target_open (path, geteuid (), NULL);
  assert_non_null (target);
  assert_true (cordon_report_target_write (target, "new\n", 4, NULL));
  text = contents_of (path);
  assert_string_equal (text, "new\n");
  assert_true (inode_of (path) != old);
}

static void
test_another_users_regular_file_is_refused_at_open (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = in_dir (f, "r.json");
  g_autoptr(GError) error = NULL;
  CordonReportTarget *target;
  g_autofree char *text = NULL;

  assert_true (g_file_set_contents (path, "theirs\n", -1, NULL));
  target = cordon_report_target_open (path, geteuid () + 1, &error);
  assert_refused (target, &error, "not the caller's");
  text = contents_of (path);
  assert_string_equal (text, "theirs\n");
}

static void
test_a_directory_is_refused_at_open (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = in_dir (f, "d");
  g_autofree char *slashed = g_strconcat (f->dir, "/new/", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;

  assert_int_equal (g_mkdir (path, 0700), 0);
  assert_refused (cordon_report_target_open (path, geteuid (), &error), &error, "it is a directory");
  assert_refused (cordon_report_target_open (slashed, geteuid (), &error2), &error2, "names a directory");
  assert_false (g_file_test (slashed, G_FILE_TEST_EXISTS));
}

static void
test_a_dangling_symlink_is_refused_at_open (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = in_dir (f, "r.json");
  g_autofree char *nowhere = in_dir (f, "nowhere");
  g_autoptr(GError) error = NULL;

  assert_int_equal (symlink (nowhere, path), 0);
  assert_refused (cordon_report_target_open (path, geteuid (), &error), &error, "dangling symlink");
  assert_false (g_file_test (nowhere, G_FILE_TEST_EXISTS));
}

static void
test_a_missing_directory_is_refused_at_open (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = g_build_filename (f->dir, "missing", "r.json", NULL);
  g_autoptr(GError) error = NULL;

  assert_refused (cordon_report_target_open (path, geteuid (), &error), &error, "does not exist");
}

/* A file where a directory is named: not a directory (as the kernel has
 * it), and "." after one names nothing but a directory, never the file. */
static void
test_a_file_named_as_a_directory_is_refused_at_open (void **state)
{
  Fixture *f = *state;
  g_autofree char *file = in_dir (f, "f.json");
  g_autofree char *below = g_build_filename (file, "r.json", NULL);
  g_autofree char *dotted = g_strconcat (file, "/.", NULL);
  g_autofree char *dir_dot = g_strconcat (f->dir, "/.", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;
  g_autoptr(GError) error3 = NULL;
  g_autofree char *text = NULL;

  assert_true (g_file_set_contents (file, "mine\n", -1, NULL));
  assert_refused (cordon_report_target_open (below, geteuid (), &error), &error, "f.json is not a directory");
  assert_refused (cordon_report_target_open (dotted, geteuid (), &error2), &error2, "f.json is not a directory");
  assert_refused (cordon_report_target_open (dir_dot, geteuid (), &error3), &error3, "names a directory");
  text = contents_of (file);
  assert_string_equal (text, "mine\n");
}

static void
test_a_symlink_loop_is_refused_at_open (void **state)
{
  Fixture *f = *state;
  g_autofree char *a = in_dir (f, "a");
  g_autofree char *b = in_dir (f, "b");
  g_autoptr(GError) error = NULL;

  assert_int_equal (symlink (b, a), 0);
  assert_int_equal (symlink (a, b), 0);
  assert_refused (cordon_report_target_open (a, geteuid (), &error), &error, g_strerror (ELOOP));
}

/* A symlink to the caller's file is followed when opened: the file it
 * points to is replaced, and the symlink stays. */
static void
test_a_symlink_to_the_callers_file_is_followed_at_open (void **state)
{
  Fixture *f = *state;
  g_autofree char *real = in_dir (f, "real.json");
  g_autofree char *link = in_dir (f, "r.json");
  g_autoptr(CordonReportTarget) target = NULL;
  g_autofree char *text = NULL;

  assert_true (g_file_set_contents (real, "old\n", -1, NULL));
  assert_int_equal (symlink ("real.json", link), 0);
  target = cordon_report_target_open (link, geteuid (), NULL);
  assert_non_null (target);
  assert_string_equal (cordon_report_target_get_name (target), real);
  assert_true (cordon_report_target_settle (target, no_writable, NULL));
  assert_true (cordon_report_target_write (target, "{}\n", 3, NULL));
  assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  text = contents_of (real);
  assert_string_equal (text, "{}\n");
}

/* The attack: the report's directory is moved aside and a symlink to a
 * victim put in its place while the sandbox runs. The report lands in
 * the directory opened, and the victim is untouched. */
static void
test_a_directory_swapped_for_a_symlink_does_not_move_the_report (void **state)
{
  Fixture *f = *state;
  g_autofree char *out = in_dir (f, "out");
  g_autofree char *orig = in_dir (f, "out.orig");
  g_autofree char *path = g_build_filename (out, "r.json", NULL);
  g_autofree char *moved = g_build_filename (orig, "r.json", NULL);
  g_autofree char *bait = make_victim (f);
  g_autofree char *victim = g_path_get_dirname (bait);
  g_autoptr(CordonReportTarget) target = NULL;
  g_autofree char *text = NULL;
  g_autofree char *kept = NULL;
  ino_t bait_ino = inode_of (bait);

  assert_int_equal (g_mkdir (out, 0700), 0);
  target = cordon_report_target_open (path, geteuid (), NULL);
  assert_non_null (target);
  assert_int_equal (g_rename (out, orig), 0);
  assert_int_equal (symlink (victim, out), 0);
  assert_true (cordon_report_target_write (target, "{}\n", 3, NULL));
  text = contents_of (moved);
  assert_string_equal (text, "{}\n");
  kept = contents_of (bait);
  assert_string_equal (kept, "bait\n");
  assert_int_equal (inode_of (bait), bait_ino);
}

/* The control of the test above: a symlink that is there when the
 * target is opened is the caller's choice, and is followed. */
static void
test_a_symlinked_directory_is_followed_when_it_is_there_at_open (void **state)
{
  Fixture *f = *state;
  g_autofree char *out = in_dir (f, "out");
  g_autofree char *path = g_build_filename (out, "r.json", NULL);
  g_autofree char *bait = make_victim (f);
  g_autofree char *victim = g_path_get_dirname (bait);
  g_autoptr(CordonReportTarget) target = NULL;
  g_autofree char *text = NULL;

  assert_int_equal (symlink (victim, out), 0);
  target = cordon_report_target_open (path, geteuid (), NULL);
  assert_non_null (target);
  assert_true (cordon_report_target_settle (target, no_writable, NULL));
  assert_true (cordon_report_target_write (target, "{}\n", 3, NULL));
  text = contents_of (bait);
  assert_string_equal (text, "{}\n");
}

/* cordon stopped before the plan was known (a policy error): whether a
 * sandbox left the symlink was never checked, so nothing is written
 * through it; the same file named as it is, is written. */
static void
test_a_symlink_is_not_followed_by_a_report_never_settled (void **state)
{
  Fixture *f = *state;
  g_autofree char *out = in_dir (f, "out");
  g_autofree char *path = g_build_filename (out, "r.json", NULL);
  g_autofree char *bait = make_victim (f);
  g_autofree char *victim = g_path_get_dirname (bait);
  g_autoptr(CordonReportTarget) target = NULL;
  g_autoptr(CordonReportTarget) direct = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  assert_int_equal (symlink (victim, out), 0);
  target = cordon_report_target_open (path, geteuid (), NULL);
  assert_non_null (target);
  assert_false (cordon_report_target_write (target, "{}\n", 3, &error));
  assert_non_null (strstr (error->message, "was reached through a symlink"));
  text = contents_of (bait);
  assert_string_equal (text, "bait\n");
  direct = cordon_report_target_open (bait, geteuid (), NULL);
  assert_true (cordon_report_target_write (direct, "{}\n", 3, NULL));
  g_free (text);
  text = contents_of (bait);
  assert_string_equal (text, "{}\n");
}

/* A symlink the path goes through, in a writable path: refused when
 * settled, and the victim untouched. The same link outside it: kept. */
static void
test_settle_refuses_a_symlink_in_a_writable_path (void **state)
{
  Fixture *f = *state;
  g_autofree char *wd = in_dir (f, "wd");
  g_autofree char *out = g_build_filename (wd, "out", NULL);
  g_autofree char *path = g_build_filename (out, "r.json", NULL);
  g_autofree char *bait = make_victim (f);
  g_autofree char *victim = g_path_get_dirname (bait);
  const char * const writable[] = { wd, NULL };
  g_autoptr(CordonReportTarget) target = NULL;
  g_autoptr(GError) error = NULL;

  assert_int_equal (mkdir (wd, 0700), 0);
  assert_int_equal (symlink (victim, out), 0);
  target = cordon_report_target_open (path, geteuid (), NULL);
  assert_non_null (target);
  assert_false (cordon_report_target_settle (target, writable, &error));
  assert_non_null (strstr (error->message, "goes through the symlink"));
  assert_true (g_file_test (bait, G_FILE_TEST_IS_REGULAR));
  assert_true (cordon_report_target_settle (target, no_writable, NULL));
}

/* Opens a target for a name that does not exist yet, lets `plant` put
 * something there (the sandbox, during the run), and checks the write is
 * refused naming `what`, leaving the planted thing as it was. */
static void
assert_planted_is_left_alone (const Fixture *f,
                              uid_t owner,
                              void (*plant) (const char *path, const char *victim),
                              const char *what)
{
  g_autofree char *path = in_dir (f, "r.json");
  g_autofree char *bait = make_victim (f);
  g_autoptr(CordonReportTarget) target = cordon_report_target_open (path, owner, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *kept = NULL;
  ino_t planted, bait_ino = inode_of (bait);

  assert_non_null (target);
  plant (path, bait);
  planted = inode_of (path);
  assert_false (cordon_report_target_write (target, "{}\n", 3, &error));
  assert_non_null (error);
  assert_int_equal (error->code, CORDON_ERROR_HOST);
  if (strstr (error->message, what) == NULL || strstr (error->message, path) == NULL)
    fail_msg ("'%s' does not name %s and '%s'", error->message, path, what);
  assert_int_equal (inode_of (path), planted);
  kept = contents_of (bait);
  assert_string_equal (kept, "bait\n");
  assert_int_equal (inode_of (bait), bait_ino);
}

static void
plant_symlink (const char *path,
               const char *victim)
{
  assert_int_equal (symlink (victim, path), 0);
}

static void
plant_directory (const char *path,
                 const char *victim)
{
  (void) victim;
  assert_int_equal (g_mkdir (path, 0700), 0);
}

static void
plant_fifo (const char *path,
            const char *victim)
{
  (void) victim;
  assert_int_equal (mkfifo (path, 0600), 0);
}

static void
plant_file (const char *path,
            const char *victim)
{
  (void) victim;
  assert_true (g_file_set_contents (path, "planted\n", -1, NULL));
}

static void
test_a_symlink_planted_at_the_name_is_not_replaced (void **state)
{
  assert_planted_is_left_alone (*state, geteuid (), plant_symlink, "is now a symlink");
}

static void
test_a_directory_planted_at_the_name_is_not_replaced (void **state)
{
  assert_planted_is_left_alone (*state, geteuid (), plant_directory, "is now a directory");
}

/* Never opened, so the write does not wait for a reader either. */
static void
test_a_fifo_planted_at_the_name_is_not_replaced (void **state)
{
  assert_planted_is_left_alone (*state, geteuid (), plant_fifo, "is now a FIFO");
}

/* The file planted is the test's own; the target's owner is another uid,
 * as a sandbox's identity differs from a root caller's. */
static void
test_another_users_file_planted_at_the_name_is_not_replaced (void **state)
{
  g_autofree char *what = g_strdup_printf ("is now a regular file of uid %u", (unsigned) geteuid ());

  assert_planted_is_left_alone (*state, geteuid () + 1, plant_file, what);
}

static char *
read_all (int fd)
{
  char buf[256];
  ssize_t n = read (fd, buf, sizeof buf - 1);

  return n >= 0 ? g_strndup (buf, (gsize) n) : NULL;
}

/* /proc/self/fd/N, /dev/fd/N, and a symlink to either: the fd itself. */
static void
assert_writes_through_fd (const char *path,
                          int read_end)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CordonReportTarget) target = cordon_report_target_open (path, geteuid (), &error);
  g_autofree char *text = NULL;

  if (target == NULL)
    fail_msg ("%s: %s", path, error->message);
  assert_int_equal (cordon_report_target_get_kind (target), CORDON_REPORT_TARGET_STREAM);
  assert_true (cordon_report_target_write (target, "{}\n", 3, NULL));
  text = read_all (read_end);
  assert_string_equal (text, "{}\n");
}

static void
test_a_path_naming_an_open_fd_is_written_through_it (void **state)
{
  Fixture *f = *state;
  g_autofree char *link = in_dir (f, "r.json");
  g_autofree char *proc = NULL;
  g_autofree char *dev = NULL;
  int p[2];

  assert_int_equal (pipe (p), 0);
  proc = g_strdup_printf ("/proc/self/fd/%d", p[1]);
  dev = g_strdup_printf ("/dev/fd/%d", p[1]);
  assert_int_equal (symlink (proc, link), 0);
  assert_writes_through_fd (proc, p[0]);
  assert_writes_through_fd (dev, p[0]);
  assert_writes_through_fd (link, p[0]);
  assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  close (p[0]);
  close (p[1]);
}

/* open() cannot reopen a socket through /proc: the fd is duplicated. */
static void
test_a_path_naming_a_socket_fd_is_written_through_it (void **state)
{
  g_autofree char *dev = NULL;
  int sv[2];

  (void) state;
  assert_int_equal (socketpair (AF_UNIX, SOCK_STREAM, 0, sv), 0);
  dev = g_strdup_printf ("/dev/fd/%d", sv[1]);
  assert_writes_through_fd (dev, sv[0]);
  close (sv[0]);
  close (sv[1]);
}

/* "-" is standard output, whatever it is (here a pipe). */
static void
test_dash_is_standard_output (void **state)
{
  g_autoptr(CordonReportTarget) target = NULL;
  g_autofree char *text = NULL;
  int p[2], saved = dup (STDOUT_FILENO);

  (void) state;
  assert_int_equal (pipe (p), 0);
  assert_int_equal (dup2 (p[1], STDOUT_FILENO), STDOUT_FILENO);
  target = cordon_report_target_open ("-", geteuid (), NULL);
  assert_int_equal (dup2 (saved, STDOUT_FILENO), STDOUT_FILENO);
  close (saved);
  assert_non_null (target);
  assert_false (g_file_test ("-", G_FILE_TEST_EXISTS));
  assert_true (cordon_report_target_write (target, "{}\n", 3, NULL));
  text = read_all (p[0]);
  assert_string_equal (text, "{}\n");
  close (p[0]);
  close (p[1]);
}

static void
test_a_path_naming_a_closed_or_read_only_fd_is_refused (void **state)
{
  g_autofree char *closed = NULL;
  g_autofree char *ro = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;
  int fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);

  (void) state;
  assert_true (fd >= 0);
  ro = g_strdup_printf ("/proc/self/fd/%d", fd);
  assert_refused (cordon_report_target_open (ro, geteuid (), &error), &error, "not open for writing");
  close (fd);
  closed = g_strdup_printf ("/dev/fd/%d", fd);
  assert_refused (cordon_report_target_open (closed, geteuid (), &error2), &error2, "is not open");
}

static void
test_report_fd_is_written_and_made_close_on_exec (void **state)
{
  g_autoptr(CordonReportTarget) target = NULL;
  g_autofree char *text = NULL;
  int p[2];

  (void) state;
  assert_int_equal (pipe (p), 0);
  assert_int_equal (fcntl (p[1], F_GETFD) & FD_CLOEXEC, 0);
  target = cordon_report_target_open_fd (p[1], NULL);
  assert_non_null (target);
  assert_int_equal (fcntl (p[1], F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
  assert_true (cordon_report_target_write (target, "{}\n", 3, NULL));
  text = read_all (p[0]);
  assert_string_equal (text, "{}\n");
  close (p[0]);
  close (p[1]);
}

/* Standard output stays inheritable: the command's own output goes there. */
static void
test_report_fd_1_leaves_standard_output_inheritable (void **state)
{
  g_autoptr(CordonReportTarget) target = cordon_report_target_open_fd (STDOUT_FILENO, NULL);

  (void) state;
  assert_non_null (target);
  assert_int_equal (fcntl (STDOUT_FILENO, F_GETFD) & FD_CLOEXEC, 0);
}

static void
test_report_fd_refuses_a_closed_or_read_only_fd (void **state)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;
  int fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);

  (void) state;
  assert_true (fd >= 0);
  assert_refused (cordon_report_target_open_fd (fd, &error), &error, "not open for writing");
  close (fd);
  assert_refused (cordon_report_target_open_fd (fd, &error2), &error2, "is not open");
}

/* A terminal (a pty's): the report comes out at its other end, and the
 * device node is what it was. */
static void
test_a_character_device_is_written_through (void **state)
{
  g_autoptr(CordonReportTarget) target = NULL;
  g_autofree char *text = NULL;
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  const char *slave;
  struct termios raw;
  struct stat st;

  (void) state;
  assert_true (master >= 0);
  assert_int_equal (grantpt (master), 0);
  assert_int_equal (unlockpt (master), 0);
  slave = ptsname (master);
  assert_non_null (slave);
  target = cordon_report_target_open (slave, geteuid (), NULL);
  assert_non_null (target);
  assert_int_equal (cordon_report_target_get_kind (target), CORDON_REPORT_TARGET_STREAM);
  assert_true (cordon_report_target_settle (target, no_writable, NULL));
  /* No line discipline on the way: the bytes as written. */
  assert_int_equal (tcgetattr (master, &raw), 0);
  cfmakeraw (&raw);
  assert_int_equal (tcsetattr (master, TCSANOW, &raw), 0);
  assert_true (cordon_report_target_write (target, "{}", 2, NULL));
  text = read_all (master);
  assert_string_equal (text, "{}");
  assert_int_equal (stat (slave, &st), 0);
  assert_true (S_ISCHR (st.st_mode));
  close (master);
}

static void
test_a_fifo_is_written_through (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = in_dir (f, "fifo");
  g_autoptr(CordonReportTarget) target = NULL;
  g_autofree char *text = NULL;
  int reader;

  assert_int_equal (mkfifo (path, 0600), 0);
  reader = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  assert_true (reader >= 0);
  target = cordon_report_target_open (path, geteuid (), NULL);
  assert_non_null (target);
  assert_true (cordon_report_target_settle (target, no_writable, NULL));
  assert_true (cordon_report_target_write (target, "{}\n", 3, NULL));
  text = read_all (reader);
  assert_string_equal (text, "{}\n");
  close (reader);
}

/* A FIFO at `path` and its reader (non-blocking), for whether a writer
 * ever came: a writer that came and went leaves the reader a hang-up. */
static int
fifo_with_reader (const char *path)
{
  int fd;

  assert_int_equal (mkfifo (path, 0600), 0);
  fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  assert_true (fd >= 0);
  return fd;
}

static gboolean
a_writer_came (int reader)
{
  struct pollfd p = { reader, POLLIN, 0 };

  return poll (&p, 1, 0) == 1;
}

/* A FIFO in a writable path (a sandbox may have made it) is refused
 * when settled, without having been opened: its reader never saw a
 * writer come and go. Outside, it is opened when settled. */
static void
test_a_fifo_in_a_writable_path_is_never_opened (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = in_dir (f, "fifo");
  const char * const writable[] = { f->dir, NULL };
  g_autoptr(CordonReportTarget) target = NULL;
  g_autoptr(GError) error = NULL;
  int reader = fifo_with_reader (path);

  target = cordon_report_target_open (path, geteuid (), NULL);
  assert_non_null (target);
  assert_false (cordon_report_target_settle (target, writable, &error));
  assert_non_null (strstr (error->message, "a FIFO or device, is in the writable path"));
  g_clear_pointer (&target, cordon_report_target_free);
  assert_false (a_writer_came (reader));
  target = cordon_report_target_open (path, geteuid (), NULL);
  assert_true (cordon_report_target_settle (target, no_writable, NULL));
  assert_true (cordon_report_target_write (target, "{}\n", 3, NULL));
  g_clear_pointer (&target, cordon_report_target_free);
  assert_true (a_writer_came (reader));
  close (reader);
}

/* The race of a sandbox that shares the workdir (another run's): it
 * swaps the report's directory with a symlink to a victim, again and
 * again, while cordon resolves the path. Resolved once, component by
 * component, the path either meets the symlink (recorded, and refused
 * as one in the writable path) or the directory (held): the victim
 * never gets the report. (A realpath() and a later look for symlinks on
 * the way could see the symlink, then the directory: the report went to
 * the victim within a few hundred tries.) */
static void
test_a_directory_swapped_during_the_resolution_never_sends_the_report_away (void **state)
{
  Fixture *f = *state;
  g_autofree char *wd = in_dir (f, "wd");
  g_autofree char *out = g_build_filename (wd, "out", NULL);
  g_autofree char *out2 = g_build_filename (wd, "out2", NULL);
  g_autofree char *path = g_build_filename (out, "r.json", NULL);
  g_autofree char *bait = make_victim (f);
  g_autofree char *victim = g_path_get_dirname (bait);
  g_autofree char *landed = g_build_filename (victim, "r.json", NULL);
  const char * const writable[] = { wd, NULL };
  guint written = 0, refused = 0;
  pid_t swapper;

  assert_int_equal (unlink (bait), 0);
  assert_int_equal (mkdir (wd, 0700), 0);
  assert_int_equal (mkdir (out, 0700), 0);
  assert_int_equal (symlink (victim, out2), 0);
  if ((swapper = fork ()) == 0)
    for (;;)
      (void) syscall (SYS_renameat2, AT_FDCWD, out, AT_FDCWD, out2, RENAME_EXCHANGE);
  assert_true (swapper > 0);
  for (guint i = 0; i < 2000; i++)
    {
      g_autoptr(CordonReportTarget) target = cordon_report_target_open (path, geteuid (), NULL);

      if (target != NULL && cordon_report_target_settle (target, writable, NULL))
        written += cordon_report_target_write (target, "{}\n", 3, NULL);
      else
        refused++;
    }
  kill (swapper, SIGKILL);
  waitpid (swapper, NULL, 0);
  /* Both outcomes happened: the race was run, not missed. */
  assert_true (written > 0);
  assert_true (refused > 0);
  assert_false (g_file_test (landed, G_FILE_TEST_EXISTS));
}

/* cordon stopped before the plan was known: a FIFO, even named as it
 * is, is not opened (an earlier run's sandbox may have made it). */
static void
test_a_fifo_is_not_opened_by_a_report_never_settled (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = in_dir (f, "fifo");
  g_autoptr(CordonReportTarget) target = NULL;
  g_autoptr(GError) error = NULL;
  int reader = fifo_with_reader (path);

  target = cordon_report_target_open (path, geteuid (), NULL);
  assert_non_null (target);
  assert_false (cordon_report_target_write (target, "{}\n", 3, &error));
  assert_non_null (strstr (error->message, "is a FIFO or a device, and cordon stopped"));
  g_clear_pointer (&target, cordon_report_target_free);
  assert_false (a_writer_came (reader));
  close (reader);
}

/* A FIFO swapped for a regular file between the look and the open: the
 * node held is not the one examined, and nothing is opened. */
static void
test_a_fifo_swapped_before_it_is_opened_is_refused (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = in_dir (f, "fifo");
  g_autofree char *plain = in_dir (f, "plain");
  g_autoptr(CordonReportTarget) target = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  assert_int_equal (mkfifo (path, 0600), 0);
  target = cordon_report_target_open (path, geteuid (), NULL);
  assert_non_null (target);
  assert_true (g_file_set_contents (plain, "plain\n", -1, NULL));
  assert_int_equal (rename (plain, path), 0);
  assert_false (cordon_report_target_settle (target, no_writable, &error));
  assert_non_null (strstr (error->message, "changed while it was opened"));
  text = contents_of (path);
  assert_string_equal (text, "plain\n");
}

static void
test_a_socket_file_is_refused (void **state)
{
  Fixture *f = *state;
  g_autofree char *path = in_dir (f, "sock");
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_autoptr(GError) error = NULL;
  int s = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

  assert_true (strlen (path) < sizeof addr.sun_path);
  strcpy (addr.sun_path, path);
  assert_int_equal (bind (s, (struct sockaddr *) &addr, sizeof addr), 0);
  assert_refused (cordon_report_target_open (path, geteuid (), &error), &error, "it is a socket");
  close (s);
}

/* The fds open now that were not in `before` (stored as fd + 1), the
 * listing's own left out. */
static GPtrArray *
new_fds (GHashTable *before)
{
  DIR *dir = opendir ("/proc/self/fd");
  GPtrArray *fds = g_ptr_array_new ();
  struct dirent *entry;

  assert_non_null (dir);
  while ((entry = readdir (dir)) != NULL)
    {
      int fd = atoi (entry->d_name);

      if (entry->d_name[0] == '.' || fd == dirfd (dir)
          || (before != NULL && g_hash_table_contains (before, GINT_TO_POINTER (fd + 1))))
        continue;
      g_ptr_array_add (fds, GINT_TO_POINTER (fd + 1));
    }
  closedir (dir);
  return fds;
}

static void
assert_holds_only_close_on_exec_fds (CordonReportTarget *(*open_it) (const Fixture *f),
                                     const Fixture *f)
{
  g_autoptr(GPtrArray) was = new_fds (NULL);
  g_autoptr(GHashTable) before = g_hash_table_new (NULL, NULL);
  g_autoptr(CordonReportTarget) target = NULL;
  g_autoptr(GPtrArray) now = NULL;
  guint checked = 0;

  for (guint i = 0; i < was->len; i++)
    g_hash_table_add (before, g_ptr_array_index (was, i));
  target = open_it (f);
  assert_non_null (target);
  now = new_fds (before);
  for (guint i = 0; i < now->len; i++)
    {
      int fd = GPOINTER_TO_INT (g_ptr_array_index (now, i)) - 1;

      assert_int_equal (fcntl (fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
      checked++;
    }
  assert_int_equal (checked, 1);
}

static CordonReportTarget *
open_file_target (const Fixture *f)
{
  g_autofree char *path = in_dir (f, "r.json");

  return cordon_report_target_open (path, geteuid (), NULL);
}

static CordonReportTarget *
open_stdout_target (const Fixture *f)
{
  (void) f;
  return cordon_report_target_open ("/dev/stdout", geteuid (), NULL);
}

static CordonReportTarget *
open_device_target (const Fixture *f)
{
  (void) f;
  return cordon_report_target_open ("/dev/null", geteuid (), NULL);
}

static void
test_every_fd_a_target_holds_is_close_on_exec (void **state)
{
  assert_holds_only_close_on_exec_fds (open_file_target, *state);
  assert_holds_only_close_on_exec_fds (open_stdout_target, *state);
  assert_holds_only_close_on_exec_fds (open_device_target, *state);
}

int
main (void)
{
#define T(name) cmocka_unit_test_setup_teardown (name, setup, teardown)
  const struct CMUnitTest tests[] = {
    T (test_a_new_name_is_written_in_its_directory_with_mode_0600),
    T (test_the_callers_regular_file_is_replaced_by_a_new_one),
    T (test_another_users_regular_file_is_refused_at_open),
    T (test_a_directory_is_refused_at_open),
    T (test_a_dangling_symlink_is_refused_at_open),
    T (test_a_missing_directory_is_refused_at_open),
    T (test_a_file_named_as_a_directory_is_refused_at_open),
    T (test_a_symlink_loop_is_refused_at_open),
    T (test_a_symlink_to_the_callers_file_is_followed_at_open),
    T (test_a_directory_swapped_for_a_symlink_does_not_move_the_report),
    T (test_a_symlinked_directory_is_followed_when_it_is_there_at_open),
    T (test_a_symlink_is_not_followed_by_a_report_never_settled),
    T (test_settle_refuses_a_symlink_in_a_writable_path),
    T (test_a_symlink_planted_at_the_name_is_not_replaced),
    T (test_a_directory_planted_at_the_name_is_not_replaced),
    T (test_a_fifo_planted_at_the_name_is_not_replaced),
    T (test_another_users_file_planted_at_the_name_is_not_replaced),
    T (test_a_path_naming_an_open_fd_is_written_through_it),
    T (test_a_path_naming_a_socket_fd_is_written_through_it),
    T (test_dash_is_standard_output),
    T (test_a_path_naming_a_closed_or_read_only_fd_is_refused),
    T (test_report_fd_is_written_and_made_close_on_exec),
    T (test_report_fd_1_leaves_standard_output_inheritable),
    T (test_report_fd_refuses_a_closed_or_read_only_fd),
    T (test_a_character_device_is_written_through),
    T (test_a_fifo_is_written_through),
    T (test_a_fifo_in_a_writable_path_is_never_opened),
    T (test_a_directory_swapped_during_the_resolution_never_sends_the_report_away),
    T (test_a_fifo_is_not_opened_by_a_report_never_settled),
    T (test_a_fifo_swapped_before_it_is_opened_is_refused),
    T (test_a_socket_file_is_refused),
    T (test_every_fd_a_target_holds_is_close_on_exec),
  };
#undef T

  return cmocka_run_group_tests (tests, NULL, NULL);
}
