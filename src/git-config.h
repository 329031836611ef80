/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* git-config: which keys of a git config file make git run a program
 * (core.fsmonitor, core.hooksPath, core.sshCommand, a filter's clean or
 * smudge, a diff driver's textconv, any alias (one without '!' may set
 * -c core.pager=), an include of another file, ...), and whether the text
 * has what git may read otherwise than this reader does. The post-run audit reads with it the
 * config files a sandbox wrote: each such key is a program the host's
 * next git command in that repository would run, outside every sandbox.
 * Pure: text in, key names out; the text is untrusted, and no value is
 * returned (a value may hold a secret). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The keys of `text` (a git config file, at most `len` bytes) that run a
 * program, each as "section.key" or "section.<subsection>.key" with the
 * section and key lowercased (git's own spelling; a key of the file's
 * own choosing, an alias's or a pager's, as "<...>" unless it is letters,
 * digits and '-'), in file order, each once; first "<unreadable>" when
 * the text has what git may read otherwise (a NUL, a continued line, two
 * headers on a line, a quoted subsection with ']' or '\\'). Never NULL. */
GPtrArray *cordon_git_config_runners (const char *text,
                                      gsize len);

/* core.hooksPath of `text` (the last one, as git takes it), or NULL
 * when it sets none. *odd when it sets one this reader does not take
 * as git would (a quote, a backslash, a comment or '~' in the value, a
 * subsection, or a text cordon_git_config_runners calls unreadable):
 * then the value is NULL, and the caller must not guess. A value is a
 * path, no secret: it is returned. */
char *cordon_git_config_hooks_path (const char *text,
                                    gsize len,
                                    gboolean *odd);

/* The last value of `key` in [section] (no subsection; both as git
 * spells them, any case) of `text`, or NULL when it sets none or sets it
 * in a way this reader does not take as git would: a backslash, a
 * comment after the value, a quote but around the whole value, a
 * control character, or a text cordon_git_config_runners calls
 * unreadable. Only for keys whose value is no secret (user.name). */
char *cordon_git_config_plain_value (const char *text,
                                     gsize len,
                                     const char *section,
                                     const char *key);

G_END_DECLS
