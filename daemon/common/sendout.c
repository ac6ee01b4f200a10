// SPDX-License-Identifier: GPL-2.0-or-later
/* Sending the outbox's due mail. See sendout.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sendout.h"
#include "notify/deliver.h"
#include "log.h"
#include "store/outbox.h"
#include "util/buf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* Reads "user:password" from path into user/pass (caller frees). */
int sendout_credentials(const char *path, char **user, char **pass)
{
	struct stat st;
	char line[512], *colon;
	FILE *f;
	size_t n;

	if (!(f = fopen(path, "r"))) {
		log_warnx("send: cannot open credentials '%s': %s", path,
			  strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) == 0 && (st.st_mode & 077))
		log_warnx("send: credentials file '%s' is readable by others: "
			  "chmod 600 it",
			  path);
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		log_warnx("send: credentials file '%s' is empty: write "
			  "'user:password' in it",
			  path);
		return -1;
	}
	fclose(f);
	n = strcspn(line, "\r\n");
	line[n] = '\0';
	if (!(colon = strchr(line, ':'))) {
		log_warnx("send: credentials file '%s': expected "
			  "'user:password' on its first line",
			  path);
		return -1;
	}
	*colon = '\0';
	*user = xstrdup(line);
	*pass = xstrdup(colon + 1);
	memset(line, 0, sizeof(line));
	return 0;
}

/* Gives a claim back after a local failure (nothing was sent). */
static void release(struct sendout *sd, int64_t id)
{
	struct pc_err err = { 0 };

	if (pc_store_begin(sd->st, &err) < 0 ||
	    pc_outbox_unclaim(sd->st, id, sd->who, &err) < 0 ||
	    pc_store_commit(sd->st, &err) < 0) {
		pc_store_rollback(sd->st);
		log_warnx("send: %s", err.msg);
	}
}

static int send_one(const struct pc_outbox_item *it, void *arg)
{
	struct sendout *sd = arg;
	struct pc_smtp_result res;
	struct pc_err err = { 0 };
	const char **rcpts = NULL;
	char *r;
	size_t n;
	int rc;

	if (sd->dry_run) {
		printf("=== outbox %lld: %s, to %s\n", (long long)it->id,
		       it->action, it->recipients);
		fwrite(it->message, 1, it->message_len, stdout);
		if (it->message_len && it->message[it->message_len - 1] != '\n')
			putchar('\n');
		sd->sent++;
		return 0;
	}
	/* Claimed first, in its own transaction: another sender (a second
	 * `patchclock send`, a daemon's sender) skips it. */
	if (pc_store_begin(sd->st, &err) < 0)
		goto db_fail;
	if ((rc = pc_outbox_claim(sd->st, it->id, sd->who, (int64_t)time(NULL),
				  SENDOUT_LEASE, &err)) < 0 ||
	    pc_store_commit(sd->st, &err) < 0)
		goto db_fail;
	if (rc == 0) {
		log_debug("send: %s %s: another sender has it", it->action,
			  it->message_id);
		sd->skipped++;
		return 0;
	}
	if (it->sending_at) {
		/* Its sender stopped while sending it: the server may have
		 * taken it before the "sent" mark. Sent again (a lost
		 * reminder is worse than a twin), and said. */
		char note[200];

		snprintf(note, sizeof(note),
			 "a sender stopped while sending it (at %lld): it may "
			 "have been delivered before this attempt",
			 (long long)it->sending_at);
		log_warnx("send: %s %s to %s: %s; the server's log shows "
			  "whether it took it",
			  it->action, it->message_id, it->recipients, note);
		if (pc_store_begin(sd->st, &err) < 0 ||
		    pc_outbox_in_doubt(sd->st, it->id, note, &err) < 0 ||
		    pc_store_commit(sd->st, &err) < 0)
			goto db_fail;
		sd->in_doubt++;
	}
	r = xstrdup(it->recipients);
	n = pc_deliver_recipients(r, &rcpts);
	rc = pc_smtp_send(&res, &sd->conn, &sd->o, rcpts, n, it->message,
			  it->message_len, &err);
	free(rcpts);
	free(r);
	if (rc < 0) {
		log_warnx("send: %s", err.msg);
		release(sd, it->id);
		return rc;
	}
	if (pc_deliver_record(sd->st, it, &res, sd->now, &err) < 0)
		goto db_fail;
	switch (res.outcome) {
	case PC_SMTP_SENT:
		sd->sent++;
		if (res.nrejected) {
			sd->partial++;
			log_warnx("send: %s %s to %s: sent, but the server "
				  "refused %u recipient(s): %s%s%s%s",
				  it->action, it->message_id, it->recipients,
				  res.nrejected, res.rejected,
				  res.nretry ? "; will retry " : "",
				  res.nretry ? res.retry : "",
				  res.nretry ? " alone" : "");
		} else {
			log_info("send: %s %s to %s: sent", it->action,
				 it->message_id, it->recipients);
		}
		break;
	case PC_SMTP_TEMPORARY:
		sd->retry++;
		log_warnx("send: %s %s to %s: %s; will retry", it->action,
			  it->message_id, it->recipients, res.detail);
		break;
	case PC_SMTP_PERMANENT:
		sd->failed++;
		log_warnx("send: %s %s to %s: refused for good: %s", it->action,
			  it->message_id, it->recipients, res.detail);
		break;
	}
	/* A server that is down stays down for this run. */
	return res.outcome == PC_SMTP_TEMPORARY && res.code == 0 ? 1 : 0;
db_fail:
	log_warnx("send: %s", err.msg);
	pc_store_rollback(sd->st);
	sd->db_error = 1;
	return -1;
}

int sendout_run(struct sendout *sd, struct pc_err *err)
{
	char host[256] = "";
	int rc;

	if (!sd->who[0]) {
		gethostname(host, sizeof(host) - 1);
		snprintf(sd->who, sizeof(sd->who), "%.200s:%ld", host,
			 (long)getpid());
	}
	rc = pc_outbox_list(sd->st, sd->now, 0, send_one, sd, err);
	pc_smtp_conn_close(&sd->conn);
	return rc;
}
