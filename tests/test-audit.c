/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* test-audit: the walk after the run of what a sandbox left in a
 * writable path. Each case builds a tree in a fresh directory: what is
 * made before the run's start ("old", 20 ms before `since` is taken, as
 * cordon takes it before the launch) is the host's and never a finding;
 * what is made after it is the sandbox's. A finding is a repository made
 * during the run, a config in a repository that runs a program, a hook
 * or a commondir written, a FIFO or a device node, a set-ID file or one
 * with capabilities, a symlink that points out of the tree but not into
 * the host's programs, a protected entry of the root made or changed
 * (not an empty directory, not what a rule above names already), a
 * symlink on the way to one. The walk follows no symlink, stays on its file
 * system, stops at max_entries and says so; quarantine renames each
 * finding to NAME.cordon-quarantine-RANDOM and takes a set-ID bit
 * off, but leaves a repository made during the run where it is. Every
 * case asserts the exact findings (path and what, sorted by path) and
 * each "not a finding" sits beside one that is, in the same tree. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "audit.h"

#define WHAT_REPO "a repository made during the run: the host's next git command there reads its config and " \
                  "runs its hooks (left in place; each of those that runs a program is named)"
#define WHAT_CONFIG(keys) "git config written during the run sets " keys ": a program the next git command there runs"
#define WHAT_HOOK "a git hook made or changed during the run"
#define WHAT_COMMONDIR "a commondir written during the run: git takes the config and hooks of the directory it names"
#define WHAT_FIFO "a FIFO made during the run: a reader on the host blocks, or reads what the sandbox left"
#define WHAT_DEVICE "a device node made during the run"
#define WHAT_SETID "a set-user-ID or set-group-ID file made or changed during the run"
#define WHAT_CAPS "a file with capabilities made or changed during the run"
#define WHAT_SYMLINK "a symlink made during the run that points out of the writable path: what follows it " \
                     "reads or writes the host"
#define WHAT_PROTECTED(entry) "a protected path made or changed during the run ([filesystem] protect=" entry ")"
#define WHAT_ON_THE_WAY(entry) "a symlink made during the run on the way to a protected path ([filesystem] " \
                               "protect=" entry ")"

#define HARMLESS_CONFIG "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n"
#define ROOM 100000

/* --- the tree ------------------------------------------------------------- */

typedef struct
{
  char *root;                 /* canonical: the walk compares symlink targets with it */
  int fd;
  struct timespec since;
  char *other;                /* a second directory, outside root, made on demand */
  const char * const *protect; /* the protected entries the walk is given, or NULL */
} Tree;

static int
setup (void **state)
{
  Tree *t = g_new0 (Tree, 1);
  g_autofree char *made = g_dir_make_tmp ("test-audit-XXXXXX", NULL);
  char *real = made != NULL ? realpath (made, NULL) : NULL;

  if (real == NULL)
    return -1;
  t->root = g_strdup (real);
  free (real);
  t->fd = open (t->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  *state = t;
  return t->fd < 0;
}

static int
remove_entry (const char *path,
              const struct stat *st,
              int flag,
              struct FTW *ftw)
{
  remove (path);
  return 0;
}

static void
remove_tree (const char *path)
{
  if (path != NULL)
    nftw (path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

static int
teardown (void **state)
{
  Tree *t = *state;

  if (t->fd >= 0)
    close (t->fd);
  remove_tree (t->root);
  remove_tree (t->other);
  g_free (t->root);
  g_free (t->other);
  g_free (t);
  return 0;
}

static char *
path_of (const Tree *t,
         const char *rel)
{
  return g_build_filename (t->root, rel, NULL);
}

static void
make_parent (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  assert_int_equal (g_mkdir_with_parents (dir, 0755), 0);
}

static void
make_dir (const Tree *t,
          const char *rel)
{
  g_autofree char *path = path_of (t, rel);

  assert_int_equal (g_mkdir_with_parents (path, 0755), 0);
}

static void
make_file (const Tree *t,
           const char *rel,
           const char *text,
           mode_t mode)
{
  g_autofree char *path = path_of (t, rel);

  make_parent (path);
  assert_true (g_file_set_contents (path, text, -1, NULL));
  assert_int_equal (chmod (path, mode), 0);
}

static void
make_fifo (const Tree *t,
           const char *rel)
{
  g_autofree char *path = path_of (t, rel);

  make_parent (path);
  assert_int_equal (mkfifo (path, 0644), 0);
}

static void
make_symlink (const Tree *t,
              const char *rel,
              const char *target)
{
  g_autofree char *path = path_of (t, rel);

  make_parent (path);
  assert_int_equal (symlink (target, path), 0);
}

/* A repository directory as git makes it: HEAD, objects/, refs/ and a
 * config of `config` (NULL: none). */
static void
make_repository (const Tree *t,
                 const char *rel,
                 const char *config)
{
  g_autofree char *objects = g_build_filename (rel, "objects", NULL);
  g_autofree char *heads = g_build_filename (rel, "refs", "heads", NULL);
  g_autofree char *head = g_build_filename (rel, "HEAD", NULL);
  g_autofree char *cfg = g_build_filename (rel, "config", NULL);

  make_dir (t, objects);
  make_dir (t, heads);
  make_file (t, head, "ref: refs/heads/main\n", 0644);
  if (config != NULL)
    make_file (t, cfg, config, 0644);
}

/* The run starts: what is made from now on is the sandbox's. The coarse
 * clock and inode times tick in jiffies; 20 ms is several. */
static void
start_run (Tree *t)
{
  g_usleep (20000);
  assert_int_equal (clock_gettime (CLOCK_REALTIME_COARSE, &t->since), 0);
}

static const char *
relative (const Tree *t,
          const char *path)
{
  gsize len = strlen (t->root);

  if (path != NULL && strncmp (path, t->root, len) == 0 && path[len] == '/')
    return path + len + 1;
  return path;
}

/* The findings, one a line: "PATH: WHAT", then " -> ASIDE" when moved;
 * paths relative to the tree. */
static char *
describe (const Tree *t,
          const CordonAudit *audit)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < audit->findings->len; i++)
    {
      const CordonPlanted *f = g_ptr_array_index (audit->findings, i);

      g_string_append_printf (out, "%s: %s", relative (t, f->path), f->what);
      if (f->quarantined != NULL)
        {
          /* The suffix is random: "-R" here, once it is eight hex digits
           * (each one: what was moved aside in a directory moved aside). */
          g_autoptr(GRegex) random = g_regex_new ("\\.cordon-quarantine-[0-9a-f]{8}(?=/|$)", 0, 0, NULL);
          g_autofree char *aside = g_regex_replace_literal (random, relative (t, f->quarantined), -1, 0,
                                                            ".cordon-quarantine-R", 0, NULL);

          g_string_append_printf (out, " -> %s", aside);
        }
      g_string_append_c (out, '\n');
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* One audit of the whole tree; its findings described. */
static char *
walk_tree (const Tree *t,
           guint max,
           gboolean quarantine,
           guint *out_entries)
{
  CordonAudit audit;
  char *text;

  cordon_audit_init (&audit);
  cordon_audit_walk (&audit, t->fd, t->root, t->protect, &t->since, max, quarantine);
  assert_true (audit.complete);
  text = describe (t, &audit);
  if (out_entries != NULL)
    *out_entries = audit.entries;
  cordon_audit_clear (&audit);
  return text;
}

static void
assert_findings (const Tree *t,
                 gboolean quarantine,
                 const char *expected)
{
  g_autofree char *got = walk_tree (t, ROOM, quarantine, NULL);

  assert_string_equal (got, expected);
}

static gboolean
exists (const Tree *t,
        const char *rel)
{
  g_autofree char *path = path_of (t, rel);
  struct stat st;

  return lstat (path, &st) == 0;
}

static mode_t
mode_of (const Tree *t,
         const char *rel)
{
  g_autofree char *path = path_of (t, rel);
  struct stat st;

  assert_int_equal (lstat (path, &st), 0);
  return st.st_mode;
}

/* --- repositories ----------------------------------------------------------- */

static void
test_audit_names_a_repository_made_during_the_run_and_its_config_that_runs_a_program (void **state)
{
  Tree *t = *state;

  /* The host's own, config and all: not the sandbox's. */
  make_repository (t, "old/.git", "[core]\n\tfsmonitor = /old/fsm\n");
  make_file (t, "src/main.c", "int main;\n", 0644);
  start_run (t);
  make_repository (t, "vendor/evil/.git", HARMLESS_CONFIG "\tfsmonitor = /x/fsm.sh\n");
  make_file (t, "src/main.c", "int main (void);\n", 0644);

  assert_findings (t, FALSE,
                   "vendor/evil/.git: " WHAT_REPO "\n"
                   "vendor/evil/.git/config: " WHAT_CONFIG ("core.fsmonitor") "\n");
}

static void
test_audit_names_a_config_rewritten_in_an_older_repository_only_when_it_runs_a_program (void **state)
{
  Tree *t = *state;

  make_repository (t, "a/.git", HARMLESS_CONFIG);
  make_repository (t, "b/.git", HARMLESS_CONFIG);
  /* A bare repository: a directory that holds HEAD, whatever its name. */
  make_repository (t, "store.git", HARMLESS_CONFIG "\tbare = true\n");
  start_run (t);
  make_file (t, "a/.git/config", HARMLESS_CONFIG "[alias]\n\tst = !sh -c 'touch /x'\n", 0644);
  make_file (t, "a/.git/config.worktree", "[core]\n\thooksPath = /x\n", 0644);
  make_file (t, "b/.git/config", HARMLESS_CONFIG "[user]\n\tname = Someone\n", 0644);
  make_file (t, "store.git/config", HARMLESS_CONFIG "[filter \"x\"]\n\tsmudge = /x\n", 0644);

  assert_findings (t, FALSE,
                   "a/.git/config: " WHAT_CONFIG ("alias.st") "\n"
                   "a/.git/config.worktree: " WHAT_CONFIG ("core.hookspath") "\n"
                   "store.git/config: " WHAT_CONFIG ("filter.<...>.smudge") "\n");
}

static void
test_audit_names_a_hook_made_or_changed_but_no_sample_and_no_older_hook (void **state)
{
  Tree *t = *state;

  make_repository (t, "r/.git", HARMLESS_CONFIG);
  make_file (t, "r/.git/hooks/pre-push", "#!/bin/sh\n", 0755);
  make_file (t, "r/.git/hooks/pre-commit", "#!/bin/sh\n", 0755);
  make_file (t, "r/.git/hooks/update.sample", "#!/bin/sh\n", 0755);
  start_run (t);
  make_file (t, "r/.git/hooks/pre-commit", "#!/bin/sh\ntouch /x\n", 0755);
  make_file (t, "r/.git/hooks/post-checkout", "#!/bin/sh\ntouch /x\n", 0755);
  make_file (t, "r/.git/hooks/fsmonitor-watchman.sample", "#!/bin/sh\ntouch /x\n", 0755);

  assert_findings (t, FALSE,
                   "r/.git/hooks/post-checkout: " WHAT_HOOK "\n"
                   "r/.git/hooks/pre-commit: " WHAT_HOOK "\n");
}

static void
test_audit_names_a_git_file_and_a_commondir_written_during_the_run (void **state)
{
  Tree *t = *state;

  make_repository (t, "main/.git", HARMLESS_CONFIG);
  make_repository (t, "main/.git/worktrees/wt", NULL);
  make_file (t, "main/.git/worktrees/wt/commondir", "../..\n", 0644);
  make_repository (t, "main/.git/worktrees/old", NULL);
  make_file (t, "main/.git/worktrees/old/commondir", "../..\n", 0644);
  make_file (t, "old/.git", "gitdir: ../main/.git/worktrees/old\n", 0644);
  start_run (t);
  make_file (t, "main/.git/worktrees/wt/commondir", "/elsewhere/.git\n", 0644);
  make_file (t, "wt/.git", "gitdir: ../main/.git/worktrees/wt\n", 0644);

  assert_findings (t, FALSE,
                   "main/.git/worktrees/wt/commondir: " WHAT_COMMONDIR "\n"
                   "wt/.git: " WHAT_REPO "\n");
}

/* --- special files ---------------------------------------------------------------- */

static void
test_audit_names_a_fifo_made_during_the_run_but_not_an_older_one (void **state)
{
  Tree *t = *state;

  make_fifo (t, "old.fifo");
  start_run (t);
  make_fifo (t, "d/new.fifo");
  make_file (t, "d/plain", "x\n", 0644);

  assert_findings (t, FALSE, "d/new.fifo: " WHAT_FIFO "\n");
}

static void
test_audit_names_a_device_node_made_during_the_run (void **state)
{
  Tree *t = *state;
  g_autofree char *path = path_of (t, "dev/null-again");

  start_run (t);
  make_dir (t, "dev");
  /* Only root makes a device node (cmocka's skip() reads as a failure
   * to the TAP driver): as another user the case has nothing to look at. */
  if (mknod (path, S_IFCHR | 0600, makedev (1, 3)) != 0)
    {
      assert_int_equal (errno, EPERM);
      print_message ("# not root: mknod: %s\n", g_strerror (errno));
      return;
    }
  make_file (t, "dev/plain", "x\n", 0644);

  assert_findings (t, FALSE, "dev/null-again: " WHAT_DEVICE "\n");
}

static void
test_audit_names_a_set_id_file_made_or_changed_during_the_run (void **state)
{
  Tree *t = *state;
  g_autofree char *shared = path_of (t, "shared");

  make_file (t, "old-setgid", "#!/bin/sh\n", 02755);
  make_file (t, "bin/rewritten", "#!/bin/sh\n", 0755);
  start_run (t);
  make_file (t, "bin/tool", "#!/bin/sh\n", 02755);
  make_file (t, "bin/suid", "#!/bin/sh\n", 04755);
  make_file (t, "bin/rewritten", "#!/bin/sh\necho\n", 0755);
  /* A set-group-ID directory is how shared directories are made. */
  make_dir (t, "shared");
  assert_int_equal (chmod (shared, 02755), 0);
  /* chmod g+s is kept for a group of one's own: what the case relies on. */
  assert_int_equal (mode_of (t, "bin/tool") & 07777, 02755);

  assert_findings (t, FALSE,
                   "bin/suid: " WHAT_SETID "\n"
                   "bin/tool: " WHAT_SETID "\n");
}

static void
test_audit_names_an_executable_with_capabilities_set_during_the_run (void **state)
{
  Tree *t = *state;
  struct vfs_cap_data caps = { 0 };
  g_autofree char *path = path_of (t, "bin/ping");

  start_run (t);
  make_file (t, "bin/ping", "#!/bin/sh\n", 0755);
  make_file (t, "bin/plain", "#!/bin/sh\n", 0755);
  caps.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE;
  caps.data[0].permitted = 1u << CAP_NET_RAW;
  /* CAP_SETFCAP, root's: as another user nothing to look at. */
  if (setxattr (path, "security.capability", &caps, sizeof caps, 0) != 0)
    {
      assert_int_equal (errno, EPERM);
      print_message ("# not root: setxattr security.capability: %s\n", g_strerror (errno));
      return;
    }

  assert_findings (t, FALSE, "bin/ping: " WHAT_CAPS "\n");
}

/* --- symlinks --------------------------------------------------------------------- */

static void
test_audit_names_a_symlink_out_of_the_tree_but_not_into_the_host_s_programs_or_inside (void **state)
{
  Tree *t = *state;
  g_autofree char *sibling = g_strconcat (t->root, "-sibling/file", NULL);

  make_symlink (t, "old-passwd", "/etc/passwd");
  start_run (t);
  make_symlink (t, "pw", "/etc/passwd");
  make_symlink (t, "a/up", "../../x");
  make_symlink (t, "a/dotdot-usr", "/usr/../etc/shadow");
  /* Shares the root's name as a prefix, but is not below it. */
  make_symlink (t, "sibling", sibling);
  /* What a virtualenv and node_modules make: not findings. */
  make_symlink (t, "venv/bin/python3", "/usr/bin/python3");
  make_symlink (t, "venv/bin/python", "python3");
  make_symlink (t, "venv/lib64", "lib");
  make_symlink (t, "node_modules/.bin/tool", "../tool/cli.js");
  make_symlink (t, "a/libc", "/lib/x86_64-linux-gnu/libc.so.6");
  make_symlink (t, "a/sh", "/bin/sh");
  make_symlink (t, "a/self", t->root);

  assert_findings (t, FALSE,
                   "a/dotdot-usr: " WHAT_SYMLINK "\n"
                   "a/up: " WHAT_SYMLINK "\n"
                   "pw: " WHAT_SYMLINK "\n"
                   "sibling: " WHAT_SYMLINK "\n");
}

static void
test_audit_never_follows_a_symlinked_directory (void **state)
{
  Tree *t = *state;
  guint entries = 0;
  g_autofree char *outside = NULL;
  g_autofree char *fifo = NULL;
  g_autofree char *got = NULL;

  t->other = g_dir_make_tmp ("test-audit-other-XXXXXX", NULL);
  assert_non_null (t->other);
  outside = realpath (t->other, NULL);
  assert_non_null (outside);
  start_run (t);
  fifo = g_build_filename (outside, "planted.fifo", NULL);
  assert_int_equal (mkfifo (fifo, 0644), 0);
  make_symlink (t, "etc", "/etc");
  make_symlink (t, "out", outside);

  got = walk_tree (t, ROOM, FALSE, &entries);
  assert_string_equal (got, "etc: " WHAT_SYMLINK "\n" "out: " WHAT_SYMLINK "\n");
  assert_int_equal (entries, 2);

  /* The control: walked itself, the directory the link names has a
   * finding the walk above would have seen through the link. */
  {
    Tree other = { outside, open (outside, O_RDONLY | O_DIRECTORY | O_CLOEXEC), t->since, NULL, NULL };
    g_autofree char *there = NULL;

    assert_true (other.fd >= 0);
    there = walk_tree (&other, ROOM, FALSE, NULL);
    close (other.fd);
    assert_string_equal (there, "planted.fifo: " WHAT_FIFO "\n");
  }
}

/* --- bounds ----------------------------------------------------------------------- */

/* A walk of `root` from a fd opened for it (a walk reads its root fd to
 * the end): the entries it looked at, G_MAXUINT when it stopped short;
 * and how many findings it has. */
static guint
walk_root (const char *root,
           const struct timespec *since,
           guint max,
           guint *out_findings)
{
  CordonAudit audit;
  int fd = open (root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  guint entries;

  assert_true (fd >= 0);
  cordon_audit_init (&audit);
  cordon_audit_walk (&audit, fd, root, NULL, since, max, FALSE);
  close (fd);
  entries = audit.complete ? audit.entries : G_MAXUINT;
  *out_findings = audit.findings->len;
  cordon_audit_clear (&audit);
  return entries;
}

static void
test_audit_stops_after_max_entries_and_says_so (void **state)
{
  Tree *t = *state;
  g_autofree char *fifo = NULL;
  g_autofree char *more = NULL;
  CordonAudit audit;
  guint findings = 0;
  int more_fd;

  start_run (t);
  for (guint i = 0; i < 50; i++)
    {
      g_autofree char *name = g_strdup_printf ("files/f%02u", i);

      make_file (t, name, "x\n", 0644);
    }
  t->other = g_dir_make_tmp ("test-audit-more-XXXXXX", NULL);
  assert_non_null (t->other);
  fifo = g_build_filename (t->other, "planted.fifo", NULL);
  assert_int_equal (mkfifo (fifo, 0644), 0);
  more = realpath (t->other, NULL);
  more_fd = open (more, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  assert_true (more_fd >= 0);

  cordon_audit_init (&audit);
  cordon_audit_walk (&audit, t->fd, t->root, NULL, &t->since, 5, FALSE);
  assert_false (audit.complete);
  assert_true (audit.entries <= 6);
  /* The bound is for all the walks of one audit: another writable path
   * is not walked once it is reached, its FIFO not seen. */
  cordon_audit_walk (&audit, more_fd, more, NULL, &t->since, 5, FALSE);
  assert_false (audit.complete);
  /* The one finding: that the walk stopped, at the root, not held. */
  assert_int_equal (audit.findings->len, 1);
  assert_string_equal (((CordonPlanted *) g_ptr_array_index (audit.findings, 0))->path, t->root);
  assert_non_null (strstr (((CordonPlanted *) g_ptr_array_index (audit.findings, 0))->what, "max-entries"));
  assert_int_equal (audit.unheld, 1);
  cordon_audit_clear (&audit);
  close (more_fd);

  /* The controls: with room enough the tree is walked whole, and
   * walked on its own the other path has the FIFO. */
  assert_int_equal (walk_root (t->root, &t->since, ROOM, &findings), 51);
  assert_int_equal (findings, 0);
  assert_int_equal (walk_root (more, &t->since, 5, &findings), 1);
  assert_int_equal (findings, 1);
}

/* In a child with a mount namespace of its own (and a user namespace
 * when not root): a tmpfs at mnt/ with a FIFO made in it, and one beside
 * it; the findings of the tree's walk, "--", those of mnt/'s own. "SKIP:
 * why" when no mount can be made. */
/* A write in place, as /proc's map files take it (g_file_set_contents
 * writes a temporary file beside it). */
static gboolean
write_proc (const char *path,
            const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  gboolean done = fd >= 0 && write (fd, text, strlen (text)) == (ssize_t) strlen (text);

  if (fd >= 0)
    close (fd);
  return done;
}

static char *
walk_across_a_mount (Tree *t)
{
  g_autofree char *mnt = path_of (t, "mnt");
  g_autofree char *inner = path_of (t, "mnt/inner.fifo");
  g_autofree char *outer = path_of (t, "outer.fifo");
  g_autofree char *text = NULL;
  g_autofree char *uid_map = g_strdup_printf ("%u %u 1", getuid (), getuid ());
  g_autofree char *gid_map = g_strdup_printf ("%u %u 1", getgid (), getgid ());
  int flags = geteuid () == 0 ? CLONE_NEWNS : CLONE_NEWUSER | CLONE_NEWNS;
  Tree sub = { mnt, -1, t->since, NULL, NULL };
  Tree top = { t->root, -1, t->since, NULL, NULL };
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  if (unshare (flags) != 0)
    text = g_strdup_printf ("SKIP: unshare: %s", g_strerror (errno));
  else if ((flags & CLONE_NEWUSER)
           && (!write_proc ("/proc/self/setgroups", "deny") || !write_proc ("/proc/self/uid_map", uid_map)
               || !write_proc ("/proc/self/gid_map", gid_map)))
    text = g_strdup ("SKIP: cannot map the user namespace");
  else if (mount ("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0
           || mount ("tmpfs", mnt, "tmpfs", 0, "mode=0755") != 0)
    text = g_strdup_printf ("SKIP: mount: %s", g_strerror (errno));
  /* The tree's fd is opened again: the one of before the unshare is
   * of the parent's mounts, where mnt/ is a plain directory. */
  else if (mkfifo (inner, 0644) != 0 || mkfifo (outer, 0644) != 0
           || (sub.fd = open (mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0
           || (top.fd = open (t->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    text = g_strdup_printf ("ERROR: cannot populate the tmpfs: %s", g_strerror (errno));
  else
    {
      CordonAudit audit;

      cordon_audit_init (&audit);
      cordon_audit_walk (&audit, top.fd, top.root, NULL, &t->since, ROOM, FALSE);
      a = describe (t, &audit);
      cordon_audit_clear (&audit);
      cordon_audit_init (&audit);
      cordon_audit_walk (&audit, sub.fd, sub.root, NULL, &t->since, ROOM, FALSE);
      b = describe (t, &audit);
      cordon_audit_clear (&audit);
      text = g_strdup_printf ("%s--\n%s", a, b);
    }
  return g_steal_pointer (&text);
}

static void
test_audit_does_not_descend_into_another_file_system (void **state)
{
  Tree *t = *state;
  g_autoptr(GString) got = NULL;
  char buf[4096];
  ssize_t n;
  int fds[2];
  int status;
  pid_t pid;

  make_dir (t, "mnt");
  start_run (t);
  assert_int_equal (pipe (fds), 0);
  pid = fork ();
  assert_true (pid >= 0);
  if (pid == 0)
    {
      char *text = walk_across_a_mount (t);
      gboolean sent = write (fds[1], text, strlen (text)) == (ssize_t) strlen (text);

      g_free (text);
      _exit (sent ? 0 : 1);
    }
  close (fds[1]);
  got = g_string_new (NULL);
  while ((n = read (fds[0], buf, sizeof buf)) > 0)
    g_string_append_len (got, buf, n);
  close (fds[0]);
  assert_int_equal (waitpid (pid, &status, 0), pid);
  assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  if (g_str_has_prefix (got->str, "SKIP: "))
    {
      print_message ("# %s\n", got->str);
      return;
    }
  /* Before "--": the tree, whose mnt/ is not descended; after it the
   * control, mnt/ walked on its own, where the FIFO is found. */
  assert_string_equal (got->str,
                       "outer.fifo: " WHAT_FIFO "\n"
                       "--\n"
                       "mnt/inner.fifo: " WHAT_FIFO "\n");
}

/* --- protected paths -------------------------------------------------------------- */

/* base.policy's [filesystem] protect=, as the plan holds them. */
static const char * const PROTECT[] = {
  ".git/hooks", ".git/config", ".git/commondir", ".git/modules", ".git/worktrees", ".gitmodules", ".vscode",
  ".idea", ".envrc", ".mcp.json", ".direnv", ".husky", ".githooks", ".pre-commit-config.yaml", "lefthook.yml",
  ".lefthook.yml", NULL
};

static void
test_audit_names_a_protected_file_made_during_the_run_but_not_an_older_one (void **state)
{
  Tree *t = *state;
  static const char * const without_envrc[] = { ".mcp.json", ".vscode", NULL };

  make_file (t, ".mcp.json", "{}\n", 0644);
  make_file (t, "sub/.envrc", "old\n", 0644);
  start_run (t);
  make_file (t, ".envrc", "export PATH=/x:$PATH\n", 0644);
  /* Not protected: no entry names it, nor one below the root. */
  make_file (t, ".tool-versions", "python 3\n", 0644);
  make_file (t, "sub/.envrc", "export PATH=/x:$PATH\n", 0644);

  t->protect = PROTECT;
  assert_findings (t, FALSE, ".envrc: " WHAT_PROTECTED (".envrc") "\n");
  /* The controls: the same tree, .envrc taken out (unprotect=), or no
   * entry at all: nothing. */
  t->protect = without_envrc;
  assert_findings (t, FALSE, "");
  t->protect = NULL;
  assert_findings (t, FALSE, "");
}

static void
test_audit_names_a_protected_directory_made_during_the_run_only_when_it_holds_something (void **state)
{
  Tree *t = *state;

  make_dir (t, ".husky/_");
  start_run (t);
  /* What cordon leaves: an empty mount point. */
  make_dir (t, ".vscode");
  make_dir (t, ".direnv");
  make_file (t, ".idea/workspace.xml", "<project/>\n", 0644);
  make_file (t, ".githooks/pre-commit", "#!/bin/sh\n", 0755);
  make_file (t, ".husky/_/h", "#!/bin/sh\n", 0755);

  t->protect = PROTECT;
  /* .husky/ is older and its own times did not change: what is two
   * levels down, in a directory the host had, is no entry's. */
  assert_findings (t, FALSE,
                   ".githooks: " WHAT_PROTECTED (".githooks") "\n"
                   ".idea: " WHAT_PROTECTED (".idea") "\n");
}

static void
test_audit_names_a_symlink_made_at_a_protected_path_once (void **state)
{
  Tree *t = *state;

  make_file (t, "notes", "x\n", 0644);
  start_run (t);
  /* Inside the tree, no finding of the symlink rule's. */
  make_symlink (t, ".envrc", "notes");
  make_symlink (t, ".vscode", "notes");
  /* Out of it: the symlink rule names it, the one finding there. */
  make_symlink (t, ".mcp.json", "/etc/passwd");

  t->protect = PROTECT;
  assert_findings (t, FALSE,
                   ".envrc: " WHAT_PROTECTED (".envrc") "\n"
                   ".mcp.json: " WHAT_SYMLINK "\n"
                   ".vscode: " WHAT_PROTECTED (".vscode") "\n");
}

static void
test_audit_walks_a_protected_entry_of_several_components_through_its_directories (void **state)
{
  Tree *t = *state;
  static const char * const deep[] = { "tools/ci/run.sh", "etc/x/hook", NULL };

  make_repository (t, ".git", NULL);
  make_repository (t, "sub/.git", HARMLESS_CONFIG);
  make_dir (t, "tools/ci");
  make_dir (t, "etc");
  start_run (t);
  make_file (t, ".git/config", HARMLESS_CONFIG, 0644);
  make_file (t, "sub/.git/config", HARMLESS_CONFIG "\tbare = false\n", 0644);
  make_file (t, "tools/ci/run.sh", "#!/bin/sh\n", 0755);
  /* On the way to etc/x/hook: the host that goes there goes where it points. */
  make_symlink (t, "etc/x", "../tools");

  t->protect = PROTECT;
  /* A config that runs nothing is no finding of the repository rules;
   * one at the root's .git is a protected path. sub/'s is no entry's. */
  assert_findings (t, FALSE, ".git/config: " WHAT_PROTECTED (".git/config") "\n");
  t->protect = deep;
  assert_findings (t, FALSE,
                   "etc/x: " WHAT_ON_THE_WAY ("etc/x/hook") "\n"
                   "tools/ci/run.sh: " WHAT_PROTECTED ("tools/ci/run.sh") "\n");
}

/* What a repository rule names is not named again as a protected path. */
static void
test_audit_names_a_protected_path_a_repository_rule_names_once (void **state)
{
  Tree *t = *state;

  make_repository (t, ".git", HARMLESS_CONFIG);
  start_run (t);
  make_file (t, ".git/config", HARMLESS_CONFIG "\tfsmonitor = /x/fsm.sh\n", 0644);
  make_file (t, ".git/commondir", "/elsewhere/.git\n", 0644);
  /* A new hooks/: each hook in it is named, the directory is not. */
  make_file (t, ".git/hooks/pre-commit", "#!/bin/sh\ntouch /x\n", 0755);
  make_file (t, ".git/hooks/pre-push.sample", "#!/bin/sh\n", 0755);

  t->protect = PROTECT;
  assert_findings (t, FALSE,
                   ".git/commondir: " WHAT_COMMONDIR "\n"
                   ".git/config: " WHAT_CONFIG ("core.fsmonitor") "\n"
                   ".git/hooks/pre-commit: " WHAT_HOOK "\n");
}

static void
test_audit_leaves_what_is_in_a_repository_made_during_the_run_to_its_rules (void **state)
{
  Tree *t = *state;

  start_run (t);
  /* git init: a config that runs nothing, sample hooks. */
  make_repository (t, ".git", HARMLESS_CONFIG);
  make_file (t, ".git/hooks/pre-commit.sample", "#!/bin/sh\n", 0755);
  make_file (t, ".envrc", "x\n", 0644);

  t->protect = PROTECT;
  assert_findings (t, FALSE,
                   ".envrc: " WHAT_PROTECTED (".envrc") "\n"
                   ".git: " WHAT_REPO "\n");
}

/* The finding at `path`, or NULL. */
static const char *
what_at (const CordonAudit *audit,
         const char *path)
{
  for (guint i = 0; i < audit->findings->len; i++)
    if (g_str_equal (((CordonPlanted *) g_ptr_array_index (audit->findings, i))->path, path))
      return ((CordonPlanted *) g_ptr_array_index (audit->findings, i))->what;
  return NULL;
}

static void
test_audit_looks_at_the_protected_paths_of_a_root_the_bound_leaves_unwalked (void **state)
{
  Tree *t = *state;
  g_autofree char *more = NULL;
  g_autofree char *envrc = NULL;
  g_autofree char *here = path_of (t, ".envrc");
  CordonAudit audit;
  int more_fd;

  start_run (t);
  make_file (t, ".envrc", "x\n", 0644);
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = g_strdup_printf ("files/f%02u", i);

      make_file (t, name, "x\n", 0644);
    }
  t->other = g_dir_make_tmp ("test-audit-more-XXXXXX", NULL);
  assert_non_null (t->other);
  more = realpath (t->other, NULL);
  envrc = g_build_filename (more, ".envrc", NULL);
  assert_true (g_file_set_contents (envrc, "x\n", -1, NULL));
  more_fd = open (more, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  assert_true (more_fd >= 0);

  cordon_audit_init (&audit);
  cordon_audit_walk (&audit, t->fd, t->root, PROTECT, &t->since, 5, FALSE);
  cordon_audit_walk (&audit, more_fd, more, PROTECT, &t->since, 5, FALSE);
  close (more_fd);
  assert_false (audit.complete);
  /* That the walk stopped, at the first root; each root's .envrc all
   * the same, the one the walk stopped in and the one never walked. */
  assert_int_equal (audit.findings->len, 3);
  assert_non_null (strstr (what_at (&audit, t->root), "max-entries"));
  assert_string_equal (what_at (&audit, here), WHAT_PROTECTED (".envrc"));
  assert_string_equal (what_at (&audit, envrc), WHAT_PROTECTED (".envrc"));
  cordon_audit_clear (&audit);
}

/* --- quarantine ------------------------------------------------------------------- */

static void
test_audit_quarantine_moves_each_finding_aside_and_takes_off_a_set_id_bit (void **state)
{
  Tree *t = *state;
  g_autofree char *kept = NULL;
  g_autofree char *kept_path = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint moved = 0;

  /* What the host had at the old aside name stays as it was. */
  make_file (t, "h.fifo.cordon-quarantine", "the host's\n", 0644);
  start_run (t);
  make_fifo (t, "f.fifo");
  make_fifo (t, "h.fifo");
  make_file (t, "g", "#!/bin/sh\n", 02755);
  make_symlink (t, "pw", "/etc/passwd");
  make_file (t, "plain", "x\n", 0644);

  assert_findings (t, TRUE,
                   "f.fifo: " WHAT_FIFO " -> f.fifo.cordon-quarantine-R\n"
                   "g: " WHAT_SETID " -> g.cordon-quarantine-R\n"
                   "h.fifo: " WHAT_FIFO " -> h.fifo.cordon-quarantine-R\n"
                   "pw: " WHAT_SYMLINK " -> pw.cordon-quarantine-R\n");
  assert_false (exists (t, "f.fifo"));
  assert_false (exists (t, "g"));
  assert_false (exists (t, "h.fifo"));
  assert_false (exists (t, "pw"));
  dir = g_dir_open (t->root, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      if (g_str_has_prefix (name, "g.cordon-quarantine-"))
        {
          assert_true (S_ISREG (mode_of (t, name)));
          assert_int_equal (mode_of (t, name) & 07777, 0755);
          moved++;
        }
      if (g_str_has_prefix (name, "pw.cordon-quarantine-"))
        assert_true (S_ISLNK (mode_of (t, name))), moved++;
      if (g_str_has_prefix (name, "f.fifo.cordon-quarantine-"))
        assert_true (S_ISFIFO (mode_of (t, name))), moved++;
    }
  assert_int_equal (moved, 3);
  kept_path = path_of (t, "h.fifo.cordon-quarantine");
  assert_true (g_file_get_contents (kept_path, &kept, NULL, NULL));
  assert_string_equal (kept, "the host's\n");
  assert_true (exists (t, "plain"));
}

static void
test_audit_quarantine_leaves_a_new_repository_in_place_and_moves_what_runs (void **state)
{
  Tree *t = *state;

  start_run (t);
  make_repository (t, "evil/.git", HARMLESS_CONFIG "\tfsmonitor = /x/fsm.sh\n");
  make_file (t, "evil/.git/hooks/pre-commit", "#!/bin/sh\ntouch /x\n", 0755);
  make_file (t, "evil/.git/hooks/pre-commit.sample", "#!/bin/sh\n", 0755);

  assert_findings (t, TRUE,
                   "evil/.git: " WHAT_REPO "\n"
                   "evil/.git/config: " WHAT_CONFIG ("core.fsmonitor") " -> evil/.git/config.cordon-quarantine-R\n"
                   "evil/.git/hooks/pre-commit: " WHAT_HOOK " -> evil/.git/hooks/pre-commit.cordon-quarantine-R\n");
  assert_true (exists (t, "evil/.git/HEAD"));
  assert_false (exists (t, "evil/.git/config"));
  assert_false (exists (t, "evil/.git/hooks/pre-commit"));
  assert_true (exists (t, "evil/.git/hooks/pre-commit.sample"));
}

static void
test_audit_quarantine_moves_a_protected_path_aside_with_what_was_moved_in_it (void **state)
{
  Tree *t = *state;
  g_autofree char *tasks = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint moved = 0;

  start_run (t);
  make_file (t, ".envrc", "export PATH=/x:$PATH\n", 0644);
  make_file (t, ".vscode/tasks.json", "{\"tasks\": []}\n", 0644);
  make_fifo (t, ".vscode/pipe");
  make_dir (t, ".idea");

  t->protect = PROTECT;
  assert_findings (t, TRUE,
                   ".envrc: " WHAT_PROTECTED (".envrc") " -> .envrc.cordon-quarantine-R\n"
                   ".vscode: " WHAT_PROTECTED (".vscode") " -> .vscode.cordon-quarantine-R\n"
                   ".vscode/pipe: " WHAT_FIFO " -> .vscode.cordon-quarantine-R/pipe.cordon-quarantine-R\n");
  assert_false (exists (t, ".envrc"));
  assert_false (exists (t, ".vscode"));
  assert_true (exists (t, ".idea"));
  dir = g_dir_open (t->root, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      if (g_str_has_prefix (name, ".envrc.cordon-quarantine-"))
        assert_true (S_ISREG (mode_of (t, name))), moved++;
      if (g_str_has_prefix (name, ".vscode.cordon-quarantine-"))
        {
          tasks = g_build_filename (name, "tasks.json", NULL);
          assert_true (exists (t, tasks));
          moved++;
        }
    }
  assert_int_equal (moved, 2);
}

static void
test_audit_without_quarantine_moves_nothing (void **state)
{
  Tree *t = *state;

  start_run (t);
  make_fifo (t, "f.fifo");
  make_file (t, "g", "#!/bin/sh\n", 02755);
  make_repository (t, "evil/.git", "[core]\n\tfsmonitor = /x/fsm.sh\n");

  assert_findings (t, FALSE,
                   "evil/.git: " WHAT_REPO "\n"
                   "evil/.git/config: " WHAT_CONFIG ("core.fsmonitor") "\n"
                   "f.fifo: " WHAT_FIFO "\n"
                   "g: " WHAT_SETID "\n");
  assert_true (S_ISFIFO (mode_of (t, "f.fifo")));
  assert_int_equal (mode_of (t, "g") & 07777, 02755);
  assert_true (exists (t, "evil/.git/config"));
}

#define T(f) cmocka_unit_test_setup_teardown (f, setup, teardown)

int
main (void)
{
  const struct CMUnitTest tests[] = {
    T (test_audit_names_a_repository_made_during_the_run_and_its_config_that_runs_a_program),
    T (test_audit_names_a_config_rewritten_in_an_older_repository_only_when_it_runs_a_program),
    T (test_audit_names_a_hook_made_or_changed_but_no_sample_and_no_older_hook),
    T (test_audit_names_a_git_file_and_a_commondir_written_during_the_run),
    T (test_audit_names_a_fifo_made_during_the_run_but_not_an_older_one),
    T (test_audit_names_a_device_node_made_during_the_run),
    T (test_audit_names_a_set_id_file_made_or_changed_during_the_run),
    T (test_audit_names_an_executable_with_capabilities_set_during_the_run),
    T (test_audit_names_a_symlink_out_of_the_tree_but_not_into_the_host_s_programs_or_inside),
    T (test_audit_never_follows_a_symlinked_directory),
    T (test_audit_stops_after_max_entries_and_says_so),
    T (test_audit_does_not_descend_into_another_file_system),
    T (test_audit_names_a_protected_file_made_during_the_run_but_not_an_older_one),
    T (test_audit_names_a_protected_directory_made_during_the_run_only_when_it_holds_something),
    T (test_audit_names_a_symlink_made_at_a_protected_path_once),
    T (test_audit_walks_a_protected_entry_of_several_components_through_its_directories),
    T (test_audit_names_a_protected_path_a_repository_rule_names_once),
    T (test_audit_leaves_what_is_in_a_repository_made_during_the_run_to_its_rules),
    T (test_audit_looks_at_the_protected_paths_of_a_root_the_bound_leaves_unwalked),
    T (test_audit_quarantine_moves_each_finding_aside_and_takes_off_a_set_id_bit),
    T (test_audit_quarantine_leaves_a_new_repository_in_place_and_moves_what_runs),
    T (test_audit_quarantine_moves_a_protected_path_aside_with_what_was_moved_in_it),
    T (test_audit_without_quarantine_moves_nothing),
  };

  return cmocka_run_group_tests (tests, NULL, NULL);
}
