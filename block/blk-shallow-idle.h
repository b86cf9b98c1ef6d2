/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BLK_SHALLOW_IDLE_H
#define BLK_SHALLOW_IDLE_H

#include <linux/blk-mq.h>

/* request_queue->shallow_idle_mode: off, automatic, or a limit in us. */
#define BLK_SHALLOW_IDLE_OFF	0
#define BLK_SHALLOW_IDLE_AUTO	(-1)
#define BLK_SHALLOW_IDLE_MAX_US	1000000

struct blk_shallow_idle;
struct notifier_block;
struct seq_file;

#ifdef CONFIG_BLK_SHALLOW_IDLE
void __blk_shallow_idle_complete(struct request *rq, bool redirect);
void blk_shallow_idle_exit_hctx(struct blk_mq_hw_ctx *hctx);
void blk_shallow_idle_remap(struct request_queue *q);
void blk_shallow_idle_disk_exit(struct request_queue *q);
int blk_shallow_idle_set_mode(struct request_queue *q, int mode);
int blk_shallow_idle_debugfs_show(struct blk_mq_hw_ctx *hctx,
				  struct seq_file *m);
#if IS_ENABLED(CONFIG_KUNIT)
extern unsigned int blk_shallow_idle_hold_ms;
extern void (*blk_shallow_idle_relax_hook)(struct blk_mq_hw_ctx *hctx);
extern void (*blk_shallow_idle_locked_hook)(struct request_queue *q);
int queue_shallow_idle_parse(const char *buf, int *mode);
ssize_t queue_shallow_idle_show(struct gendisk *disk, char *page);
int blk_shallow_idle_nr_cpus(struct blk_mq_hw_ctx *hctx);
unsigned long blk_shallow_idle_raises(struct blk_mq_hw_ctx *hctx);
unsigned long blk_shallow_idle_runs(struct blk_mq_hw_ctx *hctx);
int blk_shallow_idle_pm_notify(struct notifier_block *nb, unsigned long action,
			       void *data);
#endif

/**
 * blk_shallow_idle_complete - Note that a request completes.
 * @rq: the request.
 *
 * Called for every request from __blk_mq_end_request() and
 * blk_mq_end_request_batch(). With the feature off this is one
 * predictable branch on a field of @rq's hctx, which the completion has
 * just used.
 */
static inline void blk_shallow_idle_complete(struct request *rq)
{
	if (unlikely(rcu_access_pointer(rq->mq_hctx->shallow_idle)))
		__blk_shallow_idle_complete(rq, false);
}

/**
 * blk_shallow_idle_complete_redirect - Note that this CPU sends a completion.
 * @rq: the request, whose completion goes to its submitting CPU.
 *
 * Called by blk_mq_complete_send_ipi() on the CPU that took the interrupt:
 * that CPU takes part in the completion, which the submitting CPU counts
 * when it ends @rq.
 */
static inline void blk_shallow_idle_complete_redirect(struct request *rq)
{
	if (unlikely(rcu_access_pointer(rq->mq_hctx->shallow_idle)))
		__blk_shallow_idle_complete(rq, true);
}
#else
static inline void blk_shallow_idle_complete(struct request *rq) { }
static inline void blk_shallow_idle_complete_redirect(struct request *rq) { }
static inline void blk_shallow_idle_exit_hctx(struct blk_mq_hw_ctx *hctx) { }
static inline void blk_shallow_idle_remap(struct request_queue *q) { }
static inline void blk_shallow_idle_disk_exit(struct request_queue *q) { }
#endif /* CONFIG_BLK_SHALLOW_IDLE */

#endif /* BLK_SHALLOW_IDLE_H */
