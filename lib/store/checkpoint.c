// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bulk checkpointer (see pc_store_bulk()): a thread with its own
 * connection copies the WAL into the database while the writer goes on
 * writing. SQLite lets a checkpoint run beside a writer in WAL mode; done
 * by the writer itself (SQLite's automatic checkpoint), it was about 15%
 * of the writer's time in a bulk ingest, the one thread that bounds the
 * ingest rate. The writer's WAL hook wakes the thread after a commit that
 * leaves more than CKPT_PAGES frames in the WAL.
 *
 * SQLite starts the WAL over only when a write transaction begins with
 * every frame already copied, which a checkpoint running beside a busy
 * writer never achieves. So at CKPT_INLINE_FACTOR times that the writer checkpoints
 * itself, between two transactions, as SQLite would: most frames are
 * copied by then and it copies only the rest, and the WAL starts over.
 */
#include <pthread.h>
#include <stdlib.h>

#include "store/store_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* 8192 pages of 8 KiB: 64 MiB of WAL, which stays in the page cache. */
#define CKPT_PAGES 8192
#define CKPT_INLINE_FACTOR 3

struct pc_store__ckpt {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t wake;
	sqlite3 *db; /* owned: the checkpointer's connection */
	int want, stop;
	int pages; /* frames in the WAL that wake the thread */
};

static void *ckpt_main(void *arg)
{
	struct pc_store__ckpt *c = arg;

	pthread_mutex_lock(&c->mu);
	for (;;) {
		while (!c->want && !c->stop)
			pthread_cond_wait(&c->wake, &c->mu);
		if (c->stop)
			break;
		c->want = 0;
		pthread_mutex_unlock(&c->mu);
		/* PASSIVE: copies what no reader still needs, never waits;
		 * SQLITE_BUSY (another checkpoint running) is no error. */
		sqlite3_wal_checkpoint_v2(
			c->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
		pthread_mutex_lock(&c->mu);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

static int wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
	struct pc_store__ckpt *c = arg;

	if (frames >= CKPT_INLINE_FACTOR * c->pages) {
		sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE,
					  NULL, NULL);
		return SQLITE_OK;
	}
	if (frames >= c->pages) {
		pthread_mutex_lock(&c->mu);
		c->want = 1;
		pthread_cond_signal(&c->wake);
		pthread_mutex_unlock(&c->mu);
	}
	return SQLITE_OK;
}

int pc_store__ckpt_start(struct pc_store *st)
{
	struct pc_store__ckpt *c;

	if (st->ckpt)
		return 0;
	c = xcalloc(1, sizeof(*c));
	c->pages = st->ckpt_pages ? (int)st->ckpt_pages : CKPT_PAGES;
	if (sqlite3_open_v2(st->path, &c->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		sqlite3_close(c->db);
		free(c);
		return -1;
	}
	sqlite3_busy_timeout(c->db, PC_STORE__BUSY_MS);
	/* A connection learns that the database is in WAL mode when it
	 * first reads it; until then a checkpoint does nothing. */
	sqlite3_exec(c->db, "SELECT 1 FROM sqlite_schema LIMIT 1", NULL, NULL,
		     NULL);
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->wake, NULL);
	if (pthread_create(&c->thread, NULL, ckpt_main, c)) {
		pthread_cond_destroy(&c->wake);
		pthread_mutex_destroy(&c->mu);
		sqlite3_close(c->db);
		free(c);
		return -1;
	}
	st->ckpt = c;
	sqlite3_wal_hook(st->db, wal_hook, c);
	return 0;
}

void pc_store__ckpt_stop(struct pc_store *st)
{
	struct pc_store__ckpt *c = st->ckpt;

	if (!c)
		return;
	/* Back to no hook; the caller sets SQLite's automatic one. */
	sqlite3_wal_hook(st->db, NULL, NULL);
	pthread_mutex_lock(&c->mu);
	c->stop = 1;
	pthread_cond_signal(&c->wake);
	pthread_mutex_unlock(&c->mu);
	pthread_join(c->thread, NULL);
	pthread_cond_destroy(&c->wake);
	pthread_mutex_destroy(&c->mu);
	sqlite3_close(c->db);
	free(c);
	st->ckpt = NULL;
}
