// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kinds of mail patchclock sends. See kinds.h.
 */
#include <stddef.h>
#include <string.h>

#include "mail/kinds.h"
#include "util/banned.h"

#define KIND_ROW(k, name, about) [k] = { name, about },
static const struct {
	const char *name, *about;
} kinds[] = { PC_MAIL_KINDS(KIND_ROW) };
#undef KIND_ROW

const char *pc_mail_kind_name(enum pc_mail_kind k)
{
	return (unsigned)k < PC_MAIL_NKINDS ? kinds[k].name : NULL;
}

const char *pc_mail_kind_about(enum pc_mail_kind k)
{
	return (unsigned)k < PC_MAIL_NKINDS ? kinds[k].about : NULL;
}

int pc_mail_kind_of(const char *name)
{
	int k;

	for (k = 0; name && k < PC_MAIL_NKINDS; k++)
		if (!strcmp(kinds[k].name, name))
			return k;
	return -1;
}
