/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy-parse: a GKeyFile-syntax reader that keeps positions.
 *
 * GKeyFile itself forgets where a value came from, and a policy author
 * needs "file:line:col" for every complaint, so this reads the same
 * syntax (comments on their own line, [sections], key=value, lists split
 * on unescaped ';', the escapes \s \n \t \r \\ \;) line by line, then
 * validates each value against the key table of policy.c. It reports as
 * many problems as it can find in one pass, gcc-style. */
#include "config.h"

#include <string.h>

#include <seccomp.h>

#include "caps.h"
#include "env-filter.h"
#include "path-util.h"
#include "policy-parse.h"
#include "suggest.h"
#include "policy-vars.h"
#include "sockets.h"

/* One raw value (or list element) after unescaping, with the column of
 * each of its bytes so an error inside it points at the right place. */
typedef struct
{
  char *text;       /* NUL-terminated once finished */
  guint *cols;      /* the column of each byte of text */
  gsize len;        /* bytes of text (and of cols) */
  guint start_col;  /* where the value starts, even when empty */
} RawValue;

typedef struct
{
  CordonPolicy *policy;
  CordonDiagnostics *diags;
  const char *file;          /* interned */
  char *section;             /* NULL before the first [section] */
  gboolean section_known;
  GHashTable *seen_keys;     /* "section\nkey" -> line of first use */
  GHashTable *seen_sections; /* section -> line of first header */
} ParseState;

static void
raw_value_clear (RawValue *raw)
{
  g_free (raw->text);
  g_free (raw->cols);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RawValue, raw_value_clear)

static void
diag_at (ParseState *st,
         CordonSeverity severity,
         guint line,
         guint col,
         const char *format,
         ...) G_GNUC_PRINTF (5, 6);

static void
diag_at (ParseState *st,
         CordonSeverity severity,
         guint line,
         guint col,
         const char *format,
         ...)
{
  CordonLocation loc = { st->file, line, col };
  g_autofree char *msg = NULL;
  va_list ap;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  cordon_diagnostics_add (st->diags, severity, &loc, "%s", msg);
}

/* `size`: at most how many bytes the value will hold (what is left of
 * the line), so that a byte and its column are appended without a call
 * (check and run parse every policy of the run, and the stores'). */
static void
raw_value_init (RawValue *raw,
                guint start_col,
                gsize size)
{
  raw->text = g_malloc (size + 1);
  raw->cols = g_new (guint, size + 1);
  raw->len = 0;
  raw->start_col = start_col;
}

/* Drops the unescaped white space at the end: `keep` counts the bytes up
 * to the last one that is not a plain space or tab. */
static void
raw_value_finish (RawValue *raw,
                  gsize keep,
                  GArray *out)
{
  raw->len = keep;
  raw->text[keep] = '\0';
  g_array_append_val (out, *raw);
}

static gboolean
unescape (char e,
          char *out_v)
{
  static const char from[] = "sntr\\;";
  static const char to[] = " \n\t\r\\;";
  const char *p = e != '\0' ? strchr (from, e) : NULL;

  if (p == NULL)
    return FALSE;
  *out_v = to[p - from];
  return TRUE;
}

/* Unescapes `raw` into values, split on unescaped ';' when `is_list`.
 * `col0` is the column of raw[0]. White space around each value is
 * trimmed; an escaped one (\s, \t) is kept. FALSE after a diagnostic on
 * a bad escape. */
static gboolean
split_value (ParseState *st,
             guint line,
             const char *raw,
             guint col0,
             gboolean is_list,
             GArray *out)
{
  RawValue cur;
  gsize keep = 0;
  gsize len = strlen (raw);

  raw_value_init (&cur, col0, len);
  for (gsize i = 0;; i++)
    {
      char c = raw[i];
      guint col = col0 + (guint) i;
      gboolean escaped = FALSE;

      if (c == '\0' || (is_list && c == ';'))
        {
          raw_value_finish (&cur, keep, out);
          if (c == '\0')
            return TRUE;
          raw_value_init (&cur, col + 1, len - i);
          keep = 0;
          continue;
        }
      if (c == '\\')
        {
          if (!unescape (raw[i + 1], &c))
            {
              diag_at (st, CORDON_SEVERITY_ERROR, line, col,
                       raw[i + 1] == '\0' ? "value ends with a lone backslash"
                                          : "unknown escape sequence '\\%c'", raw[i + 1]);
              raw_value_clear (&cur);
              return FALSE;
            }
          escaped = TRUE;
          i++;
        }
      else if ((c == ' ' || c == '\t') && cur.len == 0)
        {
          cur.start_col = col + 1;
          continue;
        }
      cur.text[cur.len] = c;
      cur.cols[cur.len++] = col;
      if (escaped || (c != ' ' && c != '\t'))
        keep = cur.len;
    }
}

static guint
col_of (const RawValue *raw,
        gsize offset,
        guint fallback)
{
  if (offset < raw->len)
    return raw->cols[offset];
  if (raw->len > 0)
    return raw->cols[raw->len - 1] + 1;
  return fallback;
}

static gboolean
check_vars (ParseState *st,
            guint line,
            const RawValue *raw)
{
  gsize offset = 0;
  g_autofree char *message = NULL;

  if (cordon_vars_validate (raw->text, &offset, &message))
    return TRUE;
  diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, offset, 1), "%s", message);
  return FALSE;
}

/* Absolute, no "..", variables known; globs only where `globs`. */
static gboolean
check_path (ParseState *st,
            const CordonKeyInfo *info,
            guint line,
            const RawValue *raw,
            gboolean globs)
{
  const char *text = raw->text;
  guint col = col_of (raw, 0, 1);
  const char *reason = NULL;
  gsize offset = 0;

  if (!check_vars (st, line, raw))
    return FALSE;
  if (text[0] != '/' && !cordon_vars_starts_with_var (text))
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col,
               "path '%s' in [%s] %s is not absolute; start it with '/' or a "
               "variable such as ${HOME}", text, info->section, info->name);
      return FALSE;
    }
  if (cordon_path_has_dotdot (text))
    {
      const char *dd = text;

      /* The ".." component, not a ".." inside a name such as "a..b". */
      while ((dd = strstr (dd, "..")) != NULL
             && !((dd == text || dd[-1] == '/') && (dd[2] == '/' || dd[2] == '\0')))
        dd++;

      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, (gsize) (dd - text), col),
               "path '%s' contains a '..' component; write the path it means", text);
      return FALSE;
    }
  if (!globs && cordon_path_has_glob (text))
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col,
               "glob characters ('*', '?', '[') are not allowed in [%s] %s; "
               "name each path", info->section, info->name);
      return FALSE;
    }
  if (globs && !cordon_glob_is_valid (text, &reason, &offset))
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, offset, col),
               "malformed glob '%s': %s", text, reason);
      return FALSE;
    }
  return TRUE;
}

/* Below each writable bind: relative, each component a plain name (no
 * ".", "..", empty one, variable or glob), so it names one path in each
 * and never one outside. */
static gboolean
check_rel_path (ParseState *st,
                const CordonKeyInfo *info,
                guint line,
                const RawValue *raw)
{
  const char *text = raw->text;
  g_auto(GStrv) parts = g_strsplit (text, "/", -1);
  gsize offset = 0;

  if (text[0] == '/')
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
               "[%s] %s names a path below each writable bind: write it relative, "
               "such as .git/hooks", info->section, info->name);
      return FALSE;
    }
  for (guint i = 0; parts[i] != NULL; offset += strlen (parts[i]) + 1, i++)
    {
      const char *why = NULL;

      if (parts[i][0] == '\0' && i > 0 && parts[i + 1] == NULL)
        break;   /* a trailing '/': a directory */
      if (parts[i][0] == '\0')
        why = "an empty component";
      else if (g_str_equal (parts[i], ".") || g_str_equal (parts[i], ".."))
        why = "a '.' or '..' component";
      else if (strchr (parts[i], '$') != NULL)
        why = "a variable (it is relative to each writable bind)";
      else if (cordon_path_has_glob (parts[i]))
        why = "glob characters";
      if (why != NULL)
        {
          diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, offset, 1),
                   "'%s' in [%s] %s has %s; name the path itself", text, info->section, info->name, why);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
check_socket (ParseState *st,
              const CordonKeyInfo *info,
              guint line,
              const RawValue *raw)
{
  const char *text = raw->text;
  g_autoptr(GPtrArray) names = NULL;
  g_autofree char *hint = NULL;

  if (text[0] != '@')
    return check_path (st, info, line, raw, TRUE);
  if (cordon_socket_catalog_lookup (text + 1) != NULL)
    return TRUE;
  names = g_ptr_array_new ();
  for (guint i = 0; i < cordon_socket_catalog_len (); i++)
    g_ptr_array_add (names, (gpointer) cordon_socket_catalog_get (i)->name);
  g_ptr_array_add (names, NULL);
  hint = cordon_did_you_mean (text + 1, (const char * const *) names->pdata);
  diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
           "unknown socket catalog entry '%s'%s", text, hint);
  return FALSE;
}

static gboolean
check_word (ParseState *st,
            const CordonKeyInfo *info,
            guint line,
            const RawValue *raw,
            gint64 *out_num)
{
  const char *text = raw->text;
  g_autofree char *hint = NULL;
  g_autofree char *choices = NULL;

  for (guint i = 0; info->words[i] != NULL; i++)
    if (g_str_equal (info->words[i], text))
      {
        *out_num = info->type == CORDON_VALUE_NAMESPACE ? (gint64) (1u << i) : (gint64) i;
        return TRUE;
      }
  hint = cordon_did_you_mean (text, info->words);
  choices = g_strjoinv (", ", (char **) info->words);
  diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
           "unknown %s '%s' for [%s] %s (one of: %s)%s",
           info->type == CORDON_VALUE_NAMESPACE ? "namespace" : "value",
           text, info->section, info->name, choices, hint);
  return FALSE;
}

static gboolean
check_number (ParseState *st,
              const CordonKeyInfo *info,
              guint line,
              const RawValue *raw,
              gint64 *out_num)
{
  const char *text = raw->text;
  guint64 n = 0;

  /* pids=none lifts an included policy's limit. */
  if (info->key == CORDON_KEY_LIMITS_PIDS && g_str_equal (text, "none"))
    return TRUE;
  for (const char *p = text; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        {
          diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, (gsize) (p - text), 1),
                   "[%s] %s takes a whole number%s, not '%s'", info->section, info->name,
                   info->key == CORDON_KEY_LIMITS_TIMEOUT ? " of seconds"
                   : info->key == CORDON_KEY_LIMITS_PIDS ? ", or none" : "", text);
          return FALSE;
        }
      n = n * 10 + (guint64) (*p - '0');
      if (n > (guint64) info->max_value)
        {
          diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
                   "[%s] %s is at most %" G_GINT64_FORMAT, info->section,
                   info->name, info->max_value);
          return FALSE;
        }
    }
  if (text[0] == '\0')
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
               "[%s] %s needs a value", info->section, info->name);
      return FALSE;
    }
  *out_num = (gint64) n;
  return TRUE;
}

/* memory=N%: a share of the host's RAM, 1% to 100%, kept as -N (compile
 * takes it of the host's MemTotal). */
static gboolean
check_ram_share (ParseState *st,
                 const CordonKeyInfo *info,
                 guint line,
                 const RawValue *raw,
                 gint64 *out_num)
{
  const char *text = raw->text;
  gsize digits = strspn (text, "0123456789");
  guint64 n = digits <= 3 ? g_ascii_strtoull (text, NULL, 10) : 0;

  if (n == 0 || n > 100)
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
               "[%s] %s as a share of the host's RAM is between 1%% and 100%%, not '%s'", info->section,
               info->name, text);
      return FALSE;
    }
  *out_num = -(gint64) n;
  return TRUE;
}

/* A size in bytes: digits, then at most one of K, M, G, T (either case;
 * powers of 1024), at most the key's max_value. */
static gboolean
check_size (ParseState *st,
            const CordonKeyInfo *info,
            guint line,
            const RawValue *raw,
            gint64 *out_num)
{
  const char *text = raw->text;
  gsize digits = strspn (text, "0123456789");
  const char *units = "KMGT";
  const char *unit = text[digits] != '\0' ? strchr (units, g_ascii_toupper (text[digits])) : NULL;
  guint shift = unit != NULL ? 10 * (guint) (unit - units + 1) : 0;
  guint64 n = 0;

  if (info->key == CORDON_KEY_LIMITS_MEMORY && digits > 0 && g_str_equal (text + digits, "%"))
    return check_ram_share (st, info, line, raw, out_num);
  /* memory=none lifts an included policy's limit. */
  if (info->key == CORDON_KEY_LIMITS_MEMORY && g_str_equal (text, "none"))
    return TRUE;
  if (digits == 0 || digits > 15 || (text[digits] != '\0' && (unit == NULL || text[digits + 1] != '\0')))
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, digits > 15 ? 0 : digits, 1),
               "[%s] %s takes a size: a whole number of bytes, or of K, M, G or T "
               "(such as 512M)%s, not '%s'", info->section, info->name,
               info->key == CORDON_KEY_LIMITS_MEMORY ? ", a share of the host's RAM (such as 50%), or none" : "",
               text);
      return FALSE;
    }
  n = g_ascii_strtoull (text, NULL, 10);
  /* A tmpfs of size 0 is one of no limit. */
  if (n == 0 && info->key == CORDON_KEY_LIMITS_SCRATCH)
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1), "[limits] scratch=0 would be no "
               "limit (a tmpfs of size 0 has none): give a size such as 512M, or leave the key out");
      return FALSE;
    }
  if (n > ((guint64) info->max_value >> shift))
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1), "[%s] %s is at most %" G_GINT64_FORMAT "G",
               info->section, info->name, info->max_value >> 30);
      return FALSE;
    }
  /* bwrap, cordon's helper and a shell are in the cgroup too. */
  if (info->key == CORDON_KEY_LIMITS_MEMORY && (n << shift) < CORDON_MEMORY_MIN)
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1), "[limits] memory is at least %uM "
               "(bwrap and cordon's helper are held by it too), not '%s'", CORDON_MEMORY_MIN >> 20, text);
      return FALSE;
    }
  *out_num = (gint64) (n << shift);
  return TRUE;
}

/* A share: digits, then '%'; more than 0, at most the key's max_value. */
static gboolean
check_percent (ParseState *st,
               const CordonKeyInfo *info,
               guint line,
               const RawValue *raw,
               gint64 *out_num)
{
  const char *text = raw->text;
  gsize digits = strspn (text, "0123456789");
  guint64 n = digits > 0 && digits <= 9 ? g_ascii_strtoull (text, NULL, 10) : 0;

  if (digits == 0 || digits > 9 || !g_str_equal (text + digits, "%"))
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, digits > 9 ? 0 : digits, 1),
               "[%s] %s takes a share of one CPU: a whole number and '%%' (such as 50%% or 200%%), "
               "not '%s'", info->section, info->name, text);
      return FALSE;
    }
  if (n == 0 || n > (guint64) info->max_value)
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
               "[%s] %s is between 1%% and %" G_GINT64_FORMAT "%%, not '%s'", info->section,
               info->name, info->max_value, text);
      return FALSE;
    }
  *out_num = (gint64) n;
  return TRUE;
}

static gboolean
check_assignment (ParseState *st,
                  guint line,
                  const RawValue *raw)
{
  const char *text = raw->text;
  const char *eq = strchr (text, '=');
  g_autofree char *name = NULL;

  if (eq == NULL)
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
               "a set= value must be NAME=VALUE; this one has no '=' (its text is not "
               "repeated here: it may be a secret)");
      return FALSE;
    }
  name = g_strndup (text, (gsize) (eq - text));
  if (!cordon_env_name_is_valid (name))
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
               "'%s' is not a valid variable name", name);
      return FALSE;
    }
  return check_vars (st, line, raw);
}

static gboolean
check_bool (ParseState *st,
            const CordonKeyInfo *info,
            guint line,
            const RawValue *raw,
            gint64 *out_num)
{
  const char *text = raw->text;

  if (g_str_equal (text, "true") || g_str_equal (text, "false"))
    {
      *out_num = g_str_equal (text, "true");
      return TRUE;
    }
  diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
           "[%s] %s takes true or false, not '%s'", info->section, info->name, text);
  return FALSE;
}

/* auto, root, a uid, or a user name as useradd(8) takes one: the number
 * is what compile needs; a name is resolved on the host (host facts). */
static gboolean
check_host_user (ParseState *st,
                 const CordonKeyInfo *info,
                 guint line,
                 const RawValue *raw,
                 gint64 *out_num)
{
  const char *text = raw->text;
  gsize len = strlen (text);
  gboolean digits = len > 0 && len <= 10, name = len > 0 && len <= 32;

  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      digits = digits && g_ascii_isdigit (c);
      name = name && (g_ascii_islower (c) || c == '_' || (i > 0 && (g_ascii_isdigit (c) || c == '-' || c == '.')));
    }
  if (g_str_equal (text, "auto"))
    *out_num = CORDON_HOST_USER_AUTO;
  else if (g_str_equal (text, "root"))
    *out_num = CORDON_HOST_USER_ROOT;
  else if (digits && g_ascii_strtoull (text, NULL, 10) < G_MAXUINT32)
    *out_num = (gint64) g_ascii_strtoull (text, NULL, 10);
  else if (name)
    *out_num = CORDON_HOST_USER_NAMED;
  else
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
               "[%s] %s takes auto, root, a user name or a uid, not '%s'",
               info->section, info->name, text);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_capability (ParseState *st,
                  guint line,
                  const RawValue *raw,
                  gint64 *out_num)
{
  g_autofree char *canonical = NULL;
  guint bit;

  if (cordon_caps_parse (raw->text, &bit, &canonical))
    {
      *out_num = (gint64) bit;
      return TRUE;
    }
  diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
           "'%s' is not a capability libcap knows (such as CAP_NET_RAW)", raw->text);
  return FALSE;
}

/* Validates one value; writes its numeric meaning on success. */
static gboolean
check_value (ParseState *st,
             const CordonKeyInfo *info,
             guint line,
             const RawValue *raw,
             gint64 *out_num)
{
  const char *text = raw->text;

  *out_num = 0;
  switch (info->type)
    {
    case CORDON_VALUE_STRING:
      return TRUE;
    case CORDON_VALUE_BOOL:
      return check_bool (st, info, line, raw, out_num);
    case CORDON_VALUE_ENUM:
    case CORDON_VALUE_NAMESPACE:
      return check_word (st, info, line, raw, out_num);
    case CORDON_VALUE_UINT:
      return check_number (st, info, line, raw, out_num);
    case CORDON_VALUE_SIZE:
      return check_size (st, info, line, raw, out_num);
    case CORDON_VALUE_PERCENT:
      return check_percent (st, info, line, raw, out_num);
    case CORDON_VALUE_POLICY_REF:
      return TRUE;
    case CORDON_VALUE_ENV_GLOB:
      if (cordon_env_pattern_is_valid (text))
        return TRUE;
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
               "'%s' is not a variable name or a glob of names "
               "(letters, digits, '_', '*' and '?')", text);
      return FALSE;
    case CORDON_VALUE_ENV_ASSIGN:
      return check_assignment (st, line, raw);
    case CORDON_VALUE_PATH:
      return check_path (st, info, line, raw, FALSE);
    case CORDON_VALUE_PATH_GLOB:
      return check_path (st, info, line, raw, TRUE);
    case CORDON_VALUE_REL_PATH:
      return check_rel_path (st, info, line, raw);
    case CORDON_VALUE_SOCKET:
      return check_socket (st, info, line, raw);
    case CORDON_VALUE_SYSCALL:
      if (seccomp_syscall_resolve_name (text) != __NR_SCMP_ERROR)
        return TRUE;
      diag_at (st, CORDON_SEVERITY_ERROR, line, col_of (raw, 0, 1),
               "'%s' is not a system call libseccomp knows", text);
      return FALSE;
    case CORDON_VALUE_CAPABILITY:
      return check_capability (st, line, raw, out_num);
    case CORDON_VALUE_HOST_USER:
      return check_host_user (st, info, line, raw, out_num);
    case CORDON_VALUE_MAX:
    default:
      g_assert_not_reached ();
    }
}

static const char * const *
section_key_names (const char *section,
                   GPtrArray *out)
{
  for (guint k = 0; k < CORDON_KEY_MAX; k++)
    if (g_str_equal (cordon_key_info (k)->section, section))
      g_ptr_array_add (out, (gpointer) cordon_key_info (k)->name);
  g_ptr_array_add (out, NULL);
  return (const char * const *) out->pdata;
}

static void
parse_section (ParseState *st,
               guint line,
               const char *text,
               guint col0)
{
  const char *close = strchr (text, ']');
  g_autofree char *name = NULL;
  g_autofree char *hint = NULL;
  gpointer first;

  /* After a broken header, the keys that follow belong to no known
   * section: skip them rather than pile follow-on errors on them. */
  g_clear_pointer (&st->section, g_free);
  st->section = g_strdup ("");
  st->section_known = FALSE;
  if (close == NULL)
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col0, "section header lacks its closing ']'");
      return;
    }
  for (const char *p = close + 1; *p != '\0'; p++)
    if (!g_ascii_isspace (*p))
      {
        diag_at (st, CORDON_SEVERITY_ERROR, line, col0 + (guint) (p - text),
                 "unexpected text after section header");
        return;
      }
  name = g_strndup (text + 1, (gsize) (close - text - 1));
  g_free (st->section);
  st->section = g_strdup (name);
  st->section_known = cordon_section_is_known (name);
  if (!st->section_known)
    {
      hint = cordon_did_you_mean (name, cordon_policy_sections ());
      diag_at (st, CORDON_SEVERITY_ERROR, line, col0 + 1,
               "unknown section [%s]%s", name, hint);
      return;
    }
  if (g_hash_table_lookup_extended (st->seen_sections, name, NULL, &first))
    diag_at (st, CORDON_SEVERITY_WARNING, line, col0,
             "section [%s] appears again (first at line %u); its keys are merged",
             name, GPOINTER_TO_UINT (first));
  else
    g_hash_table_insert (st->seen_sections, g_strdup (name), GUINT_TO_POINTER (line));
}

/* NULL (after a diagnostic) when the key is not in the table. */
static const CordonKeyInfo *
lookup_key (ParseState *st,
            guint line,
            guint col,
            const char *key)
{
  const CordonKeyInfo *info = cordon_key_lookup (st->section, key);
  g_autoptr(GPtrArray) names = NULL;
  g_autofree char *hint = NULL;

  if (info != NULL)
    return info;
  if (strchr (key, '[') != NULL)
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col,
               "localized key '%s' is not supported in a policy", key);
      return NULL;
    }
  for (guint k = 0; k < CORDON_KEY_MAX; k++)
    if (g_str_equal (cordon_key_info (k)->name, key))
      {
        diag_at (st, CORDON_SEVERITY_ERROR, line, col,
                 "unknown key '%s' in [%s]; '%s' belongs in [%s]",
                 key, st->section, key, cordon_key_info (k)->section);
        return NULL;
      }
  names = g_ptr_array_new ();
  hint = cordon_did_you_mean (key, section_key_names (st->section, names));
  diag_at (st, CORDON_SEVERITY_ERROR, line, col,
           "unknown key '%s' in [%s]%s", key, st->section, hint);
  return NULL;
}

static gboolean
check_duplicate (ParseState *st,
                 guint line,
                 guint col,
                 const char *key)
{
  g_autofree char *id = g_strconcat (st->section, "\n", key, NULL);
  gpointer first;

  if (g_hash_table_lookup_extended (st->seen_keys, id, NULL, &first))
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col,
               "duplicate key '%s' in [%s] (first set at line %u)",
               key, st->section, GPOINTER_TO_UINT (first));
      return FALSE;
    }
  g_hash_table_insert (st->seen_keys, g_steal_pointer (&id), GUINT_TO_POINTER (line));
  return TRUE;
}

/* "#" inside a value is text in GKeyFile syntax: an author who wrote a
 * trailing comment would get it in a path or name. */
static void
warn_trailing_comment (ParseState *st,
                       guint line,
                       const char *value,
                       guint col0)
{
  const char *hash = strstr (value, " #");

  if (hash == NULL)
    hash = strstr (value, "\t#");
  if (hash != NULL)
    diag_at (st, CORDON_SEVERITY_WARNING, line, col0 + (guint) (hash - value) + 1,
             "'#' here is part of the value: comments must be on a line of their own");
}

static void
add_values (ParseState *st,
            const CordonKeyInfo *info,
            guint line,
            guint col0,
            GArray *raws)
{
  for (guint i = 0; i < raws->len; i++)
    {
      RawValue *raw = &g_array_index (raws, RawValue, i);
      CordonLocation loc = { st->file, line, col_of (raw, 0, raw->start_col) };
      gint64 num = 0;

      if (info->is_list && raw->len == 0)
        {
          if (i + 1 < raws->len)
            diag_at (st, CORDON_SEVERITY_WARNING, line, loc.col, "empty list element ignored");
          continue;
        }
      if (!check_value (st, info, line, raw, &num))
        continue;
      if (info->is_list)
        cordon_policy_append (st->policy, cordon_item_new (info->key, raw->text, num, &loc));
      else
        cordon_policy_set (st->policy, cordon_item_new (info->key, raw->text, num, &loc));
    }
}

static void
parse_key_value (ParseState *st,
                 guint line,
                 const char *text,
                 guint col0)
{
  const char *eq = strchr (text, '=');
  const char *value;
  g_autofree char *key = NULL;
  const CordonKeyInfo *info;
  g_autoptr(GArray) raws = NULL;

  if (eq == NULL)
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col0,
               "expected 'key=value', '[section]' or a '#' comment");
      return;
    }
  key = g_strstrip (g_strndup (text, (gsize) (eq - text)));
  if (key[0] == '\0')
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col0, "missing key before '='");
      return;
    }
  if (st->section == NULL)
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col0,
               "key '%s' appears before any [section]", key);
      return;
    }
  if (!st->section_known)
    return;  /* the section header was already reported */
  info = lookup_key (st, line, col0, key);
  if (info == NULL || !check_duplicate (st, line, col0, key))
    return;
  value = eq + 1;
  while (*value == ' ' || *value == '\t')
    value++;
  warn_trailing_comment (st, line, value, col0 + (guint) (value - text));
  if (!info->is_list && *value == '\0' && info->type != CORDON_VALUE_STRING)
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, col0 + (guint) (value - text),
               "[%s] %s needs a value", info->section, info->name);
      return;
    }
  raws = g_array_new (FALSE, FALSE, sizeof (RawValue));
  g_array_set_clear_func (raws, (GDestroyNotify) raw_value_clear);
  if (!split_value (st, line, value, col0 + (guint) (value - text), info->is_list, raws))
    return;
  add_values (st, info, line, col0, raws);
}

static void
parse_line (ParseState *st,
            guint line,
            char *text)
{
  gsize len = strlen (text);
  guint col0 = 1;

  if (len > 0 && text[len - 1] == '\r')
    text[--len] = '\0';
  if (len > CORDON_POLICY_MAX_LINE)
    {
      diag_at (st, CORDON_SEVERITY_ERROR, line, CORDON_POLICY_MAX_LINE + 1,
               "line is longer than %d bytes", CORDON_POLICY_MAX_LINE);
      return;
    }
  while (*text == ' ' || *text == '\t')
    {
      text++;
      col0++;
    }
  if (*text == '\0' || *text == '#')
    return;
  if (*text == '[')
    parse_section (st, line, text, col0);
  else
    parse_key_value (st, line, text, col0);
}

static void
report_bad_utf8 (ParseState *st,
                 const char *text,
                 const char *bad)
{
  guint line = 1;
  const char *line_start = text;

  for (const char *p = text; p < bad; p++)
    if (*p == '\n')
      {
        line++;
        line_start = p + 1;
      }
  diag_at (st, CORDON_SEVERITY_ERROR, line, (guint) (bad - line_start) + 1,
           "policy is not valid UTF-8");
}

void
cordon_policy_parse_text (CordonPolicy *policy,
                          const char *file,
                          const char *text,
                          CordonDiagnostics *diags)
{
  ParseState st = { 0 };
  const char *bad = NULL;

  st.policy = policy;
  st.diags = diags;
  st.file = g_intern_string (file);
  st.seen_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  st.seen_sections = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (!g_utf8_validate (text, -1, &bad))
    report_bad_utf8 (&st, text, bad);
  else
    {
      g_autofree char *copy = g_strdup (text);
      guint line = 1;

      /* Line by line, each cut out of the copy in place. */
      for (char *p = copy; p != NULL; line++)
        {
          char *nl = strchr (p, '\n');

          if (nl != NULL)
            *nl = '\0';
          parse_line (&st, line, p);
          p = nl != NULL ? nl + 1 : NULL;
        }
    }
  g_free (st.section);
  g_hash_table_unref (st.seen_keys);
  g_hash_table_unref (st.seen_sections);
}

/* Include merging. Each file is parsed into a fragment of its own; its
 * includes are merged first, in order, then its own values, so the
 * including file overrides what it includes. */
typedef struct
{
  const CordonPolicyResolver *resolver;
  CordonDiagnostics *diags;
  CordonPolicy *target;
  GPtrArray *stack;        /* interned file names being loaded */
  GHashTable *merged;      /* interned file names already merged */
  guint n_items;
  gboolean over_limit;
} LoadState;

/* The fragment's items move into the target (the fragment is freed
 * next), an including file's after those of what it includes. */
static void
merge_fragment (LoadState *ls,
                CordonPolicy *fragment)
{
  for (guint k = 0; k < CORDON_KEY_MAX; k++)
    {
      const CordonKeyInfo *info = cordon_key_info (k);
      GPtrArray *list;

      if (!info->is_list)
        {
          CordonItem *it = cordon_policy_take (fragment, k);

          if (it != NULL)
            cordon_policy_set (ls->target, it);
          continue;
        }
      list = cordon_policy_get_list (fragment, k);
      for (guint i = 0; i < list->len; i++)
        {
          const CordonItem *it = g_ptr_array_index (list, i);

          if (++ls->n_items > CORDON_POLICY_MAX_ITEMS)
            {
              if (!ls->over_limit)
                cordon_diagnostics_add (ls->diags, CORDON_SEVERITY_ERROR, &it->loc,
                                        "policy has more than %d values", CORDON_POLICY_MAX_ITEMS);
              ls->over_limit = TRUE;
              return;
            }
          cordon_policy_append (ls->target, cordon_policy_take_list_item (fragment, k, i));
        }
    }
}

static char *
format_cycle (LoadState *ls,
              const char *file)
{
  g_autoptr(GString) s = g_string_new (NULL);
  gboolean in_cycle = FALSE;

  for (guint i = 0; i < ls->stack->len; i++)
    {
      const char *f = g_ptr_array_index (ls->stack, i);

      in_cycle = in_cycle || f == file;
      if (in_cycle)
        g_string_append_printf (s, "%s -> ", f);
    }
  g_string_append (s, file);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static gboolean load_file (LoadState *ls,
                           const char *ref,
                           const CordonItem *from,
                           GError **error);

static void
load_includes (LoadState *ls,
               const CordonPolicy *fragment)
{
  GPtrArray *includes = cordon_policy_get_list (fragment, CORDON_KEY_POLICY_INCLUDE);

  for (guint i = 0; i < includes->len; i++)
    {
      const CordonItem *inc = g_ptr_array_index (includes, i);

      if (ls->stack->len >= CORDON_POLICY_MAX_DEPTH)
        {
          cordon_diagnostics_add (ls->diags, CORDON_SEVERITY_ERROR, &inc->loc,
                                  "includes nest deeper than %d levels",
                                  CORDON_POLICY_MAX_DEPTH);
          continue;
        }
      load_file (ls, inc->text, inc, NULL);
    }
}

/* Resolves and reads one file; FALSE after a diagnostic (or, for the top
 * file, an error). */
static gboolean
fetch_file (LoadState *ls,
            const char *ref,
            const CordonItem *from,
            const char **out_file,
            char **out_text,
            GError **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *file = NULL;
  g_autofree char *text = NULL;
  const char *from_file = from != NULL ? from->loc.file : NULL;

  if (!ls->resolver->resolve (ls->resolver->user_data, ref, from_file,
                              &file, &text, &local_error))
    {
      if (from == NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      cordon_diagnostics_add (ls->diags, CORDON_SEVERITY_ERROR, &from->loc,
                              "cannot include '%s': %s", ref, local_error->message);
      return FALSE;
    }
  if (strlen (text) > CORDON_POLICY_MAX_BYTES)
    {
      if (from == NULL)
        {
          g_set_error (error, CORDON_ERROR, CORDON_ERROR_LIMIT,
                       "%s: policy is larger than %d bytes", file, CORDON_POLICY_MAX_BYTES);
          return FALSE;
        }
      cordon_diagnostics_add (ls->diags, CORDON_SEVERITY_ERROR, &from->loc,
                              "included policy '%s' is larger than %d bytes",
                              file, CORDON_POLICY_MAX_BYTES);
      return FALSE;
    }
  *out_file = g_intern_string (file);
  *out_text = g_steal_pointer (&text);
  return TRUE;
}

static gboolean
load_file (LoadState *ls,
           const char *ref,
           const CordonItem *from,
           GError **error)
{
  g_autofree char *text = NULL;
  g_autoptr(CordonPolicy) fragment = NULL;
  const char *file = NULL;

  if (!fetch_file (ls, ref, from, &file, &text, error))
    return FALSE;
  for (guint i = 0; i < ls->stack->len; i++)
    if (g_ptr_array_index (ls->stack, i) == file)
      {
        g_autofree char *cycle = format_cycle (ls, file);

        cordon_diagnostics_add (ls->diags, CORDON_SEVERITY_ERROR, &from->loc,
                                "include cycle: %s", cycle);
        return TRUE;
      }
  if (g_hash_table_contains (ls->merged, file))
    return TRUE;  /* a diamond: merged once, where first included */
  if (g_hash_table_size (ls->merged) >= CORDON_POLICY_MAX_FILES)
    {
      cordon_diagnostics_add (ls->diags, CORDON_SEVERITY_ERROR, from != NULL ? &from->loc : NULL,
                              "policy merges more than %d files", CORDON_POLICY_MAX_FILES);
      return TRUE;
    }
  g_hash_table_add (ls->merged, (gpointer) file);
  fragment = cordon_policy_new (file);
  cordon_policy_add_source (ls->target, file, text);
  cordon_policy_parse_text (fragment, file, text, ls->diags);
  g_ptr_array_add (ls->stack, (gpointer) file);
  load_includes (ls, fragment);
  g_ptr_array_remove_index (ls->stack, ls->stack->len - 1);
  merge_fragment (ls, fragment);
  return TRUE;
}

CordonPolicy *
cordon_policy_load (const char *ref,
                    const CordonPolicyResolver *resolver,
                    CordonDiagnostics *diags,
                    GError **error)
{
  g_autoptr(CordonPolicy) policy = cordon_policy_new (ref);
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();
  g_autoptr(GHashTable) merged = g_hash_table_new (NULL, NULL);
  LoadState ls = { resolver, diags, policy, stack, merged, 0, FALSE };

  if (!load_file (&ls, ref, NULL, error))
    return NULL;
  return g_steal_pointer (&policy);
}
