/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON forms of the state for --json, built with json-c, by the rules of
 * doc/json.md: one top-level object with "version", every field present
 * (null when unknown), times as ISO 8601 UTC in fields named *_at,
 * Message-IDs without brackets, people as {name, email}.
 */
#ifndef PC_CLI_JSON_OUT_H
#define PC_CLI_JSON_OUT_H

#include <json-c/json.h>

#include "store/query.h"

/* The format's version: doc/json.md. */
#define CLI_JSON_VERSION 1

/* A new top-level object: {"version": CLI_JSON_VERSION}. */
json_object *json_top(void);
/* A string, or JSON null for NULL. */
json_object *json_str(const char *s);
/* The same, with "" as null too. */
json_object *json_text(const char *s);
/* A Message-ID without its angle brackets; null for NULL or "". */
json_object *json_msgid(const char *id);
/* t as an ISO 8601 UTC string, or JSON null unless valid. */
json_object *json_time(int64_t t, int valid);
/* The same for a time stored as 0 when unknown. */
json_object *json_time_or_0(int64_t t);
/* An integer, or JSON null for 0. */
json_object *json_id_or_0(int64_t id);
/* {"name": name, "email": email}; null when both are NULL. */
json_object *json_person(const char *name, const char *email);
/* The archive link of msgid (no brackets) by the configured pattern
 * (patchclockd.conf's archive, else lore), or null. */
json_object *json_url(const char *msgid);
/* The same link as text (the configuration's archive, else
 * lore.kernel.org/r/), or NULL when there is none; caller frees. */
char *cli_url(const char *msgid);
/* A mapped entry of a series (SeriesEntry in doc/json.md). */
json_object *json_series_entry(const char *name, int depth, int files,
			       int k_hit, int k_only, const char *profile);

json_object *json_series(const struct pc_series_info *s);
json_object *json_message(const struct pc_message_info *m);
/* Prints obj pretty, followed by a newline, and drops the reference. */
void json_print(json_object *obj);

#endif
