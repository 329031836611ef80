/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* doctor: what on this host decides whether a sandbox can be made, each
 * finding with the narrowest fix. Reads the host; prints nothing. */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef struct
{
  char *name;      /* short key: "user-namespaces", "bwrap", ... */
  char *value;     /* what was found */
  gboolean ok;     /* nothing to fix */
  char *fix;       /* the narrowest fix, or NULL */
} CordonFinding;

typedef struct
{
  const char *bwrap_path;
  const char *cache_dir;
  uid_t uid;
  uid_t host_uid;           /* whom a sandbox of the default policy runs as */
  gid_t host_gid;
  const char *host_user_error; /* why a root caller's sandbox cannot run as host_uid, or NULL */
} CordonDoctorRequest;

GPtrArray *cordon_doctor_run (const CordonDoctorRequest *request);
char *cordon_doctor_to_json (GPtrArray *findings,
                             GError **error);
char *cordon_doctor_to_text (GPtrArray *findings);
GPtrArray *cordon_doctor_examine (const char *bwrap,
                                  const char * const *envp,
                                  GError **error);

G_END_DECLS
