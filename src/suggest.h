/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* suggest: the closest of a set of names to a mistyped one, if close
 * enough to be a typo (Levenshtein distance at most max(2, length / 3)). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *cordon_suggest (const char *word,
                            const char * const *candidates);
/* "; did you mean 'NAME'?", or "" when none is close. */
char *cordon_did_you_mean (const char *word,
                           const char * const *candidates);

G_END_DECLS
