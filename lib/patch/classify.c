// SPDX-License-Identifier: GPL-2.0-or-later
/* Mail classification and bot recognition (see classify.h). */
#include <string.h>
#include <strings.h>

#include "patch/classify.h"
#include "util/util.h"
#include "util/banned.h"

const char *pc_kind_name(enum pc_kind kind)
{
	switch (kind) {
	case PC_KIND_PATCH:
		return "patch";
	case PC_KIND_COVER:
		return "cover";
	case PC_KIND_REPLY:
		return "reply";
	case PC_KIND_PULL:
		return "pull";
	case PC_KIND_OTHER:
		return "other";
	case PC_KIND_ERROR:
		return "error";
	}
	return "other";
}

enum pc_kind pc_classify(const struct pc_subject *subj, int has_diff,
			 int has_pull_url, int has_parent)
{
	unsigned f = subj->flags;

	if (f & PC_SUBJ_REPLY)
		return PC_KIND_REPLY;
	if ((f & PC_SUBJ_PULL) || (has_pull_url && !has_diff))
		return PC_KIND_PULL;
	if (f & (PC_SUBJ_PATCH | PC_SUBJ_RFC)) {
		if ((f & PC_SUBJ_NUMBERED) && subj->index == 0)
			return PC_KIND_COVER;
		if (has_diff || ((f & PC_SUBJ_NUMBERED) && subj->index >= 1))
			return PC_KIND_PATCH;
	} else if (has_diff && !(f & PC_SUBJ_FWD)) {
		return PC_KIND_PATCH;
	}
	if (has_parent)
		return PC_KIND_REPLY;
	return PC_KIND_OTHER;
}

/* Senders that are robots on kernel lists. */
static const char *const bot_addrs[] = {
	"lkp@intel.com", /* kernel test robot */
	"pr-tracker-bot@kernel.org",
	"bot@kernelci.org",
	"lkft@linaro.org",
	"noreply@ellerman.id.au",
	"patchwork@emeril.freedesktop.org",
	"syzbot@syzkaller.appspotmail.com",
	"ci_notify@linaro.org",
};

static const char *const bot_addr_prefixes[] = {
	"syzbot+", /* syzbot+<hash>@syzkaller.appspotmail.com */
	"patchwork-bot+", /* patchwork-bot+netdevbpf@kernel.org */
	"noreply",	  "no-reply", "mailer-daemon",
};

static const char *const bot_names[] = {
	"kernel test robot", "kbuild test robot", "syzbot",
	"pr-tracker-bot",    "patchwork-bot",	  "kernelci.org bot",
};

int pc_is_bot_addr(const char *addr)
{
	size_t i;

	if (!addr)
		return 0;
	for (i = 0; i < PC_ARRAY_SIZE(bot_addrs); i++)
		if (!strcasecmp(addr, bot_addrs[i]))
			return 1;
	for (i = 0; i < PC_ARRAY_SIZE(bot_addr_prefixes); i++)
		if (pc_mem_istarts(addr, strlen(addr), bot_addr_prefixes[i]))
			return 1;
	return 0;
}

int pc_is_bot(const char *name, const char *addr, const char *auto_submitted)
{
	size_t i;

	if (auto_submitted && *auto_submitted &&
	    strncasecmp(auto_submitted, "no", 2) != 0)
		return 1;
	if (pc_is_bot_addr(addr))
		return 1;
	if (name)
		for (i = 0; i < PC_ARRAY_SIZE(bot_names); i++)
			if (!strcasecmp(name, bot_names[i]))
				return 1;
	return 0;
}
