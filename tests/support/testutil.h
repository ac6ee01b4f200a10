/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the unit and corpus tests. */
#ifndef PC_TESTUTIL_H
#define PC_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/buf.h"

/* Reads a whole file (gunzipping *.gz); fails the test if it cannot. */
void t_read_file(struct pc_buf *out, const char *path);
/* Path under ../shared (corpus/..., seeds/...); returns a static buffer. */
const char *t_shared(const char *rel);
/* A fresh temporary directory (mkdtemp); caller frees the string. */
char *t_mkdtemp(void);
/* Removes a directory tree made by t_mkdtemp(). */
void t_rmtree(const char *dir);

#endif
