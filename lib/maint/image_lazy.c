// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What is made lazily from an image: whether an F: value names a
 * directory of the tree, and compiled regular expressions. See image.c.
 */
#include <sys/stat.h>

#include "maint/image_format.h"
#include "maint/maint_internal.h"
#include "util/banned.h"

int pc_maint__fpat_dir(const struct pc_maint *m, uint32_t id)
{
	const struct pc_maint__fpat *fp = &m->fpats[id];
	unsigned char st;

	if (!fp->maybe_dir || m->treefd < 0)
		return 0;
	st = atomic_load_explicit(&m->dstate[id], memory_order_relaxed);
	if (!st) {
		struct stat sb;

		st = fstatat(m->treefd, m->str + fp->re, &sb, 0) == 0 &&
				     S_ISDIR(sb.st_mode) ?
			     2 :
			     1;
		atomic_store_explicit(&m->dstate[id], st, memory_order_relaxed);
	}
	return st == 2;
}

const pcre2_code *pc_maint__code(const struct pc_maint *m, uint32_t rid)
{
	/* A regex that does not compile is remembered as m itself. */
	pcre2_code *bad = (pcre2_code *)(void *)m, *c, *expected = NULL;
	uint32_t kbase = PC_MAINT__RID_FIXED + (uint32_t)m->n_npats;
	uint32_t fbase = kbase + 3 * (uint32_t)m->n_kpats;
	struct pc_buf src = PC_BUF_INIT;
	uint32_t opts = 0;
	PCRE2_SIZE off;
	int ec;

	if (rid >= m->n_codes)
		return NULL;
	c = atomic_load_explicit(&m->codes[rid], memory_order_acquire);
	if (c)
		return c == bad ? NULL : c;
	if (rid == PC_MAINT__RID_FE_FIND) {
		pc_buf_addstr(&src, PC_MAINT__FE_FIND);
	} else if (rid == PC_MAINT__RID_FE_SUB) {
		pc_buf_addstr(&src, PC_MAINT__FE_SUB);
	} else if (rid < kbase) {
		pc_buf_addstr(&src, m->str + m->npats[rid - 2].src);
		opts = PCRE2_EXTENDED;
	} else if (rid < fbase) {
		const char *v = m->str + m->kpats[(rid - kbase) / 3].src;

		opts = PCRE2_EXTENDED;
		switch ((rid - kbase) % 3) {
		case 0:
			pc_buf_addstr(&src, v);
			break;
		case 1:
			pc_maint__kdiff_src(&src, v);
			break;
		default:
			pc_buf_addstr(&src, v);
			opts |= PCRE2_MULTILINE;
			break;
		}
	} else {
		const struct pc_maint__fpat *fp =
			&m->fpats[m->fres[(rid - fbase) / 2]];

		pc_buf_addch(&src, '^');
		pc_buf_addstr(&src, m->str + fp->re);
		if ((rid - fbase) % 2)
			pc_buf_addch(&src, '/');
	}
	c = pcre2_compile((PCRE2_SPTR)src.buf, src.len, opts, &ec, &off, NULL);
	pc_buf_release(&src);
	if (!c)
		c = bad;
	if (!atomic_compare_exchange_strong_explicit(&m->codes[rid], &expected,
						     c, memory_order_acq_rel,
						     memory_order_acquire)) {
		if (c != bad)
			pcre2_code_free(c);
		c = expected;
	}
	return c == bad ? NULL : c;
}
