/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* git-identity: the caller's git user.name and user.email, for
 * [environment] git-identity (the sandbox's GIT_AUTHOR_* and
 * GIT_COMMITTER_*). Read from the caller's global config files as git
 * finds them ($GIT_CONFIG_GLOBAL alone when set; else
 * $XDG_CONFIG_HOME/git/config, then ~/.gitconfig, the later winning),
 * below the facts' sysroot, and nothing else of them: no include, no
 * credential helper, no URL rewrite (which can hold a token), no hook
 * path. A value this reader does not take plainly, or one that is not
 * short printable UTF-8, is left out. */
#pragma once

#include "host-facts.h"

G_BEGIN_DECLS

/* The longest value taken, in bytes. */
#define CORDON_GIT_IDENTITY_MAX 256

/* Sets facts->git_name, git_email and where each came from (as the
 * caller names the file: "~/.gitconfig"), or leaves them NULL. */
void cordon_git_identity_read (CordonHostFacts *facts);

G_END_DECLS
