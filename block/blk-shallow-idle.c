// SPDX-License-Identifier: GPL-2.0
/*
 * CPU resume latency QoS for busy blk-mq hardware queues.
 */

/**
 * DOC: blk-mq shallow idle
 *
 * A CPU that sleeps in a deep idle state (C6 on x86) while it waits for an
 * I/O completion pays the state's exit latency, 130 to 300 us on current
 * server CPUs, on every completion: more than a fast SSD takes to complete a
 * 4 KiB read. The usual workarounds (idle=poll, processor.max_cstate=1,
 * holding /dev/cpu_dma_latency) keep every CPU out of deep idle states all
 * the time. This policy does so only for the CPUs of a hardware queue, and
 * only while that queue sees a stream of I/O.
 *
 * While it is enabled on a request queue, every hardware queue (hctx) owns one
 * %DEV_PM_QOS_RESUME_LATENCY request for each CPU in its mask, and raises
 * only the requests of the CPUs that take part in its completions:
 *
 * - **Completion.** __blk_mq_end_request() and blk_mq_end_request_batch()
 *   call blk_shallow_idle_complete() for every request, and the CPU that
 *   took the interrupt calls blk_shallow_idle_complete_redirect() when it
 *   sends the completion to another CPU: that CPU joins a running busy
 *   period but does not count as a completion of its own, so that a
 *   redirected request is one completion, not a stream of two.
 *   It notes the time (in jiffies) on the CPU it runs on and on the CPU
 *   that submitted the request (the CPU of its software queue): the CPUs
 *   that wake for the completion. While those CPUs are held that is two bit
 *   tests and, at most once per jiffy per CPU, one store and a memory
 *   barrier: no lock, no atomic operation, no iteration over CPUs or
 *   requests, no PM QoS call. Issuing a request notes nothing, so a
 *   request that is started and requeued again and again (dm-multipath with
 *   queue_if_no_path and no path) holds no CPU: only completions do.
 *
 * - **Stream detection.** A completion on CPUs that are not held compares
 *   the time with the previous such completion. Only a second completion
 *   within one hold period starts a busy period: I/O sparser than the hold
 *   period never raises anything, as it would pay two PM QoS updates, a
 *   worker wakeup and a hold period of shallow idle for every request and
 *   gain nothing (each request would still be the first of its busy
 *   period). Within a busy period, a completion on a CPU that is not held
 *   yet has the work item take that CPU in at once.
 *
 * - **Raise.** dev_pm_qos_*() take a mutex, so the requests are raised by the
 *   hctx's work item, on an unbound workqueue (any housekeeping CPU of the
 *   local pod, which may be the submitting one): to the shallow limit that
 *   cpuidle_latency_limits() gives for each CPU ("auto"), or to the explicit
 *   limit the administrator wrote, clamped to the smallest limit that still
 *   leaves a non-polling state, so that the governors never fall back to
 *   polling. The limits are computed whenever CPUs are taken in, with one
 *   look at each cpuidle driver's state table for all of them, and again
 *   once a second for the CPUs held, so cpuidle drivers that register late and
 *   CPUs that come back are followed, and so are states the user disables
 *   or enables. A CPU that gets no limit (in "auto": no cpuidle driver,
 *   nothing deeper than C1, every shallow state disabled; in either mode:
 *   no cpuidle driver, or no enabled state that does not poll) gets no
 *   request. The per-CPU resume latency is read by more than cpuidle
 *   (ti_sci_suspend() sends the largest one to firmware, the CPU power
 *   domain governor checks it), so a CPU whose idle states no limit can
 *   change is not constrained at all.
 *
 * - **Hold and relax.** A CPU is held until a hold period
 *   (%BLK_SHALLOW_IDLE_HOLD_MS rounded up to jiffies, plus one jiffy) went
 *   by without a completion on it. The work item runs when the first held
 *   CPU's hold period ends, which in a steady stream is once per hold
 *   period, compares the time noted on each held CPU with the time now,
 *   and relaxes those whose hold period has ended to
 *   %PM_QOS_RESUME_LATENCY_NO_CONSTRAINT, waking them if they are idle so
 *   that they pick a deep state now and not at their next event. The busy
 *   period ends when no CPU is held. A CPU is therefore relaxed between
 *   %BLK_SHALLOW_IDLE_HOLD_MS (rounded up to jiffies) and one jiffy more
 *   after its last completion, 8 to 12 ms at HZ=250, plus the latency of
 *   the work item: the relax waits for nothing else. Requests still in
 *   flight do not hold the limits: a request that takes longer than the
 *   hold period gains at most the deep state's exit latency over the hold
 *   period (under 4 % with C6 at 290 us), and requests that are requeued
 *   or parked (a multipath device without a path, a reconnecting NVMe-oF
 *   controller) must not hold their CPUs forever. A work item that runs
 *   late relaxes late, never early: it compares times, it does not count
 *   its runs.
 *
 * The relax pairs with the completion path by a store-buffering pair of
 * memory barriers, paid by a completion only when it notes a new jiffy: the
 * completion stores the time, then reads @held; the work item takes the
 * CPUs out of @held, then reads their times again. A completion that the
 * work item does not see has seen its CPU not held and takes the slow path
 * above: it joins the busy period if one still runs, and is otherwise the
 * first completion after a hold period without one, which is what it is.
 * A completion in the same jiffy as an earlier one on that CPU relies on
 * the earlier one's store and barrier.
 * The relax waits for no grace period and for no dispatch: not for a
 * BLOCKING tag set's SRCU readers (nbd's ->queue_rq() may sleep until a
 * connection comes back, and NVMe-oF namespaces share one tag set), and
 * not for drivers that start requests outside ->queue_rq().
 *
 * The CPUs that can be raised are those of the hctx mask. For managed
 * interrupts (NVMe and most multi-queue drivers) the completion interrupt
 * of a queue is affine to the same CPUs; an interrupt routed outside the
 * mask has no request, and only the submitting CPU is raised. A
 * single-queue device (and request-based device mapper, which is blk-mq
 * with one hctx) has every CPU in its one mask, but raises only the CPUs
 * that submit and complete its I/O, so a stream on one CPU leaves the
 * other CPUs, and with them package idle states, alone. CPUs isolated at
 * boot are not in any mask; CPUs isolated later through cpuset partitions
 * are, and are treated like the others: a resume latency request only
 * changes the idle state the CPU picks next, it sends it no interrupt and
 * runs no work on it. Polled queues are skipped: they spin anyway.
 *
 * - **System suspend.** A request still raised when the system suspends
 *   would reach readers such as ti_sci_suspend() as a firmware constraint.
 *   On %PM_SUSPEND_PREPARE (and before hibernation and restore) every hctx
 *   is relaxed at once, without waiting for its hold period, and no hctx is
 *   raised again until the system has resumed.
 *
 * The governors (menu, teo, ladder) are not changed: they read the per-CPU
 * limit through cpuidle_governor_latency_req(). The global CPU latency QoS is
 * not touched. Raises, relaxes and the freeing of an hctx's state show up
 * as block_shallow_idle_{raise,relax,free} trace events naming the disk (by
 * dev_t, as the other block events do) and the hctx, and debugfs shows the
 * state of each hctx.
 *
 * Lifetime and locking: hctx->shallow_idle is an RCU pointer; completions read
 * it in an RCU read section, and state is freed only after
 * a grace period. The queue attribute allocates and publishes new state
 * under the tag set's tag_list_lock (which excludes a remap of the
 * hardware queues and which no other queue attribute takes) but without
 * freezing the queue, so a mode change waits neither for requests in
 * flight nor for other queues of the tag set, holds the lock only for an
 * allocation, and no other setting fails or waits for it.
 * State is also replaced when the hardware queues are remapped, detached
 * when an hctx is torn down and when the disk is deleted (a SCSI queue
 * outlives its disk), all with the queue frozen. Freeing it
 * cancels the work item and removes every request, so no CPU is left
 * constrained. The work item takes cpuidle_lock, the CPU hotplug lock and
 * the PM QoS mutex, all of which are held around memory allocations
 * elsewhere, so nothing waits for it with a queue frozen: state detached
 * while the queue is frozen is freed from a work item of its own, holding a
 * queue reference until then. The requests are added, updated and removed
 * under the CPU hotplug lock, which ACPI CPU hot-remove holds around the
 * removal of the CPU device. (Xen removes CPU devices under the device
 * hotplug lock only, which this does not cover.)
 */

#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/pm_qos.h>
#include <linux/rcupdate.h>
#include <linux/sched/idle.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/suspend.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include "blk.h"
#include "blk-mq.h"
#include "blk-shallow-idle.h"

#include <trace/events/block.h>

/* Relax the requests once the hctx has been idle for this long. */
#define BLK_SHALLOW_IDLE_HOLD_MS		8

/* While raised, the limits are computed again this often. */
#define BLK_SHALLOW_IDLE_REFRESH		HZ

/* The hold period; KUnit lengthens it to test the hold without racing it. */
VISIBLE_IF_KUNIT unsigned int blk_shallow_idle_hold_ms =
	BLK_SHALLOW_IDLE_HOLD_MS;

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * KUnit's way into the relax of an hctx: called between the first look at
 * its held CPUs and taking them out of @held, where it completes a request.
 */
void (*blk_shallow_idle_relax_hook)(struct blk_mq_hw_ctx *hctx);

static void blk_shallow_idle_relax_window(struct blk_mq_hw_ctx *hctx)
{
	void (*hook)(struct blk_mq_hw_ctx *hctx);

	hook = READ_ONCE(blk_shallow_idle_relax_hook);
	if (hook)
		hook(hctx);
}

/*
 * KUnit's way into the sections that tag_list_lock serializes: called by a
 * mode change once it has read the number of hardware queues, and by a
 * remap as it starts, where it races the other of the two.
 */
void (*blk_shallow_idle_locked_hook)(struct request_queue *q);

static void blk_shallow_idle_locked_window(struct request_queue *q)
{
	void (*hook)(struct request_queue *q);

	hook = READ_ONCE(blk_shallow_idle_locked_hook);
	if (hook)
		hook(q);
}
#else
static inline void blk_shallow_idle_relax_window(struct blk_mq_hw_ctx *hctx)
{
}

static inline void blk_shallow_idle_locked_window(struct request_queue *q)
{
}
#endif

/* Bits in blk_shallow_idle->state. */
enum {
	BLK_SHALLOW_IDLE_ACTIVE,		/* busy period: work item queued or running */
};

/**
 * struct blk_shallow_idle_cpu - One CPU's resume latency request.
 * @req: the request on the CPU device; inactive until first raised.
 * @cpu: the CPU.
 * @value: the value @req holds, %PM_QOS_RESUME_LATENCY_NO_CONSTRAINT if none.
 */
struct blk_shallow_idle_cpu {
	struct dev_pm_qos_request req;
	unsigned int cpu;
	s32 value;
};

/**
 * struct blk_shallow_idle - State of the policy for one hardware queue.
 * @marks: CPUs not held that took part in a completion since @work last
 *	looked; a CPU's bit is set by completions only when clear.
 * @held: CPUs taken into the busy period (their requests hold their
 *	limits); written by @work only, read by completions.
 * @last: per CPU, jiffies of the last completion the CPU took part in
 *	while held (or of its take-in); stored by completions at most once
 *	per jiffy.
 * @last_unheld: jiffies of the last completion on CPUs not held.
 * @state: %BLK_SHALLOW_IDLE_ACTIVE.
 * @misses: completions on CPUs not held, per CPU (statistics).
 * @hctx: the hardware queue.
 * @q: its request queue, referenced until this is freed.
 * @mode: %BLK_SHALLOW_IDLE_AUTO or an explicit limit in microseconds.
 * @detached: no longer reachable from @hctx; @work must not touch @hctx.
 * @node: entry in blk_shallow_idle_list, for system suspend; under
 *	blk_shallow_idle_list_lock.
 * @dev: device of the disk, for tracing (the disk may go away first).
 * @hctx_num: index of the hctx, for tracing (@work never touches @hctx).
 * @refreshed: jiffies when the limits were last computed.
 * @work: raises, holds and relaxes the requests. Being one work item, it is
 *	the only writer of @held, @raises, @relaxes, @runs and @cpus; debugfs
 *	reads them without a lock.
 * @free_rwork: frees detached state once no completion can see it any
 *	more, after an RCU grace period.
 * @raises: busy periods, i.e. times the requests were first raised.
 * @relaxes: times a busy period ended.
 * @runs: times @work ran (statistics: once per hold period while raised).
 * @mask: the CPUs of @cpus.
 * @scratch: scratch space of @work.
 * @limits: the cpuidle limits of the CPUs @work raises, in the order of
 *	@mask; scratch space of @work.
 * @nr_cpus: number of CPUs in the hctx mask when this was attached.
 * @cpus: one request per CPU of the hctx mask, in the order of @mask.
 */
struct blk_shallow_idle {
	cpumask_var_t marks;
	cpumask_var_t held;
	unsigned long last_unheld;
	unsigned long state;
	unsigned long __percpu *misses;
	unsigned long __percpu *last;

	struct blk_mq_hw_ctx *hctx;
	struct request_queue *q;
	int mode;
	bool detached;
	struct list_head node;
	dev_t dev;
	unsigned int hctx_num;
	unsigned long refreshed;
	struct delayed_work work;
	struct rcu_work free_rwork;
	unsigned long raises;
	unsigned long relaxes;
	unsigned long runs;
	cpumask_var_t mask;
	cpumask_var_t scratch;
	struct cpuidle_cpu_latency *limits;
	unsigned int nr_cpus;
	struct blk_shallow_idle_cpu cpus[] __counted_by(nr_cpus);
};

/*
 * Raises, relaxes and frees. Unbound: it runs on a housekeeping CPU of the
 * local pod, never an isolated one, but possibly the submitting one.
 */
static struct workqueue_struct *blk_shallow_idle_wq;

/* Serializes attaching and detaching against debugfs readers. */
static DEFINE_MUTEX(blk_shallow_idle_mutex);

/*
 * All allocated state, for system suspend. A spinlock, as state is
 * allocated with queues frozen (a remap) and under tag_list_lock (a mode
 * change): nothing may wait for work items under it.
 */
static LIST_HEAD(blk_shallow_idle_list);
static DEFINE_SPINLOCK(blk_shallow_idle_list_lock);

/* The system is suspending or suspended: raise nothing. */
static bool blk_shallow_idle_suspended;

/*
 * The hold period in jiffies. A timer of N jiffies may fire after N - 1 full
 * jiffies, so one more guarantees at least %BLK_SHALLOW_IDLE_HOLD_MS.
 */
static unsigned long blk_shallow_idle_hold(void)
{
	return msecs_to_jiffies(READ_ONCE(blk_shallow_idle_hold_ms)) + 1;
}

/* The limit @mode asks for on a CPU whose cpuidle limits are @lim. */
static s32 blk_shallow_idle_limit(int mode,
				  const struct cpuidle_cpu_latency *lim)
{
	if (mode == BLK_SHALLOW_IDLE_AUTO)
		return lim->shallow > 0 ? lim->shallow :
					  PM_QOS_RESUME_LATENCY_NO_CONSTRAINT;
	/* No cpuidle driver, or only polling left: nothing to choose from. */
	if (lim->min < 0)
		return PM_QOS_RESUME_LATENCY_NO_CONSTRAINT;
	/* Explicit: never so low that the governors would poll. */
	return max(mode, lim->min);
}

/*
 * Make @c's request hold @value. The request is added the first time it
 * holds a limit, and again after a CPU hot-remove dropped it. Called with
 * the CPU hotplug lock held, which ACPI CPU hot-remove holds around the
 * removal of the CPU device.
 */
static void blk_shallow_idle_set(struct blk_shallow_idle_cpu *c, s32 value)
{
	struct device *dev;

	lockdep_assert_cpus_held();

	if (dev_pm_qos_request_active(&c->req)) {
		if (c->value != value)
			dev_pm_qos_update_request(&c->req, value);
		WRITE_ONCE(c->value, value);
		return;
	}

	WRITE_ONCE(c->value, PM_QOS_RESUME_LATENCY_NO_CONSTRAINT);
	if (value == PM_QOS_RESUME_LATENCY_NO_CONSTRAINT)
		return;
	/* Not present: no device, no request until it is. */
	dev = get_cpu_device(c->cpu);
	if (dev && dev_pm_qos_add_request(dev, &c->req,
					  DEV_PM_QOS_RESUME_LATENCY, value) >= 0)
		WRITE_ONCE(c->value, value);
}

/*
 * Set the request of every CPU in @cpus to its current limit and return the
 * smallest one, for tracing. One look at each cpuidle driver, not one per
 * CPU, and only for the CPUs in @cpus.
 */
static s32 blk_shallow_idle_apply(struct blk_shallow_idle *cl,
				  const struct cpumask *cpus)
{
	s32 limit, min = PM_QOS_RESUME_LATENCY_NO_CONSTRAINT;
	unsigned int i, j = 0;

	cpuidle_latency_limits(cpus, cl->limits);
	cpus_read_lock();
	for (i = 0; i < cl->nr_cpus; i++) {
		if (!cpumask_test_cpu(cl->cpus[i].cpu, cpus))
			continue;
		limit = blk_shallow_idle_limit(cl->mode, &cl->limits[j++]);
		blk_shallow_idle_set(&cl->cpus[i], limit);
		min = min(min, limit);
	}
	cpus_read_unlock();
	return min;
}

/*
 * Take the CPUs in @cpus into the busy period at @now: raise their requests,
 * start their hold periods, then let their completions take the fast path.
 */
static void blk_shallow_idle_take(struct blk_shallow_idle *cl,
				  const struct cpumask *cpus, unsigned long now)
{
	unsigned int cpu;
	s32 min;

	if (cpumask_empty(cpus))
		return;
	min = blk_shallow_idle_apply(cl, cpus);
	for_each_cpu(cpu, cpus)
		WRITE_ONCE(*per_cpu_ptr(cl->last, cpu), now);
	cpumask_or(cl->held, cl->held, cpus);
	trace_block_shallow_idle_raise(cl->dev, cl->hctx_num,
				       cpumask_weight(cpus), min);
}

/*
 * Move the marks into @snap and clear them. Each word is exchanged
 * atomically, so no concurrent mark is lost.
 */
static void blk_shallow_idle_take_marks(struct blk_shallow_idle *cl,
					struct cpumask *snap)
{
	unsigned long *marks = cpumask_bits(cl->marks);
	unsigned int w;

	for (w = 0; w < BITS_TO_LONGS(nr_cpu_ids); w++)
		cpumask_bits(snap)[w] = xchg(&marks[w], 0);
}

/*
 * Take in the CPUs marked since the last look: they joined the busy period,
 * or, if no CPU is held, they start one.
 */
static void blk_shallow_idle_join(struct blk_shallow_idle *cl,
				  unsigned long now)
{
	bool first = cpumask_empty(cl->held);

	blk_shallow_idle_take_marks(cl, cl->scratch);
	cpumask_andnot(cl->scratch, cl->scratch, cl->held);
	cpumask_and(cl->scratch, cl->scratch, cl->mask);
	if (cpumask_empty(cl->scratch))
		return;
	if (first)
		cl->refreshed = now;
	blk_shallow_idle_take(cl, cl->scratch, now);
	if (first)
		WRITE_ONCE(cl->raises, cl->raises + 1);
}

/*
 * Relax the requests of the CPUs in @cpus. A CPU that was held and is idle
 * now is woken, so that its governor picks a state again with no limit: an
 * idle CPU with its tick stopped would otherwise stay shallow until its
 * next event.
 */
static void blk_shallow_idle_release(struct blk_shallow_idle *cl,
				     const struct cpumask *cpus)
{
	struct blk_shallow_idle_cpu *c;
	unsigned int i, n = 0;

	cpus_read_lock();
	for (i = 0; i < cl->nr_cpus; i++) {
		c = &cl->cpus[i];
		if (!cpumask_test_cpu(c->cpu, cpus))
			continue;
		n++;
		if (c->value == PM_QOS_RESUME_LATENCY_NO_CONSTRAINT)
			continue;
		blk_shallow_idle_set(c, PM_QOS_RESUME_LATENCY_NO_CONSTRAINT);
		if (cpu_online(c->cpu))
			wake_up_if_idle(c->cpu);
	}
	cpus_read_unlock();
	if (n)
		trace_block_shallow_idle_relax(cl->dev, cl->hctx_num, n);
}

/* When the hold period of held @cpu ends. */
static unsigned long blk_shallow_idle_hold_end(struct blk_shallow_idle *cl,
					       unsigned int cpu)
{
	return READ_ONCE(*per_cpu_ptr(cl->last, cpu)) + blk_shallow_idle_hold();
}

/*
 * Relax the held CPUs whose hold period has ended at @now, and return when
 * the next one ends. A CPU is taken out of @held before its time is read a
 * second time, so that a completion noting it meanwhile either is seen
 * here and keeps it held, or sees it not held (see
 * blk_shallow_idle_note()).
 */
static unsigned long blk_shallow_idle_expire(struct blk_shallow_idle *cl,
					     unsigned long now)
{
	unsigned long end, next = now + blk_shallow_idle_hold();
	struct cpumask *expired = cl->scratch;
	unsigned int cpu;

	cpumask_clear(expired);
	for_each_cpu(cpu, cl->held) {
		end = blk_shallow_idle_hold_end(cl, cpu);
		if (!time_before(now, end))
			__cpumask_set_cpu(cpu, expired);
		else if (time_before(end, next))
			next = end;
	}
	if (cpumask_empty(expired))
		return next;

	blk_shallow_idle_relax_window(cl->hctx);
	cpumask_andnot(cl->held, cl->held, expired);
	/* Pairs with smp_mb() in blk_shallow_idle_note(). */
	smp_mb();
	for_each_cpu(cpu, expired) {
		end = blk_shallow_idle_hold_end(cl, cpu);
		if (!time_before(now, end))
			continue;
		__cpumask_clear_cpu(cpu, expired);
		cpumask_set_cpu(cpu, cl->held);
		if (time_before(end, next))
			next = end;
	}
	blk_shallow_idle_release(cl, expired);
	return next;
}

/*
 * The system is suspending: relax now, whatever was completed, and end
 * the busy period. Completions from here on find the work item relaxing
 * nothing until the system has resumed.
 */
static void blk_shallow_idle_suspend(struct blk_shallow_idle *cl)
{
	if (!cpumask_empty(cl->held)) {
		cpumask_copy(cl->scratch, cl->held);
		cpumask_clear(cl->held);
		blk_shallow_idle_release(cl, cl->scratch);
		WRITE_ONCE(cl->relaxes, cl->relaxes + 1);
	}
	cpumask_clear(cl->marks);
	clear_bit(BLK_SHALLOW_IDLE_ACTIVE, &cl->state);
}

/*
 * Start a busy period unless one is running; with @now, also have a
 * running one look at the marks at once rather than when its next hold
 * period ends. The caller has set its marks.
 */
static void blk_shallow_idle_kick(struct blk_shallow_idle *cl, bool now)
{
	/*
	 * Order the marks before reading ACTIVE; pairs with
	 * smp_mb__after_atomic() in blk_shallow_idle_end(). Only completions
	 * on CPUs not held get here.
	 */
	smp_mb();
	if (!test_bit(BLK_SHALLOW_IDLE_ACTIVE, &cl->state) &&
	    !test_and_set_bit(BLK_SHALLOW_IDLE_ACTIVE, &cl->state))
		mod_delayed_work(blk_shallow_idle_wq, &cl->work, 0);
	else if (now)
		mod_delayed_work(blk_shallow_idle_wq, &cl->work, 0);
}

/*
 * No CPU is held any more: end the busy period, unless a completion marked
 * a CPU in the meantime and may have seen ACTIVE still set.
 */
static void blk_shallow_idle_end(struct blk_shallow_idle *cl)
{
	if (READ_ONCE(cl->raises) != READ_ONCE(cl->relaxes))
		WRITE_ONCE(cl->relaxes, cl->relaxes + 1);
	clear_bit(BLK_SHALLOW_IDLE_ACTIVE, &cl->state);
	/* Pairs with smp_mb() in blk_shallow_idle_kick(). */
	smp_mb__after_atomic();
	if (!cpumask_empty(cl->marks))
		blk_shallow_idle_kick(cl, false);
}

static void blk_shallow_idle_work_fn(struct work_struct *work)
{
	struct blk_shallow_idle *cl = container_of(to_delayed_work(work),
						 struct blk_shallow_idle, work);
	unsigned long now = jiffies, next;

	/* Being freed: blk_shallow_idle_free() removes the requests. */
	if (READ_ONCE(cl->detached))
		return;

	WRITE_ONCE(cl->runs, cl->runs + 1);
	if (READ_ONCE(blk_shallow_idle_suspended)) {
		blk_shallow_idle_suspend(cl);
		return;
	}
	blk_shallow_idle_join(cl, now);
	next = blk_shallow_idle_expire(cl, now);
	if (cpumask_empty(cl->held)) {
		blk_shallow_idle_end(cl);
		return;
	}

	/* Still busy: follow drivers and CPUs that came and went. */
	if (time_after(now, cl->refreshed + BLK_SHALLOW_IDLE_REFRESH)) {
		cl->refreshed = now;
		blk_shallow_idle_apply(cl, cl->held);
	}
	queue_delayed_work(blk_shallow_idle_wq, &cl->work, next - now);
}

/*
 * Note that @cpu takes part in a completion on @cl's hctx at @now. Return
 * false if it is a CPU of the hctx that is not held: the slow path must
 * look at it.
 */
static bool blk_shallow_idle_note(struct blk_shallow_idle *cl,
				  unsigned int cpu, unsigned long now)
{
	unsigned long *last;

	if (likely(cpumask_test_cpu(cpu, cl->held))) {
		last = per_cpu_ptr(cl->last, cpu);
		if (likely(READ_ONCE(*last) == now))
			return true;
		WRITE_ONCE(*last, now);
		/* Pairs with smp_mb() in blk_shallow_idle_expire(). */
		smp_mb();
		return cpumask_test_cpu(cpu, cl->held);
	}
	/* A CPU outside the mask (an interrupt routed elsewhere) has no request. */
	return !cpumask_test_cpu(cpu, cl->mask);
}

/*
 * Take @cpu into a running busy period: mark it, and have the work item
 * look at once, the first time since the work item last looked only.
 */
static bool blk_shallow_idle_join_cpu(struct blk_shallow_idle *cl,
				      unsigned int cpu)
{
	return cpumask_test_cpu(cpu, cl->mask) &&
	       !cpumask_test_and_set_cpu(cpu, cl->marks);
}

/*
 * If a busy period is running, take @cpu and @sub into it and return true;
 * the work item looks at once if one of them was not marked yet.
 */
static bool blk_shallow_idle_join_running(struct blk_shallow_idle *cl,
					  unsigned int cpu, unsigned int sub)
{
	bool join;

	if (!test_bit(BLK_SHALLOW_IDLE_ACTIVE, &cl->state))
		return false;
	join = blk_shallow_idle_join_cpu(cl, cpu);
	if (sub != cpu && blk_shallow_idle_join_cpu(cl, sub))
		join = true;
	if (join)
		blk_shallow_idle_kick(cl, true);
	return true;
}

/*
 * Slow path of a completion at @now: @cpu or @sub is a CPU of the hctx that
 * is not held. In a busy period, it joins. Otherwise a completion that
 * follows another one within a hold period is a stream: start a busy period.
 */
static void blk_shallow_idle_unheld(struct blk_shallow_idle *cl,
				    unsigned int cpu, unsigned int sub,
				    unsigned long now)
{
	unsigned long last;

	this_cpu_inc(*cl->misses);
	if (blk_shallow_idle_join_running(cl, cpu, sub))
		return;

	last = READ_ONCE(cl->last_unheld);
	/* Concurrent completions may store their time in any order: harmless. */
	if (last != now)
		WRITE_ONCE(cl->last_unheld, now);
	if (time_before(now, last + blk_shallow_idle_hold())) {
		if (cpumask_test_cpu(cpu, cl->mask))
			cpumask_set_cpu(cpu, cl->marks);
		if (cpumask_test_cpu(sub, cl->mask))
			cpumask_set_cpu(sub, cl->marks);
		blk_shallow_idle_kick(cl, false);
	}
}

/*
 * @cpu took the interrupt of a request and sends its completion to the
 * submitting CPU, which counts it when it ends the request: @cpu joins a
 * running busy period, and starts none.
 */
static void blk_shallow_idle_redirect(struct blk_shallow_idle *cl,
				      unsigned int cpu, unsigned long now)
{
	if (unlikely(!blk_shallow_idle_note(cl, cpu, now)))
		blk_shallow_idle_join_running(cl, cpu, cpu);
}

/**
 * __blk_shallow_idle_complete - Hot path of blk_shallow_idle_complete().
 * @rq: the request being completed.
 * @redirect: this CPU took the interrupt and sends the completion to the
 *	submitting CPU, which calls this again when it ends @rq.
 *
 * Notes the time on the CPU the completion runs on and on the CPU that
 * submitted @rq (its software queue's CPU). On a held CPU that is a store
 * and a full memory barrier at most once per jiffy, which pairs with the
 * relax (see blk_shallow_idle_expire()); the state of the hctx is looked
 * at in an RCU read section, so it is not freed under the completion. No
 * lock is taken and nothing waits for a dispatch section of the tag set,
 * so a BLOCKING driver that sleeps in ->queue_rq() delays no relax.
 * Requests that are started and requeued without being completed (a
 * multipath device without a path) note nothing.
 *
 * Context: Any context.
 */
void __blk_shallow_idle_complete(struct request *rq, bool redirect)
{
	unsigned int cpu = raw_smp_processor_id(), sub = rq->mq_ctx->cpu;
	unsigned long now = READ_ONCE(jiffies);
	struct blk_shallow_idle *cl;
	bool held;

	rcu_read_lock();
	cl = rcu_dereference(rq->mq_hctx->shallow_idle);
	if (cl && redirect) {
		blk_shallow_idle_redirect(cl, cpu, now);
	} else if (cl) {
		held = blk_shallow_idle_note(cl, cpu, now);
		if (sub != cpu && !blk_shallow_idle_note(cl, sub, now))
			held = false;
		if (unlikely(!held))
			blk_shallow_idle_unheld(cl, cpu, sub, now);
	}
	rcu_read_unlock();
}

static bool blk_shallow_idle_wanted(struct blk_mq_hw_ctx *hctx)
{
	return hctx->type != HCTX_TYPE_POLL && blk_mq_hw_queue_mapped(hctx);
}

static void blk_shallow_idle_free_fn(struct work_struct *work);

/* Free the memory of @cl; it holds no request and no queue reference. */
static void blk_shallow_idle_free_mem(struct blk_shallow_idle *cl)
{
	free_percpu(cl->last);
	free_percpu(cl->misses);
	kfree(cl->limits);
	free_cpumask_var(cl->scratch);
	free_cpumask_var(cl->mask);
	free_cpumask_var(cl->held);
	free_cpumask_var(cl->marks);
	kfree(cl);
}

/*
 * Allocate the state of @hctx: one request slot per CPU of the mask, present
 * or not (a CPU that becomes present needs no new allocation).
 */
static struct blk_shallow_idle *
blk_shallow_idle_alloc(struct blk_mq_hw_ctx *hctx, int mode)
{
	unsigned int cpu, n = cpumask_weight(hctx->cpumask), i = 0;
	struct blk_shallow_idle *cl;

	cl = kzalloc_node(struct_size(cl, cpus, n), GFP_NOIO, hctx->numa_node);
	if (!cl)
		return NULL;
	cl->misses = alloc_percpu_gfp(unsigned long, GFP_NOIO);
	cl->last = alloc_percpu_gfp(unsigned long, GFP_NOIO);
	cl->limits = kcalloc_node(n, sizeof(*cl->limits), GFP_NOIO,
				  hctx->numa_node);
	if (!cl->misses || !cl->last || !cl->limits ||
	    !zalloc_cpumask_var_node(&cl->marks, GFP_NOIO, hctx->numa_node) ||
	    !zalloc_cpumask_var_node(&cl->held, GFP_NOIO, hctx->numa_node) ||
	    !zalloc_cpumask_var_node(&cl->mask, GFP_NOIO, hctx->numa_node) ||
	    !zalloc_cpumask_var_node(&cl->scratch, GFP_NOIO, hctx->numa_node) ||
	    !blk_get_queue(hctx->queue)) {
		blk_shallow_idle_free_mem(cl);
		return NULL;
	}

	cl->nr_cpus = n;
	cpumask_copy(cl->mask, hctx->cpumask);
	for_each_cpu(cpu, cl->mask) {
		if (WARN_ON_ONCE(i >= n))
			break;
		cl->cpus[i].cpu = cpu;
		cl->cpus[i].value = PM_QOS_RESUME_LATENCY_NO_CONSTRAINT;
		i++;
	}
	cl->hctx = hctx;
	cl->q = hctx->queue;
	cl->mode = mode;
	cl->dev = cl->q->disk ? disk_devt(cl->q->disk) : 0;
	cl->hctx_num = hctx->queue_num;
	/* The first completion after enabling is not taken for a stream. */
	cl->last_unheld = jiffies - blk_shallow_idle_hold();
	INIT_DELAYED_WORK(&cl->work, blk_shallow_idle_work_fn);
	INIT_RCU_WORK(&cl->free_rwork, blk_shallow_idle_free_fn);
	spin_lock(&blk_shallow_idle_list_lock);
	list_add_tail(&cl->node, &blk_shallow_idle_list);
	spin_unlock(&blk_shallow_idle_list_lock);
	return cl;
}

/*
 * Free state that no completion can reach any more: stop the work item, then
 * remove every request so that each CPU is back to no constraint. Must not
 * be called with a queue frozen (see "Lifetime" above).
 */
static void blk_shallow_idle_free(struct blk_shallow_idle *cl)
{
	unsigned int i, n = 0;

	if (!cl)
		return;

	spin_lock(&blk_shallow_idle_list_lock);
	list_del(&cl->node);
	spin_unlock(&blk_shallow_idle_list_lock);
	WRITE_ONCE(cl->detached, true);
	cancel_delayed_work_sync(&cl->work);
	cpus_read_lock();
	for (i = 0; i < cl->nr_cpus; i++) {
		if (cl->cpus[i].value != PM_QOS_RESUME_LATENCY_NO_CONSTRAINT)
			n++;
		if (dev_pm_qos_request_active(&cl->cpus[i].req))
			dev_pm_qos_remove_request(&cl->cpus[i].req);
	}
	cpus_read_unlock();
	trace_block_shallow_idle_free(cl->dev, cl->hctx_num, n);
	blk_put_queue(cl->q);
	blk_shallow_idle_free_mem(cl);
}

static void blk_shallow_idle_free_fn(struct work_struct *work)
{
	blk_shallow_idle_free(container_of(to_rcu_work(work),
					   struct blk_shallow_idle, free_rwork));
}

/*
 * Free detached state from process context, once completions that may still
 * see it have left their RCU read sections.
 */
static void blk_shallow_idle_free_later(struct blk_shallow_idle *cl)
{
	if (!cl)
		return;
	WRITE_ONCE(cl->detached, true);
	queue_rcu_work(blk_shallow_idle_wq, &cl->free_rwork);
}

/*
 * Publish @cl (or NULL) as the state of @hctx and return the state it
 * replaces, which completions may see until a grace period has elapsed.
 */
static struct blk_shallow_idle *
blk_shallow_idle_swap(struct blk_mq_hw_ctx *hctx, struct blk_shallow_idle *cl)
{
	return rcu_replace_pointer(hctx->shallow_idle, cl,
				   lockdep_is_held(&blk_shallow_idle_mutex));
}

/* blk_shallow_idle_swap() under blk_shallow_idle_mutex. */
static struct blk_shallow_idle *
blk_shallow_idle_attach(struct blk_mq_hw_ctx *hctx, struct blk_shallow_idle *cl)
{
	guard(mutex)(&blk_shallow_idle_mutex);
	return blk_shallow_idle_swap(hctx, cl);
}

/* The state of @hctx, for readers holding blk_shallow_idle_mutex. */
static inline struct blk_shallow_idle *
blk_shallow_idle_get(struct blk_mq_hw_ctx *hctx)
{
	return rcu_dereference_protected(hctx->shallow_idle,
					 lockdep_is_held(&blk_shallow_idle_mutex));
}

#if IS_ENABLED(CONFIG_KUNIT)
/* Number of CPUs the state of @hctx covers, or -1 without state. */
int blk_shallow_idle_nr_cpus(struct blk_mq_hw_ctx *hctx)
{
	struct blk_shallow_idle *cl;

	guard(mutex)(&blk_shallow_idle_mutex);
	cl = blk_shallow_idle_get(hctx);
	return cl ? cl->nr_cpus : -1;
}

/* Busy periods of @hctx so far, or 0 without state. */
unsigned long blk_shallow_idle_raises(struct blk_mq_hw_ctx *hctx)
{
	struct blk_shallow_idle *cl;

	guard(mutex)(&blk_shallow_idle_mutex);
	cl = blk_shallow_idle_get(hctx);
	return cl ? READ_ONCE(cl->raises) : 0;
}

/* Runs of the work item of @hctx, or 0 without state. */
unsigned long blk_shallow_idle_runs(struct blk_mq_hw_ctx *hctx)
{
	struct blk_shallow_idle *cl;

	guard(mutex)(&blk_shallow_idle_mutex);
	cl = blk_shallow_idle_get(hctx);
	return cl ? READ_ONCE(cl->runs) : 0;
}
#endif

/**
 * blk_shallow_idle_exit_hctx - Detach the policy's state of an hctx.
 * @hctx: hardware queue being torn down.
 *
 * The state is freed, and its requests removed, shortly afterwards from a
 * work item, after an RCU grace period.
 *
 * Context: Process context, queue frozen or not live any more. Sleeps.
 */
void blk_shallow_idle_exit_hctx(struct blk_mq_hw_ctx *hctx)
{
	blk_shallow_idle_free_later(blk_shallow_idle_attach(hctx, NULL));
}

/**
 * blk_shallow_idle_disk_exit - Disable the policy when the disk goes away.
 * @q: request queue of the disk being deleted.
 *
 * A queue that outlives its disk (SCSI, where passthrough I/O goes on
 * through sg or bsg) must not keep raising PM QoS requests once no
 * attribute is left to turn them off, nor come back with the old mode for
 * the next disk. The state is freed shortly afterwards from a work item.
 *
 * Context: Process context, from del_gendisk(): the queue frozen, its
 * attributes removed and set->update_nr_hwq_lock held for reading, so no
 * mode change and no remap runs concurrently. Sleeps.
 */
void blk_shallow_idle_disk_exit(struct request_queue *q)
{
	struct blk_mq_hw_ctx *hctx;
	unsigned long i;

	if (READ_ONCE(q->shallow_idle_mode) == BLK_SHALLOW_IDLE_OFF)
		return;
	WRITE_ONCE(q->shallow_idle_mode, BLK_SHALLOW_IDLE_OFF);
	queue_for_each_hw_ctx(q, hctx, i)
		blk_shallow_idle_exit_hctx(hctx);
}

/**
 * blk_shallow_idle_remap - Follow a change of the hardware queue mapping.
 * @q: request queue whose hctx masks were just recomputed.
 *
 * Give every mapped hctx new state for its current mask, if the feature is
 * enabled on @q. An hctx whose state cannot be allocated goes without,
 * with a warning; debugfs shows it as "state=missing". Replaced state is
 * freed shortly afterwards from a work item.
 *
 * The state starts afresh, not raised: blk_mq_update_nr_hw_queues() calls
 * this only after __blk_mq_realloc_hw_ctxs() has exited every old hctx
 * (freeing its state, which relaxes its CPUs) and set up new ones, so
 * there is no state left to carry over. A queue raised before a remap is
 * raised again by its next stream.
 *
 * Context: Process context, queue frozen, set->tag_list_lock held.
 * Sleeps.
 */
void blk_shallow_idle_remap(struct request_queue *q)
{
	struct blk_mq_hw_ctx *hctx;
	unsigned long i;

	lockdep_assert_held(&q->tag_set->tag_list_lock);
	blk_shallow_idle_locked_window(q);

	if (q->shallow_idle_mode == BLK_SHALLOW_IDLE_OFF)
		return;

	queue_for_each_hw_ctx(q, hctx, i) {
		struct blk_shallow_idle *cl = NULL;

		if (blk_shallow_idle_wanted(hctx)) {
			cl = blk_shallow_idle_alloc(hctx, q->shallow_idle_mode);
			if (!cl)
				pr_warn_ratelimited("%s: hctx%u: no memory, shallow_idle is off there\n",
						    q->disk ? q->disk->disk_name : "?",
						    hctx->queue_num);
		}
		blk_shallow_idle_free_later(blk_shallow_idle_attach(hctx, cl));
	}
}

/* Allocate the state of every hctx for @mode into @cls. */
static int blk_shallow_idle_alloc_all(struct request_queue *q, int mode,
				      struct blk_shallow_idle **cls)
{
	struct blk_mq_hw_ctx *hctx;
	unsigned int noio;
	unsigned long i;
	int ret = 0;

	if (mode == BLK_SHALLOW_IDLE_OFF)
		return 0;
	noio = memalloc_noio_save();
	queue_for_each_hw_ctx(q, hctx, i) {
		if (!blk_shallow_idle_wanted(hctx))
			continue;
		cls[i] = blk_shallow_idle_alloc(hctx, mode);
		if (!cls[i]) {
			ret = -ENOMEM;
			break;
		}
	}
	memalloc_noio_restore(noio);
	return ret;
}

/**
 * blk_shallow_idle_set_mode - Enable, change or disable the policy on a queue.
 * @q: request queue.
 * @mode: %BLK_SHALLOW_IDLE_OFF, %BLK_SHALLOW_IDLE_AUTO or a limit in
 *	microseconds (1 to %BLK_SHALLOW_IDLE_MAX_US).
 *
 * Writing the mode in force changes nothing and takes no lock. Otherwise
 * the new state of every hctx is allocated and published with
 * rcu_replace_pointer() under the tag set's tag_list_lock, which excludes
 * a remap of the hardware queues (blk_mq_update_nr_hw_queues()) and which
 * no other queue attribute takes. The queue is not frozen, so the lock is
 * held only for the allocation and the swap: the change waits for no
 * request in flight on @q or on other queues of its tag set, holds up
 * namespace scanning, removal or a controller reset for no longer than
 * that, and neither fails nor makes the scheduler or nr_requests
 * attributes fail. (Holding the queue's usage counter instead would wait
 * for a freeze in progress, and del_gendisk() starts one before it removes
 * the attributes, whose writers it waits for.) Completions see the old state
 * or the new one; the old state is freed after an RCU grace period, which
 * removes its requests before this returns. On failure nothing changes.
 *
 * Context: Process context, no block layer lock held. Sleeps.
 *
 * Return: 0 on success, -EINVAL for a bad @mode, -ENODEV if the queue is
 * going away, -ENOMEM if the state cannot be allocated.
 */
int blk_shallow_idle_set_mode(struct request_queue *q, int mode)
{
	struct blk_mq_tag_set *set = q->tag_set;
	struct blk_shallow_idle **cls;
	struct blk_mq_hw_ctx *hctx;
	unsigned long i, n;
	int ret;

	if (mode != BLK_SHALLOW_IDLE_OFF && mode != BLK_SHALLOW_IDLE_AUTO &&
	    (mode < 1 || mode > BLK_SHALLOW_IDLE_MAX_US))
		return -EINVAL;
	if (mode == READ_ONCE(q->shallow_idle_mode))
		return 0;

	mutex_lock(&set->tag_list_lock);
	if (blk_queue_dying(q)) {
		mutex_unlock(&set->tag_list_lock);
		return -ENODEV;
	}
	n = q->nr_hw_queues;
	blk_shallow_idle_locked_window(q);
	cls = kcalloc(n, sizeof(*cls), GFP_NOIO);
	ret = cls ? blk_shallow_idle_alloc_all(q, mode, cls) : -ENOMEM;
	if (!ret) {
		mutex_lock(&blk_shallow_idle_mutex);
		queue_for_each_hw_ctx(q, hctx, i)
			cls[i] = blk_shallow_idle_swap(hctx, cls[i]);
		WRITE_ONCE(q->shallow_idle_mode, mode);
		mutex_unlock(&blk_shallow_idle_mutex);
	}
	mutex_unlock(&set->tag_list_lock);

	if (!cls)
		return ret;
	/* cls[] now holds the old state, or the new one on failure. */
	if (!ret)
		synchronize_rcu();
	for (i = 0; i < n; i++)
		blk_shallow_idle_free(cls[i]);
	kfree(cls);
	return ret;
}

#ifdef CONFIG_BLK_DEBUG_FS
static void blk_shallow_idle_show_mode(struct seq_file *m, int mode)
{
	if (mode == BLK_SHALLOW_IDLE_AUTO)
		seq_puts(m, "mode=auto\n");
	else
		seq_printf(m, "mode=%d\n", mode);
}

/**
 * blk_shallow_idle_debugfs_show - Show the policy's state of an hctx.
 * @hctx: hardware queue.
 * @m: debugfs file.
 *
 * Shows the mode, whether the hctx is in a busy period, whether some of its
 * CPUs are raised and which ("held"), the counters of raises (busy
 * periods), relaxes, misses (completions on CPUs not held) and runs of its
 * work item and, per CPU, the value its request holds ("none" for no
 * constraint): for an explicit mode, the limit clamped
 * so that the CPU does not poll. An hctx that should have state and has none
 * (an allocation failed when the hardware queues were remapped) shows
 * "state=missing".
 *
 * The counters and limits are read without synchronizing with the hctx's
 * work item, so one line may be a moment older than another.
 *
 * Context: Process context; takes blk_shallow_idle_mutex.
 *
 * Return: 0.
 */
int blk_shallow_idle_debugfs_show(struct blk_mq_hw_ctx *hctx,
				  struct seq_file *m)
{
	int qmode = READ_ONCE(hctx->queue->shallow_idle_mode);
	struct blk_shallow_idle *cl;
	unsigned long misses = 0;
	unsigned int i, cpu;

	guard(mutex)(&blk_shallow_idle_mutex);
	cl = blk_shallow_idle_get(hctx);
	if (!cl) {
		if (qmode == BLK_SHALLOW_IDLE_OFF || !blk_shallow_idle_wanted(hctx)) {
			seq_puts(m, "mode=off\n");
		} else {
			blk_shallow_idle_show_mode(m, qmode);
			seq_puts(m, "state=missing\n");
		}
		return 0;
	}

	blk_shallow_idle_show_mode(m, cl->mode);
	seq_printf(m, "active=%d raised=%d held=%*pbl\n",
		   test_bit(BLK_SHALLOW_IDLE_ACTIVE, &cl->state),
		   !cpumask_empty(cl->held), cpumask_pr_args(cl->held));
	for_each_possible_cpu(cpu)
		misses += READ_ONCE(*per_cpu_ptr(cl->misses, cpu));
	seq_printf(m, "raises=%lu relaxes=%lu misses=%lu runs=%lu\n",
		   READ_ONCE(cl->raises), READ_ONCE(cl->relaxes), misses,
		   READ_ONCE(cl->runs));
	for (i = 0; i < cl->nr_cpus; i++) {
		const struct blk_shallow_idle_cpu *c = &cl->cpus[i];
		s32 value = READ_ONCE(c->value);

		if (value == PM_QOS_RESUME_LATENCY_NO_CONSTRAINT)
			seq_printf(m, "cpu%u=none\n", c->cpu);
		else
			seq_printf(m, "cpu%u=%d\n", c->cpu, value);
	}
	return 0;
}
#endif

/**
 * blk_shallow_idle_pm_notify - Relax every hctx before a system sleep.
 * @nb: the notifier block (unused).
 * @action: the PM notifier event.
 * @data: unused.
 *
 * On %PM_SUSPEND_PREPARE, %PM_HIBERNATION_PREPARE and %PM_RESTORE_PREPARE,
 * queue the work item of every hctx to run at once, and flush the
 * workqueue: each relaxes its requests and ends its busy period. Until the
 * matching POST event, no work item raises anything. No lock is held while
 * waiting, as state is allocated with queues frozen (a remap) and under
 * tag_list_lock (a mode change), and the work items take locks held around
 * memory allocations.
 *
 * Context: Process context, from the PM notifier chain; takes
 * blk_shallow_idle_list_lock and waits for the work items. Sleeps.
 *
 * Return: %NOTIFY_OK.
 */
VISIBLE_IF_KUNIT int blk_shallow_idle_pm_notify(struct notifier_block *nb,
						unsigned long action, void *data)
{
	struct blk_shallow_idle *cl;

	switch (action) {
	case PM_SUSPEND_PREPARE:
	case PM_HIBERNATION_PREPARE:
	case PM_RESTORE_PREPARE:
		WRITE_ONCE(blk_shallow_idle_suspended, true);
		/* Each run sees the flag: queueing orders the store before it. */
		spin_lock(&blk_shallow_idle_list_lock);
		list_for_each_entry(cl, &blk_shallow_idle_list, node)
			mod_delayed_work(blk_shallow_idle_wq, &cl->work, 0);
		spin_unlock(&blk_shallow_idle_list_lock);
		/* Items queued with no delay are on the queue: this waits for them. */
		flush_workqueue(blk_shallow_idle_wq);
		break;
	case PM_POST_SUSPEND:
	case PM_POST_HIBERNATION:
	case PM_POST_RESTORE:
		WRITE_ONCE(blk_shallow_idle_suspended, false);
		break;
	}
	return NOTIFY_OK;
}

static struct notifier_block blk_shallow_idle_pm_nb = {
	.notifier_call = blk_shallow_idle_pm_notify,
};

static int __init blk_shallow_idle_init(void)
{
	blk_shallow_idle_wq = alloc_workqueue("blk_shallow_idle", WQ_UNBOUND, 0);
	if (!blk_shallow_idle_wq)
		return -ENOMEM;
	return register_pm_notifier(&blk_shallow_idle_pm_nb);
}
subsys_initcall(blk_shallow_idle_init);
