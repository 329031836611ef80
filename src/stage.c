/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stage: each tree the plan's stage names is cut here, as a detached
 * mount (open_tree), while nothing of the sandbox runs yet, and handed to
 * cordon-keeper as an fd: what the keeper attaches is what was checked
 * now, whatever a path resolves to later. A writable path's tree is
 * idmapped to a user namespace that maps the caller (root) to the host
 * user, made for the purpose by a child that is ended at once: the kernel
 * keeps the mapping with the mount. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cordon-error.h"
#include "path-util.h"
#include "protocol.h"
#include "stage.h"
#include "userns-fork.h"

/* The idmap holder (below), killed and not yet reaped, else 0: a run
 * opens one stage, whose set's clear reaps it once the launch is under
 * way (it is a field of no set: run.c's sets are of two fields). */
static pid_t idmap_holder;

void
cordon_stage_set_clear (CordonStageSet *set)
{
  g_clear_pointer (&set->spec, g_bytes_unref);
  for (guint i = 0; set->fds != NULL && i < set->fds->len; i++)
    close (g_array_index (set->fds, int, i));
  g_clear_pointer (&set->fds, g_array_unref);
  while (idmap_holder > 0 && waitpid (idmap_holder, NULL, 0) < 0 && errno == EINTR)
    ;
  idmap_holder = 0;
}

/* A user namespace mapping uid and gid 0 (the caller's files) to `uid`
 * and `gid` (the host user's): an idmapped mount of it shows root's
 * files as the user's and stores the user's as root's. The one the
 * keeper's bwrap gets is made the same way (userns-fork.c); a child,
 * held and never released, holds this one while its fd is taken. It
 * shares cordon's memory (no fork: its page tables would cost more than
 * the rest of this together) and ends when it is killed or when its
 * hold ends, which cordon's death ends: a SIGKILL of cordon at any
 * moment leaves no holder behind. It is killed here and reaped by a
 * set's clear, once the launch is under way: its exit is not waited for
 * in front of bwrap. Its stack is static, never freed: one killed may
 * run a few instructions more on it. */
static int
idmap_userns (uid_t uid,
              gid_t gid,
              GError **error)
{
  static char stack[CORDON_USERNS_CHILD_STACK] __attribute__ ((aligned (16)));
  g_autofree char *ns = NULL;
  CordonUsernsChild holder;
  int err, fd;

  if (cordon_userns_clone (uid, gid, NULL, NULL, -1, stack, &holder) != 0)
    {
      err = errno;
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot make a user namespace for the "
                   "idmapped mounts: %s", g_strerror (err));
      return -1;
    }
  ns = g_strdup_printf ("/proc/%d/ns/user", (int) holder.pid);
  fd = open (ns, O_RDONLY | O_CLOEXEC);
  err = errno;
  cordon_userns_child_kill (&holder);
  idmap_holder = holder.pid;
  if (fd < 0)
    g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot open %s: %s", ns, g_strerror (err));
  return fd;
}

static const char *
fs_name (int fd)
{
  static const struct { long magic; const char *name; } known[] = {
    { 0xEF53, "ext4" }, { 0x58465342, "xfs" }, { 0x9123683E, "btrfs" }, { 0x01021994, "tmpfs" },
    { 0x794C7630, "overlayfs" }, { 0x6969, "nfs" }, { 0x65735546, "fuse" }, { 0x858458F6, "ramfs" },
    { 0x2FC12FC1, "zfs" }, { 0xF2F52010, "f2fs" }, { 0x73717368, "squashfs" }, { 0x4D44, "vfat" },
    { (long) 0xFF534D42, "cifs" }, { 0x01021997, "9p" },
  };
  struct statfs st;

  if (fstatfs (fd, &st) != 0)
    return "unknown";
  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    if ((long) st.f_type == known[i].magic)
      return known[i].name;
  return "this one";
}

/* The way out of a refusal here. cordon's uid 0 is the host's root
 * unless cordon runs in a container's user namespace. */
#define AS_ROOT_FIX "set [identity] host-user=root (the sandbox then runs as cordon's uid 0, host " \
                    "root unless cordon is in a container's user namespace; a degradation)"

/* A detached copy of the tree at the stage's path. */
static int
clone_tree (const CordonStage *s,
            const CordonPlan *plan,
            GError **error)
{
  /* No symlink on the way, as compile checked: one made since is refused
   * here, not followed (see identity.c). */
  struct open_how how = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS };
  int path_fd = (int) syscall (SYS_openat2, AT_FDCWD, s->path, &how, sizeof how);
  int fd, saved;

  if (path_fd < 0)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot open %s without following a "
                   "symlink, for the sandbox of uid %u: %s", s->path, (guint) plan->host_uid,
                   g_strerror (errno));
      return -1;
    }
  fd = open_tree (path_fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_EMPTY_PATH);
  saved = errno;
  close (path_fd);
  /* EPERM: a mount namespace cordon's user namespace does not own
   * (cordon is root of a container's, or of another sandbox's). */
  if (fd < 0)
    g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot take %s for the sandbox of uid %u: %s%s; "
                 "%s", s->path, (guint) plan->host_uid, g_strerror (saved),
                 saved == EPERM ? " (cordon's mount namespace is not its own user namespace's: a "
                                  "container's, or another sandbox's)" : "", AS_ROOT_FIX);
  return fd;
}

/* The tree at `path`, detached; idmapped to `userns` unless it is -1.
 * Never set-ID nor devices: what the sandbox makes there must not be
 * either, through this mount. */
static int
cut_tree (const CordonStage *s,
          int userns,
          const CordonPlan *plan,
          GError **error)
{
  struct mount_attr attr = { .attr_set = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV };
  int fd = clone_tree (s, plan, error);
  g_autofree char *why = NULL;
  int saved;

  if (fd < 0)
    return -1;
  if (userns >= 0)
    {
      attr.attr_set |= MOUNT_ATTR_IDMAP;
      attr.userns_fd = (guint64) userns;
    }
  if (mount_setattr (fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof attr) == 0)
    return fd;
  saved = errno;
  why = saved == EINVAL
    ? g_strdup_printf ("its file system (%s), or one mounted below it, does not support "
                       "idmapped mounts, which need Linux 5.12 or later and a file system such "
                       "as ext4, xfs, btrfs or tmpfs", fs_name (fd))
    : g_strdup (g_strerror (saved));
  g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST,
               "cannot make %s writable for uid %u, the sandbox's host user, and keep its "
               "files the caller's: %s; move the workdir, or %s",
               s->path, (guint) plan->host_uid, why, AS_ROOT_FIX);
  close (fd);
  return -1;
}

gboolean
cordon_stage_open (const CordonPlan *plan,
                   CordonStageSet *out_set,
                   GError **error)
{
  g_auto(CordonStageSet) set = { NULL, g_array_new (FALSE, FALSE, sizeof (int)) };
  g_autoptr(GString) spec = g_string_new (NULL);
  gboolean idmapped = cordon_plan_has_stage (plan, CORDON_STAGE_IDMAP);
  int userns = idmapped ? idmap_userns (plan->host_uid, plan->host_gid, error) : -1;

  if (idmapped && userns < 0)
    return FALSE;
  for (guint i = 0; i < plan->stage->len; i++)
    {
      const CordonStage *s = g_ptr_array_index (plan->stage, i);
      int fd;

      if (s->kind == CORDON_STAGE_SHADOW)
        {
          g_string_append (spec, CORDON_STAGE_LINE_SHADOW "\t");
          cordon_path_append_encoded (spec, s->path);
          g_string_append_c (spec, '\n');
          continue;
        }
      if ((fd = cut_tree (s, s->kind == CORDON_STAGE_IDMAP ? userns : -1, plan, error)) < 0)
        {
          if (userns >= 0)
            close (userns);
          return FALSE;
        }
      g_array_append_val (set.fds, fd);
      g_string_append_printf (spec, CORDON_STAGE_LINE_ATTACH "\t%u\t%s\t", set.fds->len - 1,
                              s->is_file ? "file" : "dir");
      cordon_path_append_encoded (spec, s->path);
      g_string_append_c (spec, '\n');
    }
  if (userns >= 0)
    close (userns);
  g_string_append_printf (spec, CORDON_STAGE_LINE_IDS "\t%u\t%u\n", (guint) plan->host_uid, (guint) plan->host_gid);
  set.spec = g_string_free_to_bytes (g_steal_pointer (&spec));
  *out_set = set;
  set.spec = NULL;
  set.fds = NULL;
  return TRUE;
}
