/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* suggest: "did you mean" for a mistyped name (a key, a section, a
 * policy), the one place such a guess is made so that every message
 * guesses alike. */
#include "config.h"

#include <string.h>

#include "suggest.h"

/* Levenshtein distance, bounded use: names here are short. */
static guint
edit_distance (const char *a,
               const char *b)
{
  gsize la = strlen (a), lb = strlen (b);
  g_autofree guint *row = g_new (guint, lb + 1);

  for (gsize j = 0; j <= lb; j++)
    row[j] = (guint) j;
  for (gsize i = 1; i <= la; i++)
    {
      guint diag = row[0];

      row[0] = (guint) i;
      for (gsize j = 1; j <= lb; j++)
        {
          guint up = row[j];
          guint best = MIN (row[j] + 1, row[j - 1] + 1);

          row[j] = MIN (best, diag + (a[i - 1] == b[j - 1] ? 0 : 1));
          diag = up;
        }
    }
  return row[lb];
}

/* The closest of `candidates` to `word`, if close enough to be a typo. */
const char *
cordon_suggest (const char *word,
         const char * const *candidates)
{
  const char *best = NULL;
  guint best_d = G_MAXUINT;
  guint limit = MAX (2, (guint) strlen (word) / 3);

  for (guint i = 0; candidates[i] != NULL; i++)
    {
      guint d = edit_distance (word, candidates[i]);

      if (d < best_d)
        {
          best_d = d;
          best = candidates[i];
        }
    }
  return best_d <= limit ? best : NULL;
}

char *
cordon_did_you_mean (const char *word,
              const char * const *candidates)
{
  const char *s = cordon_suggest (word, candidates);

  return s != NULL ? g_strdup_printf ("; did you mean '%s'?", s) : g_strdup ("");
}
