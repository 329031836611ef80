/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* caps: a capability by name ("net_raw", "CAP_NET_RAW"), as libcap knows
 * it, with the spelling bwrap's --cap-add takes. */
#include "config.h"

#include <sys/capability.h>

#include "caps.h"

gboolean
cordon_caps_parse (const char *name,
                   guint *out_bit,
                   char **out_canonical)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);
  const char *bare = g_str_has_prefix (lower, "cap_") ? lower + 4 : lower;
  g_autofree char *full = g_strconcat ("cap_", bare, NULL);
  cap_value_t value;

  if (bare[0] == '\0' || cap_from_name (full, &value) != 0 || value < 0 || value > 63)
    return FALSE;
  *out_bit = (guint) value;
  *out_canonical = g_ascii_strup (full, -1);
  return TRUE;
}
