/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BLK_MQ_CPU_LATENCY_H
#define BLK_MQ_CPU_LATENCY_H

#include <linux/blk-mq.h>

/* request_queue->cpu_lat_mode: off, automatic, or an explicit limit in us. */
#define BLK_MQ_CPU_LAT_OFF	0
#define BLK_MQ_CPU_LAT_AUTO	(-1)
#define BLK_MQ_CPU_LAT_MAX_US	1000000

struct blk_mq_cpu_lat;
struct notifier_block;
struct seq_file;

#ifdef CONFIG_BLK_MQ_CPU_LATENCY
void __blk_mq_cpu_lat_complete(struct request *rq);
void blk_mq_cpu_lat_exit_hctx(struct blk_mq_hw_ctx *hctx);
void blk_mq_cpu_lat_remap(struct request_queue *q);
void blk_mq_cpu_lat_disk_exit(struct request_queue *q);
int blk_mq_cpu_lat_set_mode(struct request_queue *q, int mode);
int blk_mq_cpu_lat_parse(const char *buf, int *mode);
ssize_t blk_mq_cpu_lat_show(struct request_queue *q, char *page);
int blk_mq_cpu_lat_debugfs_show(struct blk_mq_hw_ctx *hctx, struct seq_file *m);
#if IS_ENABLED(CONFIG_KUNIT)
extern unsigned int blk_mq_cpu_lat_hold_ms;
int blk_mq_cpu_lat_nr_cpus(struct blk_mq_hw_ctx *hctx);
unsigned long blk_mq_cpu_lat_raises(struct blk_mq_hw_ctx *hctx);
unsigned long blk_mq_cpu_lat_runs(struct blk_mq_hw_ctx *hctx);
int blk_mq_cpu_lat_pm_notify(struct notifier_block *nb, unsigned long action,
			     void *data);
#endif

/**
 * blk_mq_cpu_lat_complete - Note that a request completes.
 * @rq: the request.
 *
 * Called for every request from __blk_mq_end_request(),
 * blk_mq_end_request_batch() and, on the CPU that redirects it, before a
 * completion is sent to another CPU. With the feature off this is one
 * predictable branch on a field of @rq's hctx, which the completion has
 * just used.
 */
static inline void blk_mq_cpu_lat_complete(struct request *rq)
{
	if (unlikely(rcu_access_pointer(rq->mq_hctx->cpu_lat)))
		__blk_mq_cpu_lat_complete(rq);
}
#else
static inline void blk_mq_cpu_lat_complete(struct request *rq) { }
static inline void blk_mq_cpu_lat_exit_hctx(struct blk_mq_hw_ctx *hctx) { }
static inline void blk_mq_cpu_lat_remap(struct request_queue *q) { }
static inline void blk_mq_cpu_lat_disk_exit(struct request_queue *q) { }
#endif /* CONFIG_BLK_MQ_CPU_LATENCY */

#endif /* BLK_MQ_CPU_LATENCY_H */
