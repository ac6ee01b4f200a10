// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON output, the generic part: the top-level object, strings, times,
 * people, printing (doc/json.md's rules). Nothing here reads the
 * database or the configuration, so the light `patchclock` (cli/front.c)
 * has it too; json_out.c makes the store's objects.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/json_out.h"
#include "util/banned.h"

json_object *json_top(void)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "version",
			       json_object_new_int(CLI_JSON_VERSION));
	return o;
}

json_object *json_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

json_object *json_text(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

json_object *json_msgid(const char *id)
{
	size_t len = id ? strlen(id) : 0;

	if (len >= 2 && id[0] == '<' && id[len - 1] == '>') {
		id++;
		len -= 2;
	}
	return len ? json_object_new_string_len(id, (int)len) : NULL;
}

json_object *json_time(int64_t t, int valid)
{
	char buf[32];

	if (!valid)
		return NULL;
	cli_format_iso(buf, sizeof(buf), t);
	return json_object_new_string(buf);
}

json_object *json_time_or_0(int64_t t)
{
	return json_time(t, t != 0);
}

json_object *json_id_or_0(int64_t id)
{
	return id ? json_object_new_int64(id) : NULL;
}

json_object *json_person(const char *name, const char *email)
{
	json_object *o;

	if (name && !*name)
		name = NULL;
	if (email && !*email)
		email = NULL;
	if (!name && !email)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "name", json_str(name));
	json_object_object_add(o, "email", json_str(email));
	return o;
}

void json_print(json_object *obj)
{
	puts(json_object_to_json_string_ext(
		obj, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(obj);
}
