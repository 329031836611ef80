/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* json-writer: JSON built with the calls of json-glib's JsonBuilder, held
 * as a GVariant (GLib's own), and turned into text by json-glib
 * (json_gvariant_serialize and JsonGenerator) only when text is asked
 * for. json-glib, with GIO and GObject beneath it, is loaded then
 * (dlopen), not when cordon starts: a run that writes no JSON never pays
 * for it (issue 16). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CordonJson CordonJson;

CordonJson *cordon_json_new (void);
void cordon_json_free (CordonJson *json);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CordonJson, cordon_json_free)

void cordon_json_begin_object (CordonJson *json);
void cordon_json_end_object (CordonJson *json);
void cordon_json_begin_array (CordonJson *json);
void cordon_json_end_array (CordonJson *json);
void cordon_json_set_member_name (CordonJson *json,
                                  const char *name);
void cordon_json_add_string_value (CordonJson *json,
                                   const char *value);
void cordon_json_add_int_value (CordonJson *json,
                                gint64 value);
void cordon_json_add_double_value (CordonJson *json,
                                   double value);
void cordon_json_add_boolean_value (CordonJson *json,
                                    gboolean value);
void cordon_json_add_null_value (CordonJson *json);

GVariant *cordon_json_get_root (CordonJson *json);
gboolean cordon_json_load (GError **error);
char *cordon_json_to_text (CordonJson *json,
                           GError **error);
char *cordon_json_variant_to_text (GVariant *root,
                                   GError **error);

G_END_DECLS
