// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What get_maintainer.pl prints for a mapped input: add_categories() for
 * each matched entry in order (M:, R: and L: lines, first come first
 * kept, by name or address, case-insensitively), then
 * deduplicate_email() and .mailmap over every line, the chief penguin
 * dropped, the addresses found in .yaml files, and merge_email().
 */
#include <string.h>

#include "maint/maint_internal.h"
#include "util/util.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct vec {
	struct pc_maint_line *v; /* owned */
	size_t n, alloc;
};

struct ctx {
	const struct pc_maint *m;
	struct vec email_to, list_to;
	struct pc_maint__smap hn, ha, hl; /* lc name / address / list */
	struct pc_buf name, addr, tmp, lc;
};

static void vec_push(struct vec *v, char *text, char *role, size_t hit,
		     int list)
{
	PC_ALLOC_GROW(v->v, v->n + 1, v->alloc);
	v->v[v->n].text = text;
	v->v[v->n].role = role;
	v->v[v->n].hit = hit;
	v->v[v->n].list = list != 0;
	v->n++;
}

/* email_inuse() */
static int in_use(struct ctx *c, const char *name, const char *addr)
{
	if (!*name && !*addr)
		return 1;
	if (*name &&
	    pc_maint__smap_get(&c->hn, pc_maint__lc(&c->lc, name), NULL))
		return 1;
	if (*addr &&
	    pc_maint__smap_get(&c->ha, pc_maint__lc(&c->lc, addr), NULL))
		return 1;
	return 0;
}

/* push_email_address() */
static void push_email(struct ctx *c, const char *line, const char *role,
		       size_t hit)
{
	struct pc_buf out = PC_BUF_INIT;

	pc_maint__parse_email(&c->name, &c->addr, line, strlen(line));
	if (!c->addr.len || in_use(c, c->name.buf, c->addr.buf))
		return;
	pc_maint__format_email(&out, c->name.buf, c->name.len, c->addr.buf,
			       c->addr.len);
	vec_push(&c->email_to, pc_buf_detach(&out, NULL), xstrdup(role), hit,
		 0);
	if (c->name.len)
		pc_maint__smap_put(&c->hn, pc_maint__lc(&c->lc, c->name.buf),
				   0);
	pc_maint__smap_put(&c->ha, pc_maint__lc(&c->lc, c->addr.buf), 0);
}

/* add_categories() for one entry. */
static void add_categories(struct ctx *c, const struct pc_maint_hit *h,
			   size_t hit)
{
	const struct pc_maint *m = c->m;
	size_t ei = h->entry->index, t, a;
	const struct pc_maint__ent *x = &m->ents[ei];
	const char *subsys = pc_maint__subsys(m, ei);

	for (t = x->first_is_name ? 1 : 0; t < x->n_tags; t++) {
		const struct pc_maint__tag *tg = &m->tags[x->tag0 + t];
		char *role;

		switch (tg->tag) {
		case 'L':
			if (tg->list_sub)
				break; /* --s is off */
			if (pc_maint__smap_get(&c->hl,
					       pc_maint__lc(&c->lc,
							    m->str + tg->list),
					       NULL))
				break;
			pc_maint__smap_put(&c->hl, c->lc.buf, 0);
			role = xasprintf("%s list%s%s",
					 tg->list_mod ? "moderated" : "open",
					 strcmp(subsys, "THE REST") ? ":" : "",
					 strcmp(subsys, "THE REST") ? subsys :
								      "");
			vec_push(&c->list_to, xstrdup(m->str + tg->list), role,
				 hit, 1);
			break;
		case 'M':
		case 'R':
			role = tg->tag == 'M' ?
				       xasprintf("%s:%s", m->str + x->role,
						 subsys) :
				       xasprintf("reviewer:%s", subsys);
			for (a = 0; a < tg->n_addrs; a++)
				push_email(c, m->str + m->addrs[tg->addr0 + a],
					   role, hit);
			free(role);
			break;
		default:
			break;
		}
	}
}

struct dedup {
	struct pc_maint__smap names, addrs; /* lc -> index in pairs */
	char **pairs; /* owned: name, address, name, address... */
	size_t n, alloc;
};

/* deduplicate_email() */
static char *deduplicate(struct ctx *c, struct dedup *d, const char *email)
{
	struct pc_buf out = PC_BUF_INIT;
	const char *name, *addr;
	size_t i;

	pc_maint__parse_email(&c->name, &c->addr, email, strlen(email));
	pc_buf_reset(&c->tmp);
	pc_maint__format_email(&c->tmp, c->name.buf, c->name.len, c->addr.buf,
			       c->addr.len);
	pc_maint__mailmap_email(&out, c->m, c->tmp.buf);
	pc_maint__parse_email(&c->name, &c->addr, out.buf, out.len);
	name = c->name.buf;
	addr = c->addr.buf;
	if (*name &&
	    pc_maint__smap_get(&d->names, pc_maint__lc(&c->lc, name), &i)) {
		name = d->pairs[i];
		addr = d->pairs[i + 1];
	} else if (pc_maint__smap_get(&d->addrs, pc_maint__lc(&c->lc, addr),
				      &i)) {
		name = d->pairs[i];
		addr = d->pairs[i + 1];
	} else {
		PC_ALLOC_GROW(d->pairs, d->n + 2, d->alloc);
		d->pairs[d->n] = xstrdup(name);
		d->pairs[d->n + 1] = xstrdup(addr);
		pc_maint__smap_put(&d->names, pc_maint__lc(&c->lc, name), d->n);
		pc_maint__smap_put(&d->addrs, pc_maint__lc(&c->lc, addr), d->n);
		d->n += 2;
	}
	pc_buf_reset(&c->tmp);
	pc_maint__format_email(&c->tmp, name, strlen(name), addr, strlen(addr));
	pc_maint__mailmap_email(&out, c->m, c->tmp.buf);
	return pc_buf_detach(&out, NULL);
}

/* $_->[0] =~ /Linus Torvalds <torvalds@linux-foundation.org>/ ('.' is any
 * byte but '\n'). */
static int chief_penguin(const char *s)
{
	static const char pat[] = PC_MAINT_CHIEF_NAME " <" PC_MAINT_CHIEF_ADDR
						      ">";
	size_t n = strlen(s), k = sizeof(pat) - 1, i, j;

	for (i = 0; i + k <= n; i++) {
		for (j = 0; j < k; j++)
			if (pat[j] == '.' ? s[i + j] == '\n' :
					    s[i + j] != pat[j])
				break;
		if (j == k)
			return 1;
	}
	return 0;
}

/* add_role() */
static void add_role(struct ctx *c, const char *line, const char *role)
{
	struct pc_buf en = PC_BUF_INIT, ea = PC_BUF_INIT;
	size_t i;

	pc_maint__parse_email(&c->name, &c->addr, line, strlen(line));
	for (i = 0; i < c->email_to.n; i++) {
		struct pc_maint_line *l = &c->email_to.v[i];

		pc_maint__parse_email(&en, &ea, l->text, strlen(l->text));
		if (strcmp(c->name.buf, en.buf) && strcmp(c->addr.buf, ea.buf))
			continue;
		if (*role && strstr(l->role, role))
			continue;
		if (!*l->role) {
			free(l->role);
			l->role = xstrdup(role);
		} else {
			char *r = xasprintf("%s,%s", l->role, role);

			free(l->role);
			l->role = r;
		}
	}
	pc_buf_release(&en);
	pc_buf_release(&ea);
}

void pc_maint_lines(struct pc_maint_lines *out, const struct pc_maint *m,
		    const struct pc_maint_result *r)
{
	struct ctx c = { .m = m };
	struct dedup d = { 0 };
	struct pc_maint__smap saw = { 0 };
	size_t i, j;

	pc_buf_init(&c.name, 0);
	pc_buf_init(&c.addr, 0);
	pc_buf_init(&c.tmp, 0);
	pc_buf_init(&c.lc, 0);
	for (i = 0; i < r->n_hits; i++)
		add_categories(&c, &r->hits[i], i);

	for (i = 0; i < c.email_to.n + c.list_to.n; i++) {
		struct pc_maint_line *l =
			i < c.email_to.n ? &c.email_to.v[i] :
					   &c.list_to.v[i - c.email_to.n];
		char *t = deduplicate(&c, &d, l->text);

		free(l->text);
		l->text = t;
	}
	for (i = j = 0; i < c.email_to.n; i++) {
		if (chief_penguin(c.email_to.v[i].text)) {
			free(c.email_to.v[i].text);
			free(c.email_to.v[i].role);
			continue;
		}
		c.email_to.v[j++] = c.email_to.v[i];
	}
	c.email_to.n = j;

	for (i = 0; i < r->n_file_emails; i++) {
		struct pc_buf mapped = PC_BUF_INIT, fmt = PC_BUF_INIT;

		pc_maint__mailmap_email(&mapped, m, r->file_emails[i]);
		pc_maint__parse_email(&c.name, &c.addr, mapped.buf, mapped.len);
		pc_maint__format_email(&fmt, c.name.buf, c.name.len, c.addr.buf,
				       c.addr.len);
		push_email(&c, fmt.buf, "", PC_MAINT_NONE);
		add_role(&c, fmt.buf, "in file");
		pc_buf_release(&mapped);
		pc_buf_release(&fmt);
	}

	/* merge_email(): each printed string once. */
	for (i = 0; i < c.email_to.n + c.list_to.n; i++) {
		struct pc_maint_line *l =
			i < c.email_to.n ? &c.email_to.v[i] :
					   &c.list_to.v[i - c.email_to.n];

		if (pc_maint__smap_get(&saw, l->text, NULL)) {
			free(l->text);
			free(l->role);
			continue;
		}
		pc_maint__smap_put(&saw, l->text, 0);
		PC_ALLOC_GROW(out->v, out->n + 1, out->alloc);
		out->v[out->n++] = *l;
	}
	free(c.email_to.v);
	free(c.list_to.v);
	pc_maint__smap_release(&c.hn);
	pc_maint__smap_release(&c.ha);
	pc_maint__smap_release(&c.hl);
	pc_maint__smap_release(&saw);
	pc_maint__smap_release(&d.names);
	pc_maint__smap_release(&d.addrs);
	for (i = 0; i < d.n; i++)
		free(d.pairs[i]);
	free(d.pairs);
	pc_buf_release(&c.name);
	pc_buf_release(&c.addr);
	pc_buf_release(&c.tmp);
	pc_buf_release(&c.lc);
}

void pc_maint_lines_release(struct pc_maint_lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].text);
		free(l->v[i].role);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}
