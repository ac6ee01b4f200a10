/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON forms of the state for --json, built with json-c. */
#ifndef PC_CLI_JSON_OUT_H
#define PC_CLI_JSON_OUT_H

#include <json-c/json.h>

#include "store/query.h"

/* A string, or JSON null for NULL. */
json_object *json_str(const char *s);
/* t as an ISO 8601 UTC string, or JSON null unless valid. */
json_object *json_time(int64_t t, int valid);
/* The same for a time stored as 0 when unknown. */
json_object *json_time_or_0(int64_t t);

json_object *json_series(const struct pc_series_info *s);
json_object *json_message(const struct pc_message_info *m);
/* Prints obj pretty, followed by a newline, and drops the reference. */
void json_print(json_object *obj);

#endif
