/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* seccomp-notify: answers the refusals cordon-exec's listener is told of
 * (see seccomp-notify.h). What the notification says of the call (its
 * number and architecture) is the sandbox's and only names it: the answer
 * is an error whatever it says, so no value in it can let a call through.
 * Nothing read from it is kept beyond a bounded table of names. */
#include "config.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "seccomp-filter.h"
#include "seccomp-notify.h"

#define X32_SYSCALL_BIT 0x40000000u

/* What the kernel shows of a seccomp listener's fd. */
gboolean
cordon_seccomp_notify_is_listener (int fd)
{
  g_autofree char *link = g_strdup_printf ("/proc/self/fd/%d", fd);
  g_autofree char *target = g_file_read_link (link, NULL);

  return g_strcmp0 (target, "anon_inode:seccomp notify") == 0;
}

static void
denial_free (gpointer data)
{
  CordonSeccompDenial *d = data;

  g_free (d->syscall);
  g_free (d);
}

/* The call's name: an x32 call is x86_64's architecture with bit 30 set
 * in its number. */
static char *
name_of (guint32 arch,
         int nr)
{
  char *name;
  char *copy;

  if (arch == SCMP_ARCH_X86_64 && ((guint32) nr & X32_SYSCALL_BIT) != 0)
    arch = SCMP_ARCH_X32;
  /* libseccomp's allocation, given back as GLib's. i386's socketcall is
   * refused by socket's rule, which allow=socket lifts: named so. */
  name = seccomp_syscall_resolve_num_arch (arch, nr);
  copy = name == NULL ? g_strdup_printf ("syscall %d", nr)
                      : g_strdup (g_str_equal (name, "socketcall") ? "socket" : name);
  free (name);
  return copy;
}

static void
record_one (CordonSeccompDenials *record,
            char *name,
            int err)
{
  CordonSeccompDenial *d;

  if (record->denials == NULL)
    record->denials = g_ptr_array_new_with_free_func (denial_free);
  for (guint i = 0; i < record->denials->len; i++)
    if (g_str_equal ((d = g_ptr_array_index (record->denials, i))->syscall, name))
      {
        d->count++;
        g_free (name);
        return;
      }
  if (record->denials->len >= CORDON_SECCOMP_DENIALS_MAX)
    {
      record->others++;
      g_free (name);
      return;
    }
  d = g_new0 (CordonSeccompDenial, 1);
  d->syscall = name;
  d->err = err;
  d->count = 1;
  g_ptr_array_add (record->denials, d);
}

/* One notification, answered with its rule's errno and recorded in
 * `record` (NULL: answered only — the checks' own probes). FALSE when the
 * listener is done with (no process of the filter is left, or it failed);
 * a caller gone before its answer is no failure. */
gboolean
cordon_seccomp_notify_answer (int listener,
                              CordonSeccompDenials *record)
{
  static struct seccomp_notif_sizes sizes;
  g_autofree struct seccomp_notif *req = NULL;
  g_autofree struct seccomp_notif_resp *resp = NULL;
  g_autofree char *name = NULL;
  int err;

  if (sizes.seccomp_notif == 0 && syscall (SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0)
    return FALSE;
  /* The kernel's sizes, which may be larger than this build's structs;
   * the buffer must be zeroed before RECV. */
  req = g_malloc0 (MAX (sizes.seccomp_notif, sizeof *req));
  resp = g_malloc0 (MAX (sizes.seccomp_notif_resp, sizeof *resp));
  if (ioctl (listener, SECCOMP_IOCTL_NOTIF_RECV, req) != 0)
    return errno == EINTR || errno == ENOENT;
  name = name_of (req->data.arch, req->data.nr);
  err = cordon_seccomp_errno_of (name);
  resp->id = req->id;
  resp->error = -err;
  resp->val = 0;
  resp->flags = 0;
  /* ENOENT: the caller was killed, or its call interrupted, meanwhile. */
  if (ioctl (listener, SECCOMP_IOCTL_NOTIF_SEND, resp) != 0 && errno != ENOENT)
    return FALSE;
  if (record != NULL)
    record_one (record, g_steal_pointer (&name), err);
  return TRUE;
}

void
cordon_seccomp_denials_clear (CordonSeccompDenials *denials)
{
  g_clear_pointer (&denials->denials, g_ptr_array_unref);
  denials->others = 0;
  denials->listened = FALSE;
}
