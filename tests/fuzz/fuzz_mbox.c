// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzzes the mbox splitter (lib/mail/source.h). pc_source_open() takes a
 * path, so each input is written to a memfd and opened through
 * /proc/self/fd. The first two bytes of an input are options, the rest is
 * the file:
 *   byte 0, bits 0-1: mbox format (auto, mboxo, mboxrd, auto);
 *   byte 0, bits 2-3: source kind (auto, mbox, one message, auto);
 *   byte 0, bits 4-7: n, read size 2^(n-1) bytes (0: the default);
 *   byte 1: n, largest message 64 * n bytes (0: the default).
 * Every message is read to the end of the source; a message may come
 * back only if it is within the limit, and reading must make progress.
 */
#define _GNU_SOURCE /* memfd_create() */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "mail/source.h"

static int write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum pc_mbox_format formats[] = {
		PC_MBOX_AUTO, PC_MBOX_MBOXO, PC_MBOX_MBOXRD, PC_MBOX_AUTO
	};
	static const enum pc_source_kind kinds[] = { PC_SOURCE_AUTO,
						     PC_SOURCE_MBOX,
						     PC_SOURCE_MESSAGE,
						     PC_SOURCE_AUTO };
	struct pc_source_options opt = PC_SOURCE_OPTIONS_INIT;
	struct pc_source *src = NULL;
	struct pc_source_msg msg;
	struct pc_err err = { 0 };
	uint64_t ordinal = 0, calls = 0;
	char path[64];
	int fd, rc;

	if (size < 2)
		return 0;
	opt.mbox_format = formats[data[0] & 3];
	opt.kind = kinds[(data[0] >> 2) & 3];
	opt.read_size = data[0] >> 4 ? 1u << ((data[0] >> 4) - 1) : 0;
	opt.read_seed = (unsigned)size;
	if (data[1])
		opt.max_message = 64u * data[1];

	fd = memfd_create("fuzz-mbox", MFD_CLOEXEC);
	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(write_all(fd, data + 2, size - 2) == 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rc = pc_source_open(&src, path, &opt, &err);
	close(fd);
	if (rc < 0) {
		FUZZ_CHECK(err.code == rc && err.msg[0]);
		return 0;
	}
	for (;;) {
		rc = pc_source_next(src, &msg, &err);
		/* Each message, even a skipped one, takes at least a byte. */
		FUZZ_CHECK(++calls <= size + 2);
		if (rc == 0)
			break;
		if (rc == PC_ELIMIT)
			continue;
		if (rc < 0) {
			FUZZ_CHECK(err.code == rc && err.msg[0]);
			break;
		}
		FUZZ_CHECK(rc == 1);
		FUZZ_CHECK(msg.len <= opt.max_message);
		FUZZ_CHECK(msg.data && msg.where);
		FUZZ_CHECK(msg.ordinal > ordinal);
		ordinal = msg.ordinal;
	}
	pc_source_free(src);
	return 0;
}
