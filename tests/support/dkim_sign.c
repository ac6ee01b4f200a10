// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pc-dkim-sign: signs a mail for the tests, through libopendkim
 * (lib/mail/dkim.h): rsa-sha256, relaxed/relaxed. Reads the mail on
 * standard input, writes it with its DKIM-Signature first.
 *
 *   pc-dkim-sign KEY.pem SELECTOR DOMAIN < mail > signed
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mail/dkim.h"
#include "util/buf.h"
#include "util/file.h"

int main(int argc, char **argv)
{
	struct pc_err err = { 0 };
	struct pc_dkim *d = NULL;
	struct pc_buf mail = PC_BUF_INIT, key = PC_BUF_INIT;
	char *sig = NULL, chunk[65536];
	size_t n;

	if (argc != 4) {
		fprintf(stderr, "usage: %s KEY.pem SELECTOR DOMAIN < mail\n",
			argv[0]);
		return 64;
	}
	if (pc_read_file(&key, argv[1], 1 << 20, 0, NULL, &err) < 0 ||
	    pc_dkim_new(&d, NULL, &err) < 0) {
		fprintf(stderr, "%s: %s\n", argv[0], err.msg);
		return 1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
		pc_buf_add(&mail, chunk, n);
	if (pc_dkim_sign(&sig, d, mail.buf, mail.len, key.buf, argv[2], argv[3],
			 (int64_t)time(NULL), &err) < 0) {
		fprintf(stderr, "%s: %s\n", argv[0], err.msg);
		return 1;
	}
	fputs(sig, stdout);
	fwrite(mail.buf, 1, mail.len, stdout);
	free(sig);
	pc_buf_release(&key);
	pc_buf_release(&mail);
	pc_dkim_free(d);
	return 0;
}
