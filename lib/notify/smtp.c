// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SMTP through libcurl's easy interface (a blocking call: the CLI's
 * `send` and the daemon's sender child use it). See smtp.h.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "mail/imap.h"
#include "notify/smtp.h"
#include "util/buf.h"
#include "util/banned.h"

struct upload {
	const char *p;
	size_t len, pos;
};

/* Follows the RCPT exchange in libcurl's protocol trace. */
struct rcpt_watch {
	struct pc_smtp_result *res;
	char addr[256]; /* the RCPT awaiting its reply, or "" */
	int data; /* DATA was sent: a 2xx reply now is the message's */
};

static void note_rejected(struct pc_smtp_result *res, const char *addr,
			  const char *reply, size_t reply_len)
{
	size_t used = strlen(res->rejected), room = sizeof(res->rejected);
	int n;

	res->nrejected++;
	if (used + 4 >= room)
		return;
	n = snprintf(res->rejected + used, room - used, "%s%s (%.*s)",
		     used ? "; " : "", addr, (int)reply_len, reply);
	if (n < 0 || (size_t)n >= room - used)
		memcpy(res->rejected + room - 4, "...", 4);
}

/* A recipient refused for now, to try again alone; one that does not
 * fit is still in rejected (recorded as not delivered). */
static void note_retry(struct pc_smtp_result *res, const char *addr)
{
	size_t used = strlen(res->retry), need = strlen(addr) + 1;

	if (used + need >= sizeof(res->retry))
		return;
	snprintf(res->retry + used, sizeof(res->retry) - used, "%s%s",
		 used ? " " : "", addr);
	res->nretry++;
}

static int trace_cb(CURL *curl, curl_infotype type, char *data, size_t size,
		    void *arg)
{
	struct rcpt_watch *w = arg;
	size_t n;

	(void)curl;
	if (type == CURLINFO_HEADER_OUT && size > 8 &&
	    !strncasecmp(data, "RCPT TO:", 8)) {
		const char *a = data + 8, *end = data + size;

		if (a < end && *a == '<')
			a++;
		for (n = 0; a + n < end && a[n] != '>' && a[n] != '\r' &&
			    a[n] != '\n' && n + 1 < sizeof(w->addr);
		     n++)
			w->addr[n] = a[n];
		w->addr[n] = '\0';
	} else if (type == CURLINFO_HEADER_OUT && size >= 4 &&
		   !strncasecmp(data, "DATA", 4)) {
		w->data = 1;
	} else if (type == CURLINFO_HEADER_IN && w->data && !w->addr[0] &&
		   size >= 4 && data[0] == '2' && data[3] == ' ') {
		/* The answer to the message: its queue id. */
		for (n = 0; n < size && n + 1 < sizeof(w->res->server_reply) &&
			    data[n] != '\r' && data[n] != '\n';
		     n++)
			w->res->server_reply[n] = data[n];
		w->res->server_reply[n] = '\0';
	} else if (type == CURLINFO_HEADER_IN && w->addr[0] && size >= 4 &&
		   data[3] == ' ') {
		/* The last line of the reply to that RCPT. */
		if (data[0] == '4' || data[0] == '5') {
			for (n = 0; n < size && n < 120 && data[n] != '\r' &&
				    data[n] != '\n';
			     n++)
				;
			note_rejected(w->res, w->addr, data, n);
			if (data[0] == '4')
				note_retry(w->res, w->addr);
		}
		w->addr[0] = '\0';
	}
	return 0;
}

static size_t read_cb(char *buf, size_t size, size_t nmemb, void *arg)
{
	struct upload *u = arg;
	size_t n = size * nmemb;

	if (n > u->len - u->pos)
		n = u->len - u->pos;
	memcpy(buf, u->p + u->pos, n);
	u->pos += n;
	return n;
}

/* LF to CRLF (a lone CR is kept as it is). */
static void to_crlf(struct pc_buf *out, const char *msg, size_t len)
{
	size_t i, start = 0;

	for (i = 0; i < len; i++) {
		if (msg[i] != '\n' || (i > 0 && msg[i - 1] == '\r'))
			continue;
		pc_buf_add(out, msg + start, i - start);
		pc_buf_add(out, "\r\n", 2);
		start = i + 1;
	}
	pc_buf_add(out, msg + start, len - start);
}

static int temporary_curl_error(CURLcode c)
{
	switch (c) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PARTIAL_FILE:
	case CURLE_WEIRD_SERVER_REPLY:
		return 1;
	default:
		return 0;
	}
}

int pc_smtp_check(const struct pc_smtp_options *o, struct pc_err *err)
{
	char host[256];
	const char *h, *e;
	size_t n;

	if (!o->url || strncmp(o->url, "smtp://", 7) || o->starttls || !o->user)
		return 0;
	h = o->url + 7;
	if (*h == '[') {
		h++;
		e = strchr(h, ']');
	} else {
		e = h + strcspn(h, ":/");
	}
	n = e ? (size_t)(e - h) : strlen(h);
	if (n >= sizeof(host))
		n = sizeof(host) - 1;
	memcpy(host, h, n);
	host[n] = '\0';
	if (pc_imap_is_loopback(host))
		return 0;
	return pc_err_set(err, PC_EUSAGE,
			  "refusing to send the SMTP password in clear text "
			  "to '%s': use smtps:// or STARTTLS (plain smtp:// "
			  "is for loopback relays only)",
			  host);
}

void pc_smtp_conn_close(struct pc_smtp_conn *c)
{
	if (c && c->handle) {
		curl_easy_cleanup(c->handle);
		c->handle = NULL;
	}
}

int pc_smtp_send(struct pc_smtp_result *res, struct pc_smtp_conn *conn,
		 const struct pc_smtp_options *o, const char *const *rcpts,
		 size_t n, const char *msg, size_t len, struct pc_err *err)
{
	struct curl_slist *to = NULL;
	struct pc_buf data = PC_BUF_INIT;
	char errbuf[CURL_ERROR_SIZE] = "";
	struct upload up;
	struct rcpt_watch watch;
	CURLcode c;
	CURL *curl;
	size_t i;
	long code = 0;

	memset(res, 0, sizeof(*res));
	if (!o->url || !o->from || !n)
		return pc_err_set(err, PC_EUSAGE, "cannot send: %s missing",
				  !o->url  ? "the SMTP URL is" :
				  !o->from ? "the envelope sender is" :
					     "a recipient is");
	if (pc_smtp_check(o, err) < 0)
		return PC_EUSAGE;
	if (conn && conn->handle) {
		/* Options go; the open connection stays for reuse. */
		curl = conn->handle;
		curl_easy_reset(curl);
	} else if (!(curl = curl_easy_init())) {
		return pc_err_set(err, PC_EIO, "cannot start libcurl");
	}
	if (conn)
		conn->handle = curl;
	for (i = 0; i < n; i++)
		to = curl_slist_append(to, rcpts[i]);
	to_crlf(&data, msg, len);
	up.p = data.buf;
	up.len = data.len;
	up.pos = 0;
	curl_easy_setopt(curl, CURLOPT_URL, o->url);
	curl_easy_setopt(curl, CURLOPT_MAIL_FROM, o->from);
	curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, to);
	/* One refused recipient does not fail the others (libcurl 7.88
	 * spells it with three Ls; later ones keep that name too). */
	curl_easy_setopt(curl, CURLOPT_MAIL_RCPT_ALLLOWFAILS, 1L);
	watch.res = res;
	watch.addr[0] = '\0';
	watch.data = 0;
	curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, trace_cb);
	curl_easy_setopt(curl, CURLOPT_DEBUGDATA, &watch);
	curl_easy_setopt(curl, CURLOPT_VERBOSE, 1L);
	curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_cb);
	curl_easy_setopt(curl, CURLOPT_READDATA, &up);
	curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)data.len);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT,
			 o->timeout > 0 ? o->timeout : 60L);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 15L);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	if (!strncmp(o->url, "smtp://", 7) && o->starttls)
		curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
	if (o->ca_file) {
		/* That file alone: not the system's CA directory as well
		 * (which libcurl would also read, for every connection). */
		curl_easy_setopt(curl, CURLOPT_CAINFO, o->ca_file);
		curl_easy_setopt(curl, CURLOPT_CAPATH, NULL);
	}
	if (o->user) {
		curl_easy_setopt(curl, CURLOPT_USERNAME, o->user);
		curl_easy_setopt(curl, CURLOPT_PASSWORD,
				 o->password ? o->password : "");
	}
	if (o->helo) {
		/* libcurl takes the EHLO name from the URL's path. */
		struct pc_buf url = PC_BUF_INIT;

		pc_buf_addf(&url, "%s/%s", o->url, o->helo);
		curl_easy_setopt(curl, CURLOPT_URL, url.buf);
		c = curl_easy_perform(curl);
		pc_buf_release(&url);
	} else {
		c = curl_easy_perform(curl);
	}
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
	res->code = code;
	if (c == CURLE_OK) {
		res->outcome = PC_SMTP_SENT;
	} else if (code >= 500 && code < 600) {
		res->outcome = PC_SMTP_PERMANENT;
	} else if ((code >= 400 && code < 500) || temporary_curl_error(c)) {
		res->outcome = PC_SMTP_TEMPORARY;
	} else {
		/* Login denied, bad certificate, refused TLS...: a setup
		 * problem that retrying alone will not fix, but that the
		 * admin can: keep it, as a temporary failure. */
		res->outcome = PC_SMTP_TEMPORARY;
	}
	if (c != CURLE_OK)
		/* The parts are cut so that the whole always fits. */
		snprintf(res->detail, sizeof(res->detail),
			 "%.80s%s%.140s (SMTP %ld)", curl_easy_strerror(c),
			 errbuf[0] ? ": " : "", errbuf, code);
	/* The recipient list must outlive no transfer: clear it from the
	 * handle before it is freed. */
	curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, NULL);
	curl_slist_free_all(to);
	if (!conn)
		curl_easy_cleanup(curl);
	else if (c != CURLE_OK)
		/* After a failure, start the next mail afresh. */
		pc_smtp_conn_close(conn);
	pc_buf_release(&data);
	return 0;
}
