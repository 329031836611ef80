/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fuzz-report: libFuzzer harness for the JSON report. The input is lines
 * "key=value", each value unescaped as a C string (\n, \t, \ooo), so any
 * byte but NUL reaches the report, invalid UTF-8 included: the policy
 * name, overrides, degradations, the failure, the probe, the plan's masks,
 * skips, variable names and abstract sockets, the numbers of the run, and
 * lines of the helper ("check=V\t<id>\tfail\t13\t<detail>") recorded as a
 * sandbox would send them. The report is then written, as cordon run
 * writes it, to an fd; the text must be valid UTF-8, parse as JSON with
 * the members of every other report, give back each string as given
 * (invalid bytes repaired), and hold no value of a variable: the plan's
 * envp carries two, which only a leak would print. Build and run:
 * make fuzz [FUZZ_SECONDS=N]. */
#include "config.h"

#include <json-glib/json-glib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "report.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* In the plan's envp (and the first in the host's environment too): a
 * report that holds this has printed a value. */
#define SECRET_MARK "Zq9v"

static CordonHostFacts *facts;
static char *members_of_every_report;

typedef struct
{
  CordonReport report;
  CordonPlan *plan;
  CordonProbe probe;
  CordonRunResult result;
  gboolean has_probe;
  gboolean has_result;
  gboolean no_plan;
  gboolean no_verify;
  int probe_result;
  int outcome;
  guint64 us;
  char *name;
  char *proc;
  char *reason;
  GPtrArray *checks;        /* char*: helper lines, recorded once verify exists */
  GPtrArray *values;        /* char*: every value given, for the leak check */
} Input;

static void
input_init (Input *in)
{
  static const char * const envp[] = { "TOKEN=" SECRET_MARK "HostTokenValue", "PATH=/usr/bin",
                                       "API_KEY=" SECRET_MARK "PlanOnlyValue", NULL };
  CordonEnvDecision *d = g_new0 (CordonEnvDecision, 1);

  memset (in, 0, sizeof *in);
  cordon_report_init (&in->report);
  in->plan = cordon_plan_new ("fuzz");
  for (guint i = 0; envp[i] != NULL; i++)
    g_ptr_array_add (in->plan->envp, g_strdup (envp[i]));
  d->name = g_strdup ("TOKEN");
  d->reason = g_strdup ("not allowed");
  g_ptr_array_add (in->plan->env_decisions, d);
  in->checks = g_ptr_array_new_with_free_func (g_free);
  in->values = g_ptr_array_new_with_free_func (g_free);
}

static void
input_clear (Input *in)
{
  cordon_report_clear (&in->report);
  cordon_plan_free (in->plan);
  g_free (in->probe.detail);
  g_free (in->name);
  g_free (in->proc);
  g_free (in->reason);
  g_ptr_array_unref (in->checks);
  g_ptr_array_unref (in->values);
}

/* --- keys ---------------------------------------------------------------- */

typedef enum
{
  FIELD_STRING,             /* the char* at `offset`, replaced */
  FIELD_LIST,               /* the GPtrArray* at `offset`, appended to */
  FIELD_INT,                /* the int at `offset` */
  FIELD_FLAG,               /* the gboolean at `offset`, set */
  FIELD_US,                 /* every duration */
  FIELD_OP,                 /* a plan op of kind `op` for a rule of `rule` */
  FIELD_SKIP,               /* a skipped path, its value its reason too */
  FIELD_PASSED,             /* an environment decision */
  FIELD_DROPPED,
  FIELD_ABSTRACT,           /* an abstract socket the plan leaves reachable */
} FieldKind;

#define AT(member) G_STRUCT_OFFSET (Input, member)
#define NONE (-1)

static const struct
{
  const char *key;
  FieldKind kind;
  glong offset;             /* STRING, LIST, INT, FLAG: where in Input */
  glong present;            /* a gboolean in Input the key sets, or NONE */
  CordonOpKind op;
  CordonKey rule;
} fields[] = {
  { "name", FIELD_STRING, AT (name), NONE, 0, 0 },
  { "sha256", FIELD_STRING, AT (report.policy_sha256), NONE, 0, 0 },
  { "override", FIELD_LIST, AT (report.overrides), NONE, 0, 0 },
  { "degradation", FIELD_LIST, AT (report.degradations), NONE, 0, 0 },
  { "proc", FIELD_STRING, AT (proc), NONE, 0, 0 },
  { "reason", FIELD_STRING, AT (reason), NONE, 0, 0 },
  { "message", FIELD_STRING, AT (report.failure_message), NONE, 0, 0 },
  { "probe", FIELD_STRING, AT (probe.detail), AT (has_probe), 0, 0 },
  { "probe-result", FIELD_INT, AT (probe_result), AT (has_probe), 0, 0 },
  { "probe-cached", FIELD_FLAG, AT (probe.cached), AT (has_probe), 0, 0 },
  { "mask", FIELD_OP, 0, NONE, CORDON_OP_MASK_FILE, CORDON_KEY_SECRETS_MASK },
  { "mask-socket", FIELD_OP, 0, NONE, CORDON_OP_MASK_FILE, CORDON_KEY_SOCKETS_MASK },
  { "mask-dir", FIELD_OP, 0, NONE, CORDON_OP_MASK_DIR, CORDON_KEY_SECRETS_MASK },
  { "read-only", FIELD_OP, 0, NONE, CORDON_OP_RO_BIND, CORDON_KEY_FS_READ_ONLY },
  { "skip", FIELD_SKIP, 0, NONE, 0, 0 },
  { "pass", FIELD_PASSED, 0, NONE, 0, 0 },
  { "drop", FIELD_DROPPED, 0, NONE, 0, 0 },
  { "abstract", FIELD_ABSTRACT, 0, NONE, 0, 0 },
  { "check", FIELD_LIST, AT (checks), NONE, 0, 0 },
  { "outcome", FIELD_INT, AT (outcome), AT (has_result), 0, 0 },
  { "exit", FIELD_INT, AT (report.exit_status), AT (has_result), 0, 0 },
  { "signal", FIELD_INT, AT (result.term_signal), AT (has_result), 0, 0 },
  { "errno", FIELD_INT, AT (result.exec_errno), AT (has_result), 0, 0 },
  { "pid", FIELD_INT, AT (result.child_pid), AT (has_result), 0, 0 },
  { "us", FIELD_US, 0, NONE, 0, 0 },
  { "no-plan", FIELD_FLAG, AT (no_plan), NONE, 0, 0 },
  { "no-verify", FIELD_FLAG, AT (no_verify), NONE, 0, 0 },
};

/* A rule in a fixed file (file names are interned for the life of the
 * process), or none on even lines: both are reported, differently. */
static CordonLocation
rule_at (guint line)
{
  CordonLocation loc = { NULL, line, 1 + line % 7 };

  if (line % 2 == 1)
    loc.file = g_intern_static_string ("fuzz/report.policy");
  return loc;
}

static void
add_decision (Input *in,
              const char *name,
              gboolean passed)
{
  CordonEnvDecision *d = g_new0 (CordonEnvDecision, 1);

  d->name = g_strdup (name);
  d->passed = passed;
  d->reason = g_strdup (name);
  g_ptr_array_add (in->plan->env_decisions, d);
}

/* The plan's parts: the value is every string of the entry it makes. */
static void
add_to_plan (Input *in,
             guint f,
             const char *value,
             guint line)
{
  CordonItem item = { fields[f].rule, NULL, 0, rule_at (line), 0 };

  if (fields[f].kind == FIELD_OP)
    cordon_plan_add_op (in->plan, fields[f].op, "/dev/null", value, &item, value);
  else if (fields[f].kind == FIELD_SKIP)
    cordon_plan_add_skip_at (in->plan, CORDON_KEY_FS_READ_ONLY_TRY, &item.loc, value, value);
  else if (fields[f].kind == FIELD_ABSTRACT)
    g_ptr_array_add (in->plan->abstract_sockets, g_strdup (value));
  else
    add_decision (in, value, fields[f].kind == FIELD_PASSED);
}

static void
apply (Input *in,
       guint f,
       const char *value,
       guint line)
{
  char *at = (char *) in + fields[f].offset;

  if (fields[f].present != NONE)
    *(gboolean *) ((char *) in + fields[f].present) = TRUE;
  switch (fields[f].kind)
    {
    case FIELD_STRING:
      g_free (*(char **) at);
      *(char **) at = g_strdup (value);
      break;
    case FIELD_LIST:
      g_ptr_array_add (*(GPtrArray **) at, g_strdup (value));
      break;
    case FIELD_INT:
      *(int *) at = (int) g_ascii_strtoll (value, NULL, 10);
      break;
    case FIELD_FLAG:
      *(gboolean *) at = TRUE;
      break;
    case FIELD_US:
      in->us = g_ascii_strtoull (value, NULL, 10);
      break;
    case FIELD_OP:
    case FIELD_SKIP:
    case FIELD_PASSED:
    case FIELD_DROPPED:
    case FIELD_ABSTRACT:
    default:
      add_to_plan (in, f, value, line);
      break;
    }
}

/* A value as a C string literal's body. g_strcompress warns of a lone
 * trailing backslash, and a warning here is fatal: it is dropped. */
static char *
unescape (const char *escaped)
{
  g_autofree char *copy = g_strdup (escaped);
  gsize len = strlen (copy), n = 0;

  while (n < len && copy[len - 1 - n] == '\\')
    n++;
  if (n % 2 == 1)
    copy[len - 1] = '\0';
  return g_strcompress (copy);
}

static void
apply_line (Input *in,
            const char *line,
            guint n)
{
  const char *eq = strchr (line, '=');
  g_autofree char *key = NULL;

  if (eq == NULL)
    return;
  key = g_strndup (line, eq - line);
  for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
    if (g_str_equal (fields[f].key, key))
      {
        char *value = unescape (eq + 1);

        apply (in, f, value, n);
        g_ptr_array_add (in->values, value);
        return;
      }
}

/* --- checks of the output ------------------------------------------------ */

static char *
member_names (JsonNode *root)
{
  g_autoptr(GList) names = json_object_get_members (json_node_get_object (root));
  GString *joined = g_string_new (NULL);

  for (GList *l = names; l != NULL; l = l->next)
    g_string_append_printf (joined, "%s,", (char *) l->data);
  return g_string_free (joined, FALSE);
}

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert (g_utf8_validate (text, -1, NULL));
  if (!json_parser_load_from_data (parser, text, -1, &error))
    g_error ("the report is not JSON: %s\n%s", error->message, text);
  g_assert (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_parser_steal_root (parser);
}

/* `got` is `given` as the report must show it: a string, or null for
 * NULL, with invalid UTF-8 repaired and nothing else changed. */
static void
assert_string_as_given (JsonNode *got,
                        const char *given)
{
  g_autofree char *valid = given != NULL ? g_utf8_make_valid (given, -1) : NULL;

  if (given == NULL)
    {
      g_assert (JSON_NODE_HOLDS_NULL (got));
      return;
    }
  g_assert (json_node_get_value_type (got) == G_TYPE_STRING);
  g_assert_cmpstr (json_node_get_string (got), ==, valid);
}

static JsonNode *
get (JsonNode *object,
     const char *name)
{
  JsonObject *o = json_node_get_object (object);

  g_assert (json_object_has_member (o, name));
  return json_object_get_member (o, name);
}

static void
assert_strings_as_given (JsonNode *array,
                         const GPtrArray *given)
{
  JsonArray *a = json_node_get_array (array);

  g_assert_cmpuint (json_array_get_length (a), ==, given->len);
  for (guint i = 0; i < given->len; i++)
    assert_string_as_given (json_array_get_element (a, i), g_ptr_array_index (given, i));
}

/* Each check as the verify holds it, whatever the helper's lines said. */
static void
assert_checks_as_recorded (JsonNode *root,
                           const CordonVerify *verify)
{
  JsonNode *v = get (root, "verification");
  JsonArray *checks;

  if (verify == NULL)
    {
      g_assert (JSON_NODE_HOLDS_NULL (v));
      return;
    }
  g_assert (json_node_get_boolean (get (v, "passed")) == cordon_verify_passed (verify));
  checks = json_node_get_array (get (v, "checks"));
  g_assert_cmpuint (json_array_get_length (checks), ==, cordon_verify_n_checks (verify));
  for (guint i = 0; i < cordon_verify_n_checks (verify); i++)
    {
      const CordonCheck *c = cordon_verify_get_check (verify, i);
      JsonNode *e = json_array_get_element (checks, i);

      assert_string_as_given (get (e, "check"), c->id);
      assert_string_as_given (get (e, "target"), c->target);
      assert_string_as_given (get (e, "detail"), c->detail);
      g_assert_cmpint (json_node_get_int (get (e, "errno")), ==, c->err);
    }
}

static void
assert_report_faithful (const Input *in,
                        const CordonVerify *verify,
                        const char *text)
{
  g_autoptr(JsonNode) root = parse (text);
  g_autofree char *names = member_names (root);

  g_assert_cmpstr (names, ==, members_of_every_report);
  assert_string_as_given (get (get (root, "policy"), "name"), in->name);
  assert_string_as_given (get (get (root, "policy"), "sha256"), in->report.policy_sha256);
  assert_strings_as_given (get (root, "overrides"), in->report.overrides);
  assert_strings_as_given (get (root, "degradations"), in->report.degradations);
  assert_string_as_given (get (root, "proc"), in->proc);
  if (!in->no_plan)
    assert_strings_as_given (get (root, "abstract_sockets"), in->plan->abstract_sockets);
  if (in->reason != NULL)
    assert_string_as_given (get (get (root, "failure"), "message"), in->report.failure_message);
  if (in->has_probe)
    assert_string_as_given (get (get (root, "probe"), "detail"), in->probe.detail);
  g_assert_cmpint (json_node_get_int (get (root, "exit_status")), ==, in->report.exit_status);
  assert_checks_as_recorded (root, verify);
}

static gboolean
any_value_holds_mark (const Input *in)
{
  for (guint i = 0; i < in->values->len; i++)
    if (strstr (g_ptr_array_index (in->values, i), SECRET_MARK) != NULL)
      return TRUE;
  return FALSE;
}

/* Written as cordon run writes it, to an fd: the JSON and a newline. */
static void
assert_written_as_rendered (const CordonReport *report,
                            const char *text)
{
  int fd = memfd_create ("fuzz-report", MFD_CLOEXEC);
  g_autoptr(CordonReportTarget) target = NULL;
  g_autoptr(GError) error = NULL;
  gsize len = strlen (text);
  g_autofree char *back = g_malloc (len + 2);

  g_assert (fd >= 0);
  target = cordon_report_target_open_fd (fd, &error);
  g_assert_no_error (error);
  g_assert (cordon_report_write_target (report, target, &error));
  g_assert (lseek (fd, 0, SEEK_SET) == 0);
  g_assert (read (fd, back, len + 2) == (ssize_t) len + 1);
  g_assert (memcmp (back, text, len) == 0 && back[len] == '\n');
  close (fd);
}

/* --- entry points -------------------------------------------------------- */

int
LLVMFuzzerInitialize (int *argc,
                      char ***argv)
{
  static const char * const envp[] = { "HOME=/home/u", "TOKEN=" SECRET_MARK "HostTokenValue",
                                       "PATH=/usr/bin", NULL };
  CordonReport blank;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;

  /* A critical of GLib or json-glib is a finding, not noise. */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  facts = cordon_host_facts_new (NULL, envp, "/", NULL);
  g_assert (facts != NULL);
  cordon_report_init (&blank);
  text = cordon_report_to_json (&blank, NULL);
  root = parse (text);
  members_of_every_report = member_names (root);
  cordon_report_clear (&blank);
  return 0;
}

/* Numbers as cordon makes them: a probe result and an outcome in range
 * (and one outcome past it, which the report writes as null). */
static void
fill_report (Input *in,
             CordonVerify *verify)
{
  in->probe.result = (guint) in->probe_result % CORDON_PROBE_MAX;
  in->result.outcome = (guint) in->outcome % (CORDON_OUTCOME_MAX + 1);
  in->result.exit_status = in->report.exit_status;
  in->result.launch_us = in->us;
  for (guint i = 0; i < CORDON_PHASE_MAX; i++)
    if ((in->us >> (i % 8)) & 1)
      cordon_stopwatch_add (&in->report.times, i, (gint64) in->us);
  in->report.policy_name = in->name;
  in->report.proc_mode = in->proc;
  in->report.failure_reason = in->reason;
  in->report.plan = in->no_plan ? NULL : in->plan;
  in->report.probe = in->has_probe ? &in->probe : NULL;
  in->report.result = in->has_result ? &in->result : NULL;
  in->report.verify = verify;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(CordonVerify) verify = NULL;
  g_autofree char *json = NULL;
  Input in;

  input_init (&in);
  for (guint i = 0; lines[i] != NULL; i++)
    apply_line (&in, lines[i], i);
  if (!in.no_plan && !in.no_verify)
    {
      verify = cordon_verify_new (in.plan, facts, NULL);
      for (guint i = 0; i < in.checks->len; i++)
        cordon_verify_record (verify, g_ptr_array_index (in.checks, i));
    }
  fill_report (&in, verify);
  json = cordon_report_to_json (&in.report, NULL);
  assert_report_faithful (&in, verify, json);
  if (!any_value_holds_mark (&in))
    g_assert (strstr (json, SECRET_MARK) == NULL);
  assert_written_as_rendered (&in.report, json);
  input_clear (&in);
  return 0;
}
