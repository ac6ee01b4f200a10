/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every harness shares: libFuzzer's entry point, declared (the
 * project builds with -Wmissing-prototypes), and FUZZ_CHECK(), an
 * invariant check that stays on whatever NDEBUG says and reports the
 * broken condition before abort() hands the input to libFuzzer.
 */
#ifndef PC_FUZZ_H
#define PC_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                 \
	do {                                                             \
		if (!(cond)) {                                           \
			fprintf(stderr, "%s:%d: invariant broken: %s\n", \
				__FILE__, __LINE__, #cond);              \
			abort();                                         \
		}                                                        \
	} while (0)

#endif
