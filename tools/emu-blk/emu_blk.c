// SPDX-License-Identifier: GPL-2.0
/*
 * emu_blk - an emulated storage device for the deterministic benchmark of
 * the shallow_idle series (test only).
 *
 * A request completes a set device latency after ->queue_rq(), and the
 * completion reaches the submitting CPU by an interrupt that the idle
 * governor of that CPU cannot foresee, as an NVMe completion does:
 *
 *  - ->queue_rq() stamps the deadline and rings a doorbell: an IPI to the
 *    controller CPU (smp_call_function_single_async(); the submitting CPU
 *    arms no timer, so its governor sees no event for the completion);
 *  - on the controller CPU, in hard interrupt context only, the doorbell
 *    sorts the request into the pending list and a pinned hrtimer fires at
 *    the earliest deadline;
 *  - the timer calls blk_mq_complete_request(); the queues are
 *    QUEUE_FLAG_SAME_FORCE (rq_affinity 2), so the completion runs on the
 *    submitting CPU, sent there by an IPI.
 *
 * null_blk does not do this: with irqmode=2 its completion timer is armed
 * on the submitting CPU (the governor sees it as the next timer event) and
 * irqmode=0/1 complete at once.
 *
 * The controller CPU should run nothing else and, under emu_cstates, be its
 * skip_cpu: it then idles in HLT and pays no emulated exit latency, so that
 * under QEMU -icount (one host thread runs the vCPUs in turns) it adds only
 * its handlers to the guest time of the others. Their time is counted in
 * the debugfs file emu_blk/stats (ctl_ns), beside how late the completions
 * were (late_*_ns: timer slack plus the controller's own work).
 *
 * Reads return zeroes and writes are dropped (no backing store), unless
 * store=Y: each disk then keeps its data in memory (size_mb, allocated at
 * load), so that a file system can live on it. The copy is made in
 * ->queue_rq(), before the deadline is stamped (a 4 KiB copy adds its
 * time to the latency). write_cache=Y reports a volatile write cache, so that fsync()
 * and a journal commit send cache flushes (REQ_OP_FLUSH, which completes
 * after the device latency like any request; FUA is emulated by the block
 * layer with a flush after the write).
 *
 * Parameters (read-only unless marked):
 *   devices=1          disks emublk0 .. emublkN-1 (1-16), one tag set shared
 *                      by all of them, as the namespaces of one controller
 *   queues=0           hardware queues: 0 one per CPU (NVMe-like), 1 a single
 *                      queue for every CPU (AHCI-like), N: N queues
 *   depth=64           tags per hardware queue
 *   latency_us=20      device latency (0-1000000), writable
 *   tail_us=0          latency of the tail requests (0: no tail), writable
 *   tail_permille=0    share of tail requests in 1/1000 (0-1000), writable;
 *                      which requests are in the tail is a fixed function of
 *                      the request's sequence number on its disk
 *   controller=-1      controller CPU (-1: the highest online CPU)
 *   size_mb=1024       capacity of each disk
 *   blocking=N         BLK_MQ_F_BLOCKING tag set
 *   stall_ms=0         with blocking=Y, ->queue_rq() sleeps this long on
 *                      emublk0 (a dispatch that waits, as nbd's reconnect
 *                      wait does), writable
 *   store=N            keep the data in memory (size_mb <= 512 per disk)
 *   write_cache=N      report a volatile write cache (flushes are sent)
 *
 * This module is a test tool. It is never part of the kernel series.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>

#define EMU_MAX_DEVICES		16
#define EMU_MAX_LATENCY_US	1000000
#define EMU_MAX_STORE_MB	512

static unsigned int devices = 1;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "Number of disks (1-16, default 1)");

static unsigned int queues;
module_param(queues, uint, 0444);
MODULE_PARM_DESC(queues, "Hardware queues (0: one per CPU, default; 1: one for all CPUs)");

static unsigned int depth = 64;
module_param(depth, uint, 0444);
MODULE_PARM_DESC(depth, "Tags per hardware queue (default 64)");

static unsigned int latency_us = 20;
module_param(latency_us, uint, 0644);
MODULE_PARM_DESC(latency_us, "Device latency in us (default 20)");

static unsigned int tail_us;
module_param(tail_us, uint, 0644);
MODULE_PARM_DESC(tail_us, "Latency of the tail requests in us (0: no tail, default)");

static unsigned int tail_permille;
module_param(tail_permille, uint, 0644);
MODULE_PARM_DESC(tail_permille, "Share of tail requests in 1/1000 (default 0)");

static int controller = -1;
module_param(controller, int, 0444);
MODULE_PARM_DESC(controller, "Controller CPU (-1: the highest online CPU, default)");

static unsigned int size_mb = 1024;
module_param(size_mb, uint, 0444);
MODULE_PARM_DESC(size_mb, "Capacity of each disk in MiB (default 1024)");

static bool blocking;
module_param(blocking, bool, 0444);
MODULE_PARM_DESC(blocking, "BLK_MQ_F_BLOCKING tag set (default N)");

static unsigned int stall_ms;
module_param(stall_ms, uint, 0644);
MODULE_PARM_DESC(stall_ms, "With blocking=Y, ->queue_rq() of emublk0 sleeps this long (default 0)");

static bool store;
module_param(store, bool, 0444);
MODULE_PARM_DESC(store, "Keep the data in memory, size_mb per disk (default N: reads return zeroes)");

static bool write_cache;
module_param(write_cache, bool, 0444);
MODULE_PARM_DESC(write_cache, "Report a volatile write cache: flushes are sent (default N)");

/* Per request: the driver's part of struct request. */
struct emu_cmd {
	struct llist_node node;		/* on emu_ctl.submitted */
	struct list_head entry;		/* on emu_ctl.pending */
	ktime_t deadline;
};

struct emu_disk {
	struct gendisk *disk;
	unsigned int index;
	atomic_t seq;			/* requests issued, for the tail */
	u8 *data;			/* store=Y: size_mb MiB, else NULL */
};

/*
 * The controller. submitted is filled by any CPU; pending, the timer and
 * the counters belong to the controller CPU and are touched only in its
 * hard interrupt context (the doorbell and the timer), which serializes
 * them.
 */
struct emu_ctl {
	int cpu;
	struct llist_head submitted;
	call_single_data_t doorbell;
	struct hrtimer timer;
	struct list_head pending;
	u64 completed;
	u64 late_sum_ns;
	u64 late_max_ns;
	u64 ctl_ns;
	u64 doorbells;
	u64 timer_runs;
};

static struct emu_ctl emu_ctl;
static struct blk_mq_tag_set emu_set;
static struct emu_disk emu_disks[EMU_MAX_DEVICES];
static struct dentry *emu_debugfs;

/* Golden-ratio hash of the sequence number: a fixed, well spread tail. */
static bool emu_in_tail(unsigned int seq, unsigned int permille)
{
	return permille && (seq * 2654435761U) % 1000 < permille;
}

static unsigned int emu_latency_us(struct emu_disk *ed)
{
	unsigned int seq = atomic_inc_return(&ed->seq);
	unsigned int tail = READ_ONCE(tail_us);

	if (tail && emu_in_tail(seq, min(READ_ONCE(tail_permille), 1000U)))
		return min(tail, EMU_MAX_LATENCY_US);
	return min(READ_ONCE(latency_us), EMU_MAX_LATENCY_US);
}

/* Controller CPU, hard interrupt: sort by deadline, newest at the tail. */
static void emu_insert(struct emu_ctl *ctl, struct emu_cmd *cmd)
{
	struct emu_cmd *pos;

	list_for_each_entry_reverse(pos, &ctl->pending, entry) {
		if (ktime_compare(pos->deadline, cmd->deadline) <= 0) {
			list_add(&cmd->entry, &pos->entry);
			return;
		}
	}
	list_add(&cmd->entry, &ctl->pending);
}

/*
 * The doorbell IPI. Async CSDs are unlocked before they run, so the CPU
 * whose llist_add() finds the list empty after llist_del_all() below can
 * always ring again.
 */
static void emu_doorbell(void *info)
{
	struct emu_ctl *ctl = info;
	struct llist_node *list = llist_del_all(&ctl->submitted);
	struct emu_cmd *cmd, *next;
	ktime_t t0 = ktime_get();

	list = llist_reverse_order(list);
	llist_for_each_entry_safe(cmd, next, list, node)
		emu_insert(ctl, cmd);

	/* The timer callback cannot run now: it is this CPU's hard irq too. */
	cmd = list_first_entry_or_null(&ctl->pending, struct emu_cmd, entry);
	if (cmd && (!hrtimer_is_queued(&ctl->timer) ||
		    ktime_before(cmd->deadline, hrtimer_get_expires(&ctl->timer))))
		hrtimer_start(&ctl->timer, cmd->deadline, HRTIMER_MODE_ABS_PINNED_HARD);
	ctl->doorbells++;
	ctl->ctl_ns += ktime_to_ns(ktime_sub(ktime_get(), t0));
}

static enum hrtimer_restart emu_timer_fn(struct hrtimer *timer)
{
	struct emu_ctl *ctl = container_of(timer, struct emu_ctl, timer);
	ktime_t now = ktime_get();
	struct emu_cmd *cmd;
	enum hrtimer_restart ret = HRTIMER_NORESTART;

	while ((cmd = list_first_entry_or_null(&ctl->pending, struct emu_cmd, entry))) {
		u64 late;

		if (ktime_after(cmd->deadline, now)) {
			hrtimer_set_expires(timer, cmd->deadline);
			ret = HRTIMER_RESTART;
			break;
		}
		list_del(&cmd->entry);
		late = ktime_to_ns(ktime_sub(now, cmd->deadline));
		ctl->late_sum_ns += late;
		ctl->late_max_ns = max(ctl->late_max_ns, late);
		ctl->completed++;
		blk_mq_complete_request(blk_mq_rq_from_pdu(cmd));
	}
	ctl->timer_runs++;
	ctl->ctl_ns += ktime_to_ns(ktime_sub(ktime_get(), now));
	return ret;
}

/* ->queue_rq(): reads get the stored data (or zeroes), writes are kept. */
static void emu_copy_data(struct emu_disk *ed, struct request *rq)
{
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	struct req_iterator iter;
	struct bio_vec bv;

	if (req_op(rq) != REQ_OP_READ && (req_op(rq) != REQ_OP_WRITE || !ed->data))
		return;
	rq_for_each_segment(bv, rq, iter) {
		if (!ed->data)
			memzero_bvec(&bv);
		else if (req_op(rq) == REQ_OP_READ)
			memcpy_to_bvec(&bv, ed->data + pos);
		else
			memcpy_from_bvec(ed->data + pos, &bv);
		pos += bv.bv_len;
	}
}

static blk_status_t emu_queue_rq(struct blk_mq_hw_ctx *hctx,
				 const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct emu_disk *ed = rq->q->queuedata;
	struct emu_cmd *cmd = blk_mq_rq_to_pdu(rq);
	unsigned int stall = READ_ONCE(stall_ms);

	if (blocking && stall && ed->index == 0)
		msleep(stall);

	switch (req_op(rq)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
	case REQ_OP_FLUSH:
		break;
	default:
		return BLK_STS_NOTSUPP;
	}

	/* The block layer ends requests at the capacity: the store is that. */
	if (ed->data && WARN_ON_ONCE(blk_rq_pos(rq) + blk_rq_sectors(rq) >
				     ((sector_t)size_mb << (20 - SECTOR_SHIFT))))
		return BLK_STS_IOERR;
	blk_mq_start_request(rq);
	emu_copy_data(ed, rq);
	cmd->deadline = ktime_add_us(ktime_get(), emu_latency_us(ed));
	if (llist_add(&cmd->node, &emu_ctl.submitted))
		smp_call_function_single_async(emu_ctl.cpu, &emu_ctl.doorbell);
	return BLK_STS_OK;
}

static void emu_complete(struct request *rq)
{
	blk_mq_end_request(rq, BLK_STS_OK);
}

static enum blk_eh_timer_return emu_timeout(struct request *rq)
{
	/* Every request completes by its deadline: only a stall is slower. */
	return BLK_EH_RESET_TIMER;
}

static const struct blk_mq_ops emu_mq_ops = {
	.queue_rq	= emu_queue_rq,
	.complete	= emu_complete,
	.timeout	= emu_timeout,
};

static int emu_stats_show(struct seq_file *m, void *v)
{
	struct emu_ctl *ctl = m->private;

	/* Racy snapshot of the controller's counters, for deltas. */
	seq_printf(m, "controller_cpu %d\n", ctl->cpu);
	seq_printf(m, "completed %llu\n", READ_ONCE(ctl->completed));
	seq_printf(m, "doorbells %llu\n", READ_ONCE(ctl->doorbells));
	seq_printf(m, "timer_runs %llu\n", READ_ONCE(ctl->timer_runs));
	seq_printf(m, "ctl_ns %llu\n", READ_ONCE(ctl->ctl_ns));
	seq_printf(m, "late_sum_ns %llu\n", READ_ONCE(ctl->late_sum_ns));
	seq_printf(m, "late_max_ns %llu\n", READ_ONCE(ctl->late_max_ns));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emu_stats);

static const struct block_device_operations emu_fops = {
	.owner		= THIS_MODULE,
};

static int emu_add_disk(struct emu_disk *ed, unsigned int index)
{
	struct queue_limits lim = {
		.logical_block_size	= 512,
		.physical_block_size	= 4096,
		.max_hw_sectors		= 256,
	};
	struct gendisk *disk;
	int ret;

	ed->index = index;
	atomic_set(&ed->seq, 0);
	if (write_cache)
		lim.features |= BLK_FEAT_WRITE_CACHE;
	if (store) {
		ed->data = vzalloc((size_t)size_mb << 20);
		if (!ed->data)
			return -ENOMEM;
	}
	disk = blk_mq_alloc_disk(&emu_set, &lim, ed);
	if (IS_ERR(disk)) {
		vfree(ed->data);
		ed->data = NULL;
		return PTR_ERR(disk);
	}
	/* Complete on the submitting CPU, always by IPI (rq_affinity 2). */
	blk_queue_flag_set(QUEUE_FLAG_SAME_FORCE, disk->queue);
	disk->fops = &emu_fops;
	disk->flags |= GENHD_FL_NO_PART;
	snprintf(disk->disk_name, sizeof(disk->disk_name), "emublk%u", index);
	set_capacity(disk, (sector_t)size_mb << (20 - SECTOR_SHIFT));
	ret = add_disk(disk);
	if (ret) {
		put_disk(disk);
		vfree(ed->data);
		ed->data = NULL;
		return ret;
	}
	ed->disk = disk;
	return 0;
}

static void emu_del_disks(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(emu_disks); i++) {
		if (!emu_disks[i].disk)
			continue;
		del_gendisk(emu_disks[i].disk);
		put_disk(emu_disks[i].disk);
		emu_disks[i].disk = NULL;
		vfree(emu_disks[i].data);
		emu_disks[i].data = NULL;
	}
}

static int emu_check_params(void)
{
	if (!devices || devices > EMU_MAX_DEVICES) {
		pr_err("devices=%u: want 1-%d\n", devices, EMU_MAX_DEVICES);
		return -EINVAL;
	}
	if (queues > nr_cpu_ids || !depth || depth > 4096 || !size_mb) {
		pr_err("queues=%u depth=%u size_mb=%u: want queues <= %u, depth 1-4096, size_mb > 0\n",
		       queues, depth, size_mb, nr_cpu_ids);
		return -EINVAL;
	}
	if (store && size_mb > EMU_MAX_STORE_MB) {
		pr_err("store=Y size_mb=%u: want size_mb <= %d\n", size_mb, EMU_MAX_STORE_MB);
		return -EINVAL;
	}
	if (latency_us > EMU_MAX_LATENCY_US || tail_us > EMU_MAX_LATENCY_US ||
	    tail_permille > 1000) {
		pr_err("latency_us=%u tail_us=%u tail_permille=%u: want latencies <= %d, tail_permille <= 1000\n",
		       latency_us, tail_us, tail_permille, EMU_MAX_LATENCY_US);
		return -EINVAL;
	}
	if (controller < -1 || controller >= (int)nr_cpu_ids ||
	    (controller >= 0 && !cpu_online(controller))) {
		pr_err("controller=%d: not an online CPU\n", controller);
		return -EINVAL;
	}
	return 0;
}

static int __init emu_blk_init(void)
{
	unsigned int i;
	int ret;

	ret = emu_check_params();
	if (ret)
		return ret;

	emu_ctl.cpu = controller >= 0 ? controller : (int)cpumask_last(cpu_online_mask);
	init_llist_head(&emu_ctl.submitted);
	INIT_LIST_HEAD(&emu_ctl.pending);
	INIT_CSD(&emu_ctl.doorbell, emu_doorbell, &emu_ctl);
	hrtimer_setup(&emu_ctl.timer, emu_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_PINNED_HARD);

	emu_set.ops = &emu_mq_ops;
	emu_set.nr_hw_queues = queues ?: nr_cpu_ids;
	emu_set.queue_depth = depth;
	emu_set.numa_node = NUMA_NO_NODE;
	emu_set.cmd_size = sizeof(struct emu_cmd);
	emu_set.flags = blocking ? BLK_MQ_F_BLOCKING : 0;
	ret = blk_mq_alloc_tag_set(&emu_set);
	if (ret) {
		pr_err("blk_mq_alloc_tag_set() failed: %d\n", ret);
		return ret;
	}

	for (i = 0; i < devices; i++) {
		ret = emu_add_disk(&emu_disks[i], i);
		if (ret) {
			pr_err("emublk%u: %d\n", i, ret);
			goto out;
		}
	}

	emu_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("stats", 0400, emu_debugfs, &emu_ctl, &emu_stats_fops);

	pr_info("%u disk(s), %u hardware queue(s), controller CPU %d, latency %u us, tail %u us for %u/1000%s%s%s\n",
		devices, emu_set.nr_hw_queues, emu_ctl.cpu, latency_us, tail_us,
		tail_permille, blocking ? ", blocking" : "",
		store ? ", store" : "", write_cache ? ", write cache" : "");
	return 0;
out:
	emu_del_disks();
	blk_mq_free_tag_set(&emu_set);
	return ret;
}

static void __exit emu_blk_exit(void)
{
	debugfs_remove_recursive(emu_debugfs);
	/* del_gendisk() waits for every request: nothing is pending after. */
	emu_del_disks();
	hrtimer_cancel(&emu_ctl.timer);
	WARN_ON_ONCE(!list_empty(&emu_ctl.pending));
	blk_mq_free_tag_set(&emu_set);
}

module_init(emu_blk_init);
module_exit(emu_blk_exit);

MODULE_DESCRIPTION("Emulated storage device: fixed latency, completion by IPI from a controller CPU");
MODULE_LICENSE("GPL");
