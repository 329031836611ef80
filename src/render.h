/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* render: plan -> bwrap options, and the printable forms of them (shell,
 * nul, json, explain). Pure. No environment value is ever rendered: the
 * shell form refers to the caller's variables as "$NAME", and the envp is
 * handed to bwrap by the launcher, never as --setenv. */
#pragma once

#include "bwrap-argv.h"
#include "plan.h"

G_BEGIN_DECLS

CordonBwrapArgv *cordon_render_argv (const CordonPlan *plan);
char *cordon_render_shell (const CordonPlan *plan,
                           const CordonBwrapArgv *argv,
                           const char *bwrap_path,
                           const char *filter,
                           const char * const *command);
GVariant *cordon_render_json (const CordonPlan *plan,
                              const CordonBwrapArgv *argv,
                              const char *bwrap_path,
                              const char * const *command);
GBytes *cordon_render_as (const char *format,
                          const CordonPlan *plan,
                          const CordonBwrapArgv *argv,
                          const char *bwrap_path,
                          const char *filter,
                          const char * const *command);
char *cordon_render_filter_command (const char *cordon,
                                    const char *ref,
                                    const char *workdir);
char *cordon_render_explain (const CordonPlan *plan,
                             const CordonBwrapArgv *argv);

G_END_DECLS
