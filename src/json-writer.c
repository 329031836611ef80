/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* json-writer: see json-writer.h. An object is an a{sv}, an array an av,
 * null a maybe-variant with nothing in it: the GVariant forms that
 * json_gvariant_serialize maps to the same JSON that JsonBuilder made
 * (members in the order they were added). The text is pretty-printed as
 * every JSON of cordon's is (a report, compile --format=json, doctor).
 * json-glib gets the value as bytes, its serialized form, and makes its
 * own GVariant of them with the GLib it was linked with: cordon may hold
 * a GLib of its own (linked in statically, configure.ac), and a GVariant
 * of one must not reach the other. */
#include "config.h"

#include <dlfcn.h>
#include <json-glib/json-glib.h>

#include "cordon-error.h"
#include "json-writer.h"

/* The ABI of json-glib 1.x, stable since 1.0. */
#define JSON_GLIB_SONAME "libjson-glib-1.0.so.0"

typedef struct
{
  GVariantBuilder builder;
  gboolean object;
  char *member;             /* its name in the object that holds it; NULL in an array */
} Frame;

struct _CordonJson
{
  GArray *frames;           /* Frame: the open objects and arrays, innermost last */
  char *member;             /* the name set for the next value */
  GVariant *root;           /* floating-free once the outermost value ends */
};

CordonJson *
cordon_json_new (void)
{
  CordonJson *json = g_new0 (CordonJson, 1);

  json->frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  return json;
}

void
cordon_json_free (CordonJson *json)
{
  if (json == NULL)
    return;
  for (guint i = 0; i < json->frames->len; i++)
    {
      Frame *f = &g_array_index (json->frames, Frame, i);

      g_variant_builder_clear (&f->builder);
      g_free (f->member);
    }
  g_array_unref (json->frames);
  g_free (json->member);
  g_clear_pointer (&json->root, g_variant_unref);
  g_free (json);
}

/* `value` (floating) into the innermost open object or array, under the
 * member name set last; the root when none is open. */
static void
add_value (CordonJson *json,
           const char *member,
           GVariant *value)
{
  Frame *f;

  if (json->frames->len == 0)
    {
      g_clear_pointer (&json->root, g_variant_unref);
      json->root = g_variant_ref_sink (value);
      return;
    }
  f = &g_array_index (json->frames, Frame, json->frames->len - 1);
  if (f->object)
    g_variant_builder_add (&f->builder, "{sv}", member != NULL ? member : "", value);
  else
    g_variant_builder_add (&f->builder, "v", value);
}

static void
add (CordonJson *json,
     GVariant *value)
{
  g_autofree char *member = g_steal_pointer (&json->member);

  add_value (json, member, value);
}

static void
begin (CordonJson *json,
       gboolean object)
{
  Frame f = { .object = object, .member = g_steal_pointer (&json->member) };

  g_variant_builder_init (&f.builder, object ? G_VARIANT_TYPE_VARDICT : G_VARIANT_TYPE ("av"));
  g_array_append_val (json->frames, f);
}

static void
end (CordonJson *json,
     gboolean object)
{
  Frame f;
  GVariant *value;

  g_return_if_fail (json->frames->len > 0);
  f = g_array_index (json->frames, Frame, json->frames->len - 1);
  g_return_if_fail (f.object == object);
  g_array_set_size (json->frames, json->frames->len - 1);
  value = g_variant_builder_end (&f.builder);
  add_value (json, f.member, value);
  g_free (f.member);
}

void
cordon_json_begin_object (CordonJson *json)
{
  begin (json, TRUE);
}

void
cordon_json_end_object (CordonJson *json)
{
  end (json, TRUE);
}

void
cordon_json_begin_array (CordonJson *json)
{
  begin (json, FALSE);
}

void
cordon_json_end_array (CordonJson *json)
{
  end (json, FALSE);
}

void
cordon_json_set_member_name (CordonJson *json,
                             const char *name)
{
  g_free (json->member);
  json->member = g_strdup (name);
}

/* Text from the host (a path, a name) need not be UTF-8: the invalid
 * bytes become U+FFFD, so the JSON stays JSON. NULL is null. */
void
cordon_json_add_string_value (CordonJson *json,
                              const char *value)
{
  if (value == NULL)
    cordon_json_add_null_value (json);
  else if (g_utf8_validate (value, -1, NULL))
    add (json, g_variant_new_string (value));
  else
    add (json, g_variant_new_take_string (g_utf8_make_valid (value, -1)));
}

void
cordon_json_add_int_value (CordonJson *json,
                           gint64 value)
{
  add (json, g_variant_new_int64 (value));
}

void
cordon_json_add_double_value (CordonJson *json,
                              double value)
{
  add (json, g_variant_new_double (value));
}

void
cordon_json_add_boolean_value (CordonJson *json,
                               gboolean value)
{
  add (json, g_variant_new_boolean (value));
}

void
cordon_json_add_null_value (CordonJson *json)
{
  add (json, g_variant_new_maybe (G_VARIANT_TYPE_VARIANT, NULL));
}

/* The finished value (the outermost object or array once ended), owned
 * by `json`; NULL while one is still open. */
GVariant *
cordon_json_get_root (CordonJson *json)
{
  return json->frames->len == 0 ? json->root : NULL;
}

typedef struct
{
  GVariant *(*new_from_data) (const GVariantType *type, gconstpointer data, gsize size, gboolean trusted,
                              GDestroyNotify notify, gpointer user_data);
  void (*variant_unref) (GVariant *value);
  JsonNode *(*serialize) (GVariant *variant);
  JsonGenerator *(*generator_new) (void);
  void (*set_root) (JsonGenerator *generator, JsonNode *node);
  void (*set_pretty) (JsonGenerator *generator, gboolean pretty);
  gchar *(*to_data) (JsonGenerator *generator, gsize *length);
  void (*node_unref) (JsonNode *node);
  void (*object_unref) (gpointer object);
  char *failure;            /* why json-glib could not be loaded; NULL when it was */
} JsonGlib;

static gpointer
load_json_glib (gpointer data)
{
  JsonGlib *lib = g_new0 (JsonGlib, 1);
  void *handle = dlopen (JSON_GLIB_SONAME, RTLD_NOW | RTLD_LOCAL);

  if (handle == NULL)
    {
      lib->failure = g_strdup (dlerror ());
      return lib;
    }
  /* Kept loaded for the life of the process: its types stay registered.
   * GLib's and GObject's functions are looked up through json-glib's
   * handle: those of the copies json-glib itself uses. */
  *(void **) &lib->new_from_data = dlsym (handle, "g_variant_new_from_data");
  *(void **) &lib->variant_unref = dlsym (handle, "g_variant_unref");
  *(void **) &lib->serialize = dlsym (handle, "json_gvariant_serialize");
  *(void **) &lib->generator_new = dlsym (handle, "json_generator_new");
  *(void **) &lib->set_root = dlsym (handle, "json_generator_set_root");
  *(void **) &lib->set_pretty = dlsym (handle, "json_generator_set_pretty");
  *(void **) &lib->to_data = dlsym (handle, "json_generator_to_data");
  *(void **) &lib->node_unref = dlsym (handle, "json_node_unref");
  *(void **) &lib->object_unref = dlsym (handle, "g_object_unref");
  if (lib->new_from_data == NULL || lib->variant_unref == NULL || lib->serialize == NULL
      || lib->generator_new == NULL || lib->set_root == NULL || lib->set_pretty == NULL || lib->to_data == NULL
      || lib->node_unref == NULL || lib->object_unref == NULL)
    lib->failure = g_strdup ("a function of its is missing");
  return lib;
}

static const JsonGlib *
json_glib (GError **error)
{
  static GOnce once = G_ONCE_INIT;
  const JsonGlib *lib = g_once (&once, load_json_glib, NULL);

  if (lib->failure == NULL)
    return lib;
  g_set_error (error, CORDON_ERROR, CORDON_ERROR_HOST, "cannot load %s to write JSON: %s", JSON_GLIB_SONAME,
               lib->failure);
  return NULL;
}

/* json-glib loaded now, once (thread-safe), so that writing JSON later
 * loads nothing. A run that will write a report loads it before the
 * command is released: the loader searches LD_LIBRARY_PATH, and there an
 * empty element is the current directory, as often as not the workdir,
 * which the command may write; what it left there must not be loaded
 * into cordon on the host after the run. */
gboolean
cordon_json_load (GError **error)
{
  return json_glib (error) != NULL;
}

/* The text of `root` (a value of the forms above), pretty-printed, as
 * JsonGenerator writes it. NULL, with the reason, where json-glib cannot
 * be loaded: a broken installation. */
char *
cordon_json_variant_to_text (GVariant *root,
                             GError **error)
{
  const JsonGlib *lib = json_glib (error);
  g_autoptr(GBytes) bytes = NULL;
  GVariant *theirs;
  JsonGenerator *gen;
  JsonNode *node;
  char *text;

  if (lib == NULL)
    return NULL;
  if (root == NULL)
    {
      g_set_error (error, CORDON_ERROR, CORDON_ERROR_FAILED, "no JSON value to write");
      return NULL;
    }
  /* A type is its string: the same to either GLib. */
  bytes = g_variant_get_data_as_bytes (root);
  theirs = lib->new_from_data ((const GVariantType *) g_variant_get_type_string (root),
                               g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), TRUE, NULL, NULL);
  node = lib->serialize (theirs);
  gen = lib->generator_new ();
  lib->set_root (gen, node);
  lib->set_pretty (gen, TRUE);
  text = lib->to_data (gen, NULL);
  lib->object_unref (gen);
  lib->node_unref (node);
  lib->variant_unref (theirs);
  return text;
}

/* NULL where the value is not finished (an object or array still open:
 * a programming error) or cannot be written. */
char *
cordon_json_to_text (CordonJson *json,
                     GError **error)
{
  return cordon_json_variant_to_text (cordon_json_get_root (json), error);
}
