/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* probe: can a private /proc be mounted with this namespace shape? bwrap
 * is run once on `true`; the answer is cached, keyed by everything that
 * could change it (boot, the caller's mount and pid namespaces, the bwrap
 * binary, uid, namespace shape), so a later run costs a stat and a read.
 * A failure is classified from cordon's own checks of the host, never
 * from bwrap's hint text. */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef enum
{
  CORDON_PROBE_OK,
  CORDON_PROBE_USERNS_DISABLED,   /* user.max_user_namespaces=0 or similar */
  CORDON_PROBE_APPARMOR,          /* apparmor_restrict_unprivileged_userns */
  CORDON_PROBE_SECCOMP,           /* a seccomp filter on cordon refuses CLONE_NEWUSER, or is there when
                                   * bwrap fails for no other cause */
  CORDON_PROBE_USERNS_LIMIT,      /* ENOSPC: --disable-userns outside, or a limit */
  CORDON_PROBE_ROOT_MAP,          /* uid 0 in a user namespace without CAP_SETFCAP */
  CORDON_PROBE_PROC_MASKED,       /* namespaces work, procfs cannot be mounted */
  CORDON_PROBE_NAMESPACES_FAILED, /* bwrap cannot set up the namespaces at all */
  CORDON_PROBE_MAX
} CordonProbeResult;

typedef struct
{
  CordonProbeResult result;
  gboolean cached;      /* answered from the cache */
  gboolean disable_userns; /* this bwrap takes --disable-userns (tried, not read from --help) */
  char *cache_path;     /* NULL when no cache directory could be used */
  char *detail;         /* one line: the cause and the narrowest fix (bwrap's own message beside it) */
  char *bwrap_message;  /* the first line bwrap wrote when the probe failed, or NULL */
} CordonProbe;

/* Everything the probe depends on, gathered by the caller. */
typedef struct
{
  const char *bwrap_path;
  guint namespaces;          /* CordonNamespaces bits of the plan */
  uid_t uid;                 /* the caller: the cache is its */
  const char *cache_dir;     /* NULL: no cache */
  gboolean refresh;          /* --reprobe */
  gboolean switch_identity;  /* bwrap runs as host_uid/host_gid, not as the caller */
  uid_t host_uid;
  gid_t host_gid;
  const GArray *uid_map;     /* cordon's /proc/self/uid_map (host facts), or NULL: read it */
} CordonProbeRequest;

CordonProbe *cordon_probe_run (const CordonProbeRequest *request,
                               GError **error);
void cordon_probe_free (CordonProbe *probe);
const char *cordon_probe_result_name (CordonProbeResult result);
int cordon_probe_open_cache_dir (const char *dir,
                                 uid_t uid);
char *cordon_probe_default_cache_dir (const char * const *envp);
char *cordon_probe_read_value (const char *path);
char *cordon_probe_proc_mismatch (void);
CordonProbeResult cordon_probe_classify (const CordonProbeRequest *request,
                                         gboolean namespaces_only);
char *cordon_probe_describe (CordonProbeResult result);
char *cordon_probe_cache_key (const CordonProbeRequest *request,
                              GError **error);
char **cordon_probe_bwrap_args (guint namespaces,
                                gboolean with_proc);

/* One line of /proc/PID/uid_map or gid_map. */
typedef struct
{
  guint64 inside;
  guint64 outside;
  guint64 count;
} CordonIdRange;

GArray *cordon_probe_read_id_map (const char *path);
gboolean cordon_probe_id_map_find (const GArray *map,
                                   guint64 inside,
                                   guint64 *out_outside);
guint64 cordon_probe_self_caps (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CordonProbe, cordon_probe_free)

G_END_DECLS
