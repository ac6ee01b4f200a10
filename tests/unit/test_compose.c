// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for lib/notify/compose: every kind of mail compared byte for
 * byte with a golden text written out here (the nvdimm profile of the
 * seed RFC, in America/Los_Angeles through the real tz database), and
 * the rules each golden text only shows once: wrapping, RFC 2047 names,
 * References folding, deterministic Message-IDs, the Cc choice, the
 * RESEND subject, length bounds and header injection. The mails are also
 * read back with lib/mail/message, the parser patchclock ingests with.
 *
 * Times used (checked with `date -u -d @T`): 1620059400 is Mon
 * 2021-05-03 16:30 UTC (09:30 PDT); 1620923400 is Thu 2021-05-13 16:30
 * UTC, 8 business days later; 1620102600 is Tue 2021-05-04 04:30 UTC;
 * 1620122400 is Tue 2021-05-04 10:00 UTC; 1618900000 is Tue 2021-04-20
 * 06:26:40 UTC (Mon 23:26 PDT).
 */
#include "testutil.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/message.h"
#include "mail/rfc2047.h"
#include "notify/compose.h"
#include "notify/compose_internal.h"
#include "sla/bizclock.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/util.h"
#include "util/xalloc.h"

#define POSTED 1620059400LL
#define DUE 1620923400LL
#define NVDIMM "Documentation/nvdimm/subsystem-profile.rst"

static const struct pc_notify_addr maintainers[] = {
	{ "Dan Williams", "dan.j.williams@intel.com" },
	{ "Vishal Verma", "vishal.l.verma@intel.com" },
	{ "Dave Jiang", "dave.jiang@intel.com" },
};
static const struct pc_notify_addr lists[] = {
	{ NULL, "linux-nvdimm@lists.01.org" },
};
static const struct pc_notify_addr trusted[] = {
	{ "Johannes Thumshirn", NULL },
	{ "Toshi Kani", "toshi.kani@hpe.com" },
	{ "Jeff Moyer", NULL },
	{ "Robert Elliott", NULL },
};

/* The nvdimm "resend now" reply of the golden text, first reminder. */
struct fx {
	struct pc_bizclock *clk; /* owned */
	char key[PC_COMPOSE_KEY_MAX + 1];
	struct pc_prof_hours hours;
	struct pc_notify_resend r;
};

static void fx_init(struct fx *f)
{
	struct pc_biz_hours bh = PC_BIZ_HOURS_INIT;
	struct pc_err err = { 0 };

	memset(f, 0, sizeof(*f));
	bh.zone = "America/Los_Angeles";
	bh.start = 8 * 60;
	bh.end = 17 * 60;
	assert_int_equal(pc_bizclock_new(&f->clk, &bh, &err), 0);
	assert_int_equal(pc_compose_action_key(f->key, sizeof(f->key), 42, 3,
					       "resend", "1", &err),
			 0);
	f->hours.days = PC_PROF_WEEKDAYS;
	f->hours.start = 8 * 60;
	f->hours.end = 17 * 60;
	snprintf(f->hours.zone, sizeof(f->hours.zone), "America/Los_Angeles");

	f->r.head.from.name = "patchclock";
	f->r.head.from.addr = "patchclock@example.org";
	f->r.head.date = DUE;
	f->r.head.domain = "patchclock.example.org";
	f->r.head.key = f->key;
	f->r.head.local_fn = pc_compose_zone_time;
	f->r.head.local_arg = f->clk;

	f->r.reply.reminder = PC_PROF_REMIND_PRIVATE;
	f->r.reply.maintainers = maintainers;
	f->r.reply.nmaintainers = PC_ARRAY_SIZE(maintainers);
	f->r.reply.lists = lists;
	f->r.reply.nlists = PC_ARRAY_SIZE(lists);

	f->r.series.id = 42;
	f->r.series.version = 3;
	f->r.series.subject = "[PATCH v3 0/4] libnvdimm: add foo";
	f->r.series.msgid = "20210503163000.1234-1-jane@example.com";
	f->r.series.author.name = "Jane Doe";
	f->r.series.author.addr = "jane@example.com";
	f->r.series.posted = POSTED;

	f->r.cadence.count = 8;
	f->r.cadence.unit = PC_PROF_UNIT_BUSINESS_DAYS;
	f->r.cadence_from.kind = PC_PROF_SRC_SHORT;
	f->r.cadence_from.file = NVDIMM;
	f->r.cadence_from.heading = "Resubmit Cadence";
	f->r.cadence_from.line = 77;
	f->r.cadence_from.quote = "8 business days";
	f->r.hours = &f->hours;
	f->r.hours_from.kind = PC_PROF_SRC_SHORT;
	f->r.hours_from.file = NVDIMM;
	f->r.hours_from.heading = "Time Zone / Office Hours";
	f->r.due = DUE;
	f->r.nth = 1;
	f->r.trusted = trusted;
	f->r.ntrusted = PC_ARRAY_SIZE(trusted);
	f->r.trusted_from.kind = PC_PROF_SRC_SHORT;
	f->r.trusted_from.file = NVDIMM;
	f->r.trusted_from.heading = "Trusted Reviewers";
	f->r.deadline.kind = PC_PROF_DL_RC;
	f->r.deadline.rc = 5;
	f->r.deadline_from.kind = PC_PROF_SRC_SHORT;
	f->r.deadline_from.file = NVDIMM;
	f->r.deadline_from.heading = "Last day for new feature submissions";
	f->r.late_window = "5.2";
}

static void fx_release(struct fx *f)
{
	pc_bizclock_free(f->clk);
}

/* The too-soon note on v4, posted 5.5 hours after v3. */
static void fx_too_soon(struct pc_notify_too_soon *t, const struct fx *f)
{
	memset(t, 0, sizeof(*t));
	t->head = f->r.head;
	t->reply = f->r.reply;
	t->series = f->r.series;
	t->series.version = 4;
	t->series.subject = "[PATCH v4 0/4] libnvdimm: add foo";
	t->series.msgid = "20210504100000.777-1-jane@example.com";
	t->series.posted = 1620122400;
	t->prev_version = 3;
	t->prev_posted = 1620102600;
	t->repost_min.count = 24;
	t->repost_min.unit = PC_PROF_UNIT_HOURS;
	t->repost_from.kind = PC_PROF_SRC_PROSE;
	t->repost_from.file = "Documentation/process/maintainer-netdev.rst";
	t->repost_from.heading = "Resending after review";
	t->repost_from.quote =
		"Do not repost your patches within one 24h period.";
}

/* Compares a mail with its golden text; shows where they part. */
static void assert_mail(const char *got, const char *want)
{
	size_t i = 0;

	if (strcmp(got, want) == 0)
		return;
	while (got[i] && got[i] == want[i])
		i++;
	print_message("--- got ---\n%s--- end ---\n", got);
	fail_msg("mail differs at byte %zu: got '%.40s', want '%.40s'", i,
		 got + i, want + i);
}

/* The header block (up to the empty line) and the body of a mail. */
static const char *body_of(const char *mail)
{
	const char *p = strstr(mail, "\n\n");

	assert_non_null(p);
	return p + 2;
}

/* The unfolded value of the first header called name, or NULL. */
static char *header_value(const char *mail, const char *name)
{
	const char *end = strstr(mail, "\n\n"), *p = mail;
	size_t n = strlen(name);
	struct pc_buf v = PC_BUF_INIT;

	while (p < end) {
		const char *nl = strchr(p, '\n');

		if (strncmp(p, name, n) == 0 && p[n] == ':') {
			pc_buf_add(&v, p + n + 1, (size_t)(nl - p - n - 1));
			while (nl < end && nl[1] == ' ') {
				p = nl + 1;
				nl = strchr(p, '\n');
				pc_buf_add(&v, p, (size_t)(nl - p));
			}
			return pc_buf_detach(&v, NULL);
		}
		p = nl + 1;
	}
	return NULL;
}

/* Counts how many lines of the mail's header block start with name ':'. */
static int header_count(const char *mail, const char *name)
{
	const char *end = strstr(mail, "\n\n"), *p = mail;
	size_t n = strlen(name);
	int count = 0;

	for (; p && p < end; p = strchr(p, '\n') + 1) {
		if (pc_mem_istarts(p, (size_t)(end - p), name) && p[n] == ':')
			count++;
		if (!strchr(p, '\n'))
			break;
	}
	return count;
}

/*
 * The rules every mail keeps: LF only, no other control byte; a header
 * block of known names and continuation lines, printable ASCII, at most
 * 78 bytes a line unless the line holds a single word after its name.
 */
static void assert_well_formed(const char *mail)
{
	static const char *const names[] = {
		"From",
		"To",
		"Cc",
		"Subject",
		"Date",
		"Message-ID",
		"In-Reply-To",
		"References",
		"MIME-Version",
		"Content-Type",
		"Content-Transfer-Encoding",
		"Auto-Submitted",
		"X-Patchclock-Series",
		"X-Patchclock-Action",
	};
	const char *end = strstr(mail, "\n\n"), *p, *q;
	size_t i;

	assert_non_null(end);
	for (q = mail; *q; q++)
		assert_true((unsigned char)*q >= 0x20 || *q == '\n');
	for (p = mail; p <= end; p = strchr(p, '\n') + 1) {
		const char *nl = strchr(p, '\n');
		size_t len = (size_t)(nl - p);

		for (q = p; q < nl; q++)
			assert_true((unsigned char)*q < 0x7f);
		if (p[0] == ' ') {
			assert_true(len > 1 && p[1] != ' ');
		} else {
			const char *colon = memchr(p, ':', len);

			assert_non_null(colon);
			for (i = 0; i < PC_ARRAY_SIZE(names); i++)
				if ((size_t)(colon - p) == strlen(names[i]) &&
				    memcmp(p, names[i], strlen(names[i])) == 0)
					break;
			if (i == PC_ARRAY_SIZE(names))
				fail_msg("unexpected header line '%.*s'",
					 (int)len, p);
		}
		if (len > 78) {
			/* One word only: "Name: word" or " word". */
			const char *sp = memchr(p + 1, ' ', len - 1);

			assert_true(!sp || !memchr(sp + 1, ' ',
						   (size_t)(nl - sp - 1)));
		}
	}
}

/* Columns of a UTF-8 line, for the characters these tests use. */
static size_t columns(const char *p, size_t len)
{
	size_t i = 0, w = 0;

	while (i < len) {
		unsigned char c = (unsigned char)p[i];

		if (c < 0x80) {
			i++;
			w++;
		} else if (c >= 0xe4 && c <= 0xe9) {
			/* U+4000..U+9FFF, CJK here: two columns */
			i += 3;
			w += 2;
		} else {
			i++;
			while (i < len && ((unsigned char)p[i] & 0xc0) == 0x80)
				i++;
			w++;
		}
	}
	return w;
}

/* Every body line fits 72 columns, or is one word after its indent, or
 * is the subject to resend with (one line, to be copied whole). */
static void assert_wrapped(const char *mail)
{
	const char *p = body_of(mail), *resend = NULL;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = (size_t)(nl - p), s = 0;

		assert_non_null(nl);
		if (p == resend) {
			assert_true(len > 2 && p[0] == ' ' && p[1] == ' ' &&
				    p[2] == '[');
		} else if (columns(p, len) > 72) {
			while (s < len && (p[s] == ' ' || p[s] == '-'))
				s++;
			if (memchr(p + s, ' ', len - s))
				fail_msg("line over 72 columns: '%.*s'",
					 (int)len, p);
		}
		assert_false(len && p[len - 1] == ' ' &&
			     !(len == 3 && memcmp(p, "-- ", 3) == 0));
		/* After "... RESEND in the tag:" and a blank line. */
		if (len >= 18 &&
		    !memcmp(p + len - 18, "RESEND in the tag:", 18))
			resend = nl + 2;
		p = nl + 1;
	}
}

static void compose_resend(struct pc_buf *out, const struct pc_notify_resend *r)
{
	struct pc_err err = { 0 };

	pc_buf_reset(out);
	if (pc_compose_resend(out, r, &err) != 0)
		fail_msg("pc_compose_resend: %s", err.msg);
	assert_well_formed(out->buf);
	assert_wrapped(out->buf);
}

static const char golden_resend[] =
	"From: patchclock <patchclock@example.org>\n"
	"To: Jane Doe <jane@example.com>\n"
	"Cc: Dan Williams <dan.j.williams@intel.com>, Vishal Verma\n"
	" <vishal.l.verma@intel.com>, Dave Jiang <dave.jiang@intel.com>\n"
	"Subject: Re: [PATCH v3 0/4] libnvdimm: add foo\n"
	"Date: Thu, 13 May 2021 16:30:00 +0000\n"
	"Message-ID: <patchclock.resend.22e7dbea976b4c8c539248cba54fc861@pa"
	"tchclock.example.org>\n"
	"In-Reply-To: <20210503163000.1234-1-jane@example.com>\n"
	"References: <20210503163000.1234-1-jane@example.com>\n"
	"MIME-Version: 1.0\n"
	"Content-Type: text/plain; charset=utf-8\n"
	"Content-Transfer-Encoding: 8bit\n"
	"Auto-Submitted: auto-generated\n"
	"X-Patchclock-Series: 42 v3\n"
	"X-Patchclock-Action: resend\n"
	"\n"
	"Hello Jane Doe,\n"
	"\n"
	"Your series \"[PATCH v3 0/4] libnvdimm: add foo\" was posted on "
	"Mon\n"
	"2021-05-03 16:30 UTC (Mon 2021-05-03 09:30 PDT, the maintainers' "
	"time)\n"
	"and has had no response yet:\n"
	"\n"
	"  https://lore.kernel.org/r/20210503163000.1234-1-jane@example.com\n"
	"\n"
	"The subsystem's profile asks for a resend or a ping after 8 "
	"business\n"
	"days without a response:\n"
	"\n"
	"  Documentation/nvdimm/subsystem-profile.rst, \"Resubmit Cadence\"\n"
	"\n"
	"The time was counted in the maintainers' business days and zone: 8\n"
	"business days, 8:00am-5:00pm America/Los_Angeles\n"
	"(Documentation/nvdimm/subsystem-profile.rst, \"Time Zone / Office\n"
	"Hours\"). The series was due on Thu 2021-05-13 16:30 UTC (Thu "
	"2021-05-13\n"
	"09:30 PDT, the maintainers' time).\n"
	"\n"
	"What to do now: if it still applies, resend the series unchanged, "
	"with\n"
	"the same subject and RESEND in the tag:\n"
	"\n"
	"  [PATCH RESEND v3 0/4] libnvdimm: add foo\n"
	"\n"
	"and the same for each of its patches; or ping the maintainers "
	"with a\n"
	"short reply to it on the list.\n"
	"\n"
	"-- \n"
	"Sent by patchclock, which holds series to the subsystem's profile.\n"
	"Reply with a line 'patchclock: opt-out' to stop these mails.\n";

static void test_compose__resend_golden(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;

	(void)state;
	fx_init(&f);
	compose_resend(&out, &f.r);
	assert_mail(out.buf, golden_resend);
	pc_buf_release(&out);
	fx_release(&f);
}

/* Second reminder, late feature, list Cc, a non-ASCII author name. */
static const char golden_resend_second_late[] =
	"From: patchclock <patchclock@example.org>\n"
	"To: =?UTF-8?Q?J=C3=B6rg_R=C3=B6del?= <jane@example.com>\n"
	"Cc: Dan Williams <dan.j.williams@intel.com>, Vishal Verma\n"
	" <vishal.l.verma@intel.com>, Dave Jiang <dave.jiang@intel.com>,\n"
	" linux-nvdimm@lists.01.org\n"
	"Subject: Re: [PATCH v3 0/4] libnvdimm: add foo\n"
	"Date: Thu, 13 May 2021 16:30:00 +0000\n"
	"Message-ID: <patchclock.resend.22e7dbea976b4c8c539248cba54fc861@pa"
	"tchclock.example.org>\n"
	"In-Reply-To: <20210503163000.1234-1-jane@example.com>\n"
	"References: <20210503163000.1234-1-jane@example.com>\n"
	"MIME-Version: 1.0\n"
	"Content-Type: text/plain; charset=utf-8\n"
	"Content-Transfer-Encoding: 8bit\n"
	"Auto-Submitted: auto-generated\n"
	"X-Patchclock-Series: 42 v3\n"
	"X-Patchclock-Action: resend\n"
	"\n"
	"Hello J\xc3\xb6rg R\xc3\xb6"
	"del,\n"
	"\n"
	"Your series \"[PATCH v3 0/4] libnvdimm: add foo\" was posted on "
	"Mon\n"
	"2021-05-03 16:30 UTC (Mon 2021-05-03 09:30 PDT, the maintainers' "
	"time)\n"
	"and has still had no response after 1 earlier reminder:\n"
	"\n"
	"  https://lore.kernel.org/r/20210503163000.1234-1-jane@example.com\n"
	"\n"
	"The subsystem's profile asks for a resend or a ping after 8 "
	"business\n"
	"days without a response:\n"
	"\n"
	"  Documentation/nvdimm/subsystem-profile.rst, \"Resubmit Cadence\"\n"
	"\n"
	"The time was counted in the maintainers' business days and zone: 8\n"
	"business days, 8:00am-5:00pm America/Los_Angeles\n"
	"(Documentation/nvdimm/subsystem-profile.rst, \"Time Zone / Office\n"
	"Hours\"). The series was due on Thu 2021-05-13 16:30 UTC (Thu "
	"2021-05-13\n"
	"09:30 PDT, the maintainers' time).\n"
	"\n"
	"The series adds a feature and was posted after the profile's last "
	"-rc\n"
	"for new features (before -rc5;\n"
	"Documentation/nvdimm/subsystem-profile.rst, \"Last day for new "
	"feature\n"
	"submissions\"), so it now targets the 5.2 merge window, not the "
	"next one.\n"
	"\n"
	"A review from one of the profile's trusted reviewers may help the\n"
	"maintainers take the series "
	"(Documentation/nvdimm/subsystem-profile.rst,\n"
	"\"Trusted Reviewers\"):\n"
	"\n"
	"  Johannes Thumshirn\n"
	"  Toshi Kani <toshi.kani@hpe.com>\n"
	"  Jeff Moyer\n"
	"  Robert Elliott\n"
	"\n"
	"What to do now: if it still applies, resend the series unchanged, "
	"with\n"
	"the same subject and RESEND in the tag:\n"
	"\n"
	"  [PATCH RESEND v3 0/4] libnvdimm: add foo\n"
	"\n"
	"and the same for each of its patches; or ping the maintainers "
	"with a\n"
	"short reply to it on the list.\n"
	"\n"
	"-- \n"
	"Sent by patchclock, which holds series to the subsystem's profile.\n"
	"Reply with a line 'patchclock: opt-out' to stop these mails.\n";

static void test_compose__resend_second_late_golden(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;

	(void)state;
	fx_init(&f);
	f.r.nth = 2;
	f.r.late = 1;
	f.r.reply.reminder = PC_PROF_REMIND_LIST;
	f.r.series.author.name = "J\xc3\xb6rg R\xc3\xb6"
				 "del";
	compose_resend(&out, &f.r);
	assert_mail(out.buf, golden_resend_second_late);
	pc_buf_release(&out);
	fx_release(&f);
}

static const char golden_too_soon[] =
	"From: patchclock <patchclock@example.org>\n"
	"To: Jane Doe <jane@example.com>\n"
	"Cc: Dan Williams <dan.j.williams@intel.com>, Vishal Verma\n"
	" <vishal.l.verma@intel.com>, Dave Jiang <dave.jiang@intel.com>\n"
	"Subject: Re: [PATCH v4 0/4] libnvdimm: add foo\n"
	"Date: Thu, 13 May 2021 16:30:00 +0000\n"
	"Message-ID: <patchclock.too-soon.f6f751033dfffd35c54fcfbeef6fdba0@"
	"patchclock.example.org>\n"
	"In-Reply-To: <20210504100000.777-1-jane@example.com>\n"
	"References: <20210504100000.777-1-jane@example.com>\n"
	"MIME-Version: 1.0\n"
	"Content-Type: text/plain; charset=utf-8\n"
	"Content-Transfer-Encoding: 8bit\n"
	"Auto-Submitted: auto-generated\n"
	"X-Patchclock-Series: 42 v4\n"
	"X-Patchclock-Action: too-soon\n"
	"\n"
	"Hello Jane Doe,\n"
	"\n"
	"v4 of this series was posted on Tue 2021-05-04 10:00 UTC (Tue "
	"2021-05-04\n"
	"03:00 PDT, the maintainers' time), 5 hours 30 minutes after v3, "
	"which\n"
	"was posted on Tue 2021-05-04 04:30 UTC (Mon 2021-05-03 21:30 PDT, "
	"the\n"
	"maintainers' time):\n"
	"\n"
	"  https://lore.kernel.org/r/20210504100000.777-1-jane@example.com\n"
	"\n"
	"The subsystem's profile asks for at least 24 hours between two "
	"postings\n"
	"of a series:\n"
	"\n"
	"  Documentation/process/maintainer-netdev.rst, \"Resending after "
	"review\"\n"
	"  \"Do not repost your patches within one 24h period.\"\n"
	"\n"
	"Please give reviewers that long to respond to one version before "
	"posting\n"
	"the next; there is no need to resend this one.\n"
	"\n"
	"-- \n"
	"Sent by patchclock, which holds series to the subsystem's profile.\n"
	"Reply with a line 'patchclock: opt-out' to stop these mails.\n";

static void test_compose__too_soon_golden(void **state)
{
	struct fx f;
	struct pc_notify_too_soon t;
	struct pc_buf out = PC_BUF_INIT;
	struct pc_err err = { 0 };
	char key[PC_COMPOSE_KEY_MAX + 1];

	(void)state;
	fx_init(&f);
	fx_too_soon(&t, &f);
	assert_int_equal(pc_compose_action_key(key, sizeof(key), 42, 4,
					       "too-soon", "1", &err),
			 0);
	t.head.key = key;
	assert_int_equal(pc_compose_too_soon(&out, &t, &err), 0);
	assert_well_formed(out.buf);
	assert_wrapped(out.buf);
	assert_mail(out.buf, golden_too_soon);
	pc_buf_release(&out);
	fx_release(&f);
}

/* Items of every kind, given out of order. */
static void fx_items(struct pc_notify_item *it, const struct fx *f)
{
	static const struct pc_notify_series bob = {
		17,
		1,
		"[PATCH] nvdimm/btt: fix a very long subject line that goes "
		"on and on past the edge",
		"20210420.1-bob@example.net",
		NULL,
		0,
		{ "Bob", "bob@example.net" },
		1618900000,
	};

	memset(it, 0, 6 * sizeof(*it));
	it[0].kind = PC_NOTIFY_BOOT;
	it[0].series = bob;
	it[0].series.id = 50;
	it[0].boot_reason = "kernel panic: VFS: Unable to mount root fs\r\n"
			    "on unknown-block(0,0)";
	it[1].kind = PC_NOTIFY_OVERDUE;
	it[1].series = f->r.series;
	it[1].overdue_days = 2.46;
	it[2].kind = PC_NOTIFY_READY;
	it[2].series = bob;
	it[2].series.id = 50;
	it[2].reviewed = 4;
	it[2].npatches = 4;
	it[3].kind = PC_NOTIFY_OVERDUE;
	it[3].series = bob;
	it[3].overdue_days = 11.04;
	it[4].kind = PC_NOTIFY_TOO_SOON;
	it[4].series = f->r.series;
	it[4].series.version = 4;
	it[4].series.subject = "[PATCH v4 0/4] libnvdimm: add foo";
	it[4].series.msgid = "20210504100000.777-1-jane@example.com";
	it[4].series.posted = 1620122400;
	it[4].prev_version = 3;
	it[4].prev_posted = 1620102600;
	it[4].repost_min.count = 24;
	it[4].repost_min.unit = PC_PROF_UNIT_HOURS;
	it[5].kind = PC_NOTIFY_LATE;
	it[5].series = f->r.series;
	it[5].series.id = 61;
	it[5].series.version = 1;
	it[5].series.subject = "[PATCH 0/2] libnvdimm: new feature";
	it[5].series.msgid = "20210503170000.1-jane@example.com";
	it[5].deadline = f->r.deadline;
	it[5].late_window = "5.2";
}

static const char golden_digest[] =
	"From: patchclock <patchclock@example.org>\n"
	"To: Dan Williams <dan.j.williams@intel.com>\n"
	"Subject: [patchclock] 2 overdue, 1 ready to apply, 1 late for the "
	"cycle, 1 too\n"
	" soon, 1 boot test\n"
	"Date: Thu, 13 May 2021 16:30:00 +0000\n"
	"Message-ID: <patchclock.digest.25383d6250361f2595e9ad53d67be0bd@pa"
	"tchclock.example.org>\n"
	"MIME-Version: 1.0\n"
	"Content-Type: text/plain; charset=utf-8\n"
	"Content-Transfer-Encoding: 8bit\n"
	"Auto-Submitted: auto-generated\n"
	"X-Patchclock-Series: 17 v1, 42 v3, 50 v1, 61 v1, 42 v4\n"
	"X-Patchclock-Action: digest\n"
	"\n"
	"Hello Dan Williams,\n"
	"\n"
	"This is patchclock's digest as of Thu 2021-05-13 09:30 PDT: 2 "
	"overdue, 1\n"
	"ready to apply, 1 late for the cycle, 1 too soon, 1 boot test.\n"
	"\n"
	"Overdue, oldest first (2)\n"
	"-------------------------\n"
	"\n"
	"- [PATCH] nvdimm/btt: fix a very long subject line that goes on "
	"and on\n"
	"  past the edge\n"
	"  v1 by Bob <bob@example.net>, posted Mon 2021-04-19 23:26 PDT\n"
	"  overdue by 11 business days\n"
	"  https://lore.kernel.org/r/20210420.1-bob@example.net\n"
	"  Message-ID: <20210420.1-bob@example.net>\n"
	"\n"
	"- [PATCH v3 0/4] libnvdimm: add foo\n"
	"  v3 by Jane Doe <jane@example.com>, posted Mon 2021-05-03 09:30 "
	"PDT\n"
	"  overdue by 2.5 business days\n"
	"  https://lore.kernel.org/r/20210503163000.1234-1-jane@example.com\n"
	"  Message-ID: <20210503163000.1234-1-jane@example.com>\n"
	"\n"
	"Ready to apply (1)\n"
	"------------------\n"
	"\n"
	"- [PATCH] nvdimm/btt: fix a very long subject line that goes on "
	"and on\n"
	"  past the edge\n"
	"  v1 by Bob <bob@example.net>, posted Mon 2021-04-19 23:26 PDT\n"
	"  review rules met: 4 of 4 patches reviewed\n"
	"  https://lore.kernel.org/r/20210420.1-bob@example.net\n"
	"  Message-ID: <20210420.1-bob@example.net>\n"
	"\n"
	"Late for the cycle (1)\n"
	"----------------------\n"
	"\n"
	"- [PATCH 0/2] libnvdimm: new feature\n"
	"  v1 by Jane Doe <jane@example.com>, posted Mon 2021-05-03 09:30 "
	"PDT\n"
	"  a feature posted after the last -rc for new features (before "
	"-rc5); it\n"
	"  targets the 5.2 merge window\n"
	"  https://lore.kernel.org/r/20210503170000.1-jane@example.com\n"
	"  Message-ID: <20210503170000.1-jane@example.com>\n"
	"\n"
	"Too-soon reposts (1)\n"
	"--------------------\n"
	"\n"
	"- [PATCH v4 0/4] libnvdimm: add foo\n"
	"  v4 by Jane Doe <jane@example.com>, posted Tue 2021-05-04 03:00 "
	"PDT\n"
	"  posted 5 hours 30 minutes after v3; the profile asks for at "
	"least 24\n"
	"  hours\n"
	"  https://lore.kernel.org/r/20210504100000.777-1-jane@example.com\n"
	"  Message-ID: <20210504100000.777-1-jane@example.com>\n"
	"\n"
	"Boot tests (1)\n"
	"--------------\n"
	"\n"
	"- [PATCH] nvdimm/btt: fix a very long subject line that goes on "
	"and on\n"
	"  past the edge\n"
	"  v1 by Bob <bob@example.net>, posted Mon 2021-04-19 23:26 PDT\n"
	"  boot test failed: kernel panic: VFS: Unable to mount root fs on\n"
	"  unknown-block(0,0)\n"
	"  https://lore.kernel.org/r/20210420.1-bob@example.net\n"
	"  Message-ID: <20210420.1-bob@example.net>\n"
	"\n"
	"-- \n"
	"Sent by patchclock, which holds series to the subsystem's profile.\n"
	"Reply with a line 'patchclock: opt-out' to stop these mails.\n";

static void test_compose__digest_golden(void **state)
{
	struct fx f;
	struct pc_notify_item it[6];
	struct pc_notify_digest d;
	struct pc_buf out = PC_BUF_INIT;
	struct pc_err err = { 0 };
	char key[PC_COMPOSE_KEY_MAX + 1];

	(void)state;
	fx_init(&f);
	fx_items(it, &f);
	memset(&d, 0, sizeof(d));
	d.head = f.r.head;
	snprintf(key, sizeof(key),
		 "digest:dan.j.williams@intel.com:2021-05-13");
	d.head.key = key;
	d.to = maintainers[0];
	d.items = it;
	d.nitems = PC_ARRAY_SIZE(it);
	assert_int_equal(pc_compose_digest(&out, &d, &err), 0);
	assert_well_formed(out.buf);
	assert_wrapped(out.buf);
	assert_mail(out.buf, golden_digest);
	pc_buf_release(&out);
	fx_release(&f);
}

static void test_compose__digest_empty(void **state)
{
	struct fx f;
	struct pc_notify_digest d;
	struct pc_buf out = PC_BUF_INIT;
	struct pc_err err = { 0 };

	(void)state;
	fx_init(&f);
	memset(&d, 0, sizeof(d));
	d.head = f.r.head;
	d.to = maintainers[0];
	pc_buf_addstr(&out, "kept");
	assert_int_equal(pc_compose_digest(&out, &d, &err), PC_COMPOSE_NOTHING);
	assert_string_equal(out.buf, "kept");
	assert_int_equal(err.code, 0);
	pc_buf_release(&out);
	fx_release(&f);
}

/*
 * Wrapping edge cases, exactly: a subject of double-width characters, a
 * word longer than a line, and a Message-ID (and so its link) longer than
 * 72 columns; UTC only (no local_fn).
 */
static const char golden_wrap[] =
	"Hello Dan Williams,\n"
	"\n"
	"This is patchclock's digest as of Thu 2021-05-13 16:30 UTC: 1 "
	"boot test.\n"
	"\n"
	"Boot tests (1)\n"
	"--------------\n"
	"\n"
	"- [PATCH] "
	"\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5"
	"\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97 "
	"\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5"
	"\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97 "
	"\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5"
	"\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\n"
	"  end\n"
	"  v3 by\n"
	"  Averyveryveryveryveryveryveryveryveryveryveryveryveryveryverylon"
	"gname\n"
	"  <jane@example.com>, posted Mon 2021-05-03 16:30 UTC\n"
	"  boot test passed\n"
	"  https://lore.kernel.org/r/a-very-long-message-id.0123456789.0123"
	"456789.0123456789.0123456789@mail.example.com\n"
	"  Message-ID:\n"
	"  <a-very-long-message-id.0123456789.0123456789.0123456789.0123456"
	"789@mail.example.com>\n"
	"\n"
	"-- \n"
	"Sent by patchclock, which holds series to the subsystem's profile.\n"
	"Reply with a line 'patchclock: opt-out' to stop these mails.\n";

static void test_compose__wrapping_golden(void **state)
{
	struct fx f;
	struct pc_notify_item it;
	struct pc_notify_digest d;
	struct pc_buf out = PC_BUF_INIT;
	struct pc_err err = { 0 };

	(void)state;
	fx_init(&f);
	memset(&it, 0, sizeof(it));
	it.kind = PC_NOTIFY_BOOT;
	it.boot_passed = 1;
	it.series = f.r.series;
	/* 30 CJK characters (60 columns) after the tag. */
	it.series.subject = "[PATCH] \xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2"
			    "\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2"
			    "\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97 "
			    "\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97"
			    "\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97"
			    "\xe6\xbc\xa2\xe5\xad\x97 \xe6\xbc\xa2\xe5\xad\x97"
			    "\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97"
			    "\xe6\xbc\xa2\xe5\xad\x97\xe6\xbc\xa2\xe5\xad\x97"
			    " end";
	it.series.msgid = "a-very-long-message-id.0123456789.0123456789."
			  "0123456789.0123456789@mail.example.com";
	it.series.author.name = "Averyveryveryveryveryveryveryveryvery"
				"veryveryveryveryveryverylongname";
	memset(&d, 0, sizeof(d));
	d.head = f.r.head;
	d.head.local_fn = NULL;
	d.head.key = "digest:x";
	d.to = maintainers[0];
	d.items = &it;
	d.nitems = 1;
	assert_int_equal(pc_compose_digest(&out, &d, &err), 0);
	assert_well_formed(out.buf);
	assert_wrapped(out.buf);
	assert_mail(body_of(out.buf), golden_wrap);
	pc_buf_release(&out);
	fx_release(&f);
}

/* The subject to resend with is one line, however long: it is copied
 * into a Subject header, and a wrapped one would be copied wrong. */
static void test_compose__resend_subject_never_wrapped(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;

	(void)state;
	fx_init(&f);
	f.r.series.subject = "[PATCH v3 0/4] libnvdimm: add foo, and bar, and "
			     "baz to the region driver so that the long name "
			     "goes on";
	compose_resend(&out, &f.r);
	assert_non_null(strstr(out.buf,
			       "\n  [PATCH RESEND v3 0/4] libnvdimm: add foo, "
			       "and bar, and baz to the region driver so that "
			       "the long name goes on\n"));
	pc_buf_release(&out);
	fx_release(&f);
}

/* Whose reply began the wait, and the part already applied: the rest
 * of a series another subsystem took in part, which waited from the
 * applier's own tag ("[PATCH v4 0/4] Use devm helpers for regulator get
 * and enable", linux-hwmon 2022-10: the last message was Robert Foss's
 * ack, not the author's; hwmon had applied 3/4 and 4/4). */
static int has_unwrapped(const char *mail, const char *text)
{
	char *flat = xstrdup(mail), *p, *q;
	int found;

	/* a line break and the next line's indentation are one space */
	for (p = q = flat; *p; p++) {
		if (*p == '\n') {
			*q++ = ' ';
			while (p[1] == ' ')
				p++;
		} else {
			*q++ = *p;
		}
	}
	*q = '\0';
	found = strstr(flat, text) != NULL;
	free(flat);
	return found;
}

static void test_compose__resend_rest_of_a_series(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;

	(void)state;
	fx_init(&f);
	f.r.wait_from = f.r.series.posted + 3 * 86400;
	f.r.wait_by = "Robert Foss";
	f.r.applied_patches = "3,4";
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "has waited on its maintainers "
					   "since Robert Foss's reply of"));
	assert_false(has_unwrapped(out.buf, "is yours"));
	assert_true(has_unwrapped(out.buf,
				  "Patches 3 and 4 of it were applied "
				  "or queued already; the others wait."));
	assert_true(has_unwrapped(out.buf, "resend the patches that were not"));
	pc_buf_reset(&out);
	f.r.wait_by = NULL;
	f.r.applied_patches = "2";
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "the last message in its thread is "
					   "yours"));
	assert_true(has_unwrapped(out.buf, "Patch 2 of it was applied"));
	pc_buf_reset(&out);
	f.r.applied_patches = NULL;
	compose_resend(&out, &f.r);
	assert_false(has_unwrapped(out.buf, "applied or queued"));
	assert_true(has_unwrapped(out.buf, "resend the series unchanged"));
	pc_buf_release(&out);
	fx_release(&f);
}

/* The parts other entries hold: their patch numbers as runs, the first
 * file, the entry; a path from the mail cleaned of control bytes; more
 * parts than named said as a count. */
static void test_compose__resend_other_parts(void **state)
{
	static const int dts[] = { 1, 3, 4, 5, 9 }, sec[] = { 7 };
	struct pc_notify_part parts[2] = {
		{ "ARM/Mediatek SoC support", "arch/arm64/boot/dts/a.dtsi", dts,
		  5 },
		{ "SECURITY SUBSYSTEM", "security/secu\nrity.c", sec, 1 },
	};
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;

	(void)state;
	fx_init(&f);
	f.r.entry = "PWM SUBSYSTEM";
	f.r.parts = parts;
	f.r.nparts = 2;
	f.r.nmore_parts = 3;
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "Its other patches are in other "
					   "entries' files in MAINTAINERS"));
	assert_true(has_unwrapped(out.buf,
				  "patches 1, 3-5 and 9 (first: "
				  "arch/arm64/boot/dts/a.dtsi): ARM/Mediatek "
				  "SoC support"));
	assert_true(has_unwrapped(out.buf, "patch 7 (security/secu rity.c): "
					   "SECURITY SUBSYSTEM"));
	assert_true(
		has_unwrapped(out.buf, "and the patches of 3 more entries"));
	pc_buf_reset(&out);
	f.r.nparts = 1;
	f.r.nmore_parts = 0;
	parts[0].npatches = 1;
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf,
				  "Its other patch is in another "
				  "entry's files in MAINTAINERS, whose "
				  "maintainers take it or ack it"));
	assert_true(has_unwrapped(out.buf,
				  "patch 1 (arch/arm64/boot/dts/"
				  "a.dtsi): ARM/Mediatek SoC support"));
	pc_buf_reset(&out);
	f.r.nparts = 0;
	compose_resend(&out, &f.r);
	assert_false(has_unwrapped(out.buf, "another entry"));
	pc_buf_release(&out);
	fx_release(&f);
}

/* A tree-wide series of which five patches reached the list (the TPM
 * part of "[PATCH 000/606] i2c: Complete conversion to i2c_probe_new",
 * linux-integrity 2022-11-25): resend those, not the 606. */
static void test_compose__resend_part_of_a_tree_wide_series(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;

	(void)state;
	fx_init(&f);
	f.r.series.subject = "[PATCH 000/606] i2c: Complete conversion";
	f.r.patches_here = 5;
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "What to do now: 5 of its 606 "
					   "patches reached this list; if "
					   "they still apply, resend those"));
	assert_false(has_unwrapped(out.buf, "[PATCH RESEND 000/606]"));
	pc_buf_reset(&out);
	f.r.patches_here = 0;
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "[PATCH RESEND 000/606]"));
	pc_buf_release(&out);
	fx_release(&f);
}

/* Others wrote in the thread: the reminder says who and what they gave,
 * never "no response yet", and asks for their tags to be kept (every
 * reminder an audit read against its thread claimed "no response" where
 * a reviewer had acked). */
static void test_compose__resend_names_who_answered(void **state)
{
	static const struct pc_notify_replier two[] = {
		{ { "Rob Herring", "robh@kernel.org" },
		  PC_NOTIFY_REVIEWED,
		  0,
		  0 },
		{ { "", "joel@jms.id.au" },
		  PC_NOTIFY_TESTED | PC_NOTIFY_ACKED,
		  0,
		  0 },
	};
	static const struct pc_notify_replier applier[] = {
		{ { "Dan Williams", "dan.j.williams@intel.com" },
		  PC_NOTIFY_ACKED,
		  1,
		  0 },
	};
	static const struct pc_notify_replier queued[] = {
		{ { "Jonathan Cameron", "jic23@kernel.org" },
		  PC_NOTIFY_QUEUED,
		  0,
		  0 },
	};
	static const struct pc_notify_replier talker[] = {
		{ { "Kees Cook", "keescook@chromium.org" }, 0, 0, 0 },
	};
	/* A corporate directory's order ("Winkler, Tomas", linux-integrity
	 * 2022-11-16) is said the way the name is spoken. */
	static const struct pc_notify_replier surname_first[] = {
		{ { "Winkler, Tomas", "tomas.winkler@intel.com" },
		  PC_NOTIFY_ACKED,
		  0,
		  0 },
	};
	/* Tags on some patches of several: which (linux-pwm 2022-11-01,
	 * Philippe Mathieu-Daudé's Reviewed-by on 4/5 and 5/5). */
	static const struct pc_notify_replier some[] = {
		{ { "Philippe Mathieu-Daude", "philmd@linaro.org" },
		  PC_NOTIFY_REVIEWED,
		  0,
		  (1u << 3) | (1u << 4) },
	};
	static const struct pc_notify_replier many[] = {
		{ { "Darrick J. Wong", "djwong@kernel.org" },
		  PC_NOTIFY_REVIEWED,
		  0,
		  0xf0000078u },
	};
	static const struct pc_notify_addr people[] = {
		{ "Dan Williams", "dan.j.williams@intel.com" },
		{ "Ira Weiny", "ira.weiny@intel.com" },
	};
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;

	(void)state;
	fx_init(&f);
	f.r.repliers = two;
	f.r.nrepliers = 2;
	compose_resend(&out, &f.r);
	assert_false(has_unwrapped(out.buf, "no response yet"));
	assert_true(has_unwrapped(out.buf,
				  "; since then Rob Herring reviewed it and "
				  "joel@jms.id.au acked it, but nobody who "
				  "applies it has answered yet:"));
	assert_true(has_unwrapped(out.buf, "resend the series with the tags "
					   "given on the list added"));
	assert_false(has_unwrapped(out.buf, "unchanged"));
	/* Past the limit: counted. */
	f.r.nmore_repliers = 3;
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "Rob Herring reviewed it, "
					   "joel@jms.id.au acked it and 3 more "
					   "wrote, but"));
	f.r.nmore_repliers = 0;
	/* One who applies it acked: not "nobody who applies it". */
	f.r.repliers = applier;
	f.r.nrepliers = 1;
	f.r.wait_from = f.r.series.posted + 3 * 86400;
	f.r.wait_by = "Robert Foss";
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "has waited on its maintainers "
					   "since Robert Foss's reply of"));
	assert_true(has_unwrapped(out.buf, "; since then Dan Williams acked "
					   "it, but it has not been applied "
					   "yet:"));
	assert_false(has_unwrapped(out.buf, "nobody has answered"));
	/* Another subsystem queued its part of a tree-wide series (the
	 * 606-patch i2c conversion): the rest waits; queuing is no tag. */
	f.r.repliers = queued;
	f.r.wait_by = NULL;
	f.r.wait_from = 0;
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "since then Jonathan Cameron "
					   "queued part of it, but nobody who "
					   "applies the rest has answered "
					   "yet:"));
	assert_true(has_unwrapped(out.buf, "resend the series unchanged"));
	f.r.wait_from = f.r.series.posted + 3 * 86400;
	/* A question, no tag: the resend stays unchanged. */
	f.r.repliers = talker;
	f.r.wait_by = NULL;
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "and has waited on its maintainers "
					   "since your message of"));
	assert_true(has_unwrapped(out.buf, "since then Kees Cook replied, but "
					   "nobody who applies it has answered "
					   "yet:"));
	assert_false(has_unwrapped(out.buf, "is yours"));
	assert_true(has_unwrapped(out.buf, "resend the series unchanged"));
	/* Nobody else wrote, and the author added a postscript five
	 * minutes after the answer the wait counts from (linux-pwm
	 * 2022-11-16): the last message is the postscript. */
	f.r.repliers = NULL;
	f.r.nrepliers = 0;
	f.r.author_last = f.r.wait_from + 300;
	compose_resend(&out, &f.r);
	{
		struct pc_buf want = PC_BUF_INIT;
		struct pc_err err = { 0 };

		assert_int_equal(pc_compose__add_when(&want, &f.r.head,
						      f.r.author_last, &err),
				 0);
		assert_true(has_unwrapped(out.buf, want.buf));
		pc_buf_release(&want);
	}
	assert_true(has_unwrapped(out.buf, "the last message in its thread "
					   "is yours, of"));
	f.r.author_last = 0;
	f.r.repliers = talker;
	f.r.nrepliers = 1;
	f.r.repliers = some;
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "since then Philippe Mathieu-Daude "
					   "reviewed patches 4 and 5, but"));
	f.r.repliers = many;
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "since then Darrick J. Wong "
					   "reviewed 8 of its patches, but"));
	f.r.repliers = surname_first;
	f.r.series.author.name = "Usyskin, Alexander";
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "since then Tomas Winkler acked "
					   "it, but"));
	assert_non_null(strstr(out.buf, "\n\nHello Alexander Usyskin,\n"));
	/* The author withdrew some patches: a new version of the rest,
	 * not a resend of all. */
	f.r.withdrawn_patches = 2u | 16u;
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "What to do now: you withdrew "
					   "patches 2 and 5 on the list, so "
					   "send the rest as the series' next "
					   "version, without them, with the "
					   "tags given on the list added"));
	assert_false(has_unwrapped(out.buf, "RESEND"));
	/* A newer version of one patch posted below its review: the
	 * rest is resent, not all of it. */
	f.r.withdrawn_patches = 0;
	f.r.replaced_patches = 2u;
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf, "What to do now: you posted a "
					   "newer version of patch 2 on the "
					   "list, so if the rest still "
					   "applies, resend it with the tags "
					   "given on the list added"));
	f.r.withdrawn_patches = 1u;
	compose_resend(&out, &f.r);
	assert_true(has_unwrapped(out.buf,
				  "What to do now: you withdrew "
				  "patch 1 and posted a newer version "
				  "of patch 2 on the list, so send the "
				  "rest as the series' next version, "
				  "without them"));
	f.r.withdrawn_patches = f.r.replaced_patches = 0;
	/* Who applies and who reviews, told apart; a name that is an
	 * address is no name. */
	f.r.repliers = NULL;
	f.r.nrepliers = 0;
	f.r.reply.maintainers = NULL;
	f.r.reply.nmaintainers = 0;
	f.r.write_to = people;
	f.r.nwrite_to = 2;
	f.r.nwrite_to_apply = 1;
	f.r.series.author.name = "xinlei.lee@mediatek.com";
	compose_resend(&out, &f.r);
	assert_non_null(strstr(out.buf, "\n\nHello,\n"));
	assert_true(has_unwrapped(out.buf, "This mail goes to you alone. Who "
					   "applies this code, and who reviews "
					   "it:"));
	assert_non_null(strstr(out.buf, "  Dan Williams "
					"<dan.j.williams@intel.com>\n"));
	assert_non_null(strstr(out.buf, "  Ira Weiny <ira.weiny@intel.com>, "
					"reviewer\n"));
	assert_false(has_unwrapped(out.buf, "(MAINTAINERS)"));
	pc_buf_release(&out);
	fx_release(&f);
}

/* Random word lengths: every line fits, or holds one long word. */
static void test_compose__wrapping_random(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT, subj = PC_BUF_INIT;
	unsigned seed = 12345;
	int round, i;

	(void)state;
	fx_init(&f);
	for (round = 0; round < 200; round++) {
		char *got;

		pc_buf_reset(&subj);
		/* At most 5 * 76 bytes: under PC_COMPOSE_SUBJECT_MAX. */
		for (i = 0; i < 5; i++) {
			int n;

			seed = seed * 1103515245u + 12345u;
			n = 1 + (int)((seed >> 16) % 75);
			if (i)
				pc_buf_addch(&subj, ' ');
			while (n--)
				pc_buf_addch(&subj, 'a' + i);
		}
		f.r.series.subject = subj.buf;
		compose_resend(&out, &f.r);
		/* The words come back whole and in order. */
		got = header_value(out.buf, "Subject");
		assert_string_equal(got + 5, subj.buf);
		free(got);
	}
	pc_buf_release(&out);
	pc_buf_release(&subj);
	fx_release(&f);
}

static void test_compose__rfc2047_name(void **state)
{
	static const char *const names[] = {
		"J\xc3\xb6rg R\xc3\xb6"
		"del",
		"\xe6\x9d\x8e\xe5\xb0\x8f\xe9\xbe\x99",
		/* long enough for several encoded words */
		"Zo\xc3\xab \xc3\x85s\xc3\xa5 \xc3\x98stergaard-"
		"Bj\xc3\xb8rnsd\xc3\xb3ttir \xc3\x9e\xc3\xb3r\xc3\xb0ur "
		"\xc3\x89lise Fran\xc3\xa7oise M\xc3\xbcller-L\xc3\xbc"
		"denscheid",
		/* ASCII that looks like an encoded word is encoded too */
		"=?UTF-8?Q?evil?=",
	};
	struct fx f;
	struct pc_buf out = PC_BUF_INIT, dec = PC_BUF_INIT;
	size_t i;

	(void)state;
	fx_init(&f);
	for (i = 0; i < PC_ARRAY_SIZE(names); i++) {
		char *to;
		const char *lt;

		f.r.series.author.name = names[i];
		compose_resend(&out, &f.r);
		to = header_value(out.buf, "To");
		assert_non_null(strstr(to, "=?UTF-8?Q?"));
		lt = strstr(to, " <jane@example.com>");
		assert_non_null(lt);
		pc_buf_reset(&dec);
		pc_rfc2047_decode(&dec, to + 1, (size_t)(lt - to - 1));
		assert_string_equal(dec.buf, names[i]);
		free(to);
	}
	/* Specials are quoted, plain names stay plain. */
	f.r.series.author.name = "Doe, Jane \"JD\" Q.";
	compose_resend(&out, &f.r);
	assert_non_null(strstr(out.buf, "\nTo: \"Doe, Jane \\\"JD\\\" Q.\" "
					"<jane@example.com>\n"));
	f.r.series.author.name = NULL;
	compose_resend(&out, &f.r);
	assert_non_null(strstr(out.buf, "\nTo: jane@example.com\n"));
	assert_non_null(strstr(body_of(out.buf), "Hello,\n"));
	/* A non-ASCII subject word is encoded; the others stay plain. */
	f.r.series.subject = "[PATCH v3 0/4] libnvdimm: caf\xc3\xa9 "
			     "cr\xc3\xa8me support";
	compose_resend(&out, &f.r);
	assert_non_null(strstr(out.buf,
			       "\nSubject: Re: [PATCH v3 0/4] libnvdimm: "
			       "=?UTF-8?Q?caf=C3=A9_cr=C3=A8me?=\n support\n"));
	pc_buf_release(&dec);
	pc_buf_release(&out);
	fx_release(&f);
}

static void test_compose__references_folding(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;
	char *refs[30 + 3], *v, *p;
	size_t i, n = 0;
	int count = 0;

	(void)state;
	fx_init(&f);
	for (i = 0; i < 30; i++)
		refs[n++] = xasprintf("<%02zu.thread-reference.abcdef@host%zu."
				      "example.com>",
				      i, i);
	refs[n++] = xstrdup("bad id\r\nBcc: evil@example.com");
	refs[n++] = xstrdup("20210503163000.1234-1-jane@example.com");
	refs[n++] = xstrdup("");
	f.r.series.refs = (const char *const *)refs;
	f.r.series.nrefs = n;
	compose_resend(&out, &f.r);
	/* Folded: several lines, each within 78 bytes. */
	assert_non_null(strstr(out.buf, "\nReferences: <00.thread-reference."
					"abcdef@host0.example.com>\n <"));
	v = header_value(out.buf, "References");
	/* The first one, the last 18, then the anchor: 20 in all. */
	for (p = v; (p = strchr(p, '<')); p++)
		count++;
	assert_int_equal(count, PC_COMPOSE_MAX_REFS);
	assert_non_null(strstr(v, "<00.thread"));
	assert_null(strstr(v, "<01.thread"));
	assert_null(strstr(v, "<11.thread"));
	assert_non_null(strstr(v, "<12.thread"));
	assert_non_null(strstr(v, "<29.thread"));
	assert_null(strstr(v, "Bcc"));
	/* The anchor once, last. */
	assert_string_equal(v + strlen(v) - 40,
			    "<20210503163000.1234-1-jane@example.com>");
	assert_ptr_equal(strstr(v, "<2021"), v + strlen(v) - 40);
	free(v);
	for (i = 0; i < n; i++)
		free(refs[i]);
	pc_buf_release(&out);
	fx_release(&f);
}

static void test_compose__message_id(void **state)
{
	char a[PC_COMPOSE_MSGID_SIZE], b[PC_COMPOSE_MSGID_SIZE];
	char k1[PC_COMPOSE_KEY_MAX + 1], k2[PC_COMPOSE_KEY_MAX + 1];
	struct pc_err err = { 0 };
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;
	char *hv, *want;

	(void)state;
	assert_int_equal(pc_compose_action_key(k1, sizeof(k1), 42, 3, "resend",
					       "1", &err),
			 0);
	assert_string_equal(k1, "series:42:v3:resend:1");
	assert_int_equal(pc_compose_action_key(k2, sizeof(k2), 42, 3, "resend",
					       "2", &err),
			 0);
	assert_int_equal(pc_compose_message_id(a, sizeof(a), "resend", k1,
					       "example.org", &err),
			 0);
	assert_int_equal(pc_compose_message_id(b, sizeof(b), "resend", k1,
					       "example.org", &err),
			 0);
	assert_string_equal(a, b);
	assert_int_equal(strlen(a),
			 strlen("patchclock.resend.@example.org") + 32);
	assert_true(strncmp(a, "patchclock.resend.", 18) == 0);
	/* Another period, action or series: another id. */
	assert_int_equal(pc_compose_message_id(b, sizeof(b), "resend", k2,
					       "example.org", &err),
			 0);
	assert_string_not_equal(a, b);
	assert_int_equal(pc_compose_message_id(b, sizeof(b), "digest", k1,
					       "example.org", &err),
			 0);
	assert_string_not_equal(a + 18, b + 18);
	/* Bad input. */
	assert_int_equal(pc_compose_message_id(b, sizeof(b), "resend", k1,
					       "exa mple.org", &err),
			 PC_EUSAGE);
	assert_int_equal(pc_compose_message_id(b, sizeof(b), "resend", k1,
					       "x.org>\r\nBcc: y", &err),
			 PC_EUSAGE);
	assert_int_equal(pc_compose_message_id(b, sizeof(b), "Re send", k1,
					       "example.org", &err),
			 PC_EUSAGE);
	assert_int_equal(pc_compose_message_id(b, 20, "resend", k1,
					       "example.org", &err),
			 PC_ELIMIT);
	assert_int_equal(pc_compose_action_key(k2, 10, 42, 3, "resend", "1",
					       &err),
			 PC_ELIMIT);

	/* The mail carries that id, and the same one when composed again. */
	fx_init(&f);
	compose_resend(&out, &f.r);
	hv = header_value(out.buf, "Message-ID");
	assert_int_equal(pc_compose_message_id(a, sizeof(a), "resend", f.key,
					       "patchclock.example.org", &err),
			 0);
	want = xasprintf(" <%s>", a);
	assert_string_equal(hv, want);
	free(hv);
	compose_resend(&out, &f.r);
	hv = header_value(out.buf, "Message-ID");
	assert_string_equal(hv, want);
	free(hv);
	/* The next reminder's key differs, so does its id. */
	assert_int_equal(pc_compose_action_key(f.key, sizeof(f.key), 42, 3,
					       "resend", "2", &err),
			 0);
	compose_resend(&out, &f.r);
	hv = header_value(out.buf, "Message-ID");
	assert_string_not_equal(hv, want);
	free(hv);
	free(want);
	pc_buf_release(&out);
	fx_release(&f);
}

static void test_compose__cc_choice(void **state)
{
	static const struct pc_notify_addr odd[] = {
		{ "Dan Again", "DAN.J.WILLIAMS@intel.com" }, /* duplicate */
		{ "Jane", "jane@example.com" }, /* the author */
		{ "Broken", "not an address" },
		{ "Bot", "patchclock@example.org" }, /* ourselves */
		{ "Ross Zwisler", "zwisler@kernel.org" },
	};
	struct pc_notify_addr m[8];
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;
	char *cc;

	(void)state;
	fx_init(&f);
	/* Private (nvdimm's preference): maintainers only. */
	compose_resend(&out, &f.r);
	cc = header_value(out.buf, "Cc");
	assert_string_equal(cc, " Dan Williams <dan.j.williams@intel.com>, "
				"Vishal Verma <vishal.l.verma@intel.com>, "
				"Dave Jiang <dave.jiang@intel.com>");
	free(cc);
	/* Unset is private too. */
	f.r.reply.reminder = PC_PROF_REMIND_UNSET;
	compose_resend(&out, &f.r);
	assert_null(strstr(out.buf, "linux-nvdimm"));
	/* On the list: the lists as well. */
	f.r.reply.reminder = PC_PROF_REMIND_LIST;
	compose_resend(&out, &f.r);
	cc = header_value(out.buf, "Cc");
	assert_non_null(strstr(cc, "<dave.jiang@intel.com>, "
				   "linux-nvdimm@lists.01.org"));
	free(cc);
	/* Duplicates, the author, ourselves and broken addresses go. */
	memcpy(m, maintainers, sizeof(maintainers));
	memcpy(m + 3, odd, sizeof(odd));
	f.r.reply.maintainers = m;
	f.r.reply.nmaintainers = 8;
	f.r.reply.nlists = 0;
	compose_resend(&out, &f.r);
	cc = header_value(out.buf, "Cc");
	assert_string_equal(cc, " Dan Williams <dan.j.williams@intel.com>, "
				"Vishal Verma <vishal.l.verma@intel.com>, "
				"Dave Jiang <dave.jiang@intel.com>, Ross "
				"Zwisler <zwisler@kernel.org>");
	free(cc);
	/* No one left: no Cc header at all. */
	f.r.reply.nmaintainers = 0;
	compose_resend(&out, &f.r);
	assert_int_equal(header_count(out.buf, "Cc"), 0);
	pc_buf_release(&out);
	fx_release(&f);
}

/* The suggested RESEND subject for the tag forms people use. */
static void test_compose__resend_subject(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "[PATCH v3 0/4] libnvdimm: add foo",
		  "[PATCH RESEND v3 0/4] libnvdimm: add foo" },
		{ "[RFC PATCH net-next v2 0/4] x",
		  "[RFC PATCH RESEND net-next v2 0/4] x" },
		{ "[ndctl PATCH v12 0/8] y", "[ndctl PATCH RESEND v12 0/8] y" },
		{ "[PATCH RESEND v2] z", "[PATCH RESEND v2] z" },
		{ "[Ksummit-discuss] [RFC PATCH 3/3] libnvdimm, MAINTAINERS: "
		  "Subsystem Profile",
		  "[RFC PATCH RESEND 3/3] libnvdimm, MAINTAINERS: Subsystem "
		  "Profile" },
		{ "[RFC v2 1/3] w", "[RESEND RFC v2 1/3] w" },
		{ "[PATCHv2 1/3] w", "[RESEND PATCHv2 1/3] w" },
		{ "no tag at all", "[PATCH RESEND] no tag at all" },
		{ "Re: RE: [PATCH] dup", "[PATCH RESEND] dup" },
		{ "[PATCH", "[PATCH RESEND] [PATCH" },
	};
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;
	size_t i;

	(void)state;
	fx_init(&f);
	for (i = 0; i < PC_ARRAY_SIZE(cases); i++) {
		const char *p, *nl;

		f.r.series.subject = cases[i].in;
		compose_resend(&out, &f.r);
		p = strstr(out.buf, "RESEND in the tag:\n\n  ");
		assert_non_null(p);
		p += strlen("RESEND in the tag:\n\n  ");
		nl = strchr(p, '\n');
		if (strlen(cases[i].want) != (size_t)(nl - p) ||
		    memcmp(p, cases[i].want, (size_t)(nl - p)) != 0)
			fail_msg("'%s': got '%.*s', want '%s'", cases[i].in,
				 (int)(nl - p), p, cases[i].want);
	}
	/* A single patch: no "each of its patches". */
	f.r.series.subject = "[PATCH] one";
	compose_resend(&out, &f.r);
	assert_null(strstr(out.buf, "each of its patches"));
	assert_non_null(strstr(out.buf, "\nOr ping the maintainers"));
	pc_buf_release(&out);
	fx_release(&f);
}

static void test_compose__re_not_doubled(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;
	char *s;

	(void)state;
	fx_init(&f);
	f.r.series.subject = "Re: RE:re: [PATCH] x";
	compose_resend(&out, &f.r);
	s = header_value(out.buf, "Subject");
	assert_string_equal(s, " Re: [PATCH] x");
	free(s);
	pc_buf_release(&out);
	fx_release(&f);
}

/*
 * Header injection: CR, LF and other controls in every string that
 * reaches a header, and in strings of the body. Names and subjects are
 * cleaned; addresses and Message-IDs that hold them are refused.
 */
static void test_compose__header_injection(void **state)
{
	static const char evil[] = "x\r\nBcc: victim@example.com\r\n\r\nbody";
	static const struct pc_notify_addr m[] = {
		{ "Mallory\nBcc: victim@example.com", "mallory@example.com" },
		{ "Eve", "eve@example.com\r\nBcc: victim@example.com" },
	};
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;
	struct pc_err err = { 0 };
	char *v;

	(void)state;
	fx_init(&f);
	f.r.series.subject = "[PATCH] evil\r\nBcc: victim@example.com";
	f.r.series.author.name = "Jane\r\nBcc: victim@example.com";
	f.r.head.from.name = "patch\nclock\r\nBcc: victim@example.com";
	f.r.reply.maintainers = m;
	f.r.reply.nmaintainers = PC_ARRAY_SIZE(m);
	f.r.trusted_from.heading = evil;
	f.r.late_window = evil;
	f.r.late = 1;
	f.r.nth = 2;
	compose_resend(&out, &f.r);
	assert_int_equal(header_count(out.buf, "Bcc"), 0);
	assert_null(strchr(out.buf, '\r'));
	assert_null(strstr(out.buf, "\nBcc"));
	v = header_value(out.buf, "Subject");
	assert_string_equal(v, " Re: [PATCH] evil Bcc: victim@example.com");
	free(v);
	v = header_value(out.buf, "Cc");
	assert_string_equal(v, " \"Mallory Bcc: victim@example.com\" "
			       "<mallory@example.com>");
	free(v);
	v = header_value(out.buf, "To");
	assert_string_equal(v, " \"Jane Bcc: victim@example.com\" "
			       "<jane@example.com>");
	free(v);

	/* Addresses and Message-IDs are checked, not cleaned. */
	f.r.series.author.addr = "jane@example.com\r\nBcc: victim@example.com";
	pc_buf_reset(&out);
	assert_int_equal(pc_compose_resend(&out, &f.r, &err), PC_EPARSE);
	assert_int_equal(out.len, 0);
	assert_null(strchr(err.msg, '\n'));
	f.r.series.author.addr = "jane@example.com";
	f.r.series.msgid = "abc@example.com>\r\nBcc: <victim@example.com";
	assert_int_equal(pc_compose_resend(&out, &f.r, &err), PC_EPARSE);
	assert_null(strchr(err.msg, '\n'));
	f.r.series.msgid = "abc@example.com";
	f.r.head.from.addr = "bot@example.org\nBcc: victim@example.com";
	assert_int_equal(pc_compose_resend(&out, &f.r, &err), PC_EUSAGE);
	f.r.head.from.addr = "patchclock@example.org";
	f.r.head.archive_url = "https://x/%s\r\nBcc: y";
	assert_int_equal(pc_compose_resend(&out, &f.r, &err), PC_EUSAGE);
	assert_int_equal(out.len, 0);
	pc_buf_release(&out);
	fx_release(&f);
}

/* Invalid UTF-8 and invisible reordering characters. */
static void test_compose__hostile_text(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT, dec = PC_BUF_INIT;
	char *v;

	(void)state;
	fx_init(&f);
	/* A lone continuation byte, an overlong '/', and U+202E. */
	f.r.series.subject = "[PATCH] a\x80z \xc0\xaf \xe2\x80\xae"
			     "gnp.exe";
	compose_resend(&out, &f.r);
	v = header_value(out.buf, "Subject");
	pc_rfc2047_decode(&dec, v + 1, strlen(v) - 1);
	assert_string_equal(dec.buf, "Re: [PATCH] a\xef\xbf\xbdz "
				     "\xef\xbf\xbd\xef\xbf\xbd gnp.exe");
	assert_non_null(strstr(body_of(out.buf),
			       "\"[PATCH] a\xef\xbf\xbdz \xef\xbf\xbd\xef\xbf"
			       "\xbd gnp.exe\""));
	free(v);
	pc_buf_release(&dec);
	pc_buf_release(&out);
	fx_release(&f);
}

static void test_compose__bounds(void **state)
{
	enum { BIG = 100000 };
	struct pc_notify_addr many[PC_COMPOSE_MAX_CC + 1];
	struct pc_notify_item *items;
	struct pc_notify_digest d;
	struct fx f;
	struct pc_buf out = PC_BUF_INIT, dec = PC_BUF_INIT;
	struct pc_err err = { 0 };
	char *big = xmalloc(BIG + 1), *v;
	size_t i;

	(void)state;
	fx_init(&f);
	/* A huge subject of short words and one huge word. */
	for (i = 0; i < BIG; i++)
		big[i] = i % 7 == 6 ? ' ' : 'a';
	big[BIG] = '\0';
	f.r.series.subject = big;
	compose_resend(&out, &f.r);
	v = header_value(out.buf, "Subject");
	assert_true(strlen(v) <= 5 + PC_COMPOSE_SUBJECT_MAX);
	assert_string_equal(v + strlen(v) - 3, "...");
	free(v);
	memset(big, 'b', BIG);
	f.r.series.subject = big;
	compose_resend(&out, &f.r);
	v = header_value(out.buf, "Subject");
	assert_int_equal(strlen(v), 5 + PC_COMPOSE_SUBJECT_MAX);
	free(v);
	/* Non-ASCII is cut on a character boundary. */
	for (i = 0; i + 2 <= BIG; i += 2)
		memcpy(big + i, "\xc3\xa9", 2);
	big[i] = '\0';
	f.r.series.subject = big;
	compose_resend(&out, &f.r);
	v = header_value(out.buf, "Subject");
	pc_rfc2047_decode(&dec, v + 1, strlen(v) - 1);
	assert_true(dec.len <= 4 + PC_COMPOSE_SUBJECT_MAX);
	assert_string_equal(dec.buf + dec.len - 5, "\xc3\xa9...");
	free(v);
	f.r.series.subject = "[PATCH] x";

	/* Too many Cc, too long a Message-ID, too many items. */
	for (i = 0; i < PC_ARRAY_SIZE(many); i++) {
		many[i].name = NULL;
		many[i].addr = "m@example.com";
	}
	f.r.reply.maintainers = many;
	f.r.reply.nmaintainers = PC_ARRAY_SIZE(many);
	pc_buf_reset(&out);
	assert_int_equal(pc_compose_resend(&out, &f.r, &err), PC_ELIMIT);
	f.r.reply.nmaintainers = 0;
	memset(big, 'c', PC_COMPOSE_ID_MAX + 1);
	big[PC_COMPOSE_ID_MAX + 1] = '\0';
	f.r.series.msgid = big;
	assert_int_equal(pc_compose_resend(&out, &f.r, &err), PC_ELIMIT);
	big[PC_COMPOSE_ID_MAX] = '\0';
	compose_resend(&out, &f.r);
	assert_int_equal(out.len > 0, 1);

	items = xcalloc(PC_COMPOSE_MAX_ITEMS + 1, sizeof(*items));
	for (i = 0; i <= PC_COMPOSE_MAX_ITEMS; i++)
		items[i].series = f.r.series;
	memset(&d, 0, sizeof(d));
	d.head = f.r.head;
	d.to = maintainers[0];
	d.items = items;
	d.nitems = PC_COMPOSE_MAX_ITEMS + 1;
	pc_buf_reset(&out);
	assert_int_equal(pc_compose_digest(&out, &d, &err), PC_ELIMIT);
	assert_int_equal(out.len, 0);
	/* At the limit, with a 900-byte Message-ID: body lines stay under
	 * SMTP's 998 bytes. */
	d.nitems = PC_COMPOSE_MAX_ITEMS;
	assert_int_equal(pc_compose_digest(&out, &d, &err), 0);
	assert_well_formed(out.buf);
	assert_wrapped(out.buf);
	{
		const char *p = out.buf;

		while (*p) {
			const char *nl = strchr(p, '\n');

			assert_true(nl - p <= 998);
			p = nl + 1;
		}
	}
	free(items);
	free(big);
	pc_buf_release(&dec);
	pc_buf_release(&out);
	fx_release(&f);
}

static void test_compose__dates(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;
	char *v;

	(void)state;
	fx_init(&f);
	f.r.head.date = 0;
	compose_resend(&out, &f.r);
	v = header_value(out.buf, "Date");
	assert_string_equal(v, " Thu, 1 Jan 1970 00:00:00 +0000");
	free(v);
	f.r.head.date = -86401;
	compose_resend(&out, &f.r);
	v = header_value(out.buf, "Date");
	assert_string_equal(v, " Tue, 30 Dec 1969 23:59:59 +0000");
	free(v);
	/* Hostile dates are clamped to 1900..9999. */
	f.r.head.date = INT64_MAX;
	f.r.series.posted = INT64_MIN;
	f.r.due = 0;
	compose_resend(&out, &f.r);
	v = header_value(out.buf, "Date");
	assert_string_equal(v, " Fri, 31 Dec 9999 23:59:59 +0000");
	free(v);
	assert_non_null(strstr(out.buf, "posted on Mon\n1900-01-01 00:00 UTC"));
	/* ... and the time between two of them does not overflow. */
	{
		struct pc_notify_too_soon t;
		struct pc_err err = { 0 };
		size_t i;

		fx_too_soon(&t, &f);
		t.prev_posted = INT64_MIN;
		t.series.posted = INT64_MAX;
		pc_buf_reset(&out);
		assert_int_equal(pc_compose_too_soon(&out, &t, &err), 0);
		for (i = 0; i < out.len; i++)
			if (out.buf[i] == '\n')
				out.buf[i] = ' ';
		assert_non_null(
			strstr(out.buf, ", 2958463 days 23 hours after v3,"));
		t.prev_posted = INT64_MAX;
		t.series.posted = INT64_MIN;
		pc_buf_reset(&out);
		assert_int_equal(pc_compose_too_soon(&out, &t, &err), 0);
		assert_non_null(strstr(out.buf, ", 0 minutes after v3,"));
	}
	pc_buf_release(&out);
	fx_release(&f);
}

static int failing_time(char *buf, size_t len, int64_t t, void *arg,
			struct pc_err *err)
{
	(void)buf;
	(void)len;
	(void)t;
	(void)arg;
	return pc_err_set(err, PC_ELIMIT, "cannot format time");
}

static void test_compose__local_fn_error(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;
	struct pc_err err = { 0 };

	(void)state;
	fx_init(&f);
	f.r.head.local_fn = failing_time;
	pc_buf_addstr(&out, "kept");
	assert_int_equal(pc_compose_resend(&out, &f.r, &err), PC_ELIMIT);
	assert_string_equal(err.msg, "cannot format time");
	assert_string_equal(out.buf, "kept");
	pc_buf_release(&out);
	fx_release(&f);
}

/* The mails read back with the parser patchclock ingests with. */
/* Reading a Subject back: folded, encoded, CRLF, absent, in the body. */
static void test_compose__subject_of(void **state)
{
	static const struct {
		const char *mail, *want; /* want NULL: no Subject */
	} t[] = {
		{ "From: a\nSubject: plain\n\nbody\n", "plain" },
		{ "Subject: folded\n  over lines\nX: y\n\n",
		  "folded  over lines" },
		{ "subject:  =?UTF-8?Q?caf=C3=A9?=\r\n\r\n", "caf\xc3\xa9" },
		{ "Subject: =?UTF-8?B?w6k=?= =?UTF-8?B?w6k=?=\n\n",
		  "\xc3\xa9\xc3\xa9" },
		{ "From: a\n\nSubject: in the body\n", NULL },
		{ "Subject-X: no\n\n", NULL },
		{ "Subject:", "" },
		{ "", NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pc_buf b = PC_BUF_INIT;
		int rc =
			pc_compose_subject_of(&b, t[i].mail, strlen(t[i].mail));

		assert_int_equal(rc, t[i].want != NULL);
		assert_string_equal(b.buf, t[i].want ? t[i].want : "");
		pc_buf_release(&b);
	}
}

static void test_compose__parses_back(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;
	struct pc_msg *m = NULL;
	struct pc_err err = { 0 };
	static const char *const refs[] = { "root@example.com",
					    "mid@example.com" };

	(void)state;
	fx_init(&f);
	f.r.series.author.name = "J\xc3\xb6rg R\xc3\xb6"
				 "del";
	f.r.series.subject = "[PATCH v3 0/4] libnvdimm: caf\xc3\xa9";
	f.r.series.refs = refs;
	f.r.series.nrefs = 2;
	f.r.reply.reminder = PC_PROF_REMIND_LIST;
	compose_resend(&out, &f.r);
	assert_int_equal(pc_msg_parse(&m, out.buf, out.len, &err), 0);
	assert_string_equal(m->subject, "Re: [PATCH v3 0/4] libnvdimm: "
					"caf\xc3\xa9");
	/* The outbox lists the same Subject, read back from the bytes. */
	{
		struct pc_buf subj = PC_BUF_INIT;

		assert_int_equal(pc_compose_subject_of(&subj, out.buf, out.len),
				 1);
		assert_string_equal(subj.buf, m->subject);
		pc_buf_release(&subj);
	}
	assert_string_equal(m->from.addr, "patchclock@example.org");
	assert_string_equal(m->in_reply_to,
			    "20210503163000.1234-1-jane@example.com");
	assert_int_equal(m->nrefs, 3);
	assert_string_equal(m->refs[0], "root@example.com");
	assert_string_equal(m->refs[2],
			    "20210503163000.1234-1-jane@example.com");
	assert_int_equal(m->date, DUE);
	assert_string_equal(m->auto_submitted, "auto-generated");
	assert_true(strncmp(m->msgid, "patchclock.resend.", 18) == 0);
	assert_string_equal(m->body.buf, body_of(out.buf));
	pc_msg_parse_recipients(m);
	assert_int_equal(m->nto, 1);
	assert_string_equal(m->to[0].name, "J\xc3\xb6rg R\xc3\xb6"
					   "del");
	assert_string_equal(m->to[0].addr, "jane@example.com");
	assert_int_equal(m->ncc, 4);
	assert_string_equal(m->cc[3].addr, "linux-nvdimm@lists.01.org");
	pc_msg_free(m);
	pc_buf_release(&out);
	fx_release(&f);
}

/* Where a value came from, for each kind of origin. */
static void test_compose__origins(void **state)
{
	struct fx f;
	struct pc_buf out = PC_BUF_INIT;
	struct pc_prof_origin po;
	const char *b;

	(void)state;
	fx_init(&f);
	f.r.cadence.count = 1;
	f.r.cadence.unit = PC_PROF_UNIT_WEEKS;
	memset(&po, 0, sizeof(po));
	po.kind = PC_PROF_SRC_DEFAULT;
	po.file = "Documentation/process/submitting-patches.rst";
	po.heading = "Don't get discouraged - or impatient";
	po.quote = "wait for a minimum of one week before resubmitting";
	pc_compose_origin(&f.r.cadence_from, &po);
	compose_resend(&out, &f.r);
	b = body_of(out.buf);
	assert_non_null(strstr(
		b,
		"The subsystem's profile does not say; the kernel's general "
		"guideline\nasks for a resend or a ping after 1 week without "
		"a response:\n\n"
		"  Documentation/process/submitting-patches.rst, \"Don't "
		"get discouraged -\n  or impatient\"\n"
		"  \"wait for a minimum of one week before resubmitting\"\n"));
	assert_non_null(strstr(b, "The time was counted in calendar time (1 "
				  "week), and this reminder waited\nfor"));
	/* The override file: file and line. */
	f.r.cadence_from.kind = PC_PROF_SRC_OVERRIDE;
	f.r.cadence_from.file = "/etc/patchclock/profiles.ini";
	f.r.cadence_from.heading = NULL;
	f.r.cadence_from.line = 12;
	compose_resend(&out, &f.r);
	assert_non_null(strstr(body_of(out.buf),
			       "The maintainers' local settings ask for a "
			       "resend or a ping after 1 week\nwithout a "
			       "response:\n\n  /etc/patchclock/profiles.ini, "
			       "line 12\n"));
	/* Nothing known: no source block. */
	pc_compose_origin(&f.r.cadence_from, NULL);
	compose_resend(&out, &f.r);
	assert_non_null(strstr(body_of(out.buf),
			       "after 1 week without\na response.\n\n"));
	/* Other business days, hours not stated. */
	f.r.cadence.unit = PC_PROF_UNIT_BUSINESS_DAYS;
	f.r.cadence.count = 2;
	f.hours.days = PC_PROF_DAY(0) | PC_PROF_DAY(1) | PC_PROF_DAY(2) |
		       PC_PROF_DAY(3) | PC_PROF_DAY(4);
	f.hours.start = -1;
	f.hours.end = -1;
	snprintf(f.hours.zone, sizeof(f.hours.zone), "Asia/Jerusalem");
	compose_resend(&out, &f.r);
	assert_non_null(strstr(body_of(out.buf),
			       "zone: 2\nbusiness days, Sunday to Thursday, "
			       "Asia/Jerusalem\n"));
	f.hours.days = PC_PROF_DAY(1) | PC_PROF_DAY(3) | PC_PROF_DAY(5);
	compose_resend(&out, &f.r);
	assert_non_null(
		strstr(body_of(out.buf),
		       "2\nbusiness days, Monday, Wednesday and Friday, "
		       "Asia/Jerusalem\n"));
	pc_buf_release(&out);
	fx_release(&f);
}

/* Overdue days: one decimal, ".0" dropped, singular for 1; the digest
 * of a hostile maintainer name and item; unknown kinds refused. */
static void test_compose__digest_details(void **state)
{
	static const struct {
		double days;
		const char *want;
	} cases[] = {
		{ 1.0, "overdue by 1 business day\n" },
		{ 0.96, "overdue by 1 business day\n" },
		{ 0.05, "overdue by 0.1 business days\n" },
		{ 0.04, "just due: less than 0.1 business days over\n" },
		{ -3, "just due: less than 0.1 business days over\n" },
		{ 12.25, "overdue by 12.3 business days\n" },
		{ 1e300, "overdue by 1000000 business days\n" },
	};
	struct fx f;
	struct pc_notify_item it;
	struct pc_notify_digest d;
	struct pc_buf out = PC_BUF_INIT;
	struct pc_err err = { 0 };
	size_t i;
	char *v;

	(void)state;
	fx_init(&f);
	memset(&it, 0, sizeof(it));
	it.kind = PC_NOTIFY_OVERDUE;
	it.series = f.r.series;
	memset(&d, 0, sizeof(d));
	d.head = f.r.head;
	d.to = maintainers[0];
	d.items = &it;
	d.nitems = 1;
	for (i = 0; i < PC_ARRAY_SIZE(cases); i++) {
		it.overdue_days = cases[i].days;
		pc_buf_reset(&out);
		assert_int_equal(pc_compose_digest(&out, &d, &err), 0);
		if (!strstr(out.buf, cases[i].want))
			fail_msg("%g: no '%s'", cases[i].days, cases[i].want);
	}
	/* A part applied already: the item says which, and that the rest
	 * waits (an audit read "4 of 4 patches reviewed" as all waiting). */
	it.kind = PC_NOTIFY_READY;
	it.reviewed = it.npatches = 4;
	it.applied_patches = "3,4";
	pc_buf_reset(&out);
	assert_int_equal(pc_compose_digest(&out, &d, &err), 0);
	assert_true(has_unwrapped(out.buf, "review rules met: 4 of 4 patches "
					   "reviewed; patches 3 and 4 were "
					   "applied or queued already, the "
					   "rest waits"));
	it.kind = PC_NOTIFY_OVERDUE;
	it.overdue_days = 2;
	it.applied_patches = "2";
	pc_buf_reset(&out);
	assert_int_equal(pc_compose_digest(&out, &d, &err), 0);
	assert_true(has_unwrapped(out.buf, "overdue by 2 business days; patch "
					   "2 was applied or queued already"));
	it.applied_patches = NULL;
	/* The author's ping, or the RESEND that was one, after the
	 * posting (an audit read the first posting's date below the
	 * resend's link as the resend's). */
	it.pinged_at = it.series.posted + 9 * 86400;
	it.resent = 1;
	pc_buf_reset(&out);
	assert_int_equal(pc_compose_digest(&out, &d, &err), 0);
	assert_true(has_unwrapped(out.buf, ", resent "));
	assert_null(strstr(out.buf, "pinged"));
	it.resent = 0;
	pc_buf_reset(&out);
	assert_int_equal(pc_compose_digest(&out, &d, &err), 0);
	assert_true(has_unwrapped(out.buf, "; its author pinged it on "));
	it.pinged_at = 0;
	/* A version in an untagged title ("... v2") is said; a tagged
	 * one's tag is the version. */
	it.series.subject = "switch iomap to an iterator model v2";
	it.series.version = 1;
	pc_buf_reset(&out);
	assert_int_equal(pc_compose_digest(&out, &d, &err), 0);
	assert_non_null(strstr(out.buf, "\n  v2 by "));
	it.series.subject = "[PATCH] nfs: add support for v4";
	pc_buf_reset(&out);
	assert_int_equal(pc_compose_digest(&out, &d, &err), 0);
	assert_non_null(strstr(out.buf, "\n  v1 by "));
	it.series = f.r.series;
	/* Hostile text in a digest. */
	d.to.name = "Dan\r\nBcc: victim@example.com";
	it.series.subject = "[PATCH] x\n\nBcc: victim@example.com";
	it.series.msgid = "odd id\r\n\x01<with>@example.com";
	pc_buf_reset(&out);
	assert_int_equal(pc_compose_digest(&out, &d, &err), 0);
	assert_well_formed(out.buf);
	assert_wrapped(out.buf);
	assert_int_equal(header_count(out.buf, "Bcc"), 0);
	v = header_value(out.buf, "To");
	assert_string_equal(v, " \"Dan Bcc: victim@example.com\" "
			       "<dan.j.williams@intel.com>");
	free(v);
	assert_non_null(strstr(body_of(out.buf),
			       "\n- [PATCH] x Bcc: victim@example.com\n"));
	assert_non_null(strstr(body_of(out.buf),
			       "\n  https://lore.kernel.org/r/"
			       "odd%20id%0D%0A%01%3Cwith%3E@example.com\n"
			       "  Message-ID: <odd id <with>@example.com>\n"));
	d.to.addr = "dan@example.com\nBcc: victim@example.com";
	assert_int_equal(pc_compose_digest(&out, &d, &err), PC_EPARSE);
	d.to.addr = "dan@example.com";
	it.kind = PC_NOTIFY_NKINDS;
	assert_int_equal(pc_compose_digest(&out, &d, &err), PC_EUSAGE);
	pc_buf_release(&out);
	fx_release(&f);
}

/* The largest action and domain fit PC_COMPOSE_MSGID_SIZE. */
static void test_compose__message_id_size(void **state)
{
	char id[PC_COMPOSE_MSGID_SIZE], dom[PC_COMPOSE_DOMAIN_MAX + 2];
	char action[33];
	struct pc_err err = { 0 };

	(void)state;
	memset(dom, 'd', sizeof(dom) - 1);
	dom[PC_COMPOSE_DOMAIN_MAX] = '\0';
	memset(action, 'a', 32);
	action[32] = '\0';
	assert_int_equal(pc_compose_message_id(id, sizeof(id), action, "k", dom,
					       &err),
			 0);
	dom[PC_COMPOSE_DOMAIN_MAX] = 'd';
	dom[PC_COMPOSE_DOMAIN_MAX + 1] = '\0';
	assert_int_equal(pc_compose_message_id(id, sizeof(id), action, "k", dom,
					       &err),
			 PC_EUSAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compose__resend_golden),
		cmocka_unit_test(test_compose__resend_second_late_golden),
		cmocka_unit_test(test_compose__too_soon_golden),
		cmocka_unit_test(test_compose__digest_golden),
		cmocka_unit_test(test_compose__digest_empty),
		cmocka_unit_test(test_compose__wrapping_golden),
		cmocka_unit_test(test_compose__wrapping_random),
		cmocka_unit_test(test_compose__resend_subject_never_wrapped),
		cmocka_unit_test(test_compose__resend_rest_of_a_series),
		cmocka_unit_test(test_compose__resend_other_parts),
		cmocka_unit_test(
			test_compose__resend_part_of_a_tree_wide_series),
		cmocka_unit_test(test_compose__resend_names_who_answered),
		cmocka_unit_test(test_compose__rfc2047_name),
		cmocka_unit_test(test_compose__references_folding),
		cmocka_unit_test(test_compose__message_id),
		cmocka_unit_test(test_compose__cc_choice),
		cmocka_unit_test(test_compose__resend_subject),
		cmocka_unit_test(test_compose__re_not_doubled),
		cmocka_unit_test(test_compose__header_injection),
		cmocka_unit_test(test_compose__hostile_text),
		cmocka_unit_test(test_compose__bounds),
		cmocka_unit_test(test_compose__dates),
		cmocka_unit_test(test_compose__local_fn_error),
		cmocka_unit_test(test_compose__subject_of),
		cmocka_unit_test(test_compose__parses_back),
		cmocka_unit_test(test_compose__origins),
		cmocka_unit_test(test_compose__digest_details),
		cmocka_unit_test(test_compose__message_id_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
