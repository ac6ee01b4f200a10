// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The threads of a parallel ingest (see ingest_internal.h). One reading
 * thread splits the source into a ring of jobs, in order; worker threads
 * take the oldest job nobody has taken and parse and analyse it
 * (pc_ingest__prepare(), which touches nothing shared); the caller's
 * thread, the one writer, takes jobs back strictly in the ring's order.
 * One mutex guards the ring's counters and states; the work itself runs
 * outside it. A job belongs to the reader while FREE, to one worker while
 * WORKING, to the writer while READY.
 *
 * A thread is woken only when it waits, and the reader only once half
 * the ring is free again: a wake-up per message costs more (two context
 * switches, about 10 us here) than parsing a small message.
 *
 *   read_seq    next job the reader fills
 *   work_seq    next job a worker takes
 *   store_seq   next job the writer takes
 *   store_seq <= work_seq <= read_seq <= store_seq + nslots
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "store/ingest_internal.h"
#include "util/xalloc.h"
#include "util/banned.h"

enum { JOB_FREE, JOB_READ, JOB_WORKING, JOB_READY };

/* Jobs in the ring per worker: enough to ride out a commit's fsync. */
#define SLOTS_PER_WORKER 128
#define MAX_WORKERS 256

struct pc_ingest_pool {
	pthread_mutex_t mu;
	pthread_cond_t can_read, can_work, can_store;
	struct pc_source *src; /* the reader's alone while it runs */
	struct pc_ingest_job *ring;
	size_t nslots;
	uint64_t read_seq, work_seq, store_seq;
	size_t queued_bytes;
	int reader_done; /* nothing more will be read */
	int reader_waits, writer_waits;
	unsigned workers_wait;
	int stop; /* the writer is done: reader and workers leave */
	enum pc_raw_codec codec;
	const struct pc_raw_dict *dict; /* the writer's: set under mu */
	pthread_t reader, *workers;
	unsigned nworkers;
	int reader_started;
};

static struct pc_ingest_job *slot(struct pc_ingest_pool *p, uint64_t seq)
{
	return &p->ring[seq % p->nslots];
}

/* Reads one step of the source into a job of its own (outside the lock):
 * the message and where it was found copied, since the source reuses its
 * buffer. */
static void read_one(struct pc_ingest_pool *p, struct pc_ingest_job *j)
{
	struct pc_source_msg msg = { 0 };
	size_t wlen;

	memset(j, 0, sizeof(*j));
	j->rc = pc_source_next(p->src, &msg, &j->err);
	pc_source_progress(p->src, &j->done, &j->total);
	if (j->rc != 1 && j->rc != PC_ELIMIT)
		return;
	wlen = msg.where ? strlen(msg.where) : 0;
	j->copy = xmalloc(msg.len + wlen + 2);
	if (msg.len)
		memcpy(j->copy, msg.data, msg.len);
	j->copy[msg.len] = '\0';
	if (msg.where)
		memcpy(j->copy + msg.len + 1, msg.where, wlen + 1);
	j->msg = msg;
	j->msg.data = j->copy;
	j->msg.where = msg.where ? j->copy + msg.len + 1 : NULL;
}

static int ring_full(const struct pc_ingest_pool *p, size_t len)
{
	if (p->read_seq - p->store_seq >= p->nslots)
		return 1;
	/* Over the byte budget, unless the ring is empty: one message
	 * larger than the budget still goes through, alone. */
	return p->read_seq > p->store_seq &&
	       p->queued_bytes + len > PC_INGEST_POOL_BYTES;
}

static void *reader_main(void *arg)
{
	struct pc_ingest_pool *p = arg;
	int more = 1;

	while (more) {
		struct pc_ingest_job j;

		read_one(p, &j);
		more = j.rc == 1 || j.rc == PC_ELIMIT;
		pthread_mutex_lock(&p->mu);
		if (!p->stop && ring_full(p, j.msg.len)) {
			p->reader_waits = 1;
			while (!p->stop && p->reader_waits)
				pthread_cond_wait(&p->can_read, &p->mu);
		}
		if (p->stop) {
			pthread_mutex_unlock(&p->mu);
			free(j.copy);
			break;
		}
		j.state = JOB_READ;
		*slot(p, p->read_seq) = j;
		p->read_seq++;
		p->queued_bytes += j.msg.len;
		if (!more)
			p->reader_done = 1;
		if (p->workers_wait)
			pthread_cond_signal(&p->can_work);
		pthread_mutex_unlock(&p->mu);
	}
	pthread_mutex_lock(&p->mu);
	p->reader_done = 1;
	pthread_cond_broadcast(&p->can_work);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

static void *worker_main(void *arg)
{
	struct pc_ingest_pool *p = arg;
	struct pc_raw_encoder *enc = NULL;
	const struct pc_raw_dict *dict;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		struct pc_ingest_job *j;

		while (!p->stop && p->work_seq == p->read_seq &&
		       !p->reader_done) {
			p->workers_wait++;
			pthread_cond_wait(&p->can_work, &p->mu);
			p->workers_wait--;
		}
		if (p->stop || p->work_seq == p->read_seq)
			break;
		j = slot(p, p->work_seq++);
		j->state = JOB_WORKING;
		dict = p->dict;
		pthread_mutex_unlock(&p->mu);
		if (p->codec != PC_RAW_NONE &&
		    (!enc || pc_raw_encoder_dict(enc) != dict)) {
			pc_raw_encoder_free(enc);
			enc = pc_raw_encoder_new(p->codec, dict);
		}
		if (j->rc == 1)
			pc_ingest__prepare(&j->prep, j->msg.data, j->msg.len, 1,
					   enc);
		pthread_mutex_lock(&p->mu);
		j->state = JOB_READY;
		if (p->writer_waits && j == slot(p, p->store_seq))
			pthread_cond_signal(&p->can_store);
	}
	pthread_mutex_unlock(&p->mu);
	pc_raw_encoder_free(enc);
	return NULL;
}

void pc_ingest__pool_set_dict(struct pc_ingest_pool *p,
			      const struct pc_raw_dict *dict)
{
	pthread_mutex_lock(&p->mu);
	p->dict = dict;
	pthread_mutex_unlock(&p->mu);
}

struct pc_ingest_pool *pc_ingest__pool_start(struct pc_source *src,
					     unsigned workers,
					     enum pc_raw_codec codec,
					     const struct pc_raw_dict *dict)
{
	struct pc_ingest_pool *p = xcalloc(1, sizeof(*p));
	unsigned i;

	p->codec = codec;
	p->dict = dict;
	if (workers > MAX_WORKERS)
		workers = MAX_WORKERS;
	p->src = src;
	p->nslots = (size_t)SLOTS_PER_WORKER * (workers ? workers : 1);
	p->ring = xcalloc(p->nslots, sizeof(*p->ring));
	p->workers = xcalloc(workers ? workers : 1, sizeof(*p->workers));
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->can_read, NULL);
	pthread_cond_init(&p->can_work, NULL);
	pthread_cond_init(&p->can_store, NULL);
	for (i = 0; i < workers; i++) {
		if (pthread_create(&p->workers[i], NULL, worker_main, p))
			break;
		p->nworkers++;
	}
	if (p->nworkers &&
	    pthread_create(&p->reader, NULL, reader_main, p) == 0)
		p->reader_started = 1;
	if (!p->reader_started) {
		/* Nothing was read yet: the caller can read on its own. */
		pc_ingest__pool_stop(p);
		return NULL;
	}
	return p;
}

struct pc_ingest_job *pc_ingest__pool_next(struct pc_ingest_pool *p)
{
	struct pc_ingest_job *j;

	pthread_mutex_lock(&p->mu);
	/* The reader always ends with a job that is not a message, so a
	 * job at store_seq always comes. */
	for (;;) {
		j = slot(p, p->store_seq);
		if (p->store_seq < p->read_seq && j->state == JOB_READY)
			break;
		p->writer_waits = 1;
		pthread_cond_wait(&p->can_store, &p->mu);
		p->writer_waits = 0;
	}
	pthread_mutex_unlock(&p->mu);
	return j;
}

static void job_release(struct pc_ingest_job *j)
{
	pc_ingest__prepared_release(&j->prep);
	free(j->copy);
	memset(j, 0, sizeof(*j));
}

void pc_ingest__pool_done(struct pc_ingest_pool *p, struct pc_ingest_job *j)
{
	size_t len = j->msg.len;

	job_release(j);
	pthread_mutex_lock(&p->mu);
	p->store_seq++;
	p->queued_bytes -= len;
	if (p->reader_waits && p->read_seq - p->store_seq <= p->nslots / 2 &&
	    p->queued_bytes <= PC_INGEST_POOL_BYTES / 2) {
		p->reader_waits = 0;
		pthread_cond_signal(&p->can_read);
	}
	pthread_mutex_unlock(&p->mu);
}

void pc_ingest__pool_stop(struct pc_ingest_pool *p)
{
	uint64_t seq;
	unsigned i;

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = 1;
	p->reader_waits = 0;
	pthread_cond_broadcast(&p->can_read);
	pthread_cond_broadcast(&p->can_work);
	pthread_mutex_unlock(&p->mu);
	if (p->reader_started)
		pthread_join(p->reader, NULL);
	for (i = 0; i < p->nworkers; i++)
		pthread_join(p->workers[i], NULL);
	/* Alone now: free what was read and not stored. */
	for (seq = p->store_seq; seq < p->read_seq; seq++)
		job_release(slot(p, seq));
	pthread_cond_destroy(&p->can_store);
	pthread_cond_destroy(&p->can_work);
	pthread_cond_destroy(&p->can_read);
	pthread_mutex_destroy(&p->mu);
	free(p->workers);
	free(p->ring);
	free(p);
}
