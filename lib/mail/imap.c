// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The IMAP client (imap.h) on libetpan's low-level mailimap API, with
 * the certificate check done here by OpenSSL.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libetpan/libetpan.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include "mail/imap.h"
#include "util/xalloc.h"
#include "util/banned.h"

struct pc_imap {
	mailimap *imap; /* owned */
	char *host; /* owned */
	size_t max_message;
};

/* The server's last tagged response text, for messages ("" if none). */
static const char *server_said(const struct pc_imap *im)
{
	const char *s = im->imap ? im->imap->imap_response : NULL;

	return s ? s : "";
}

/* Translates a libetpan result into our codes; code is the "failed" kind
 * used when the server answered NO or BAD. */
static int imap_fail(struct pc_imap *im, struct pc_err *err, int r, int code,
		     const char *what)
{
	const char *said = server_said(im);

	if (r == MAILIMAP_ERROR_STREAM ||
	    r == MAILIMAP_ERROR_CONNECTION_REFUSED ||
	    r == MAILIMAP_ERROR_PARSE || r == MAILIMAP_ERROR_FATAL ||
	    r == MAILIMAP_ERROR_SSL)
		return pc_err_set(err, PC_ENET,
				  "imap %s on '%s': connection lost or refused "
				  "(libetpan error %d)",
				  what, im->host, r);
	return pc_err_set(err, code, "imap %s on '%s' failed%s%s", what,
			  im->host, *said ? ": " : "", said);
}

int pc_imap_is_loopback(const char *host)
{
	struct in6_addr a6;
	struct in_addr a4;

	if (!strcasecmp(host, "localhost") ||
	    !strcasecmp(host, "localhost.localdomain"))
		return 1;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, host, &a6) == 1)
		return IN6_IS_ADDR_LOOPBACK(&a6);
	return 0;
}

int pc_imap_parse_url(char **host_out, struct pc_imap_options *o,
		      const char *url, struct pc_err *err)
{
	const char *p, *end, *colon = NULL;
	unsigned long port = 0;
	char *stop;

	if (!strncasecmp(url, "imaps://", 8)) {
		o->security = PC_IMAP_TLS;
		p = url + 8;
	} else if (!strncasecmp(url, "imap://", 7)) {
		o->security = PC_IMAP_STARTTLS;
		p = url + 7;
	} else {
		return pc_err_set(err, PC_EUSAGE,
				  "imap url '%s' must start with imaps:// or "
				  "imap://",
				  url);
	}
	if (*p == '[') {
		if (!(end = strchr(p, ']')))
			return pc_err_set(err, PC_EUSAGE,
					  "imap url '%s': unclosed '['", url);
		*host_out = xstrndup(p + 1, (size_t)(end - p - 1));
		end++;
		if (*end == ':')
			colon = end;
		else if (*end && strcmp(end, "/"))
			goto bad;
	} else {
		end = p + strcspn(p, ":/");
		*host_out = xstrndup(p, (size_t)(end - p));
		if (*end == ':')
			colon = end;
		else if (*end && strcmp(end, "/"))
			goto bad;
	}
	if (!**host_out)
		goto bad;
	if (colon) {
		errno = 0;
		port = strtoul(colon + 1, &stop, 10);
		if (errno || stop == colon + 1 || port == 0 || port > 65535 ||
		    (*stop && strcmp(stop, "/")))
			goto bad;
	}
	o->port = (unsigned)port;
	o->host = *host_out;
	return 0;
bad:
	free(*host_out);
	*host_out = NULL;
	return pc_err_set(err, PC_EUSAGE,
			  "imap url '%s' is not imap[s]://HOST[:PORT]", url);
}

static void set_sni(struct mailstream_ssl_context *ctx, void *arg)
{
	struct pc_imap *im = arg;

	if (!pc_imap_is_loopback(im->host))
		mailstream_ssl_set_server_name(ctx, im->host);
}

/* Verifies the chain the server sent: trusted by ca_file (or the system
 * store) and naming the host. */
static int verify_peer(struct pc_imap *im, const char *ca_file,
		       struct pc_err *err)
{
	STACK_OF(X509) *untrusted = NULL;
	X509_STORE_CTX *ctx = NULL;
	X509_STORE *store = NULL;
	X509_VERIFY_PARAM *param;
	X509 *leaf = NULL;
	carray *chain;
	unsigned i;
	int rc = PC_EAUTH, ok;

	chain = mailstream_get_certificate_chain(im->imap->imap_stream);
	if (!chain || carray_count(chain) == 0) {
		pc_err_set(err, PC_EAUTH,
			   "imap server '%s' sent no certificate", im->host);
		goto out;
	}
	untrusted = sk_X509_new_null();
	for (i = 0; i < carray_count(chain); i++) {
		MMAPString *der = carray_get(chain, i);
		const unsigned char *p = (const unsigned char *)der->str;
		X509 *x = d2i_X509(NULL, &p, (long)der->len);

		if (!x) {
			pc_err_set(err, PC_EAUTH,
				   "imap server '%s' sent a certificate that "
				   "cannot be read",
				   im->host);
			goto out;
		}
		if (i == 0)
			leaf = x;
		else
			sk_X509_push(untrusted, x);
	}
	store = X509_STORE_new();
	ok = ca_file ? X509_STORE_load_locations(store, ca_file, NULL) :
		       X509_STORE_set_default_paths(store);
	if (ok != 1) {
		pc_err_set(err, PC_EAUTH,
			   "cannot load trusted certificates from '%s'",
			   ca_file ? ca_file : "the system store");
		goto out;
	}
	ctx = X509_STORE_CTX_new();
	if (!ctx || X509_STORE_CTX_init(ctx, store, leaf, untrusted) != 1)
		abort();
	param = X509_STORE_CTX_get0_param(ctx);
	X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_SSL_SERVER);
	if (strchr(im->host, ':') ||
	    strspn(im->host, "0123456789.") == strlen(im->host))
		X509_VERIFY_PARAM_set1_ip_asc(param, im->host);
	else
		X509_VERIFY_PARAM_set1_host(param, im->host, 0);
	if (X509_verify_cert(ctx) != 1) {
		int e = X509_STORE_CTX_get_error(ctx);

		pc_err_set(err, PC_EAUTH,
			   "imap server '%s': certificate not trusted (%s); "
			   "set ca_file to the CA that signed it",
			   im->host, X509_verify_cert_error_string(e));
		goto out;
	}
	rc = 0;
out:
	X509_STORE_CTX_free(ctx);
	X509_STORE_free(store);
	X509_free(leaf);
	sk_X509_pop_free(untrusted, X509_free);
	if (chain)
		mailstream_certificate_chain_free(chain);
	return rc;
}

static int has_capability(struct pc_imap *im, const char *name)
{
	return mailimap_has_extension(im->imap, (char *)name) ||
	       mailimap_has_authentication(im->imap, (char *)name);
}

static int refresh_capabilities(struct pc_imap *im, struct pc_err *err)
{
	struct mailimap_capability_data *cap = NULL;
	int r = mailimap_capability(im->imap, &cap);

	if (r != MAILIMAP_NO_ERROR)
		return imap_fail(im, err, r, PC_ENET, "CAPABILITY");
	mailimap_capability_data_free(cap);
	return 0;
}

static int open_session(struct pc_imap *im, const struct pc_imap_options *o,
			struct pc_err *err)
{
	unsigned port = o->port;
	int r, rc;

	switch (o->security) {
	case PC_IMAP_TLS:
		r = mailimap_ssl_connect_with_callback(
			im->imap, o->host, port ? port : 993, set_sni, im);
		if (r != MAILIMAP_NO_ERROR_NON_AUTHENTICATED &&
		    r != MAILIMAP_NO_ERROR_AUTHENTICATED)
			return pc_err_set(err, PC_ENET,
					  "cannot connect to imaps://%s:%u "
					  "(libetpan error %d)",
					  o->host, port ? port : 993, r);
		return verify_peer(im, o->ca_file, err);
	case PC_IMAP_STARTTLS:
	case PC_IMAP_PLAIN:
		if (o->security == PC_IMAP_PLAIN &&
		    !pc_imap_is_loopback(o->host))
			return pc_err_set(err, PC_EAUTH,
					  "refusing to send a password in "
					  "clear text to '%s': use imaps:// "
					  "or STARTTLS",
					  o->host);
		r = mailimap_socket_connect(im->imap, o->host,
					    port ? port : 143);
		if (r != MAILIMAP_NO_ERROR_NON_AUTHENTICATED &&
		    r != MAILIMAP_NO_ERROR_AUTHENTICATED)
			return pc_err_set(err, PC_ENET,
					  "cannot connect to imap://%s:%u "
					  "(libetpan error %d)",
					  o->host, port ? port : 143, r);
		if (o->security == PC_IMAP_PLAIN)
			return 0;
		if ((rc = refresh_capabilities(im, err)) < 0)
			return rc;
		if (!has_capability(im, "STARTTLS"))
			return pc_err_set(err, PC_EAUTH,
					  "imap server '%s' does not offer "
					  "STARTTLS; use imaps://",
					  o->host);
		r = mailimap_socket_starttls_with_callback(im->imap, set_sni,
							   im);
		if (r != MAILIMAP_NO_ERROR)
			return imap_fail(im, err, r, PC_ENET, "STARTTLS");
		return verify_peer(im, o->ca_file, err);
	}
	return pc_err_set(err, PC_EUSAGE, "unknown imap security mode");
}

int pc_imap_connect(struct pc_imap **out, const struct pc_imap_options *o,
		    struct pc_err *err)
{
	struct pc_imap *im = xcalloc(1, sizeof(*im));
	int r, rc;

	*out = NULL;
	if (!o->host || !o->user || !o->password)
		return pc_err_set(err, PC_EUSAGE,
				  "imap needs a host, a user and a password");
	im->host = xstrdup(o->host);
	im->max_message = o->max_message ? o->max_message : 64u << 20;
	im->imap = mailimap_new(0, NULL);
	if (!im->imap)
		abort();
	mailimap_set_timeout(im->imap, o->timeout ? o->timeout : 60);
	if ((rc = open_session(im, o, err)) < 0)
		goto fail;
	if ((rc = refresh_capabilities(im, err)) < 0)
		goto fail;
	if (has_capability(im, "LOGINDISABLED"))
		r = mailimap_authenticate(im->imap, "PLAIN", o->host, NULL,
					  NULL, o->user, o->user, o->password,
					  NULL);
	else
		r = mailimap_login(im->imap, o->user, o->password);
	if (r != MAILIMAP_NO_ERROR) {
		rc = imap_fail(im, err, r, PC_EAUTH, "login");
		goto fail;
	}
	/* Servers may offer more (IDLE) once logged in. */
	if ((rc = refresh_capabilities(im, err)) < 0)
		goto fail;
	*out = im;
	return 0;
fail:
	pc_imap_free(im);
	return rc;
}

int pc_imap_select(struct pc_imap *im, const char *folder,
		   uint32_t *uidvalidity, uint32_t *uidnext, struct pc_err *err)
{
	struct mailimap_selection_info *si;
	int r = mailimap_examine(im->imap, folder);

	if (r != MAILIMAP_NO_ERROR) {
		if (r == MAILIMAP_ERROR_EXAMINE)
			return pc_err_set(err, PC_ENOTFOUND,
					  "imap folder '%s' on '%s' cannot be "
					  "opened: %s",
					  folder, im->host, server_said(im));
		return imap_fail(im, err, r, PC_ENET, "EXAMINE");
	}
	si = im->imap->imap_selection_info;
	*uidvalidity = si ? si->sel_uidvalidity : 0;
	*uidnext = si ? si->sel_uidnext : 0;
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int pc_imap_uids_after(uint32_t **uids, size_t *n, struct pc_imap *im,
		       uint32_t after, struct pc_err *err)
{
	struct mailimap_search_key *key;
	clist *result = NULL;
	clistiter *it;
	uint32_t *v;
	size_t k = 0;
	int r;

	*uids = NULL;
	*n = 0;
	if (after == UINT32_MAX)
		return 0;
	key = mailimap_search_key_new_uid(
		mailimap_set_new_interval(after + 1, 0));
	r = mailimap_uid_search(im->imap, NULL, key, &result);
	mailimap_search_key_free(key);
	if (r != MAILIMAP_NO_ERROR)
		return imap_fail(im, err, r, PC_ENET, "UID SEARCH");
	v = xcalloc((size_t)clist_count(result) + 1, sizeof(*v));
	for (it = clist_begin(result); it; it = clist_next(it)) {
		uint32_t uid = *(uint32_t *)clist_content(it);

		/* "N:*" includes the highest UID even when it is below N. */
		if (uid > after)
			v[k++] = uid;
	}
	mailimap_search_result_free(result);
	qsort(v, k, sizeof(*v), cmp_u32);
	if (!k) {
		free(v);
		return 0;
	}
	*uids = v;
	*n = k;
	return 0;
}

/* CRLF to LF, in place. */
static size_t to_lf(char *s, size_t len)
{
	size_t i, j = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n')
			continue;
		s[j++] = s[i];
	}
	return j;
}

/* Called for each FETCH response with its UID and its static item of
 * the type asked for (NULL when the response has none). */
typedef void (*fetch_item_fn)(uint32_t uid,
			      const struct mailimap_msg_att_static *item,
			      void *arg);

/* One UID FETCH of set (freed) for UID and att (consumed): fn sees each
 * response's item of type want. */
static int uid_fetch(struct pc_imap *im, struct mailimap_set *set,
		     struct mailimap_fetch_att *att, int want, fetch_item_fn fn,
		     void *arg, struct pc_err *err)
{
	struct mailimap_fetch_type *ft;
	clist *result = NULL;
	clistiter *a, *b;
	int r;

	ft = mailimap_fetch_type_new_fetch_att_list_empty();
	mailimap_fetch_type_new_fetch_att_list_add(
		ft, mailimap_fetch_att_new_uid());
	mailimap_fetch_type_new_fetch_att_list_add(ft, att);
	r = mailimap_uid_fetch(im->imap, set, ft, &result);
	mailimap_set_free(set);
	mailimap_fetch_type_free(ft);
	if (r != MAILIMAP_NO_ERROR)
		return imap_fail(im, err, r, PC_ENET, "UID FETCH");
	for (a = clist_begin(result); a; a = clist_next(a)) {
		struct mailimap_msg_att *msg = clist_content(a);
		const struct mailimap_msg_att_static *got = NULL;
		uint32_t uid = 0;

		for (b = clist_begin(msg->att_list); b; b = clist_next(b)) {
			struct mailimap_msg_att_item *item = clist_content(b);
			struct mailimap_msg_att_static *st;

			if (item->att_type != MAILIMAP_MSG_ATT_ITEM_STATIC)
				continue;
			st = item->att_data.att_static;
			if (st->att_type == MAILIMAP_MSG_ATT_UID)
				uid = st->att_data.att_uid;
			else if (st->att_type == want)
				got = st;
		}
		fn(uid, got, arg);
	}
	mailimap_fetch_list_free(result);
	return 0;
}

struct body_want {
	uint32_t uid;
	int found;
	char *data;
	size_t len;
};

static void take_body(uint32_t uid, const struct mailimap_msg_att_static *item,
		      void *arg)
{
	struct body_want *w = arg;
	const struct mailimap_msg_att_body_section *sec;

	if (uid != w->uid)
		return; /* an unsolicited FETCH for another one */
	w->found = 1;
	if (!item || !(sec = item->att_data.att_body_section) ||
	    !sec->sec_body_part || w->data)
		return;
	w->data = xmalloc(sec->sec_length + 1);
	memcpy(w->data, sec->sec_body_part, sec->sec_length);
	w->data[sec->sec_length] = '\0';
	w->len = to_lf(w->data, sec->sec_length);
}

/* One UID FETCH (UID BODY.PEEK[]): 1 with the bytes in *data_out
 * (caller frees; LF line ends; NULL when the server sent no body), 0
 * when the server no longer has the message. */
static int fetch_body(struct pc_imap *im, uint32_t uid, char **data_out,
		      size_t *len_out, struct pc_err *err)
{
	struct body_want w = { .uid = uid };
	int rc;

	rc = uid_fetch(im, mailimap_set_new_single(uid),
		       mailimap_fetch_att_new_body_peek_section(
			       mailimap_section_new(NULL)),
		       MAILIMAP_MSG_ATT_BODY_SECTION, take_body, &w, err);
	if (rc < 0)
		return rc;
	*data_out = w.data;
	*len_out = w.len;
	return w.found;
}

struct sizes_want {
	uint32_t *sizes;
	const uint32_t *uids;
	size_t n;
};

static void take_size(uint32_t uid, const struct mailimap_msg_att_static *item,
		      void *arg)
{
	struct sizes_want *w = arg;
	size_t i;

	for (i = 0; i < w->n; i++)
		if (w->uids[i] == uid)
			w->sizes[i] = item ? item->att_data.att_rfc822_size : 0;
}

/* The sizes of uids[0..n) in one UID FETCH (UID RFC822.SIZE): sizes[i]
 * is UINT32_MAX for a message the server no longer has. */
static int fetch_sizes(uint32_t *sizes, struct pc_imap *im,
		       const uint32_t *uids, size_t n, struct pc_err *err)
{
	struct sizes_want w = { .sizes = sizes, .uids = uids, .n = n };
	struct mailimap_set *set = mailimap_set_new_empty();
	size_t i;

	for (i = 0; i < n; i++) {
		sizes[i] = UINT32_MAX;
		mailimap_set_add_single(set, uids[i]);
	}
	return uid_fetch(im, set, mailimap_fetch_att_new_rfc822_size(),
			 MAILIMAP_MSG_ATT_RFC822_SIZE, take_size, &w, err);
}

int pc_imap_fetch(struct pc_imap *im, const uint32_t *uids, size_t n,
		  pc_imap_msg_fn fn, void *arg, struct pc_err *err)
{
	uint32_t *sizes = xcalloc(n ? n : 1, sizeof(*sizes));
	size_t i;
	int rc;

	/* The sizes in one round trip, then each body on its own: memory
	 * holds one message at a time. */
	if ((rc = fetch_sizes(sizes, im, uids, n, err)) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		char *data = NULL;
		size_t len = 0;

		if (sizes[i] == UINT32_MAX)
			continue; /* expunged meanwhile */
		if (sizes[i] <= im->max_message) {
			rc = fetch_body(im, uids[i], &data, &len, err);
			if (rc < 0)
				goto out;
			if (rc == 0)
				continue;
		}
		rc = fn(uids[i], data, data ? len : 0, arg);
		free(data);
		if (rc < 0)
			goto out;
		if (rc > 0)
			break; /* the caller has enough */
	}
	rc = 0;
out:
	free(sizes);
	return rc;
}

int pc_imap_can_idle(const struct pc_imap *im)
{
	return mailimap_has_idle(im->imap);
}

int pc_imap_idle(struct pc_imap *im, int timeout_ms, struct pc_err *err)
{
	struct pollfd pfd;
	int r, said = 0;

	r = mailimap_idle(im->imap);
	if (r != MAILIMAP_NO_ERROR)
		return imap_fail(im, err, r, PC_ENET, "IDLE");
	/* Something may already sit in libetpan's read buffer. */
	if (im->imap->imap_stream->read_buffer_len > 0) {
		said = 1;
	} else {
		pfd.fd = mailimap_idle_get_fd(im->imap);
		pfd.events = POLLIN;
		pfd.revents = 0;
		r = poll(&pfd, 1, timeout_ms);
		if (r > 0)
			said = 1;
		else if (r < 0 && errno != EINTR)
			return pc_err_errno(err, PC_ENET, "imap IDLE on '%s'",
					    im->host);
	}
	r = mailimap_idle_done(im->imap);
	if (r != MAILIMAP_NO_ERROR)
		return imap_fail(im, err, r, PC_ENET, "DONE");
	return said;
}

int pc_imap_noop(struct pc_imap *im, struct pc_err *err)
{
	int r = mailimap_noop(im->imap);

	return r == MAILIMAP_NO_ERROR ? 0 :
					imap_fail(im, err, r, PC_ENET, "NOOP");
}

void pc_imap_free(struct pc_imap *im)
{
	if (!im)
		return;
	if (im->imap) {
		if (im->imap->imap_stream)
			mailimap_logout(im->imap);
		mailimap_free(im->imap);
	}
	free(im->host);
	free(im);
}
