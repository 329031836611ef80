/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* report-target: where the report goes, settled and held open before the
 * sandbox runs, so that what the sandbox does to the path cannot move the
 * report (invariant 10). */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef enum
{
  CORDON_REPORT_TARGET_FILE,    /* a name in a directory held open: replaced */
  CORDON_REPORT_TARGET_STREAM,  /* an fd held open: written through */
  CORDON_REPORT_TARGET_MAX
} CordonReportTargetKind;

typedef struct _CordonReportTarget CordonReportTarget;

CordonReportTarget *cordon_report_target_open (const char *path,
                                               uid_t owner,
                                               GError **error);
CordonReportTarget *cordon_report_target_open_fd (int fd,
                                                  GError **error);
gboolean cordon_report_target_settle (CordonReportTarget *target,
                                      const char * const *writable,
                                      GError **error);
CordonReportTargetKind cordon_report_target_get_kind (const CordonReportTarget *target);
const char *cordon_report_target_get_name (const CordonReportTarget *target);
gboolean cordon_report_target_write (CordonReportTarget *target,
                                     const char *data,
                                     gsize len,
                                     GError **error);
void cordon_report_target_free (CordonReportTarget *target);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CordonReportTarget, cordon_report_target_free)

G_END_DECLS
