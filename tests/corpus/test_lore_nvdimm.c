// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Corpus test on real nvdimm@lists.linux.dev traffic (corpus/lore-nvdimm):
 * the 2,317-message mboxrd.gz archive slice is read message by message
 * and each message's Message-ID and exact raw length (mboxrd quoting and
 * separator removed) equal its row of the index; ingested, 2,309 distinct
 * messages are stored and 8 are duplicates. The thread files are checked
 * against their index the same way, each is ingested into a fresh store,
 * and the collector's thread oracles hold: follow-up trailers per patch of
 * a v11 series and its unthreaded v12 successor, a pull request and the
 * pr-tracker-bot, a patch attached to a reply, Outlook iso-2022-jp
 * replies, RFC 2047 subjects, ">From " body lines, a gb2312/GBK spam and
 * an HTML multipart reply.
 */
/* memmem() */
#define _GNU_SOURCE
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/message.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/util.h"
#include "util/xalloc.h"

static const char *lore(const char *file)
{
	static char rel[256];

	snprintf(rel, sizeof(rel), "corpus/lore-nvdimm/%s", file);
	return t_data(rel);
}

/* One row of an index: Message-ID (with <>) and raw byte length. */
struct row {
	char file[96];
	char msgid[1000];
	size_t raw_bytes;
};

/*
 * Reads an index.tsv; the columns named "message_id" and "raw_bytes" are
 * found from its header line, and "file" when there is one.
 */
static size_t read_index(struct row **out, const char *path)
{
	struct pc_buf f = PC_BUF_INIT;
	const char *p, *end;
	struct row *v = NULL;
	size_t n = 0, alloc = 0;
	int c_file = -1, c_id = -1, c_bytes = -1, line = 0;

	t_read_file(&f, path);
	for (p = f.buf, end = f.buf + f.len; p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *c = p;
		int col = 0;

		if (line)
			PC_ALLOC_GROW(v, n + 1, alloc);
		while (c <= le) {
			const char *tab = memchr(c, '\t', (size_t)(le - c));
			const char *ce = tab ? tab : le;
			size_t cl = (size_t)(ce - c);

			if (!line) {
				if ((cl == 4 && !memcmp(c, "file", 4)) ||
				    (cl == 5 && !memcmp(c, "#file", 5)))
					c_file = col;
				else if (cl == 10 &&
					 !memcmp(c, "message_id", 10))
					c_id = col;
				else if (cl == 9 && !memcmp(c, "raw_bytes", 9))
					c_bytes = col;
			} else if (col == c_file) {
				assert_true(cl < sizeof(v[n].file));
				memcpy(v[n].file, c, cl);
				v[n].file[cl] = '\0';
			} else if (col == c_id) {
				assert_true(cl < sizeof(v[n].msgid));
				memcpy(v[n].msgid, c, cl);
				v[n].msgid[cl] = '\0';
			} else if (col == c_bytes) {
				v[n].raw_bytes = strtoul(c, NULL, 10);
			}
			col++;
			c = ce + 1;
		}
		if (!line)
			assert_true(c_id >= 0 && c_bytes >= 0);
		else
			n++;
		p = nl ? nl + 1 : end;
	}
	pc_buf_release(&f);
	*out = v;
	return n;
}

/* Compares a message read from a source with its index row. */
static void check_row(const struct pc_source_msg *msg, const struct row *r)
{
	struct pc_err err = { 0 };
	struct pc_msg *m = NULL;
	char id[1002];

	assert_int_equal(pc_msg_parse(&m, msg->data, msg->len, &err), 0);
	snprintf(id, sizeof(id), "<%s>", m->msgid);
	if (strcmp(id, r->msgid) || msg->len != r->raw_bytes)
		fail_msg("%s: got %s (%zu bytes), index says %s (%zu bytes)",
			 msg->where, id, msg->len, r->msgid, r->raw_bytes);
	pc_msg_free(m);
}

#define ARCHIVE_MESSAGES 2317
#define ARCHIVE_DISTINCT 2309

static void test_lore_nvdimm__archive(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_err err = { 0 };
	struct pc_source *src;
	struct pc_source_msg msg;
	struct t_store ts;
	struct row *rows;
	size_t nrows, n = 0;
	int rc, quoted_ok = 0;

	(void)state;
	nrows = read_index(&rows, lore("nvdimm-2021-05_2021-12.index.tsv"));
	assert_int_equal(nrows, ARCHIVE_MESSAGES);
	t_store_open(&ts);
	assert_int_equal(
		pc_source_open(&src, lore("nvdimm-2021-05_2021-12.mboxrd.gz"),
			       &opt, &err),
		0);
	assert_int_equal(pc_store_begin(ts.st, &err), 0);
	while ((rc = pc_source_next(src, &msg, &err)) == 1) {
		assert_true(n < nrows);
		assert_int_equal(msg.ordinal, n + 1);
		check_row(&msg, &rows[n]);
		/* The mboxrd quoting is gone from the five quoted ones. */
		if (n + 1 == 955 || n + 1 == 1816 || n + 1 == 2073 ||
		    n + 1 == 2107 || n + 1 == 2237)
			quoted_ok += memmem(msg.data, msg.len, "\nFrom ", 6) !=
				     NULL;
		rc = pc_ingest_message(ts.st, msg.data, msg.len, msg.where,
				       NULL, &ts.stats, &err);
		/* Ordinals 51-57 repeat 44-50; 2181 repeats 2180. */
		if ((n + 1 >= 51 && n + 1 <= 57) || n + 1 == 2181)
			assert_int_equal(rc, 1);
		else
			assert_int_equal(rc, 0);
		n++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(n, ARCHIVE_MESSAGES);
	assert_int_equal(quoted_ok, 5);
	assert_int_equal(pc_ingest_finish(ts.st, &err), 0);
	assert_int_equal(pc_store_commit(ts.st, &err), 0);
	assert_int_equal(ts.stats.read, ARCHIVE_MESSAGES);
	assert_int_equal(ts.stats.added, ARCHIVE_DISTINCT);
	assert_int_equal(ts.stats.duplicates,
			 ARCHIVE_MESSAGES - ARCHIVE_DISTINCT);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM messages"),
			 ARCHIVE_DISTINCT);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM raw"),
			 ARCHIVE_DISTINCT);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM messages "
					  "WHERE kind = 'error'"),
			 0);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM messages "
					  "WHERE kind = 'pull'"),
			 8);
	pc_source_free(src);
	free(rows);
	t_store_close(&ts);
}

static void test_lore_nvdimm__thread_files(void **state)
{
	struct row *rows;
	size_t nrows, i = 0;

	(void)state;
	nrows = read_index(&rows, lore("threads/threads.index.tsv"));
	assert_int_equal(nrows, 81);
	while (i < nrows) {
		struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
		struct pc_err err = { 0 };
		struct pc_source *src;
		struct pc_source_msg msg;
		char rel[160];
		size_t n = 0;
		int rc;

		snprintf(rel, sizeof(rel), "threads/%s", rows[i].file);
		print_message("%s\n", rel);
		assert_int_equal(pc_source_open(&src, lore(rel), &opt, &err),
				 0);
		while ((rc = pc_source_next(src, &msg, &err)) == 1) {
			assert_true(i + n < nrows);
			assert_string_equal(rows[i + n].file, rows[i].file);
			check_row(&msg, &rows[i + n]);
			n++;
		}
		assert_int_equal(rc, 0);
		pc_source_free(src);
		assert_true(i + n == nrows ||
			    strcmp(rows[i + n].file, rows[i].file) != 0);
		i += n;
	}
	free(rows);
}

/* Ingests one thread file into a fresh store. */
static void load_thread(struct t_store *ts, const char *file, size_t want)
{
	char rel[160];

	snprintf(rel, sizeof(rel), "threads/%s", file);
	t_store_open(ts);
	assert_int_equal(t_ingest(ts, lore(rel), PC_SOURCE_AUTO), want);
	assert_int_equal(ts->stats.added, want);
	assert_int_equal(ts->stats.errors, 0);
}

struct review {
	struct pc_buf out; /* "v<ver> <idx>: <tags>" per patch */
	struct pc_buf own; /* review tags written in the patches */
};

/* Review trailers per patch: given on the list, and written in it. */
static int collect_reviews(const struct pc_series_info *s, void *arg)
{
	struct review *r = arg;
	size_t i, j;

	for (i = 0; i < s->npatches; i++) {
		const struct pc_patch_info *p = &s->patches[i];
		int own = 0;

		if (strcmp(p->kind, "patch"))
			continue;
		pc_buf_addf(&r->out, "v%d %d/%d:", s->version, p->idx,
			    s->total);
		for (j = 0; j < p->ntrailers; j++) {
			const struct pc_trailer_info *t = &p->trailers[j];

			if (strcmp(t->name, "Reviewed-by") &&
			    strcmp(t->name, "Acked-by") &&
			    strcmp(t->name, "Tested-by"))
				continue;
			if (t->from_reply && !t->suggested)
				pc_buf_addf(&r->out, " %s", t->value);
			else if (!t->from_reply)
				own++;
		}
		pc_buf_addch(&r->out, '\n');
		pc_buf_addf(&r->own, "v%d %d/%d: %d\n", s->version, p->idx,
			    s->total, own);
	}
	return 0;
}

static void test_lore_nvdimm__poison_list_v11_v12(void **state)
{
	struct review r = { .out = PC_BUF_INIT, .own = PC_BUF_INIT };
	struct pc_series_filter f = { .with_patches = 1 };
	struct pc_err err = { 0 };
	struct t_store ts;
	char *row;
	const char *dave = "Dave Jiang <dave.jiang@intel.com>";

	(void)state;
	load_thread(&ts, "poison-list-retrieval-v11-v12.mbox", 38);
	assert_int_equal(pc_series_list(ts.st, &f, collect_reviews, &r, &err),
			 0);
	{
		struct pc_buf want = PC_BUF_INIT;

		pc_buf_addf(&want,
			    "v11 1/7:\nv11 2/7:\nv11 3/7:\n"
			    "v11 4/7: %s Fan Ni <fan.ni@samsung.com>\n"
			    "v11 5/7: %s\nv11 6/7: %s\nv11 7/7: %s\n"
			    "v12 1/8:\nv12 2/8:\nv12 3/8:\nv12 4/8:\n"
			    "v12 5/8:\nv12 6/8:\nv12 7/8:\nv12 8/8:\n",
			    dave, dave, dave, dave);
		assert_string_equal(r.out.buf, want.buf);
		pc_buf_release(&want);
	}
	/* v12 carries its reviews in the patches: 2/8 and 4/8-8/8. */
	{
		const char *p = strstr(r.own.buf, "v12 1/8: ");
		int i;

		assert_non_null(p);
		for (i = 1; i <= 8; i++) {
			int v = atoi(strchr(p, ':') + 1);

			if (i == 1 || i == 3)
				assert_int_equal(v, 0);
			else
				assert_true(v >= 1 && v <= 2);
			p = strchr(p, '\n') + 1;
		}
	}
	/* Two series, v12 supersedes v11 although not threaded to it. */
	row = t_query(&ts, "SELECT s.version, s.total, s.name, "
			   "coalesce(n.version, 0) FROM series s "
			   "LEFT JOIN series n ON n.id = s.superseded_by "
			   "ORDER BY s.first_posted");
	assert_string_equal(row, "11|7|Support poison list retrieval|12\n"
				 "12|8|Support poison list retrieval|0");
	free(row);
	pc_buf_release(&r.out);
	pc_buf_release(&r.own);
	t_store_close(&ts);
}

static void test_lore_nvdimm__git_pull(void **state)
{
	struct t_store ts;
	char *row;

	(void)state;
	load_thread(&ts, "git-pull-dax-libnvdimm-v5.17.mbox", 2);
	row = t_query(&ts, "SELECT kind, is_bot, coalesce(pull_url, ''), "
			   "coalesce(pull_ref, '') FROM messages ORDER BY id");
	assert_string_equal(row, "pull|0|git://git.kernel.org/pub/scm/linux/"
				 "kernel/git/nvdimm/nvdimm|"
				 "tags/libnvdimm-for-5.17\n"
				 "reply|1||");
	free(row);
	/* The shortlog's Reviewed-by/Link are not reviews of anything. */
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM trailers "
					  "WHERE suggested = 0"),
			 0);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM series"), 0);
	t_store_close(&ts);
}

static void test_lore_nvdimm__patch_attached_to_reply(void **state)
{
	struct pc_message_info *mi = NULL;
	struct pc_err err = { 0 };
	struct pc_msg *m = NULL;
	struct t_store ts;
	char *msgid, *raw;
	size_t len, i;
	int found = 0;

	(void)state;
	load_thread(&ts, "patch-attachment-in-reply-badblocks-bug.mbox", 9);
	msgid = t_query(&ts, "SELECT msgid FROM messages WHERE id = 6");
	assert_int_equal(pc_message_get(&mi, ts.st, msgid, &err), 0);
	assert_string_equal(mi->kind, "reply");
	assert_int_equal(mi->nfiles, 1);
	assert_string_equal(mi->files[0].path, "block/badblocks.c");
	assert_int_equal(pc_message_raw(&raw, &len, ts.st, mi->id, &err), 0);
	assert_int_equal(pc_msg_parse(&m, raw, len, &err), 0);
	for (i = 0; i < m->natt; i++) {
		if (strcmp(m->att[i].filename,
			   "0001-badblocks-avoid-checking-invalid-range-in-"
			   "badblocks_.patch"))
			continue;
		found = 1;
		assert_non_null(memmem(m->att[i].text.buf, m->att[i].text.len,
				       "\ndiff --git a/block/badblocks.c "
				       "b/block/badblocks.c\n",
				       51));
		assert_non_null(memmem(m->att[i].text.buf, m->att[i].text.len,
				       "\nReported-by: ", 14));
	}
	assert_true(found);
	pc_msg_free(m);
	free(raw);
	free(msgid);
	pc_message_info_free(mi);
	t_store_close(&ts);
}

static void test_lore_nvdimm__outlook_iso_2022_jp(void **state)
{
	struct t_store ts;
	char *row;

	(void)state;
	load_thread(&ts, "outlook-iso-2022-jp-sanitize-memdev.mbox", 7);
	/* The Outlook "RE:" replies decode, without a fallback. */
	row = t_query(&ts, "SELECT count(*), sum(charset_fallback) "
			   "FROM messages WHERE subject GLOB 'RE: [[]PATCH v4 "
			   "-ndctl] cxl/memdev: Introduce sanitize-memdev*' "
			   "AND kind = 'reply'");
	assert_string_equal(row, "3|0");
	free(row);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM messages "
					  "WHERE charset_fallback != 0"),
			 0);
	/* The series has the one patch, with Li Zhijian's Tested-by. */
	row = t_query(&ts, "SELECT m.kind, m.topic, m.version, t.name, "
			   "t.value FROM trailers t JOIN messages m "
			   "ON m.id = t.target_id WHERE t.origin = 'reply' "
			   "AND t.suggested = 0");
	assert_string_equal(row, "patch|ndctl|4|Tested-by|Li Zhijian "
				 "<lizhijian@fujitsu.com>");
	free(row);
	t_store_close(&ts);
}

/* Bodies of the iso-2022-jp replies, read and decoded directly. */
static void test_lore_nvdimm__iso_2022_jp_bodies(void **state)
{
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_err err = { 0 };
	struct pc_source *src;
	struct pc_source_msg msg;
	int rc, jp = 0;

	(void)state;
	assert_int_equal(pc_source_open(&src,
					lore("threads/outlook-iso-2022-jp-"
					     "sanitize-memdev.mbox"),
					&opt, &err),
			 0);
	while ((rc = pc_source_next(src, &msg, &err)) == 1) {
		struct pc_msg *m = NULL;

		if (!memmem(msg.data, msg.len, "charset=\"iso-2022-jp\"", 21))
			continue;
		jp++;
		assert_int_equal(pc_msg_parse(&m, msg.data, msg.len, &err), 0);
		assert_false(m->charset_fallback);
		/* "Hello David-san," and "David-san,": the text is there. */
		assert_true(pc_mem_starts(m->body.buf, m->body.len,
					  "Hello David-san,\n") ||
			    pc_mem_starts(m->body.buf, m->body.len,
					  "David-san,\n\n> Hello David-san,"));
		/* No escape sequence is left in decoded text. */
		assert_null(memchr(m->body.buf, 0x1b, m->body.len));
		pc_msg_free(m);
	}
	assert_int_equal(rc, 0);
	assert_int_equal(jp, 2);
	pc_source_free(src);
}

static void test_lore_nvdimm__rfc2047_subjects(void **state)
{
	struct t_store ts;
	char *row;

	(void)state;
	load_thread(&ts, "rfc2047-subjects-dm-pcache.mbox", 18);
	/* Every reply's subject decodes to the cover's (with its en dash). */
	row = t_query(&ts, "SELECT kind, subject, count(*) FROM messages "
			   "WHERE kind IN ('cover', 'reply') GROUP BY kind, "
			   "subject ORDER BY kind");
	assert_string_equal(row,
			    "cover|[RFC v2 00/11] dm-pcache \xe2\x80\x93 "
			    "persistent-memory cache for block devices|1\n"
			    "reply|Re: [RFC v2 00/11] dm-pcache \xe2\x80\x93 "
			    "persistent-memory cache for block devices|6");
	free(row);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM messages m "
					  "JOIN raw r ON r.id = m.raw_id "
					  "WHERE m.kind = 'reply' AND "
					  "instr(CAST(r.bytes AS TEXT), "
					  "'Subject: =?') > 0"),
			 6 - t_query_int(&ts, "SELECT count(*) FROM messages m "
					      "JOIN raw r ON r.id = m.raw_id "
					      "WHERE m.kind = 'reply' AND "
					      "instr(CAST(r.bytes AS TEXT), "
					      "'Subject: Re:') > 0"));
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM messages "
					  "WHERE kind = 'patch' AND is_rfc = 1 "
					  "AND total = 11"),
			 11);
	t_store_close(&ts);
}

static void test_lore_nvdimm__from_lines_in_body(void **state)
{
	struct pc_message_info *mi = NULL;
	struct pc_err err = { 0 };
	struct t_store ts;
	char *row, *raw, *msgid;
	size_t len;

	(void)state;
	load_thread(&ts, "from-lines-in-body-io-ticks-rfc.mbox", 7);
	row = t_query(&ts, "SELECT kind, is_rfc, name FROM messages "
			   "WHERE in_reply_to IS NULL");
	assert_string_equal(row, "patch|1|block: Change the granularity of "
				 "io ticks from ms to ns");
	free(row);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM messages "
					  "WHERE kind = 'reply'"),
			 6);
	assert_int_equal(t_query_int(&ts, "SELECT count(*) FROM messages "
					  "WHERE charset_fallback != 0"),
			 0);
	/* The stored patch has its "From " lines back, unquoted. */
	msgid = t_query(&ts, "SELECT msgid FROM messages WHERE kind = "
			     "'patch'");
	assert_int_equal(pc_message_get(&mi, ts.st, msgid, &err), 0);
	assert_int_equal(pc_message_raw(&raw, &len, ts.st, mi->id, &err), 0);
	assert_non_null(memmem(raw, len, "\nFrom ", 6));
	assert_null(memmem(raw, len, "\n>From ", 7));
	free(raw);
	free(msgid);
	pc_message_info_free(mi);
	t_store_close(&ts);
}

static void test_lore_nvdimm__single_messages(void **state)
{
	struct pc_message_info *mi = NULL;
	struct pc_err err = { 0 };
	struct pc_msg *m = NULL;
	struct t_store ts;
	char *row, *raw, *msgid;
	size_t len;

	(void)state;
	/* Phishing spam with a GBK-only "gb2312" subject: not a patch. */
	t_store_open(&ts);
	assert_int_equal(t_ingest(&ts,
				  lore("messages/gb2312-encoded-subject-"
				       "spam.2b7354f16de7.eml"),
				  PC_SOURCE_AUTO),
			 1);
	row = t_query(&ts, "SELECT kind, subject FROM messages");
	assert_string_equal(row, "other|ヨドバシドットコム：「お客様情報」"
				 "変更依頼受付のご連絡 cs0cmtfh8etr");
	free(row);
	t_store_close(&ts);

	/* HTML multipart reply: the text/plain part is the body. */
	t_store_open(&ts);
	assert_int_equal(t_ingest(&ts,
				  lore("messages/html-multipart-related-"
				       "reply.dbe54780e389.eml"),
				  PC_SOURCE_AUTO),
			 1);
	row = t_query(&ts, "SELECT kind, subject FROM messages");
	assert_string_equal(row, "reply|Re: [PATCH v6 5/7] badblocks: improve "
				 "badblocks_check() for multiple ranges "
				 "handling");
	free(row);
	msgid = t_query(&ts, "SELECT msgid FROM messages");
	assert_int_equal(pc_message_get(&mi, ts.st, msgid, &err), 0);
	assert_int_equal(pc_message_raw(&raw, &len, ts.st, mi->id, &err), 0);
	assert_int_equal(pc_msg_parse(&m, raw, len, &err), 0);
	assert_true(m->body.len > 100);
	assert_null(memmem(m->body.buf, m->body.len, "<html", 5));
	assert_null(memmem(m->body.buf, m->body.len, "<div", 4));
	assert_null(memmem(m->body.buf, m->body.len, "<p", 2));
	assert_false(m->mime_fallback);
	pc_msg_free(m);
	free(raw);
	free(msgid);
	pc_message_info_free(mi);
	t_store_close(&ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lore_nvdimm__archive),
		cmocka_unit_test(test_lore_nvdimm__thread_files),
		cmocka_unit_test(test_lore_nvdimm__poison_list_v11_v12),
		cmocka_unit_test(test_lore_nvdimm__git_pull),
		cmocka_unit_test(test_lore_nvdimm__patch_attached_to_reply),
		cmocka_unit_test(test_lore_nvdimm__outlook_iso_2022_jp),
		cmocka_unit_test(test_lore_nvdimm__iso_2022_jp_bodies),
		cmocka_unit_test(test_lore_nvdimm__rfc2047_subjects),
		cmocka_unit_test(test_lore_nvdimm__from_lines_in_body),
		cmocka_unit_test(test_lore_nvdimm__single_messages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
