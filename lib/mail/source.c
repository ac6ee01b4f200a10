// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Mail sources: splits mboxes, walks maildirs, reads single messages and
 * stdin, and hands public-inbox archives to pinbox.c. A plain file is read
 * with read(); gzip files and standard input go through zlib's gz*
 * functions, which also read plain data transparently. Memory is one read
 * buffer plus the current message.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "mail/pinbox.h"
#include "mail/source.h"
#include "util/buf.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

#define READ_CHUNK (256u << 10)

struct pc_source {
	enum pc_source_kind kind;
	struct pc_source_options opt;
	char *path; /* owned */

	/* mbox and single message: read from fd, or else through gz */
	int fd; /* a plain file, or -1 */
	uint64_t read_off; /* bytes read from fd, or from gz's file */
	gzFile gz;
	char *rbuf; /* owned read buffer */
	size_t rlen, rpos, ralloc;
	int eof;
	uint64_t lineno;
	uint64_t file_size;
	int mboxrd;
	int seen_from; /* an mbox From_ line was read */
	int prev_blank; /* the previous line was empty */
	uint32_t rng; /* read-size sequence (tests) */
	int done;

	/* maildir */
	char **names; /* owned, sorted "cur/x", "new/y" */
	size_t nnames, next;

	struct pc_pinbox *pi; /* owned */

	/* a list the caller holds */
	const struct pc_source_msg *list; /* borrowed */
	size_t nlist;
	const char *missing; /* borrowed */

	/*
	 * The message being assembled is msg followed by the span of rbuf
	 * at [span_off, span_off + span_len): lines that need no change
	 * (LF-terminated, no CR, no mboxrd quoting) are not copied one by
	 * one but taken as one span, copied when a line needs changing,
	 * before the read buffer moves, and when the message ends.
	 */
	size_t span_off, span_len;
	struct pc_buf msg;
	struct pc_buf held; /* a From_ candidate kept across a peek */
	struct pc_buf where;
	uint64_t ordinal;
};

const char *pc_source_kind_name(enum pc_source_kind kind)
{
	switch (kind) {
	case PC_SOURCE_AUTO:
		return "auto";
	case PC_SOURCE_MBOX:
		return "mbox";
	case PC_SOURCE_MAILDIR:
		return "maildir";
	case PC_SOURCE_MESSAGE:
		return "message";
	case PC_SOURCE_PUBLIC_INBOX:
		return "public-inbox";
	case PC_SOURCE_LIST:
		return "list";
	}
	return "?";
}

/*
 * An mbox From_ line, after git's mailsplit: "From " then something, and
 * a time "hh:mm" followed somewhere by a four-digit year. Body lines that
 * start with "From " in prose rarely carry both.
 */
static int is_from_line(const char *p, size_t len)
{
	size_t i;

	/* The first byte alone settles most lines, without a call. */
	if (len < 20 || p[0] != 'F' || memcmp(p, "From ", 5) != 0)
		return 0;
	for (i = len - 1; i > 5; i--) {
		if (p[i] != ':')
			continue;
		if (i >= 2 && i + 2 < len &&
		    pc_isdigit((unsigned char)p[i - 1]) &&
		    pc_isdigit((unsigned char)p[i + 1]) &&
		    pc_isdigit((unsigned char)p[i + 2])) {
			size_t j;

			/* A four-digit year anywhere in the line. */
			for (j = 5; j + 4 <= len; j++)
				if (pc_isdigit((unsigned char)p[j]) &&
				    pc_isdigit((unsigned char)p[j + 1]) &&
				    pc_isdigit((unsigned char)p[j + 2]) &&
				    pc_isdigit((unsigned char)p[j + 3]) &&
				    (j + 4 == len ||
				     !pc_isdigit((unsigned char)p[j + 4])) &&
				    (p[j - 1] == ' '))
					return 1;
			return 0;
		}
	}
	return 0;
}

/* Whether a line is ">+From " (mboxrd-quoted). */
static int is_quoted_from(const char *p, size_t len)
{
	size_t i = 0;

	while (i < len && p[i] == '>')
		i++;
	return i > 0 && pc_mem_starts(p + i, len - i, "From ");
}

/* Moves the pending span of unchanged lines into msg. */
static void span_flush(struct pc_source *src)
{
	if (src->span_len) {
		pc_buf_add(&src->msg, src->rbuf + src->span_off, src->span_len);
		src->span_len = 0;
	}
}

/* The length of the message assembled so far. */
static size_t msg_len(const struct pc_source *src)
{
	return src->msg.len + src->span_len;
}

/* Drops the message assembled so far. */
static void msg_reset(struct pc_source *src)
{
	pc_buf_reset(&src->msg);
	src->span_len = 0;
}

/*
 * Appends a line (as next_line() returned it) and, with has_nl, its LF.
 * A line still in the read buffer with its LF right after it extends the
 * span; anything else is copied.
 */
static void msg_add_line_slow(struct pc_source *src, const char *line,
			      size_t len, int has_nl)
{
	const char *end = src->rbuf + src->span_off + src->span_len;

	if (has_nl && line >= src->rbuf && line < src->rbuf + src->rlen &&
	    line + len < src->rbuf + src->rlen && line[len] == '\n') {
		if (src->span_len && line == end) {
			src->span_len += len + 1;
			return;
		}
		span_flush(src);
		src->span_off = (size_t)(line - src->rbuf);
		src->span_len = len + 1;
		return;
	}
	span_flush(src);
	pc_buf_add(&src->msg, line, len);
	if (has_nl)
		pc_buf_addch(&src->msg, '\n');
}

/* msg_add_line(): the line right after the span, with its LF, extends it
 * without a call; the rest is msg_add_line_slow(). */
static inline void msg_add_line(struct pc_source *src, const char *line,
				size_t len, int has_nl)
{
	if (has_nl && src->span_len &&
	    line == src->rbuf + src->span_off + src->span_len &&
	    line + len < src->rbuf + src->rlen && line[len] == '\n') {
		src->span_len += len + 1;
		return;
	}
	msg_add_line_slow(src, line, len, has_nl);
}

/* Fills the read buffer; returns bytes added, 0 at EOF, -1 on error. */
static int fill(struct pc_source *src, struct pc_err *err)
{
	size_t want;
	int n;

	if (src->eof)
		return 0;
	/* The buffer is about to move: the span must be copied first. */
	span_flush(src);
	if (src->rpos > 0) {
		memmove(src->rbuf, src->rbuf + src->rpos,
			src->rlen - src->rpos);
		src->rlen -= src->rpos;
		src->rpos = 0;
	}
	want = READ_CHUNK;
	if (src->opt.read_size && want > src->opt.read_size) {
		want = src->opt.read_size;
		if (src->opt.read_seed) {
			/* xorshift: a reproducible sequence of sizes. */
			src->rng ^= src->rng << 13;
			src->rng ^= src->rng >> 17;
			src->rng ^= src->rng << 5;
			want = 1 + src->rng % src->opt.read_size;
		}
	}
	/* Grow only when the read does not fit, and geometrically: a long
	 * line read in small pieces must not reallocate on every read. */
	if (src->ralloc - src->rlen < want) {
		size_t alloc = src->ralloc ? src->ralloc : READ_CHUNK;

		while (alloc - src->rlen < want)
			alloc *= 2;
		src->ralloc = alloc;
		src->rbuf = xrealloc(src->rbuf, src->ralloc);
	}
	if (src->fd >= 0) {
		ssize_t r;

		do
			r = read(src->fd, src->rbuf + src->rlen, want);
		while (r < 0 && errno == EINTR);
		if (r < 0)
			return pc_err_errno(err, PC_EIO, "cannot read '%s'",
					    src->path);
		n = (int)r;
		src->read_off += (uint64_t)r;
	} else {
		z_off_t off;

		n = gzread(src->gz, src->rbuf + src->rlen, (unsigned)want);
		/* Noted here, once a read: gzoffset() is an lseek(), one a
		 * message when progress was asked of it. */
		if ((off = gzoffset(src->gz)) > 0)
			src->read_off = (uint64_t)off;
	}
	if (n <= 0 && src->fd < 0) {
		int errnum = Z_OK;
		const char *m = gzerror(src->gz, &errnum);

		/* zlib names a descriptor ("<fd:4>: "); the path says more. */
		if (m && !strncmp(m, "<fd:", 4) && strstr(m, ">: "))
			m = strstr(m, ">: ") + 3;

		/* A damaged or cut stream: what came before it was read and
		 * stays; the damage is reported with where it is. */
		if (n < 0 || errnum == Z_BUF_ERROR) {
			return pc_err_set(err, PC_EDAMAGED,
					  "'%s' is damaged at byte %lld of its "
					  "compressed data: %s",
					  src->path,
					  (long long)gzoffset(src->gz),
					  errnum == Z_ERRNO ?
						  strerror(errno) :
					  errnum == Z_BUF_ERROR ?
						  "it ends in the middle" :
						  m);
		}
	}
	if (n == 0)
		src->eof = 1;
	src->rlen += (size_t)n;
	return n;
}

/* next_line() when the read buffer holds no whole line: reads more. */
static int next_line_refill(struct pc_source *src, const char **line,
			    size_t *len, int *too_long, int *has_nl,
			    struct pc_err *err)
{
	size_t start;
	char *nl;
	int rc;

	*too_long = 0;
	*has_nl = 1;
	for (;;) {
		start = src->rpos;
		nl = memchr(src->rbuf + start, '\n', src->rlen - start);
		if (nl)
			break;
		if (src->rlen - start > src->opt.max_message) {
			/* Drop the unterminated tail we cannot keep. */
			*too_long = 1;
			src->rpos = src->rlen;
			continue;
		}
		if ((rc = fill(src, err)) < 0)
			return rc;
		if (rc == 0) {
			if (src->rpos == src->rlen)
				return 0;
			/* Last line without a newline. */
			*line = src->rbuf + src->rpos;
			*len = src->rlen - src->rpos;
			src->rpos = src->rlen;
			src->lineno++;
			*has_nl = 0;
			return 1;
		}
	}
	*line = src->rbuf + start;
	*len = (size_t)(nl - (src->rbuf + start));
	src->rpos = (size_t)(nl - src->rbuf) + 1;
	if (*len && (*line)[*len - 1] == '\r')
		(*len)--;
	src->lineno++;
	return 1;
}

/*
 * Returns the next line (without its LF, and without a CR before it) in
 * (*line, *len); 1 with a line, 0 at EOF, negative on error. A line longer
 * than the message limit is returned truncated with *too_long set. A line
 * already whole in the read buffer, the common case, costs no call.
 */
static inline int next_line(struct pc_source *src, const char **line,
			    size_t *len, int *too_long, int *has_nl,
			    struct pc_err *err)
{
	const char *s = src->rbuf + src->rpos, *nl;

	if (src->rpos >= src->rlen ||
	    !(nl = memchr(s, '\n', src->rlen - src->rpos)))
		return next_line_refill(src, line, len, too_long, has_nl, err);
	*too_long = 0;
	*has_nl = 1;
	*line = s;
	*len = (size_t)(nl - s);
	src->rpos = (size_t)(nl - src->rbuf) + 1;
	if (*len && s[*len - 1] == '\r')
		(*len)--;
	src->lineno++;
	return 1;
}

/*
 * A From_ line without a date ("From A", as some tools write them): only
 * taken as a separator when the next line is a header field.
 */
static int is_loose_from(const char *p, size_t len)
{
	return len > 5 && p[0] == 'F' && memcmp(p, "From ", 5) == 0 &&
	       !pc_isspace((unsigned char)p[5]);
}

/* Whether the line after the current one looks like "Name: value". */
static int next_is_header(struct pc_source *src, struct pc_err *err)
{
	size_t i;
	int rc;

	while (!memchr(src->rbuf + src->rpos, '\n', src->rlen - src->rpos) &&
	       src->rlen - src->rpos < 1024) {
		if ((rc = fill(src, err)) < 0)
			return rc;
		if (rc == 0)
			break;
	}
	for (i = src->rpos; i < src->rlen; i++) {
		unsigned char c = (unsigned char)src->rbuf[i];

		if (c == ':')
			return i > src->rpos;
		if (c <= ' ' || c > '~')
			return 0;
	}
	return 0;
}

/* The offset of the first line in (p, len) that is not whitespace only
 * (or of the unfinished last line). */
static size_t first_content(const char *p, size_t len)
{
	size_t line = 0, i;

	for (i = 0; i < len; i++) {
		if (p[i] == '\n')
			line = i + 1;
		else if (!pc_isspace((unsigned char)p[i]))
			return line;
	}
	return line;
}

/* Whether (p, len) holds only whitespace. */
static int all_space(const char *p, size_t len)
{
	return first_content(p, len) == len && (len == 0 || p[len - 1] == '\n');
}

/* Drops the blank line that mbox puts after each message. */
static void strip_separator(struct pc_buf *m)
{
	if (m->len >= 2 && m->buf[m->len - 1] == '\n' &&
	    m->buf[m->len - 2] == '\n')
		pc_buf_setlen(m, m->len - 1);
}

static int mbox_next(struct pc_source *src, struct pc_source_msg *out,
		     struct pc_err *err)
{
	uint64_t start_line;
	int oversized, too_long, has_nl, rc, loose, strict;
	const char *line;
	size_t len;

again:
	start_line = src->lineno + 1;
	oversized = 0;
	msg_reset(src);
	if (src->done)
		return 0;
	for (;;) {
		rc = next_line(src, &line, &len, &too_long, &has_nl, err);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			src->done = 1;
			break;
		}
		oversized |= too_long;
		strict = is_from_line(line, len);
		if ((src->lineno == 1 || src->prev_blank || !src->seen_from) &&
		    !strict && is_loose_from(line, len)) {
			/* The peek may move the read buffer: keep the line. */
			pc_buf_reset(&src->held);
			pc_buf_add(&src->held, line, len);
			line = src->held.buf;
			if ((rc = next_is_header(src, err)) < 0)
				return rc;
			loose = rc;
		} else {
			loose = 0;
		}
		/* A dated From_ line splits wherever it is, as in git
		 * mailsplit; a loose one only after a blank line. */
		if (strict || loose) {
			if (!src->seen_from &&
			    src->opt.mbox_format == PC_MBOX_AUTO)
				src->mboxrd = pc_mem_starts(line, len,
							    "From mboxrd@z");
			src->prev_blank = 0;
			/* Whitespace before the first From_ line is no mail;
			 * anything else there is kept as a message. */
			span_flush(src);
			if (src->seen_from ||
			    (src->msg.len &&
			     !all_space(src->msg.buf, src->msg.len))) {
				src->seen_from = 1;
				break;
			}
			msg_reset(src);
			src->seen_from = 1;
			start_line = src->lineno + 1;
			continue;
		}
		src->prev_blank = len == 0;
		if (src->mboxrd && is_quoted_from(line, len)) {
			line++;
			len--;
		}
		/* Past the limit, the rest of the message is skipped: what
		 * is kept is its head, whole lines only. */
		if (oversized ||
		    msg_len(src) + len + 1 > src->opt.max_message) {
			oversized = 1;
			continue;
		}
		msg_add_line(src, line, len, has_nl);
	}
	span_flush(src);
	strip_separator(&src->msg);
	if (!src->msg.len && !oversized)
		goto again;
	src->ordinal++;
	pc_buf_reset(&src->where);
	if (src->kind == PC_SOURCE_MBOX)
		pc_buf_addf(&src->where, "%s:%llu", src->path,
			    (unsigned long long)start_line);
	else
		pc_buf_addstr(&src->where, src->path);
	out->data = src->msg.buf;
	out->len = src->msg.len;
	out->where = src->where.buf;
	out->ordinal = src->ordinal;
	if (oversized)
		return pc_err_set(err, PC_ELIMIT,
				  "message at %s is larger than %zu bytes",
				  src->where.buf, src->opt.max_message);
	return 1;
}

static int maildir_next(struct pc_source *src, struct pc_source_msg *out,
			struct pc_err *err)
{
	char *path;
	FILE *f;
	char chunk[65536];
	size_t n;
	int rc = 1;

	if (src->next >= src->nnames)
		return 0;
	pc_buf_reset(&src->msg);
	pc_buf_reset(&src->where);
	pc_buf_addstr(&src->where, src->names[src->next]);
	path = xasprintf("%s/%s", src->path, src->names[src->next]);
	src->next++;
	src->ordinal++;
	out->data = src->msg.buf;
	out->len = 0;
	out->where = src->where.buf;
	out->ordinal = src->ordinal;
	if (!(f = fopen(path, "rb"))) {
		/* A message moved by the MUA meanwhile is not an error. */
		rc = errno == ENOENT ? maildir_next(src, out, err) :
				       pc_err_errno(err, PC_EIO,
						    "cannot open '%s'", path);
		free(path);
		return rc;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (src->msg.len + n > src->opt.max_message) {
			rc = pc_err_set(err, PC_ELIMIT,
					"message '%s' is larger than %zu bytes",
					path, src->opt.max_message);
			break;
		}
		pc_buf_add(&src->msg, chunk, n);
	}
	if (rc == 1 && ferror(f))
		rc = pc_err_errno(err, PC_EIO, "cannot read '%s'", path);
	fclose(f);
	free(path);
	if (rc == 1) {
		/* CRLF to LF at the input edge. */
		size_t i, j;

		for (i = j = 0; i < src->msg.len; i++) {
			if (src->msg.buf[i] == '\r' && i + 1 < src->msg.len &&
			    src->msg.buf[i + 1] == '\n')
				continue;
			src->msg.buf[j++] = src->msg.buf[i];
		}
		pc_buf_setlen(&src->msg, j);
	}
	out->data = src->msg.buf;
	out->len = src->msg.len;
	return rc;
}

/* Orders "cur/NAME" and "new/NAME" by NAME, then by folder. */
static int cmp_names(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int c = strcmp(strchr(x, '/') + 1, strchr(y, '/') + 1);

	return c ? c : strcmp(x, y);
}

static int maildir_scan(struct pc_source *src, struct pc_err *err)
{
	static const char *const subdirs[] = { "cur", "new" };
	size_t alloc = 0, i;

	for (i = 0; i < PC_ARRAY_SIZE(subdirs); i++) {
		char *dir = xasprintf("%s/%s", src->path, subdirs[i]);
		struct dirent *de;
		DIR *d = opendir(dir);

		if (!d) {
			int rc = pc_err_errno(err, PC_EIO,
					      "cannot read maildir folder '%s'",
					      dir);
			free(dir);
			return rc;
		}
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			PC_ALLOC_GROW(src->names, src->nnames + 1, alloc);
			src->names[src->nnames++] =
				xasprintf("%s/%s", subdirs[i], de->d_name);
		}
		closedir(d);
		free(dir);
	}
	/* Maildir names start with the delivery time: name order is
	 * arrival order, and it is stable across runs. A message keeps its
	 * name when the MUA moves it from new/ to cur/, so the folder does
	 * not count. */
	qsort(src->names, src->nnames, sizeof(*src->names), cmp_names);
	return 0;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_maildir(const char *path)
{
	char *cur = xasprintf("%s/cur", path), *nw = xasprintf("%s/new", path);
	int yes = is_dir(cur) && is_dir(nw);

	free(cur);
	free(nw);
	return yes;
}

int pc_source_open(struct pc_source **out, const char *path,
		   const struct pc_source_options *opt, struct pc_err *err)
{
	struct pc_source_options defaults = PC_SOURCE_OPTIONS_INIT;
	struct pc_source *src;
	int rc = 0;

	if (opt && opt->kind == PC_SOURCE_LIST)
		return pc_err_set(err, PC_EUSAGE,
				  "a list source is made with "
				  "pc_source_from_list(), not opened");
	src = xcalloc(1, sizeof(*src));
	src->fd = -1;
	src->opt = opt ? *opt : defaults;
	if (!src->opt.max_message)
		src->opt.max_message = PC_SOURCE_MAX_MESSAGE_DEFAULT;
	src->path = xstrdup(path);
	src->kind = src->opt.kind;
	src->mboxrd = src->opt.mbox_format == PC_MBOX_MBOXRD;
	src->rng = src->opt.read_seed ? src->opt.read_seed : 1;
	pc_buf_init(&src->msg, 0);
	pc_buf_init(&src->held, 0);
	pc_buf_init(&src->where, 0);

	if (src->kind == PC_SOURCE_AUTO && strcmp(path, "-") != 0 &&
	    is_dir(path)) {
		if (is_maildir(path))
			src->kind = PC_SOURCE_MAILDIR;
		else if (pc_pinbox_detect(path))
			src->kind = PC_SOURCE_PUBLIC_INBOX;
		else {
			rc = pc_err_set(
				err, PC_EUSAGE,
				"'%s' is a directory but neither a maildir (cur/, new/) nor a public-inbox archive",
				path);
			goto out;
		}
	}
	if (src->kind == PC_SOURCE_MAILDIR) {
		rc = maildir_scan(src, err);
		goto out;
	}
	if (src->kind == PC_SOURCE_PUBLIC_INBOX) {
		rc = pc_pinbox_open(&src->pi, path, err);
		goto out;
	}

	if (strcmp(path, "-") == 0) {
		int fd = dup(STDIN_FILENO);

		src->gz = fd >= 0 ? gzdopen(fd, "rb") : NULL;
		if (!src->gz && fd >= 0)
			close(fd);
	} else {
		struct stat st;
		unsigned char magic[2] = { 0, 0 };
		int fd = open(path, O_RDONLY | O_CLOEXEC), plain = 0;

		/* A regular file without gzip's magic number is read as it
		 * is, without zlib's copy through its own buffer; gzip, and
		 * anything that cannot be peeked into (a FIFO), goes
		 * through zlib. */
		if (fd >= 0 && fstat(fd, &st) == 0) {
			src->file_size = (uint64_t)st.st_size;
			plain = S_ISREG(st.st_mode) &&
				!(pread(fd, magic, 2, 0) == 2 &&
				  magic[0] == 0x1f && magic[1] == 0x8b);
		}
		if (plain) {
			src->fd = fd;
		} else if (fd >= 0) {
			src->gz = gzdopen(fd, "rb");
			if (!src->gz)
				close(fd);
		}
	}
	if (src->fd < 0 && !src->gz) {
		rc = pc_err_errno(err, PC_EIO, "cannot open '%s'",
				  strcmp(path, "-") ? path : "standard input");
		goto out;
	}
	if (src->gz)
		gzbuffer(src->gz, 128u << 10);
	/* Enough of the first line with content to tell an mbox ("From ")
	 * from a message, however small the reads are; git mailsplit skips
	 * whitespace-only lines before the first From_ line, and so do we. */
	for (;;) {
		/* (Before the first read the buffer is still NULL.) */
		size_t off = src->rlen ? first_content(src->rbuf, src->rlen) :
					 0;

		if (src->rlen &&
		    (src->rlen - off >= 5 ||
		     memchr(src->rbuf + off, '\n', src->rlen - off) ||
		     src->rlen > (64u << 10))) {
			if (src->kind == PC_SOURCE_AUTO)
				src->kind = pc_mem_starts(src->rbuf + off,
							  src->rlen - off,
							  "From ") ?
						    PC_SOURCE_MBOX :
						    PC_SOURCE_MESSAGE;
			break;
		}
		if ((rc = fill(src, err)) < 0)
			goto out;
		if (rc == 0) {
			if (src->kind == PC_SOURCE_AUTO)
				src->kind = PC_SOURCE_MESSAGE;
			break;
		}
	}
	rc = 0;
out:
	if (rc < 0) {
		pc_source_free(src);
		return rc;
	}
	*out = src;
	return 0;
}

static int list_next(struct pc_source *src, struct pc_source_msg *msg,
		     struct pc_err *err)
{
	if (src->next >= src->nlist)
		return 0;
	*msg = src->list[src->next++];
	msg->ordinal = src->next;
	if (msg->data)
		return 1;
	msg->len = 0;
	return pc_err_set(err, PC_ELIMIT, "%s", src->missing);
}

void pc_source_from_list(struct pc_source **out,
			 const struct pc_source_msg *msgs, size_t n,
			 const char *missing)
{
	struct pc_source *src = xcalloc(1, sizeof(*src));

	src->kind = PC_SOURCE_LIST;
	src->fd = -1;
	src->list = msgs;
	src->nlist = n;
	src->missing = missing;
	*out = src;
}

int pc_source_next(struct pc_source *src, struct pc_source_msg *msg,
		   struct pc_err *err)
{
	switch (src->kind) {
	case PC_SOURCE_LIST:
		return list_next(src, msg, err);
	case PC_SOURCE_MAILDIR:
		return maildir_next(src, msg, err);
	case PC_SOURCE_PUBLIC_INBOX: {
		const char *data, *where;
		size_t len;
		int rc = pc_pinbox_next(src->pi, &data, &len, &where, err);

		if (rc <= 0)
			return rc;
		pc_buf_reset(&src->msg);
		/* CRLF to LF at the input edge, a run at a time. */
		for (size_t i = 0; i < len;) {
			const char *cr = memchr(data + i, '\r', len - i);
			size_t run = cr ? (size_t)(cr - data) - i : len - i;

			pc_buf_add(&src->msg, data + i, run);
			i += run;
			if (i < len) {
				if (i + 1 == len || data[i + 1] != '\n')
					pc_buf_addch(&src->msg, '\r');
				i++;
			}
		}
		src->ordinal++;
		msg->data = src->msg.buf;
		msg->len = src->msg.len;
		msg->where = where;
		msg->ordinal = src->ordinal;
		if (len > src->opt.max_message)
			return pc_err_set(
				err, PC_ELIMIT,
				"message at %s is larger than %zu bytes", where,
				src->opt.max_message);
		return 1;
	}
	case PC_SOURCE_MBOX:
	case PC_SOURCE_MESSAGE:
	case PC_SOURCE_AUTO:
		break;
	}
	if (src->kind == PC_SOURCE_MESSAGE) {
		/* The whole input is one message: no From_ splitting. */
		int too_long, has_nl, rc;
		const char *line;
		size_t len;
		int oversized = 0;

		if (src->done)
			return 0;
		msg_reset(src);
		while ((rc = next_line(src, &line, &len, &too_long, &has_nl,
				       err)) > 0) {
			oversized |= too_long;
			if (oversized ||
			    msg_len(src) + len + 1 > src->opt.max_message) {
				oversized = 1;
				continue;
			}
			msg_add_line(src, line, len, has_nl);
		}
		span_flush(src);
		if (rc < 0)
			return rc;
		src->done = 1;
		src->ordinal++;
		pc_buf_reset(&src->where);
		pc_buf_addstr(&src->where, strcmp(src->path, "-") ?
						   src->path :
						   "standard input");
		msg->data = src->msg.buf;
		msg->len = src->msg.len;
		msg->where = src->where.buf;
		msg->ordinal = src->ordinal;
		if (oversized)
			return pc_err_set(
				err, PC_ELIMIT,
				"message '%s' is larger than %zu bytes",
				src->where.buf, src->opt.max_message);
		return src->msg.len ? 1 : 0;
	}
	return mbox_next(src, msg, err);
}

enum pc_source_kind pc_source_kind(const struct pc_source *src)
{
	return src->kind;
}

void pc_source_progress(const struct pc_source *src, uint64_t *done,
			uint64_t *total)
{
	*done = *total = 0;
	switch (src->kind) {
	case PC_SOURCE_MAILDIR:
		*done = src->next;
		*total = src->nnames;
		break;
	case PC_SOURCE_PUBLIC_INBOX:
		pc_pinbox_progress(src->pi, done, total);
		break;
	case PC_SOURCE_LIST:
		*done = src->next;
		*total = src->nlist;
		break;
	default:
		if (src->fd >= 0 || src->gz) {
			*done = src->read_off;
			*total = src->file_size;
		}
		break;
	}
}

void pc_source_free(struct pc_source *src)
{
	size_t i;

	if (!src)
		return;
	if (src->fd >= 0)
		close(src->fd);
	if (src->gz)
		gzclose(src->gz);
	pc_pinbox_free(src->pi);
	for (i = 0; i < src->nnames; i++)
		free(src->names[i]);
	free(src->names);
	free(src->rbuf);
	pc_buf_release(&src->msg);
	pc_buf_release(&src->held);
	pc_buf_release(&src->where);
	free(src->path);
	free(src);
}
