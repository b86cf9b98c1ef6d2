// SPDX-License-Identifier: GPL-2.0
/*
 * CPU resume latency QoS for busy blk-mq hardware queues.
 */

/**
 * DOC: blk-mq CPU latency QoS
 *
 * A CPU that sleeps in a deep idle state (C6 on x86) while it waits for an
 * I/O completion pays the state's exit latency, 130 to 300 us on current
 * server CPUs, on every completion: more than a fast SSD takes to complete a
 * 4 KiB read. The usual workarounds (idle=poll, processor.max_cstate=1,
 * holding /dev/cpu_dma_latency) keep every CPU out of deep idle states all
 * the time. This policy does so only for the CPUs of a hardware queue, and
 * only while that queue has I/O in flight.
 *
 * While it is enabled on a request queue, every hardware queue (hctx) owns one
 * %DEV_PM_QOS_RESUME_LATENCY request for each CPU in its mask:
 *
 * - **Busy edge.** blk_mq_start_request() calls blk_mq_cpu_lat_issue(). If
 *   the hctx is already raised, that is two loads and, at most once per hold
 *   period, one store that marks the hctx as issued: no atomic operation, no
 *   lock and no iteration over CPUs or requests. Otherwise the first request
 *   of a busy period sets the hctx's ACTIVE bit and queues its work item.
 *
 * - **Raise.** dev_pm_qos_*() take a mutex, so the requests are raised by the
 *   hctx's work item in process context, once per busy period: to the limit
 *   given by cpuidle_shallow_latency_limit() for each CPU ("auto", just above
 *   C1E, or C1 where there is no C1E), or to the explicit limit the
 *   administrator wrote. The limit is computed at every raise, as cpuidle
 *   drivers register late and may change. A CPU that gets no limit gets no
 *   request. The requests raised before the work item runs are counted as
 *   misses: they may still pay one deep-state exit, as an idle CPU is not
 *   woken up to apply the new limit.
 *
 * - **Hold and relax.** The work item runs once per hold period
 *   (%BLK_MQ_CPU_LAT_HOLD_MS plus one jiffy) and takes the issued mark. Once a
 *   whole period went by without a request being issued and none is in
 *   flight, it updates the requests to %PM_QOS_RESUME_LATENCY_NO_CONSTRAINT.
 *   Counting whole periods rather than comparing time stamps keeps a busy
 *   hctx raised even when the timer runs late. The hold period
 *   keeps a steady stream of I/O with short gaps from updating the requests
 *   for every request; it is short compared to the time deep idle states need
 *   to pay off, so an idle queue lets its CPUs sleep deeply again.
 *
 * The CPUs are those of the hctx mask. For managed interrupts (NVMe and most
 * multi-queue drivers) the completion interrupt of a queue is affine to the
 * same CPUs, so the completion CPU is covered, not only the submitter. A
 * single-queue device has every CPU in its one mask; the policy then raises
 * one request per CPU once per busy period. Polled queues are skipped: they
 * spin anyway.
 *
 * The governors (menu, teo, ladder) are not changed: they read the per-CPU
 * limit through cpuidle_governor_latency_req(). The global CPU latency QoS is
 * not touched. Each update shows up as a dev_pm_qos_*_request trace event,
 * and debugfs shows the state of each hctx.
 *
 * Lifetime: the per-hctx state is attached and detached with the queue
 * frozen, when the mode changes, when hardware queues are remapped and when
 * an hctx is torn down. Freeing it cancels the work item and removes every
 * request, so no CPU is left constrained. The work item takes cpuidle_lock,
 * the CPU hotplug lock and the PM QoS mutex, all of which are held around
 * memory allocations elsewhere, so nothing waits for it with a queue frozen:
 * state detached while the queue is frozen is freed from a work item of its
 * own, holding a queue reference until then. A CPU device that is
 * hot-removed drops the request under the CPU hotplug lock, which the work
 * item holds; the request is added again once the CPU is back.
 */

#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/ctype.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/pm_qos.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "blk.h"
#include "blk-mq.h"
#include "blk-mq-cpu-latency.h"

/* Relax the requests once the hctx has been idle for this long. */
#define BLK_MQ_CPU_LAT_HOLD_MS		8

/* Bits in blk_mq_cpu_lat->state. */
enum {
	BLK_MQ_CPU_LAT_ACTIVE,		/* busy period: work item queued or running */
};

/**
 * struct blk_mq_cpu_lat_cpu - One CPU's resume latency request.
 * @req: the request on the CPU device; inactive until first raised.
 * @cpu: the CPU.
 * @value: the value @req holds, %PM_QOS_RESUME_LATENCY_NO_CONSTRAINT if none.
 */
struct blk_mq_cpu_lat_cpu {
	struct dev_pm_qos_request req;
	unsigned int cpu;
	s32 value;
};

/**
 * struct blk_mq_cpu_lat - CPU latency QoS state of one hardware queue.
 * @state: %BLK_MQ_CPU_LAT_ACTIVE.
 * @issued: requests were issued since @work last looked; set by issuers
 *	only when clear, i.e. at most once per hold period.
 * @raised: the requests hold their limits.
 * @misses: requests issued while the limits were not raised (statistics).
 * @hctx: the hardware queue.
 * @q: its request queue, referenced until this is freed.
 * @mode: %BLK_MQ_CPU_LAT_AUTO or an explicit limit in microseconds.
 * @detached: no longer reachable from @hctx; @work must not touch @hctx.
 * @work: raises, holds and relaxes the requests. Being one work item, it is
 *	the only writer of @raised, @raises, @relaxes and @cpus; debugfs reads
 *	them without a lock.
 * @free_work: frees state detached while the queue was frozen.
 * @raises: busy periods, i.e. times the requests were raised.
 * @relaxes: times the requests were relaxed.
 * @nr_cpus: number of CPUs in the hctx mask when this was attached.
 * @cpus: one request per CPU of the hctx mask.
 */
struct blk_mq_cpu_lat {
	unsigned long state;
	unsigned long issued;
	bool raised;
	unsigned long misses;

	struct blk_mq_hw_ctx *hctx;
	struct request_queue *q;
	int mode;
	bool detached;
	struct delayed_work work;
	struct work_struct free_work;
	unsigned long raises;
	unsigned long relaxes;
	unsigned int nr_cpus;
	struct blk_mq_cpu_lat_cpu cpus[] __counted_by(nr_cpus);
};

/* Serializes attaching and detaching against debugfs readers. */
static DEFINE_MUTEX(blk_mq_cpu_lat_mutex);

/*
 * The hold period in jiffies. A timer of N jiffies may fire after N - 1 full
 * jiffies, so one more guarantees at least %BLK_MQ_CPU_LAT_HOLD_MS.
 */
static unsigned long blk_mq_cpu_lat_hold(void)
{
	return msecs_to_jiffies(BLK_MQ_CPU_LAT_HOLD_MS) + 1;
}

/* The limit @mode asks for on @cpu, or no constraint. */
static s32 blk_mq_cpu_lat_limit(int mode, unsigned int cpu)
{
	s32 limit;

	if (mode > 0)
		return mode;
	limit = cpuidle_shallow_latency_limit(cpu);
	return limit > 0 ? limit : PM_QOS_RESUME_LATENCY_NO_CONSTRAINT;
}

/*
 * Make @c's request hold @value. The request is added the first time it
 * holds a limit, and again after a CPU hot-remove dropped it.
 */
static void blk_mq_cpu_lat_set(struct blk_mq_cpu_lat_cpu *c, s32 value)
{
	struct device *dev;

	if (dev_pm_qos_request_active(&c->req)) {
		if (c->value != value)
			dev_pm_qos_update_request(&c->req, value);
		WRITE_ONCE(c->value, value);
		return;
	}

	WRITE_ONCE(c->value, PM_QOS_RESUME_LATENCY_NO_CONSTRAINT);
	if (value == PM_QOS_RESUME_LATENCY_NO_CONSTRAINT)
		return;
	dev = get_cpu_device(c->cpu);
	if (dev && dev_pm_qos_add_request(dev, &c->req,
					  DEV_PM_QOS_RESUME_LATENCY, value) >= 0)
		WRITE_ONCE(c->value, value);
}

static void blk_mq_cpu_lat_raise(struct blk_mq_cpu_lat *cl)
{
	unsigned int i;

	cpus_read_lock();
	for (i = 0; i < cl->nr_cpus; i++)
		blk_mq_cpu_lat_set(&cl->cpus[i],
				   blk_mq_cpu_lat_limit(cl->mode, cl->cpus[i].cpu));
	cpus_read_unlock();
	WRITE_ONCE(cl->raised, true);
	WRITE_ONCE(cl->raises, cl->raises + 1);
}

static void blk_mq_cpu_lat_relax(struct blk_mq_cpu_lat *cl)
{
	unsigned int i;

	WRITE_ONCE(cl->raised, false);
	cpus_read_lock();
	for (i = 0; i < cl->nr_cpus; i++)
		blk_mq_cpu_lat_set(&cl->cpus[i],
				   PM_QOS_RESUME_LATENCY_NO_CONSTRAINT);
	cpus_read_unlock();
	WRITE_ONCE(cl->relaxes, cl->relaxes + 1);
}

/*
 * Whether requests are in flight on the hctx. Tags are only walked while the
 * queue is live and the state still attached: a frozen or dying queue has
 * nothing in flight, and a detached hctx may have lost its tags.
 */
static bool blk_mq_cpu_lat_inflight(struct blk_mq_cpu_lat *cl)
{
	bool busy;

	if (!blk_try_enter_queue(cl->q, false))
		return false;
	busy = !READ_ONCE(cl->detached) && blk_mq_hctx_has_requests(cl->hctx);
	blk_queue_exit(cl->q);
	return busy;
}

/* Start a busy period unless one is running. */
static void blk_mq_cpu_lat_kick(struct blk_mq_cpu_lat *cl)
{
	if (!test_bit(BLK_MQ_CPU_LAT_ACTIVE, &cl->state) &&
	    !test_and_set_bit(BLK_MQ_CPU_LAT_ACTIVE, &cl->state))
		kblockd_mod_delayed_work_on(WORK_CPU_UNBOUND, &cl->work, 0);
}

static void blk_mq_cpu_lat_work_fn(struct work_struct *work)
{
	struct blk_mq_cpu_lat *cl = container_of(to_delayed_work(work),
						 struct blk_mq_cpu_lat, work);

	/* Being freed: blk_mq_cpu_lat_free() removes the requests. */
	if (READ_ONCE(cl->detached))
		return;

	if (!cl->raised)
		blk_mq_cpu_lat_raise(cl);

	/* Hold while requests were issued in the last period or are in flight. */
	if (xchg(&cl->issued, 0) || blk_mq_cpu_lat_inflight(cl)) {
		kblockd_mod_delayed_work_on(WORK_CPU_UNBOUND, &cl->work,
					    blk_mq_cpu_lat_hold());
		return;
	}

	blk_mq_cpu_lat_relax(cl);

	/*
	 * A request issued while the requests were being relaxed saw the hctx
	 * raised and only marked it issued: start a new busy period for it.
	 */
	clear_bit(BLK_MQ_CPU_LAT_ACTIVE, &cl->state);
	/* Order clearing ACTIVE before reading @issued. */
	smp_mb__after_atomic();
	if (READ_ONCE(cl->issued))
		blk_mq_cpu_lat_kick(cl);
}

/**
 * __blk_mq_cpu_lat_issue - Hot path of blk_mq_cpu_lat_issue().
 * @cl: CPU latency QoS state of the hctx the request is issued on.
 *
 * Context: Any context, called with the queue usage counter held.
 */
void __blk_mq_cpu_lat_issue(struct blk_mq_cpu_lat *cl)
{
	if (!READ_ONCE(cl->issued))
		WRITE_ONCE(cl->issued, 1);
	if (likely(READ_ONCE(cl->raised)))
		return;

	/* Statistics only: concurrent issuers may lose an increment. */
	WRITE_ONCE(cl->misses, READ_ONCE(cl->misses) + 1);
	blk_mq_cpu_lat_kick(cl);
}

static bool blk_mq_cpu_lat_wanted(struct blk_mq_hw_ctx *hctx)
{
	return hctx->type != HCTX_TYPE_POLL && blk_mq_hw_queue_mapped(hctx);
}

static void blk_mq_cpu_lat_free_fn(struct work_struct *work);

static struct blk_mq_cpu_lat *blk_mq_cpu_lat_alloc(struct blk_mq_hw_ctx *hctx,
						   int mode, gfp_t gfp)
{
	unsigned int cpu, n = cpumask_weight(hctx->cpumask), i = 0;
	struct blk_mq_cpu_lat *cl;

	cl = kzalloc_node(struct_size(cl, cpus, n), gfp, hctx->numa_node);
	if (!cl)
		return NULL;
	if (!blk_get_queue(hctx->queue)) {
		kfree(cl);
		return NULL;
	}

	cl->nr_cpus = n;
	for_each_cpu(cpu, hctx->cpumask) {
		if (WARN_ON_ONCE(i >= n))
			break;
		cl->cpus[i].cpu = cpu;
		cl->cpus[i].value = PM_QOS_RESUME_LATENCY_NO_CONSTRAINT;
		i++;
	}
	cl->hctx = hctx;
	cl->q = hctx->queue;
	cl->mode = mode;
	INIT_DELAYED_WORK(&cl->work, blk_mq_cpu_lat_work_fn);
	INIT_WORK(&cl->free_work, blk_mq_cpu_lat_free_fn);
	return cl;
}

/*
 * Free state that no issuer can reach any more: stop the work item, then
 * remove every request so that each CPU is back to no constraint. Must not
 * be called with a queue frozen (see "Lifetime" above).
 */
static void blk_mq_cpu_lat_free(struct blk_mq_cpu_lat *cl)
{
	unsigned int i;

	if (!cl)
		return;

	WRITE_ONCE(cl->detached, true);
	cancel_delayed_work_sync(&cl->work);
	cpus_read_lock();
	for (i = 0; i < cl->nr_cpus; i++) {
		if (dev_pm_qos_request_active(&cl->cpus[i].req))
			dev_pm_qos_remove_request(&cl->cpus[i].req);
	}
	cpus_read_unlock();
	blk_put_queue(cl->q);
	kfree(cl);
}

static void blk_mq_cpu_lat_free_fn(struct work_struct *work)
{
	blk_mq_cpu_lat_free(container_of(work, struct blk_mq_cpu_lat,
					 free_work));
}

/* Free state detached while its queue is frozen, from process context. */
static void blk_mq_cpu_lat_free_later(struct blk_mq_cpu_lat *cl)
{
	if (!cl)
		return;
	WRITE_ONCE(cl->detached, true);
	schedule_work(&cl->free_work);
}

/* Whether @cl still covers exactly the CPUs of the hctx mask. */
static bool blk_mq_cpu_lat_matches(const struct blk_mq_cpu_lat *cl)
{
	unsigned int i;

	if (cl->nr_cpus != cpumask_weight(cl->hctx->cpumask))
		return false;
	for (i = 0; i < cl->nr_cpus; i++) {
		if (!cpumask_test_cpu(cl->cpus[i].cpu, cl->hctx->cpumask))
			return false;
	}
	return true;
}

/**
 * blk_mq_cpu_lat_exit_hctx - Detach the CPU latency QoS state of an hctx.
 * @hctx: hardware queue being torn down.
 *
 * The state is freed, and its requests removed, shortly afterwards from a
 * work item.
 *
 * Context: Process context, queue frozen or not live any more. Sleeps.
 */
void blk_mq_cpu_lat_exit_hctx(struct blk_mq_hw_ctx *hctx)
{
	struct blk_mq_cpu_lat *cl;

	mutex_lock(&blk_mq_cpu_lat_mutex);
	cl = hctx->cpu_lat;
	hctx->cpu_lat = NULL;
	mutex_unlock(&blk_mq_cpu_lat_mutex);
	blk_mq_cpu_lat_free_later(cl);
}

/**
 * blk_mq_cpu_lat_remap - Follow a change of the hardware queue mapping.
 * @q: request queue whose hctx masks were just recomputed.
 *
 * Give every mapped hctx state that covers its current mask, if the feature
 * is enabled on @q. An hctx whose state cannot be allocated goes without.
 * Replaced state is freed shortly afterwards from a work item.
 *
 * Context: Process context, queue frozen, set->update_nr_hwq_lock held.
 * Sleeps.
 */
void blk_mq_cpu_lat_remap(struct request_queue *q)
{
	struct blk_mq_hw_ctx *hctx;
	unsigned long i;

	if (q->cpu_lat_mode == BLK_MQ_CPU_LAT_OFF)
		return;

	queue_for_each_hw_ctx(q, hctx, i) {
		struct blk_mq_cpu_lat *old = hctx->cpu_lat, *cl = NULL;

		if (old && blk_mq_cpu_lat_matches(old))
			continue;
		if (blk_mq_cpu_lat_wanted(hctx))
			cl = blk_mq_cpu_lat_alloc(hctx, q->cpu_lat_mode, GFP_NOIO);

		mutex_lock(&blk_mq_cpu_lat_mutex);
		hctx->cpu_lat = cl;
		mutex_unlock(&blk_mq_cpu_lat_mutex);
		blk_mq_cpu_lat_free_later(old);
	}
}

/**
 * blk_mq_cpu_lat_set_mode - Enable, change or disable the policy on a queue.
 * @q: request queue.
 * @mode: %BLK_MQ_CPU_LAT_OFF, %BLK_MQ_CPU_LAT_AUTO or a limit in microseconds
 *	(1 to %BLK_MQ_CPU_LAT_MAX_US).
 *
 * The new state of every hctx is allocated first, then swapped in with the
 * queue frozen; the old state is freed once the queue is unfrozen, which
 * removes its requests before this returns. On failure nothing changes.
 *
 * Context: Process context, set->update_nr_hwq_lock held for writing.
 * Sleeps.
 *
 * Return: 0 on success, -EINVAL for a bad @mode, -ENOMEM (or the queue is
 * going away).
 */
int blk_mq_cpu_lat_set_mode(struct request_queue *q, int mode)
{
	struct blk_mq_cpu_lat **cls;
	struct blk_mq_hw_ctx *hctx;
	unsigned int memflags;
	unsigned long i;

	lockdep_assert_held_write(&q->tag_set->update_nr_hwq_lock);

	if (mode != BLK_MQ_CPU_LAT_OFF && mode != BLK_MQ_CPU_LAT_AUTO &&
	    (mode < 1 || mode > BLK_MQ_CPU_LAT_MAX_US))
		return -EINVAL;
	if (mode == q->cpu_lat_mode)
		return 0;

	cls = kcalloc(q->nr_hw_queues, sizeof(*cls), GFP_KERNEL);
	if (!cls)
		return -ENOMEM;

	if (mode != BLK_MQ_CPU_LAT_OFF) {
		queue_for_each_hw_ctx(q, hctx, i) {
			if (!blk_mq_cpu_lat_wanted(hctx))
				continue;
			cls[i] = blk_mq_cpu_lat_alloc(hctx, mode, GFP_KERNEL);
			if (!cls[i])
				goto free;
		}
	}

	memflags = blk_mq_freeze_queue(q);
	mutex_lock(&blk_mq_cpu_lat_mutex);
	queue_for_each_hw_ctx(q, hctx, i)
		swap(hctx->cpu_lat, cls[i]);
	WRITE_ONCE(q->cpu_lat_mode, mode);
	mutex_unlock(&blk_mq_cpu_lat_mutex);
	blk_mq_unfreeze_queue(q, memflags);

	/* cls[] now holds the old state. */
free:
	for (i = 0; i < q->nr_hw_queues; i++)
		blk_mq_cpu_lat_free(cls[i]);
	kfree(cls);
	return q->cpu_lat_mode == mode ? 0 : -ENOMEM;
}

/**
 * blk_mq_cpu_lat_parse - Parse a value written to "cpu_latency_qos".
 * @buf: "off", "auto", or a limit in microseconds from 1 to
 *	%BLK_MQ_CPU_LAT_MAX_US in decimal digits; one trailing newline is
 *	allowed.
 * @mode: where to store the parsed mode; untouched on error.
 *
 * Return: 0 on success, -EINVAL for anything else.
 */
int blk_mq_cpu_lat_parse(const char *buf, int *mode)
{
	unsigned int us;

	if (sysfs_streq(buf, "off")) {
		*mode = BLK_MQ_CPU_LAT_OFF;
		return 0;
	}
	if (sysfs_streq(buf, "auto")) {
		*mode = BLK_MQ_CPU_LAT_AUTO;
		return 0;
	}
	if (!isdigit(buf[0]) || kstrtouint(buf, 10, &us) ||
	    us < 1 || us > BLK_MQ_CPU_LAT_MAX_US)
		return -EINVAL;
	*mode = us;
	return 0;
}

/**
 * blk_mq_cpu_lat_show - Show the mode of "cpu_latency_qos".
 * @q: request queue.
 * @page: sysfs buffer.
 *
 * Return: bytes written: "off", "auto" or the explicit limit in microseconds.
 */
ssize_t blk_mq_cpu_lat_show(struct request_queue *q, char *page)
{
	int mode = READ_ONCE(q->cpu_lat_mode);

	if (mode == BLK_MQ_CPU_LAT_OFF)
		return sysfs_emit(page, "off\n");
	if (mode == BLK_MQ_CPU_LAT_AUTO)
		return sysfs_emit(page, "auto\n");
	return sysfs_emit(page, "%d\n", mode);
}

#ifdef CONFIG_BLK_DEBUG_FS
/**
 * blk_mq_cpu_lat_debugfs_show - Show an hctx's CPU latency QoS state.
 * @hctx: hardware queue.
 * @m: debugfs file.
 *
 * Shows the mode, whether the hctx is in a busy period and its requests are
 * raised, the counters of raises, relaxes and misses (requests issued before
 * the raise took effect) and, per CPU, the value its request holds ("none"
 * for no constraint).
 *
 * The counters and limits are read without synchronizing with the hctx's
 * work item, so one line may be a moment older than another.
 *
 * Context: Process context; takes blk_mq_cpu_lat_mutex.
 *
 * Return: 0.
 */
int blk_mq_cpu_lat_debugfs_show(struct blk_mq_hw_ctx *hctx, struct seq_file *m)
{
	struct blk_mq_cpu_lat *cl;
	unsigned int i;

	guard(mutex)(&blk_mq_cpu_lat_mutex);
	cl = hctx->cpu_lat;
	if (!cl) {
		seq_puts(m, "mode=off\n");
		return 0;
	}

	if (cl->mode == BLK_MQ_CPU_LAT_AUTO)
		seq_puts(m, "mode=auto\n");
	else
		seq_printf(m, "mode=%d\n", cl->mode);
	seq_printf(m, "active=%d raised=%d\n",
		   test_bit(BLK_MQ_CPU_LAT_ACTIVE, &cl->state),
		   READ_ONCE(cl->raised));
	seq_printf(m, "raises=%lu relaxes=%lu misses=%lu\n",
		   READ_ONCE(cl->raises), READ_ONCE(cl->relaxes),
		   READ_ONCE(cl->misses));
	for (i = 0; i < cl->nr_cpus; i++) {
		const struct blk_mq_cpu_lat_cpu *c = &cl->cpus[i];
		s32 value = READ_ONCE(c->value);

		if (value == PM_QOS_RESUME_LATENCY_NO_CONSTRAINT)
			seq_printf(m, "cpu%u=none\n", c->cpu);
		else
			seq_printf(m, "cpu%u=%d\n", c->cpu, value);
	}
	return 0;
}
#endif
