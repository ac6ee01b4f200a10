/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Series assembly inside the store (used by ingest.c): placing a patch or
 * cover letter in a series, and keeping superseded-by links between
 * versions.
 */
#ifndef PC_STORE_SERIES_H
#define PC_STORE_SERIES_H

#include <stdint.h>

#include "store/store.h"
#include "util/err.h"

/* Series joined by date proximity must start within this window. */
#define PC_SERIES_WINDOW (3 * 86400)
/* Subject similarity at which two series are versions of one another. */
#define PC_SERIES_SIMILAR 0.7

/*
 * Places message `mid` (a patch or cover, already stored) in a series:
 * through its thread (In-Reply-To/References to a patch or cover of the
 * same version), else by same sender + version + total within
 * PC_SERIES_WINDOW, else as the anchor of a new series; adopts earlier
 * patches that were waiting for this cover; promotes a "naked" cover (an
 * untagged thread root by the same sender); updates superseded-by links.
 * *created is the change in the number of series: 1 when a new one was
 * made, less one for each series merged into it or into the one joined
 * (so it can be negative).
 */
int pc_series__place(struct pc_store *st, int64_t mid, int *created,
		     struct pc_err *err);

/*
 * The nearest patch or cover letter above message `mid` in its thread
 * (following In-Reply-To, then References), or 0 when none is stored.
 */
int pc_series__thread_target(struct pc_store *st, int64_t mid,
			     int64_t *target_out, struct pc_err *err);

#endif
