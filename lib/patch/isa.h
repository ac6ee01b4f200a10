/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a posting says of the specification it implements: a draft, not
 * yet frozen or ratified. RISC-V's profile (patch-acceptance.rst) takes
 * code for an instruction set extension only once its specification is
 * "Frozen" or "Ratified"; a series that says its extension is a draft
 * is not one its maintainers will apply, and no reminder is owed for it
 * (lib/sla/state.c, with the profile's isa_extensions = ratified).
 *
 * Read from the author's own words (the subject, a patch's commit
 * message, a cover letter; quoted lines are skipped), one sentence at a
 * time. A sentence says "draft" when it names a draft specification,
 * extension or version ("based on the draft v0.4 of the Zjpm spec"), or
 * says the specification is not yet ratified or frozen ("Ssnpm is not
 * ratified yet", "unratified"); a sentence that says it now is ("has
 * been ratified", "no longer a draft") or speaks of the past ("had yet
 * to be ratified") is not.
 */
#ifndef PC_PATCH_ISA_H
#define PC_PATCH_ISA_H

#include <stddef.h>

/* 1 when some sentence of (text, len) says the specification it
 * implements is a draft, else 0. */
int pc_isa_draft(const char *text, size_t len);

#endif
