/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-keeper-placeholder: cordon-keeper's placeholders, the mount points
 * of absent protected paths. One must come out an empty directory of
 * exactly CORDON_PLACEHOLDER_MODE whatever the umask; anything else at
 * the name (a directory of another mode, a file, a symlink) must fail
 * the launch and be left exactly as it was, never followed; two runs
 * share one and only the last to let go removes it, and only while the
 * name still holds the directory it locked and it is empty. The spec and
 * the parents' fds are put where the keeper gets them: the spec at
 * SPEC_FD, the parents at SPEC_FD+1 on. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture-host.h"
#include "keeper-placeholder.h"
#include "protocol.h"
#include "spec-codec.h"

/* Far above what cmocka and GLib open; a second keeper's after it. */
#define SPEC_FD 100
#define OTHER_SPEC_FD 110
/* Every fd a test may have put in place, closed by the teardown. */
#define LAST_FD (SPEC_FD + CORDON_KEEPER_MAX_PLACEHOLDERS + 8)

/* flock(2) as the module calls it (linked with --wrap=flock), with a
 * hook run once before the next call: what another run does between the
 * keeper's open and its lock. */
int __real_flock (int fd,
                  int op);
int __wrap_flock (int fd,
                  int op);

static void (*before_flock) (int fd,
                             int op);
static const char *hook_path;

int
__wrap_flock (int fd,
              int op)
{
  void (*hook) (int, int) = before_flock;

  before_flock = NULL;
  if (hook != NULL)
    hook (fd, op);
  return __real_flock (fd, op);
}

typedef struct
{
  char *dir;
  mode_t umask_was;
  char why[256];
} Fixture;

static int
setup (void **state)
{
  Fixture *f = g_new0 (Fixture, 1);

  f->dir = g_dir_make_tmp ("test-keeper-placeholder-XXXXXX", NULL);
  f->umask_was = umask (022);
  /* A lock waited for where none should be is a failure, not a hang. */
  alarm (30);
  *state = f;
  return f->dir == NULL;
}

static int
teardown (void **state)
{
  Fixture *f = *state;

  alarm (0);
  before_flock = NULL;
  for (int fd = SPEC_FD; fd <= LAST_FD; fd++)
    close (fd);
  umask (f->umask_was);
  fixture_rm_rf (f->dir);
  g_free (f->dir);
  g_free (f);
  return 0;
}

/* `spec` at `base` (a memfd, as cordon seals one) and `n_parents` fds of
 * the fixture's directory after it, opened without O_CLOEXEC: the read
 * must set it. */
static void
give (const Fixture *f,
      int base,
      const char *spec,
      unsigned n_parents)
{
  int fd = memfd_create ("placeholders", MFD_CLOEXEC);

  assert_true (fd >= 0);
  assert_int_equal (write (fd, spec, strlen (spec)), (ssize_t) strlen (spec));
  assert_int_equal (lseek (fd, 0, SEEK_SET), 0);
  assert_int_equal (dup2 (fd, base), base);
  close (fd);
  for (unsigned i = 0; i < n_parents; i++)
    {
      int dfd = open (f->dir, O_RDONLY | O_DIRECTORY);

      assert_true (dfd >= 0);
      assert_int_equal (dup2 (dfd, base + 1 + (int) i), base + 1 + (int) i);
      close (dfd);
    }
}

/* The placeholders of `spec` read from `base`: the result of the read. */
static int
load (Fixture *f,
      int base,
      const char *spec,
      unsigned n_parents,
      KeeperPlaceholders *ph)
{
  give (f, base, spec, n_parents);
  f->why[0] = '\0';
  return cordon_keeper_placeholders_read (base, ph, f->why, sizeof f->why);
}

static int
hold (Fixture *f,
      KeeperPlaceholders *ph)
{
  f->why[0] = '\0';
  return cordon_keeper_placeholders_hold (ph, f->why, sizeof f->why);
}

static gboolean
fd_is_open (int fd)
{
  return fcntl (fd, F_GETFD) >= 0;
}

static char *
path_of (const Fixture *f,
         const char *name)
{
  return g_build_filename (f->dir, name, NULL);
}

/* `name`'s lstat in the fixture's directory; FALSE if there is none. */
static gboolean
look (const Fixture *f,
      const char *name,
      struct stat *st)
{
  g_autofree char *path = path_of (f, name);

  return lstat (path, st) == 0;
}

static gboolean
exists (const Fixture *f,
        const char *name)
{
  struct stat st;

  return look (f, name, &st);
}

/* The number of entries of directory `path`, "." and ".." aside. */
static int
entries (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  int n = 0;

  assert_non_null (dir);
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

/* Someone holds a flock on `name`: an exclusive one cannot be had. */
static gboolean
is_held (const Fixture *f,
         const char *name)
{
  g_autofree char *path = path_of (f, name);
  int fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  gboolean held;

  assert_true (fd >= 0);
  held = flock (fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close (fd);
  return held;
}

/* The number of the process's open fds. */
static int
open_fds (void)
{
  return entries ("/proc/self/fd");
}

/* Makes `name` a directory of `mode` (chmod: the umask takes no bit). */
/* `name` is a placeholder this process holds: a directory of the
 * placeholder's mode, locked; its stat in *st. */
static void
assert_held_placeholder (const Fixture *f,
                         const char *name,
                         struct stat *st)
{
  assert_true (look (f, name, st));
  assert_true (S_ISDIR (st->st_mode));
  assert_int_equal (st->st_mode & 07777, CORDON_PLACEHOLDER_MODE);
  assert_true (is_held (f, name));
}

static void
make_dir (const Fixture *f,
          const char *name,
          mode_t mode)
{
  g_autofree char *path = path_of (f, name);

  assert_int_equal (mkdir (path, 0700), 0);
  assert_int_equal (chmod (path, mode), 0);
}

static void
write_file (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
test_hold_makes_an_empty_directory_of_the_mode_whatever_the_umask (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  g_autofree char *path = path_of (f, ".envrc");
  int fds_before = open_fds ();
  struct stat st;

  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.envrc\n", 1, ph), 0);
  assert_int_equal (ph->n, 1);
  /* The spec's fd is closed, the parent's taken, not to reach bwrap. */
  assert_false (fd_is_open (SPEC_FD));
  assert_int_equal (fcntl (SPEC_FD + 1, F_GETFD), FD_CLOEXEC);
  umask (077);
  assert_int_equal (hold (f, ph), 0);
  umask (022);
  assert_held_placeholder (f, ".envrc", &st);
  assert_int_equal (entries (path), 0);

  cordon_keeper_placeholders_end (ph);
  assert_false (exists (f, ".envrc"));
  assert_int_equal (ph->n, 0);
  /* Nothing kept open: the parent's fd, the placeholder's, the spec's. */
  assert_false (fd_is_open (SPEC_FD + 1));
  assert_int_equal (open_fds (), fds_before);
}

static void
test_hold_drops_the_set_group_id_bit_a_parent_hands_down (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  struct stat st;

  /* mkdir(2) below a set-group-ID directory makes one set-group-ID
   * whatever the mode asked: it must come out of the mode all the same. */
  assert_int_equal (chmod (f->dir, 02700), 0);
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.envrc\n", 1, ph), 0);
  assert_int_equal (hold (f, ph), 0);
  assert_held_placeholder (f, ".envrc", &st);
  cordon_keeper_placeholders_end (ph);
  assert_false (exists (f, ".envrc"));
}

static void
test_the_last_of_two_holders_removes_it (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *first = g_new0 (KeeperPlaceholders, 1);
  g_autofree KeeperPlaceholders *second = g_new0 (KeeperPlaceholders, 1);
  struct stat made, shared;

  /* Two opens of the directory, two locks that conflict as two
   * processes' would: flock(2) locks belong to the open file. */
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\ttasks\n", 1, first), 0);
  assert_int_equal (load (f, OTHER_SPEC_FD, "placeholder\t0\ttasks\n", 1, second), 0);
  assert_int_equal (hold (f, first), 0);
  assert_true (look (f, "tasks", &made));
  assert_int_equal (hold (f, second), 0);
  assert_true (look (f, "tasks", &shared));
  assert_int_equal (shared.st_ino, made.st_ino);

  cordon_keeper_placeholders_end (first);
  assert_true (look (f, "tasks", &shared));
  assert_int_equal (shared.st_ino, made.st_ino);
  assert_true (is_held (f, "tasks"));
  cordon_keeper_placeholders_end (second);
  assert_false (exists (f, "tasks"));
}

/* The child of test_a_holder_in_another_process_keeps_it: shares the
 * placeholder, says so on `ready`, lets go when `go` says. */
static void
hold_in_child (Fixture *f,
               int ready,
               int go)
{
  KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  char byte = 'x';

  if (load (f, OTHER_SPEC_FD, "placeholder\t0\ttasks\n", 1, ph) != 0 || hold (f, ph) != 0)
    _exit (1);
  if (write (ready, &byte, 1) != 1 || read (go, &byte, 1) != 1)
    _exit (2);
  cordon_keeper_placeholders_end (ph);
  _exit (0);
}

static void
test_a_holder_in_another_process_keeps_it (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  int ready[2], go[2], status = 0;
  char byte = 'x';
  pid_t child;

  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\ttasks\n", 1, ph), 0);
  assert_int_equal (hold (f, ph), 0);
  assert_int_equal (pipe (ready), 0);
  assert_int_equal (pipe (go), 0);
  child = fork ();
  assert_true (child >= 0);
  if (child == 0)
    {
      /* Its own copy of go's write end would keep it from ever seeing
       * the end of go should this test fail before it says go. */
      close (ready[0]);
      close (go[1]);
      hold_in_child (f, ready[1], go[0]);
    }
  close (ready[1]);
  close (go[0]);
  assert_int_equal (read (ready[0], &byte, 1), 1);

  cordon_keeper_placeholders_end (ph);
  assert_true (exists (f, "tasks"));
  assert_int_equal (write (go[1], &byte, 1), 1);
  assert_int_equal (waitpid (child, &status, 0), child);
  assert_true (WIFEXITED (status));
  assert_int_equal (WEXITSTATUS (status), 0);
  assert_false (exists (f, "tasks"));
  close (ready[0]);
  close (go[1]);
}

static void
test_hold_refuses_a_directory_of_another_mode_and_leaves_it (void **state)
{
  Fixture *f = *state;
  /* 01555: the mode's special bits count too. */
  static const mode_t modes[] = { 0755, 0500, 01555 };

  for (size_t i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
      g_autofree char *path = path_of (f, ".vscode");
      g_autofree char *file = g_build_filename (path, "tasks.json", NULL);
      g_autofree char *text = NULL;
      struct stat before, after;

      make_dir (f, ".vscode", 0700);
      write_file (path, "tasks.json", "{}");
      assert_int_equal (chmod (path, modes[i]), 0);
      assert_true (look (f, ".vscode", &before));
      assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.vscode\n", 1, ph), 0);

      assert_int_equal (hold (f, ph), -1);
      assert_int_equal (errno, EEXIST);
      assert_string_equal (f->why, "cannot make (something else is there now) .vscode");
      /* What was taken is let go already. */
      assert_int_equal (ph->n, 0);
      assert_false (fd_is_open (SPEC_FD + 1));
      assert_true (look (f, ".vscode", &after));
      assert_int_equal (after.st_ino, before.st_ino);
      assert_int_equal (after.st_mode & 07777, modes[i]);
      assert_false (is_held (f, ".vscode"));
      assert_int_equal (chmod (path, 0700), 0);
      assert_true (g_file_get_contents (file, &text, NULL, NULL));
      assert_string_equal (text, "{}");
      fixture_rm_rf (path);
    }
}

static void
test_hold_refuses_a_regular_file_and_keeps_it (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  g_autofree char *path = path_of (f, ".envrc");
  g_autofree char *text = NULL;

  write_file (f->dir, ".envrc", "export X=1\n");
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.envrc\n", 1, ph), 0);

  assert_int_equal (hold (f, ph), -1);
  assert_int_equal (errno, EEXIST);
  assert_string_equal (f->why, "cannot make (something else is there now) .envrc");
  assert_true (g_file_get_contents (path, &text, NULL, NULL));
  assert_string_equal (text, "export X=1\n");
  cordon_keeper_placeholders_end (ph);
  assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
}

static void
test_hold_refuses_a_symlink_to_a_placeholder_and_follows_nothing (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  g_autofree char *target = path_of (f, "elsewhere");
  g_autofree char *link = path_of (f, ".vscode");
  struct stat before, after, st;

  /* The bait: a directory a placeholder would be taken for. */
  make_dir (f, "elsewhere", CORDON_PLACEHOLDER_MODE);
  assert_true (look (f, "elsewhere", &before));
  assert_int_equal (symlink ("elsewhere", link), 0);
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.vscode\n", 1, ph), 0);

  assert_int_equal (hold (f, ph), -1);
  assert_int_equal (errno, EEXIST);
  assert_string_equal (f->why, "cannot make (something else is there now) .vscode");
  cordon_keeper_placeholders_end (ph);
  assert_true (look (f, ".vscode", &st));
  assert_true (S_ISLNK (st.st_mode));
  assert_true (look (f, "elsewhere", &after));
  assert_int_equal (after.st_ino, before.st_ino);
  assert_int_equal (after.st_mode & 07777, CORDON_PLACEHOLDER_MODE);
  assert_int_equal (entries (target), 0);
  assert_false (is_held (f, "elsewhere"));
}

static void
test_hold_shares_one_left_by_a_killed_keeper_and_removes_it (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  struct stat left, held;

  make_dir (f, ".envrc", CORDON_PLACEHOLDER_MODE);
  assert_true (look (f, ".envrc", &left));
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.envrc\n", 1, ph), 0);

  assert_int_equal (hold (f, ph), 0);
  assert_true (look (f, ".envrc", &held));
  assert_int_equal (held.st_ino, left.st_ino);
  assert_true (is_held (f, ".envrc"));
  cordon_keeper_placeholders_end (ph);
  assert_false (exists (f, ".envrc"));
}

static void
test_end_keeps_a_placeholder_that_is_no_longer_empty (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  g_autofree char *path = path_of (f, ".vscode");
  g_autofree char *file = g_build_filename (path, "tasks.json", NULL);
  g_autofree char *text = NULL;
  struct stat st;

  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.vscode\n", 1, ph), 0);
  assert_int_equal (hold (f, ph), 0);
  /* The host writes into it during the run; its mode is put back, so
   * only its content tells it from an empty one. */
  assert_int_equal (chmod (path, 0755), 0);
  write_file (path, "tasks.json", "{\"x\": 1}");
  assert_int_equal (chmod (path, CORDON_PLACEHOLDER_MODE), 0);

  cordon_keeper_placeholders_end (ph);
  assert_true (look (f, ".vscode", &st));
  assert_true (S_ISDIR (st.st_mode));
  assert_true (g_file_get_contents (file, &text, NULL, NULL));
  assert_string_equal (text, "{\"x\": 1}");
  assert_false (is_held (f, ".vscode"));
}

static void
test_end_leaves_a_directory_made_at_the_name_since (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  g_autofree char *path = path_of (f, ".envrc");
  struct stat held, theirs, st;

  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.envrc\n", 1, ph), 0);
  assert_int_equal (hold (f, ph), 0);
  assert_true (look (f, ".envrc", &held));
  /* Someone else removes it and makes their own, of the same shape (the
   * keeper's fd on the old one keeps its inode from being reused). */
  assert_int_equal (rmdir (path), 0);
  make_dir (f, ".envrc", CORDON_PLACEHOLDER_MODE);
  assert_true (look (f, ".envrc", &theirs));
  assert_int_not_equal (theirs.st_ino, held.st_ino);

  cordon_keeper_placeholders_end (ph);
  assert_true (look (f, ".envrc", &st));
  assert_int_equal (st.st_ino, theirs.st_ino);
}

static void
test_hold_waits_for_a_run_removing_it_and_makes_it_again (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  g_autofree char *path = path_of (f, ".envrc");
  int ready[2], status = 0;
  char byte = 'x';
  struct stat old, made;
  pid_t child;
  int old_fd;

  make_dir (f, ".envrc", CORDON_PLACEHOLDER_MODE);
  assert_true (look (f, ".envrc", &old));
  /* Kept open, the old one's inode is not reused for the new one. */
  old_fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  assert_true (old_fd >= 0);
  assert_int_equal (pipe (ready), 0);
  child = fork ();
  assert_true (child >= 0);
  if (child == 0)
    {
      /* Another run's end: locked exclusively, removed a while after. */
      int fd = open (path, O_RDONLY | O_DIRECTORY);

      if (fd < 0 || flock (fd, LOCK_EX) != 0 || write (ready[1], &byte, 1) != 1)
        _exit (1);
      g_usleep (100000);
      _exit (rmdir (path) == 0 ? 0 : 2);
    }
  close (ready[1]);
  assert_int_equal (read (ready[0], &byte, 1), 1);
  close (ready[0]);
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.envrc\n", 1, ph), 0);

  assert_int_equal (hold (f, ph), 0);
  assert_int_equal (waitpid (child, &status, 0), child);
  assert_true (WIFEXITED (status));
  assert_int_equal (WEXITSTATUS (status), 0);
  assert_true (look (f, ".envrc", &made));
  assert_int_not_equal (made.st_ino, old.st_ino);
  assert_int_equal (made.st_mode & 07777, CORDON_PLACEHOLDER_MODE);
  assert_true (is_held (f, ".envrc"));
  cordon_keeper_placeholders_end (ph);
  assert_false (exists (f, ".envrc"));
  close (old_fd);
}

static void
remove_hook_path (int fd,
                  int op)
{
  assert_int_equal (rmdir (hook_path), 0);
}

static void
test_hold_does_not_take_one_removed_before_its_lock (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  g_autofree char *path = path_of (f, ".envrc");
  struct stat made;

  make_dir (f, ".envrc", CORDON_PLACEHOLDER_MODE);
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.envrc\n", 1, ph), 0);
  /* Another run's end removes it between the keeper's open and its
   * lock: the lock is had, on a directory no name holds any more. */
  hook_path = path;
  before_flock = remove_hook_path;

  assert_int_equal (hold (f, ph), 0);
  assert_null (before_flock);
  assert_held_placeholder (f, ".envrc", &made);
  cordon_keeper_placeholders_end (ph);
  assert_false (exists (f, ".envrc"));
}

static void
close_the_fd (int fd,
              int op)
{
  close (fd);
}

/* A try that made the directory and then failed (its lock, here: the fd
 * closed under it) removes what it made: nothing is left at the name. */
static void
test_a_try_that_fails_after_making_it_removes_it (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);

  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.envrc\n", 1, ph), 0);
  before_flock = close_the_fd;
  assert_int_equal (hold (f, ph), -1);
  assert_null (before_flock);
  assert_int_equal (errno, EBADF);
  assert_false (exists (f, ".envrc"));
  assert_int_equal (ph->n, 0);
}

static void
test_hold_gives_up_on_one_locked_for_good (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  g_autofree char *path = path_of (f, ".envrc");
  int fd;

  make_dir (f, ".envrc", CORDON_PLACEHOLDER_MODE);
  fd = open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  assert_true (fd >= 0);
  assert_int_equal (flock (fd, LOCK_EX), 0);
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.envrc\n", 1, ph), 0);

  /* About 2 s of tries, then EBUSY: never a wait without end. */
  assert_int_equal (hold (f, ph), -1);
  assert_int_equal (errno, EBUSY);
  assert_string_equal (f->why, "cannot make .envrc");
  assert_int_equal (ph->n, 0);
  close (fd);
  assert_true (exists (f, ".envrc"));
}

/* Refused whole: -1, EINVAL, nothing made, nothing taken. The fds of
 * the `n_taken` lines before the bad one are closed by the read; those
 * after it are not its to close. */
static void
assert_read_refuses (Fixture *f,
                     const char *spec,
                     unsigned n_parents,
                     unsigned n_taken)
{
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);

  assert_int_equal (load (f, SPEC_FD, spec, n_parents, ph), -1);
  assert_int_equal (errno, EINVAL);
  assert_string_equal (f->why, "cannot read the placeholders");
  assert_false (fd_is_open (SPEC_FD));
  /* Nothing taken: the fds of the lines read before are closed already. */
  assert_int_equal (ph->n, 0);
  for (unsigned i = 0; i < n_taken; i++)
    assert_false (fd_is_open (SPEC_FD + 1 + (int) i));
  for (unsigned i = n_taken; i < n_parents; i++)
    assert_true (fd_is_open (SPEC_FD + 1 + (int) i));
  for (unsigned i = 0; i < n_parents; i++)
    close (SPEC_FD + 1 + (int) i);
  assert_int_equal (entries (f->dir), 0);
}

static void
test_read_refuses_a_name_that_is_not_plain (void **state)
{
  Fixture *f = *state;
  static const char * const specs[] = {
    "placeholder\t0\ta/b\n",
    "placeholder\t0\t/a\n",
    "placeholder\t0\ta%2Fb\n",      /* a '/' encoded is still one */
    "placeholder\t0\t.\n",
    "placeholder\t0\t..\n",
    "placeholder\t0\t%2E%2E\n",
    "placeholder\t0\t\n",
    "placeholder\t0\t%00\n",        /* empty once decoded */
    "placeholder\t0\n",
  };

  for (size_t i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);

      assert_int_equal (load (f, SPEC_FD, specs[i], 1, ph), -1);
      assert_int_equal (errno, EINVAL);
      assert_int_equal (ph->n, 0);
      assert_string_equal (f->why, "cannot read the placeholders");
      close (SPEC_FD + 1);
    }
  assert_int_equal (entries (f->dir), 0);
}

static void
test_read_refuses_a_name_too_long (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  g_autofree char *name = g_strnfill (sizeof ph->items[0].name, 'a');
  g_autofree char *spec = g_strdup_printf ("placeholder\t0\t%s\n", name);

  assert_int_equal (load (f, SPEC_FD, spec, 1, ph), -1);
  assert_int_equal (errno, EINVAL);
  assert_int_equal (ph->n, 0);
  /* One byte less fits. */
  spec[strlen (spec) - 2] = '\n';
  spec[strlen (spec) - 1] = '\0';
  close (SPEC_FD + 1);
  assert_int_equal (load (f, SPEC_FD, spec, 1, ph), 0);
  assert_int_equal (ph->n, 1);
  assert_int_equal (strlen (ph->items[0].name), sizeof ph->items[0].name - 1);
  cordon_keeper_placeholders_end (ph);
}

static void
test_read_refuses_an_unknown_verb (void **state)
{
  Fixture *f = *state;
  static const char * const specs[] = {
    "placeholdr\t0\ta\n",
    "cgroup\t0\ta\n",
    "Placeholder\t0\ta\n",
  };

  for (size_t i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);

      assert_int_equal (load (f, SPEC_FD, specs[i], 1, ph), -1);
      assert_int_equal (errno, EINVAL);
      assert_int_equal (ph->n, 0);
      close (SPEC_FD + 1);
    }
}

/* What a loose reader took: an empty field (strtok merged it), a field
 * more, an index that is not all digits, a '%' the encoder never writes
 * (%00 cut the name short); and the control, the encoder's own %25,
 * %09, %0A, which decode. */
static void
test_read_refuses_a_line_that_is_not_exactly_the_encoder_s (void **state)
{
  Fixture *f = *state;
  static const char * const specs[] = {
    "placeholder\t\t0\ta\n",
    "placeholder\t0\ta\textra\n",
    "placeholder\t0\ta\t\n",
    "placeholder\t0x\ta\n",
    "placeholder\t+0\ta\n",
    "placeholder\t 0\ta\n",
    "placeholder\t0\tna%00me\n",
    "placeholder\t0\tna%zzme\n",
    "placeholder\t0\tname%\n",
    "placeholder\t0\tna%41me\n",
  };
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);

  for (size_t i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      g_autofree KeeperPlaceholders *each = g_new0 (KeeperPlaceholders, 1);

      if (load (f, SPEC_FD, specs[i], 1, each) != -1)
        fail_msg ("taken: %s", specs[i]);
      assert_int_equal (errno, EINVAL);
      assert_int_equal (each->n, 0);
      close (SPEC_FD + 1);
    }
  assert_int_equal (entries (f->dir), 0);
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\ta%25b%09c%0Ad%0ae\n", 1, ph), 0);
  assert_int_equal (ph->n, 1);
  assert_string_equal (ph->items[0].name, "a%b\tc\nd\ne");
  cordon_keeper_placeholders_end (ph);
}

/* The three readers themselves. */
static void
test_spec_split_index_and_strict_decode (void **state)
{
  char line[] = "a\tbb\tc";
  char empty[] = "a\t\tc", trailing[] = "a\t", more[] = "a\tb\tc\td";
  char *fields[3];
  size_t index = 7;
  char cut[] = "x%00y", upper[] = "%0A%0a%09%25";

  assert_int_equal (cordon_spec_split (line, fields, 3), 3);
  assert_string_equal (fields[0], "a");
  assert_string_equal (fields[1], "bb");
  assert_string_equal (fields[2], "c");
  assert_int_equal (cordon_spec_split (empty, fields, 3), -1);
  assert_int_equal (cordon_spec_split (trailing, fields, 3), -1);
  assert_int_equal (cordon_spec_split (more, fields, 3), -1);
  assert_int_equal (cordon_spec_index ("0", &index), 0);
  assert_int_equal (index, 0);
  assert_int_equal (cordon_spec_index ("123456", &index), 0);
  assert_int_equal (index, 123456);
  assert_int_equal (cordon_spec_index ("1234567", &index), -1);
  assert_int_equal (cordon_spec_index ("", &index), -1);
  assert_int_equal (cordon_spec_index ("1a", &index), -1);
  assert_int_equal (cordon_spec_decode_strict (cut), -1);
  assert_int_equal (cordon_spec_decode_strict (upper), 0);
  assert_string_equal (upper, "\n\n\t%");
}

static void
test_read_refuses_an_index_out_of_order (void **state)
{
  Fixture *f = *state;

  assert_read_refuses (f, "placeholder\t1\ta\n", 2, 0);
  assert_read_refuses (f, "placeholder\t0\ta\nplaceholder\t0\tb\n", 2, 1);
  assert_read_refuses (f, "placeholder\t0\ta\nplaceholder\t2\tb\n", 3, 1);
}

static void
test_read_refuses_more_placeholders_than_it_holds (void **state)
{
  Fixture *f = *state;
  g_autoptr(GString) spec = g_string_new (NULL);
  unsigned n = CORDON_KEEPER_MAX_PLACEHOLDERS + 1;

  for (unsigned i = 0; i < n; i++)
    g_string_append_printf (spec, "placeholder\t%u\tp%u\n", i, i);
  assert_read_refuses (f, spec->str, n, CORDON_KEEPER_MAX_PLACEHOLDERS);
}

static void
test_read_takes_as_many_placeholders_as_it_holds (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  g_autoptr(GString) spec = g_string_new (NULL);
  unsigned n = CORDON_KEEPER_MAX_PLACEHOLDERS;

  for (unsigned i = 0; i < n; i++)
    g_string_append_printf (spec, "placeholder\t%u\tp%u\n", i, i);
  assert_int_equal (load (f, SPEC_FD, spec->str, n, ph), 0);
  assert_int_equal (ph->n, n);
  assert_int_equal (ph->items[n - 1].parent_fd, SPEC_FD + (int) n);
  assert_string_equal (ph->items[n - 1].name, "p255");
  cordon_keeper_placeholders_end (ph);
  assert_false (fd_is_open (SPEC_FD + (int) n));
}

static void
test_read_fails_on_a_parent_fd_not_given (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);

  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\ta\nplaceholder\t1\tb\n", 1, ph), -1);
  assert_int_equal (errno, EBADF);
  assert_string_equal (f->why, "no parent fd for b");
  assert_int_equal (ph->n, 0);
  assert_false (fd_is_open (SPEC_FD + 1));
}

static void
test_a_failed_hold_removes_the_ones_it_made_before (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  int fds_before = open_fds ();

  make_dir (f, "second", 0755);
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\tfirst\nplaceholder\t1\tsecond\n", 2, ph), 0);

  assert_int_equal (hold (f, ph), -1);
  assert_int_equal (errno, EEXIST);
  assert_string_equal (f->why, "cannot make (something else is there now) second");
  assert_false (exists (f, "first"));
  assert_true (exists (f, "second"));
  assert_int_equal (ph->n, 0);
  assert_int_equal (open_fds (), fds_before);
}

static void
test_a_second_end_does_nothing (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  int fd;

  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.envrc\n", 1, ph), 0);
  assert_int_equal (hold (f, ph), 0);
  cordon_keeper_placeholders_end (ph);
  assert_false (exists (f, ".envrc"));

  /* Since: a placeholder of another run at the name, and another file at
   * the fd number the parent's had. */
  make_dir (f, ".envrc", CORDON_PLACEHOLDER_MODE);
  fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);
  assert_true (fd >= 0);
  assert_int_equal (dup2 (fd, SPEC_FD + 1), SPEC_FD + 1);
  close (fd);
  cordon_keeper_placeholders_end (ph);
  assert_true (exists (f, ".envrc"));
  assert_true (fd_is_open (SPEC_FD + 1));
}

static void
test_a_name_with_encoded_bytes_round_trips (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  const char *name = "my dir\t100%\nx";

  /* As cordon_path_append_encoded writes it: '%', tab and newline. */
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\tmy dir%09100%25%0Ax\n", 1, ph), 0);
  assert_string_equal (ph->items[0].name, name);
  assert_int_equal (hold (f, ph), 0);
  assert_true (exists (f, name));
  assert_int_equal (entries (f->dir), 1);
  cordon_keeper_placeholders_end (ph);
  assert_false (exists (f, name));
  assert_int_equal (entries (f->dir), 0);
}

static void
test_why_shows_no_control_byte_of_a_name (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);

  /* The why goes on one line to cordon: a newline would cut it. */
  write_file (f->dir, "a\tb\nc", "");
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\ta%09b%0Ac\n", 1, ph), 0);
  assert_int_equal (hold (f, ph), -1);
  assert_string_equal (f->why, "cannot make (something else is there now) a?b?c");
}

/* The kernel lets this process make an io_uring (the pin's), and no
 * seccomp filter keeps the pin from trying. */
static gboolean
io_uring_works (void)
{
#ifdef SYS_io_uring_setup
  char params[120] = { 0 };   /* struct io_uring_params */
  int ring;

  if (prctl (PR_GET_SECCOMP, 0, 0, 0, 0) != 0)
    return FALSE;
  if ((ring = (int) syscall (SYS_io_uring_setup, 1, params)) < 0)
    return FALSE;
  close (ring);
  return TRUE;
#else
  return FALSE;
#endif
}

/* Some flock(2) lock of /proc/locks is on inode `ino`. */
static gboolean
locked_in_kernel (ino_t ino)
{
  g_autofree char *locks = NULL;
  g_autofree char *needle = g_strdup_printf (":%lu ", (unsigned long) ino);

  assert_true (g_file_get_contents ("/proc/locks", &locks, NULL, NULL));
  for (char *l = strstr (locks, needle); l != NULL; l = strstr (l + 1, needle))
    {
      char *line = l;

      while (line > locks && line[-1] != '\n')
        line--;
      if (strstr (line, "FLOCK") != NULL && strstr (line, "FLOCK") < l)
        return TRUE;
    }
  return FALSE;
}

static void
test_a_pinned_placeholder_is_removed_its_lock_let_go_and_nothing_kept_open (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  int fds_before = open_fds ();
  struct stat st;

  if (!io_uring_works ())
    skip ();
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.envrc\n", 1, ph), 0);
  assert_int_equal (hold (f, ph), 0);
  assert_held_placeholder (f, ".envrc", &st);
  cordon_keeper_placeholders_pin (ph);
  assert_true (ph->pinned);
  assert_true (locked_in_kernel (st.st_ino));

  cordon_keeper_placeholders_end (ph);
  assert_false (exists (f, ".envrc"));
  /* The ring's reference outlives the end (the kernel drops it after):
   * no lock may go with it. */
  assert_false (locked_in_kernel (st.st_ino));
  assert_false (ph->pinned);
  assert_int_equal (open_fds (), fds_before);
}

static void
test_a_pinned_holder_leaves_it_to_another_which_removes_it (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *first = g_new0 (KeeperPlaceholders, 1);
  g_autofree KeeperPlaceholders *second = g_new0 (KeeperPlaceholders, 1);
  struct stat made, shared;

  if (!io_uring_works ())
    skip ();
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\ttasks\n", 1, first), 0);
  assert_int_equal (load (f, OTHER_SPEC_FD, "placeholder\t0\ttasks\n", 1, second), 0);
  assert_int_equal (hold (f, first), 0);
  assert_int_equal (hold (f, second), 0);
  assert_true (look (f, "tasks", &made));
  cordon_keeper_placeholders_pin (first);
  cordon_keeper_placeholders_pin (second);

  cordon_keeper_placeholders_end (first);
  assert_true (look (f, "tasks", &shared));
  assert_int_equal (shared.st_ino, made.st_ino);
  cordon_keeper_placeholders_end (second);
  assert_false (exists (f, "tasks"));
}

static void
test_an_end_with_none_held_closes_no_ring (void **state)
{
  Fixture *f = *state;
  g_autofree KeeperPlaceholders *ph = g_new0 (KeeperPlaceholders, 1);
  int fd = open ("/dev/null", O_RDONLY | O_CLOEXEC);

  /* Nothing to pin: no ring, and the end closes no fd of another's (a
   * zeroed ring field is fd 0). */
  assert_true (fd >= 0);
  assert_int_equal (load (f, SPEC_FD, "placeholder\t0\t.envrc\n", 1, ph), 0);
  cordon_keeper_placeholders_pin (ph);
  assert_false (ph->pinned);
  assert_int_equal (dup2 (fd, SPEC_FD + 2), SPEC_FD + 2);
  ph->ring = SPEC_FD + 2;
  cordon_keeper_placeholders_end (ph);
  assert_true (fd_is_open (SPEC_FD + 2));
  close (fd);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown (test_hold_makes_an_empty_directory_of_the_mode_whatever_the_umask, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hold_drops_the_set_group_id_bit_a_parent_hands_down, setup, teardown),
    cmocka_unit_test_setup_teardown (test_the_last_of_two_holders_removes_it, setup, teardown),
    cmocka_unit_test_setup_teardown (test_a_holder_in_another_process_keeps_it, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hold_refuses_a_directory_of_another_mode_and_leaves_it, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hold_refuses_a_regular_file_and_keeps_it, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hold_refuses_a_symlink_to_a_placeholder_and_follows_nothing, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hold_shares_one_left_by_a_killed_keeper_and_removes_it, setup, teardown),
    cmocka_unit_test_setup_teardown (test_end_keeps_a_placeholder_that_is_no_longer_empty, setup, teardown),
    cmocka_unit_test_setup_teardown (test_end_leaves_a_directory_made_at_the_name_since, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hold_waits_for_a_run_removing_it_and_makes_it_again, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hold_does_not_take_one_removed_before_its_lock, setup, teardown),
    cmocka_unit_test_setup_teardown (test_hold_gives_up_on_one_locked_for_good, setup, teardown),
    cmocka_unit_test_setup_teardown (test_a_try_that_fails_after_making_it_removes_it, setup, teardown),
    cmocka_unit_test_setup_teardown (test_read_refuses_a_name_that_is_not_plain, setup, teardown),
    cmocka_unit_test_setup_teardown (test_read_refuses_a_name_too_long, setup, teardown),
    cmocka_unit_test_setup_teardown (test_read_refuses_an_unknown_verb, setup, teardown),
    cmocka_unit_test_setup_teardown (test_read_refuses_a_line_that_is_not_exactly_the_encoder_s, setup, teardown),
    cmocka_unit_test (test_spec_split_index_and_strict_decode),
    cmocka_unit_test_setup_teardown (test_read_refuses_an_index_out_of_order, setup, teardown),
    cmocka_unit_test_setup_teardown (test_read_refuses_more_placeholders_than_it_holds, setup, teardown),
    cmocka_unit_test_setup_teardown (test_read_takes_as_many_placeholders_as_it_holds, setup, teardown),
    cmocka_unit_test_setup_teardown (test_read_fails_on_a_parent_fd_not_given, setup, teardown),
    cmocka_unit_test_setup_teardown (test_a_failed_hold_removes_the_ones_it_made_before, setup, teardown),
    cmocka_unit_test_setup_teardown (test_a_second_end_does_nothing, setup, teardown),
    cmocka_unit_test_setup_teardown (test_a_name_with_encoded_bytes_round_trips, setup, teardown),
    cmocka_unit_test_setup_teardown (test_why_shows_no_control_byte_of_a_name, setup, teardown),
    cmocka_unit_test_setup_teardown (test_a_pinned_placeholder_is_removed_its_lock_let_go_and_nothing_kept_open, setup,
                                     teardown),
    cmocka_unit_test_setup_teardown (test_a_pinned_holder_leaves_it_to_another_which_removes_it, setup, teardown),
    cmocka_unit_test_setup_teardown (test_an_end_with_none_held_closes_no_ring, setup, teardown),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
