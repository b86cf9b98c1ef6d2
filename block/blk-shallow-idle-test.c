// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test for blk-mq shallow idle (blk-shallow-idle.c).
 *
 * The parser is tested as a function. The state machine is driven through a
 * real request queue of a minimal blk-mq driver, and observed where it
 * matters: the resume latency PM QoS of the CPU devices. The hold period is
 * lengthened to %TEST_HOLD_MS so that "still raised" can be checked well
 * inside it; "relaxed" is awaited with an upper bound. A fake cpuidle driver
 * gives "auto" and the clamp of explicit limits a state table. Every case
 * runs pinned to one CPU, which submits and completes its requests: only
 * that CPU may be raised, although the hctx spans every CPU.
 */

#include <kunit/test.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/delay.h>
#include <linux/pm_qos.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/suspend.h>
#include <linux/workqueue.h>

#include "blk-mq.h"
#include "blk-shallow-idle.h"

struct parse_case {
	const char *in;
	int ret;
	int mode;
};

static const struct parse_case parse_cases[] = {
	{ "off", 0, BLK_SHALLOW_IDLE_OFF },
	{ "off\n", 0, BLK_SHALLOW_IDLE_OFF },
	{ "auto", 0, BLK_SHALLOW_IDLE_AUTO },
	{ "auto\n", 0, BLK_SHALLOW_IDLE_AUTO },
	{ "1", 0, 1 },
	{ "25\n", 0, 25 },
	{ "1000000", 0, 1000000 },
	{ "", -EINVAL },
	{ "\n", -EINVAL },
	{ " ", -EINVAL },
	{ "0", -EINVAL },
	{ "-1", -EINVAL },
	{ "+5", -EINVAL },
	{ " 5", -EINVAL },
	{ "5 ", -EINVAL },
	{ "5\n\n", -EINVAL },
	{ "1000001", -EINVAL },
	{ "4294967296", -EINVAL },
	{ "99999999999999999999", -EINVAL },
	{ "1e3", -EINVAL },
	{ "0x10", -EINVAL },
	{ "10us", -EINVAL },
	{ "Auto", -EINVAL },
	{ "OFF", -EINVAL },
	{ "autox", -EINVAL },
	{ "on", -EINVAL },
	{ "\x01\xff", -EINVAL },
};

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%*pE\"", (int)strlen(c->in),
		 c->in);
}

KUNIT_ARRAY_PARAM(parse, parse_cases, parse_case_desc);

static void blk_shallow_idle_parse_test(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	int mode = 12345;

	KUNIT_EXPECT_EQ(test, queue_shallow_idle_parse(c->in, &mode), c->ret);
	KUNIT_EXPECT_EQ(test, mode, c->ret ? 12345 : c->mode);
}

/* Long enough to check "still raised" well inside it under emulation. */
#define TEST_HOLD_MS	1000
/*
 * What the relax may take beyond the hold period: the jiffy the hold is
 * rounded up by and a work item's latency, under emulation with lockdep
 * and KASAN.
 */
#define TEST_SLACK_MS	250
/* Relaxed at the latest one hold period plus the slack after the last request. */
#define TEST_RELAX_MS	(TEST_HOLD_MS + TEST_SLACK_MS)
#define TEST_LIMIT_US	4242
#define NO_LIMIT	PM_QOS_RESUME_LATENCY_NO_CONSTRAINT

struct test_ctx {
	struct blk_mq_tag_set set;
	struct gendisk *disk;
	bool hold;		/* keep the next request in flight */
	bool requeue;		/* requeue every request, as dm-mpath without a path */
	struct request *held;	/* the request kept in flight */
	atomic_t ended;		/* requests ended through test_end_io() */
	unsigned int saved_hold_ms;
	struct cpuidle_driver *drv;	/* registered fake cpuidle driver */
};

/*
 * A blk-mq driver that completes every request at once, or keeps it in
 * flight while the test asks it to.
 */
static blk_status_t test_queue_rq(struct blk_mq_hw_ctx *hctx,
				  const struct blk_mq_queue_data *bd)
{
	struct test_ctx *ctx = hctx->queue->queuedata;

	blk_mq_start_request(bd->rq);
	if (READ_ONCE(ctx->requeue)) {
		/* As dm-rq does for DM_MAPIO_DELAY_REQUEUE. */
		blk_mq_requeue_request(bd->rq, false);
		blk_mq_delay_kick_requeue_list(hctx->queue, 5);
	} else if (READ_ONCE(ctx->hold)) {
		WRITE_ONCE(ctx->held, bd->rq);
	} else {
		blk_mq_end_request(bd->rq, BLK_STS_OK);
	}
	return BLK_STS_OK;
}

/* Ends a request that blk_mq_complete_request() completes. */
static void test_complete_rq(struct request *rq)
{
	blk_mq_end_request(rq, BLK_STS_OK);
}

static const struct blk_mq_ops test_mq_ops = {
	.queue_rq = test_queue_rq,
	.complete = test_complete_rq,
};

/*
 * A tag set of @nr_maps queue maps with one hardware queue each (@ops maps
 * them when there is more than one), four tags deep.
 */
static int test_alloc_tag_set(struct blk_mq_tag_set *set,
			      const struct blk_mq_ops *ops, unsigned int flags,
			      unsigned int nr_maps)
{
	set->ops = ops;
	set->nr_hw_queues = nr_maps;
	set->nr_maps = nr_maps;
	set->queue_depth = 4;
	set->numa_node = NUMA_NO_NODE;
	set->flags = flags;
	return blk_mq_alloc_tag_set(set);
}

static int fake_enter(struct cpuidle_device *dev, struct cpuidle_driver *drv,
		      int index)
{
	return index;
}

/*
 * intel_idle's SPR table (auto: 289) and SKX's C1 at 2 us (floor: 2), and
 * the table every test gets unless it registers another one: floor 1, so
 * that an explicit %TEST_LIMIT_US is set as written.
 */
static struct cpuidle_driver fake_drivers[] = {
	{
		.name = "kunit_spr",
		.states = {
			{ .name = "C1", .exit_latency = 1, .target_residency = 1,
			  .enter = fake_enter },
			{ .name = "C1E", .exit_latency = 2, .target_residency = 4,
			  .enter = fake_enter },
			{ .name = "C6", .exit_latency = 290,
			  .target_residency = 800,
			  .flags = CPUIDLE_FLAG_TLB_FLUSHED, .enter = fake_enter },
		},
		.state_count = 3,
	},
	{
		.name = "kunit_skx",
		.states = {
			{ .name = "C1", .exit_latency = 2, .target_residency = 2,
			  .enter = fake_enter },
			{ .name = "C1E", .exit_latency = 10,
			  .target_residency = 20,
			  .enter = fake_enter },
			{ .name = "C6", .exit_latency = 133,
			  .target_residency = 600,
			  .flags = CPUIDLE_FLAG_TLB_FLUSHED, .enter = fake_enter },
		},
		.state_count = 3,
	},
	{
		.name = "kunit_default",
		.states = {
			{ .name = "C1", .exit_latency = 1, .target_residency = 1,
			  .enter = fake_enter },
			{ .name = "C6", .exit_latency = 5000,
			  .target_residency = 10000,
			  .flags = CPUIDLE_FLAG_TLB_FLUSHED, .enter = fake_enter },
		},
		.state_count = 2,
	},
};

#define FAKE_DEFAULT	(&fake_drivers[2])

/* Unregister the driver this test registered, if any. */
static void test_unregister_driver(struct test_ctx *ctx)
{
	if (ctx->drv)
		cpuidle_unregister(ctx->drv);
	ctx->drv = NULL;
}

static void test_register_driver(struct kunit *test, struct test_ctx *ctx,
				 struct cpuidle_driver *drv)
{
	test_unregister_driver(ctx);
	if (cpuidle_get_driver())
		kunit_skip(test, "cpuidle driver %s already registered",
			   cpuidle_get_driver()->name);
	drv->cpumask = (struct cpumask *)cpu_online_mask;
	KUNIT_ASSERT_EQ(test, cpuidle_register(drv, NULL), 0);
	ctx->drv = drv;
}

/* The CPU each case runs on, pinned by test_init(). */
static unsigned int test_cpu;

static int test_init(struct kunit *test)
{
	struct test_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	test_cpu = cpumask_first(cpu_online_mask);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(test_cpu)), 0);
	KUNIT_ASSERT_EQ(test,
			test_alloc_tag_set(&ctx->set, &test_mq_ops, 0, 1), 0);
	ctx->disk = blk_mq_alloc_disk(&ctx->set, NULL, ctx);
	if (IS_ERR(ctx->disk)) {
		blk_mq_free_tag_set(&ctx->set);
		KUNIT_FAIL(test, "blk_mq_alloc_disk: %pe", ctx->disk);
		return PTR_ERR(ctx->disk);
	}
	ctx->saved_hold_ms = blk_shallow_idle_hold_ms;
	WRITE_ONCE(blk_shallow_idle_hold_ms, TEST_HOLD_MS);
	test->priv = ctx;
	/* A CPU without a cpuidle driver gets no request at all. */
	if (!cpuidle_get_driver()) {
		FAKE_DEFAULT->cpumask = (struct cpumask *)cpu_online_mask;
		if (!cpuidle_register(FAKE_DEFAULT, NULL))
			ctx->drv = FAKE_DEFAULT;
	}
	return 0;
}

static void test_exit(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;

	if (!ctx)
		return;
	if (ctx->disk) {
		blk_shallow_idle_set_mode(ctx->disk->queue, BLK_SHALLOW_IDLE_OFF);
		put_disk(ctx->disk);
		blk_mq_free_tag_set(&ctx->set);
	}
	test_unregister_driver(ctx);
	WRITE_ONCE(blk_shallow_idle_hold_ms, ctx->saved_hold_ms);
}

static enum rq_end_io_ret test_end_io(struct request *rq, blk_status_t error,
				      const struct io_comp_batch *iob)
{
	struct test_ctx *ctx = rq->q->queuedata;

	atomic_inc(&ctx->ended);
	return RQ_END_IO_FREE;
}

/* Issue one request and keep it in flight until test_complete(). */
static void test_start(struct kunit *test, struct test_ctx *ctx)
{
	struct request *rq = blk_mq_alloc_request(ctx->disk->queue,
						  REQ_OP_DRV_IN, 0);
	int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(rq));
	rq->end_io = test_end_io;
	WRITE_ONCE(ctx->held, NULL);
	WRITE_ONCE(ctx->hold, true);
	blk_execute_rq_nowait(rq, false);
	for (i = 0; i < 1000 && !READ_ONCE(ctx->held); i++)
		usleep_range(1000, 2000);
	KUNIT_ASSERT_NOT_NULL(test, READ_ONCE(ctx->held));
}

static void test_complete(struct test_ctx *ctx)
{
	WRITE_ONCE(ctx->hold, false);
	blk_mq_end_request(ctx->held, BLK_STS_OK);
	ctx->held = NULL;
}

/* Issue one request on @q that its driver completes at once. */
static void test_issue_on(struct kunit *test, struct request_queue *q)
{
	struct request *rq = blk_mq_alloc_request(q, REQ_OP_DRV_IN, 0);

	KUNIT_ASSERT_FALSE(test, IS_ERR(rq));
	KUNIT_EXPECT_TRUE(test, blk_execute_rq(rq, false) == BLK_STS_OK);
	blk_mq_free_request(rq);
}

/* Issue one request that completes at once. */
static void test_issue(struct kunit *test, struct test_ctx *ctx)
{
	test_issue_on(test, ctx->disk->queue);
}

/* Two requests within a hold period: a stream. */
static void test_stream(struct kunit *test, struct test_ctx *ctx)
{
	test_issue(test, ctx);
	test_issue(test, ctx);
}

/* Resume latency limit of @cpu now in force, from every request. */
static s32 cpu_resume_latency(unsigned int cpu)
{
	return dev_pm_qos_raw_resume_latency(get_cpu_device(cpu));
}

/* Wait until jiffies @end for @cpu's resume latency to become @value. */
static bool wait_resume_latency_until(unsigned int cpu, s32 value,
				      unsigned long end)
{
	do {
		if (cpu_resume_latency(cpu) == value)
			return true;
		usleep_range(1000, 2000);
	} while (time_before(jiffies, end));
	return cpu_resume_latency(cpu) == value;
}

/* Wait up to @ms for @cpu's resume latency to become @value. */
static bool wait_resume_latency(unsigned int cpu, s32 value, unsigned int ms)
{
	return wait_resume_latency_until(cpu, value,
					 jiffies + msecs_to_jiffies(ms));
}

/*
 * Every present CPU of the queue's first hctx: a possible CPU that is not
 * present has no CPU device and gets no request.
 */
#define for_each_test_cpu(cpu, q) \
	for_each_cpu_and(cpu, queue_hctx((q), 0)->cpumask, cpu_present_mask)

/* No CPU of the hctx but the test CPU holds a constraint now. */
static void expect_bystanders(struct kunit *test, struct request_queue *q,
			      const char *what)
{
	unsigned int cpu;

	for_each_test_cpu(cpu, q) {
		if (cpu == test_cpu)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, cpu_resume_latency(cpu), NO_LIMIT,
				    "CPU%u took no part and holds %d (%s)", cpu,
				    cpu_resume_latency(cpu), what);
	}
}

/*
 * Within @ms: a limit on the test CPU and none on the others, which took no
 * part in the I/O; %NO_LIMIT on every CPU of the hctx.
 */
static void expect_all(struct kunit *test, struct request_queue *q, s32 value,
		       unsigned int ms, const char *what)
{
	unsigned int cpu, n = 0;

	if (value != NO_LIMIT) {
		KUNIT_EXPECT_TRUE_MSG(test,
				      wait_resume_latency(test_cpu, value, ms),
				      "CPU%u %s: %d, expected %d", test_cpu,
				      what, cpu_resume_latency(test_cpu), value);
		expect_bystanders(test, q, what);
		return;
	}
	for_each_test_cpu(cpu, q) {
		KUNIT_EXPECT_TRUE_MSG(test, wait_resume_latency(cpu, value, ms),
				      "CPU%u %s: %d, expected %d", cpu, what,
				      cpu_resume_latency(cpu), value);
		n++;
	}
	KUNIT_EXPECT_GT_MSG(test, n, 0, "no present CPU in the hctx mask");
}

/* Right now, without waiting. */
static void expect_now(struct kunit *test, struct request_queue *q, s32 value,
		       const char *what)
{
	unsigned int cpu;

	if (value != NO_LIMIT) {
		KUNIT_EXPECT_EQ_MSG(test, cpu_resume_latency(test_cpu), value,
				    "CPU%u %s", test_cpu, what);
		expect_bystanders(test, q, what);
		return;
	}
	for_each_test_cpu(cpu, q)
		KUNIT_EXPECT_EQ_MSG(test, cpu_resume_latency(cpu), value,
				    "CPU%u %s", cpu, what);
}

/* Enabled and idle: nothing is constrained, and the mode reads back. */
static void blk_shallow_idle_enable_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	expect_now(test, q, NO_LIMIT, "constrained before the test");
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	queue_shallow_idle_show(ctx->disk, buf);
	KUNIT_EXPECT_STREQ(test, buf, "4242\n");
	msleep(50);
	expect_now(test, q, NO_LIMIT, "constrained while idle");
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, BLK_SHALLOW_IDLE_OFF), 0);
	queue_shallow_idle_show(ctx->disk, buf);
	KUNIT_EXPECT_STREQ(test, buf, "off\n");
}

/*
 * A request alone (sparser than the hold period) raises nothing: no busy
 * period starts, however short it would be.
 */
static void blk_shallow_idle_sparse_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	int i;

	WRITE_ONCE(blk_shallow_idle_hold_ms, 20);
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	for (i = 0; i < 5; i++) {
		test_issue(test, ctx);
		msleep(100);
	}
	KUNIT_EXPECT_EQ_MSG(test, blk_shallow_idle_raises(queue_hctx(q, 0)), 0,
			    "busy periods from 5 requests 100 ms apart");
	expect_now(test, q, NO_LIMIT, "raised by a sparse request");
}

/*
 * The hold period in jiffies as documented (rounded up, plus one jiffy),
 * computed here and not taken from blk-shallow-idle.c: a change of the
 * rounding fails the edge case.
 */
static unsigned long test_hold_jiffies(void)
{
	return msecs_to_jiffies(READ_ONCE(blk_shallow_idle_hold_ms)) + 1;
}

/*
 * Issue a request in jiffy @at, which is still to come: true if it also
 * completed in that jiffy, false (maybe without issuing it) if not.
 */
static bool test_issue_at(struct kunit *test, struct test_ctx *ctx,
			  unsigned long at)
{
	unsigned long now = jiffies;

	if (time_before(now + 1, at))
		schedule_timeout_uninterruptible(at - 1 - now);
	while (time_before(jiffies, at))
		cpu_relax();
	if (time_after(jiffies, at))
		return false;
	test_issue(test, ctx);
	return !time_after(jiffies, at);
}

/*
 * After two idle hold periods, two requests that complete exactly @gap
 * jiffies apart, each started and ended in its jiffy, in up to 100 tries
 * (a slow guest can miss ten in a row, as one under TCG did while its
 * clocksource watchdog switched it from TSC to HPET): the busy periods of
 * @hctx before the pair that did.
 */
static unsigned long test_pair(struct kunit *test, struct test_ctx *ctx,
			       struct blk_mq_hw_ctx *hctx, unsigned long gap)
{
	unsigned long at, raises = 0;
	int i;

	for (i = 0; i < 100; i++) {
		raises = blk_shallow_idle_raises(hctx);
		msleep(jiffies_to_msecs(2 * test_hold_jiffies()));
		at = jiffies + 2;
		if (test_issue_at(test, ctx, at) &&
		    test_issue_at(test, ctx, at + gap))
			break;
	}
	KUNIT_ASSERT_LT_MSG(test, i, 100, "no pair of requests in exact jiffies");
	return raises;
}

/* Wait up to @ms for a busy period of @hctx beyond the first @raises. */
static bool wait_raises(struct blk_mq_hw_ctx *hctx, unsigned long raises,
			unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	do {
		if (blk_shallow_idle_raises(hctx) != raises)
			return true;
		usleep_range(1000, 2000);
	} while (time_before(jiffies, end));
	return blk_shallow_idle_raises(hctx) != raises;
}

/*
 * The edges of the sparse rule, to the jiffy: two completions a whole
 * hold period apart start no busy period, two a jiffy closer start one.
 */
static void blk_shallow_idle_sparse_edge_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	struct blk_mq_hw_ctx *hctx = queue_hctx(q, 0);
	unsigned long hold, raises;

	WRITE_ONCE(blk_shallow_idle_hold_ms, 20);
	hold = test_hold_jiffies();
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	raises = test_pair(test, ctx, hctx, hold);
	KUNIT_EXPECT_FALSE_MSG(test, wait_raises(hctx, raises, 200),
			       "raised by two requests %lu jiffies apart, the hold period",
			       hold);
	raises = test_pair(test, ctx, hctx, hold - 1);
	KUNIT_EXPECT_TRUE_MSG(test, wait_raises(hctx, raises, TEST_HOLD_MS / 2),
			      "not raised by two requests %lu jiffies apart, inside the hold period",
			      hold - 1);
}

/*
 * The second request within a hold period raises the CPU that completed
 * it, and only that one, though the hctx spans every CPU.
 */
static void blk_shallow_idle_stream_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	test_issue(test, ctx);
	msleep(100);
	expect_now(test, q, NO_LIMIT, "raised by the first request");
	test_issue(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2, "not raised");
}

/*
 * Raised until a whole hold period passed without a request; a request
 * within it extends the hold; relaxed within a hold period plus the slack
 * after the last one.
 */
static void blk_shallow_idle_hold_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2, "not raised");

	msleep(TEST_HOLD_MS * 3 / 10);
	expect_now(test, q, TEST_LIMIT_US, "relaxed inside the hold period");
	test_issue(test, ctx);
	msleep(TEST_HOLD_MS * 8 / 10);
	expect_now(test, q, TEST_LIMIT_US,
		   "relaxed although a request extended the hold");
	test_issue(test, ctx);
	msleep(TEST_HOLD_MS * 8 / 10);
	expect_now(test, q, TEST_LIMIT_US,
		   "relaxed although a request extended the hold");

	expect_all(test, q, NO_LIMIT, TEST_RELAX_MS, "not relaxed");
}

/*
 * A request that stays in flight (a stalled queue) does not hold the CPUs
 * once no request completed for a hold period.
 */
static void blk_shallow_idle_stall_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	test_stream(test, ctx);
	test_start(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2, "not raised");
	expect_all(test, q, NO_LIMIT, TEST_RELAX_MS, "held by a stalled request");
	KUNIT_EXPECT_NOT_NULL(test, READ_ONCE(ctx->held));
	test_complete(ctx);
}

/*
 * Busy periods that start right as the previous one ends: every stream is
 * raised, none is lost to the relax (the issue/relax handshake). A pair
 * that took a hold period or longer (the test's vCPU was descheduled
 * between its requests) is by design no stream: it is not counted, and
 * the next stream starts after it settled.
 */
static void blk_shallow_idle_handshake_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	int i, streams = 0, slow = 0, lost = 0;
	unsigned long start;

	WRITE_ONCE(blk_shallow_idle_hold_ms, 10);
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	for (i = 0; i < 200 && streams < 50; i++) {
		start = jiffies;
		test_stream(test, ctx);
		/* Both completions fell within jiffies start..now. */
		if (!time_before(jiffies, start + test_hold_jiffies() - 1)) {
			slow++;
			wait_resume_latency(test_cpu, NO_LIMIT, 1000);
			msleep(jiffies_to_msecs(2 * test_hold_jiffies()));
			continue;
		}
		streams++;
		if (!wait_resume_latency(test_cpu, TEST_LIMIT_US, 1000))
			lost++;
		/* Wait for the relax to start, then race it. */
		wait_resume_latency(test_cpu, NO_LIMIT, 100);
	}
	KUNIT_ASSERT_EQ_MSG(test, streams, 50,
			    "%d of %d pairs took a hold period", slow, i);
	KUNIT_EXPECT_EQ_MSG(test, lost, 0, "%d of 50 streams not raised", lost);
	expect_all(test, q, NO_LIMIT, 1000, "not relaxed at the end");
}

/*
 * While raised, requests do not run the work item: it runs once per hold
 * period however many requests complete (the hot path only marks the
 * CPUs).
 */
static void blk_shallow_idle_work_rate_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	struct blk_mq_hw_ctx *hctx = queue_hctx(q, 0);
	unsigned long runs, start;
	unsigned int ms;
	int i;

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2, "not raised");
	runs = blk_shallow_idle_runs(hctx);
	start = jiffies;
	for (i = 0; i < 200; i++) {
		test_issue(test, ctx);
		/* Room for a work item queued by the request to run. */
		usleep_range(100, 200);
	}
	ms = jiffies_to_msecs(jiffies - start);
	runs = blk_shallow_idle_runs(hctx) - runs;
	/* One run per hold period that ended, and the one under way. */
	KUNIT_EXPECT_LE_MSG(test, runs, ms / TEST_HOLD_MS + 1,
			    "%lu work item runs for 200 requests in %u ms",
			    runs, ms);
}

/* The debugfs view of @hctx, as a NUL-terminated string in @buf. */
static void test_show(struct kunit *test, struct blk_mq_hw_ctx *hctx,
		      char *buf, size_t size)
{
	struct seq_file m = { .buf = buf, .size = size - 1 };

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_debugfs_show(hctx, &m), 0);
	KUNIT_ASSERT_LT_MSG(test, m.count, size - 1,
			    "debugfs view longer than %zu bytes", size - 1);
	buf[m.count] = '\0';
}

struct test_counts {
	unsigned long raises, relaxes, misses, runs;
};

/* The counters of @hctx's debugfs view; @buf keeps the whole view. */
static void test_counts(struct kunit *test, struct blk_mq_hw_ctx *hctx,
			char *buf, struct test_counts *c)
{
	const char *line;

	test_show(test, hctx, buf, PAGE_SIZE);
	line = strstr(buf, "\nraises=");
	KUNIT_ASSERT_NOT_NULL_MSG(test, line, "no counters in \"%s\"", buf);
	KUNIT_ASSERT_EQ_MSG(test,
			    sscanf(line + 1, "raises=%lu relaxes=%lu misses=%lu runs=%lu\n",
				   &c->raises, &c->relaxes, &c->misses, &c->runs),
			    4, "counters in \"%s\"", buf);
}

/*
 * Wait up to @ms for @hctx's counters to show @raises busy periods and
 * @relaxes relaxes, with the busy period in @active: the work item
 * changes the values before the counters and the ACTIVE bit.
 */
static bool wait_counts(struct kunit *test, struct blk_mq_hw_ctx *hctx,
			char *buf, struct test_counts *c, unsigned long raises,
			unsigned long relaxes, int active, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	char want[24];

	snprintf(want, sizeof(want), "\nactive=%d ", active);
	for (;;) {
		test_counts(test, hctx, buf, c);
		if (c->raises == raises && c->relaxes == relaxes &&
		    strstr(buf, want))
			return true;
		if (!time_before(jiffies, end))
			return false;
		usleep_range(1000, 2000);
	}
}

/* @buf holds @fmt as one whole line. */
static __printf(3, 4) void expect_line(struct kunit *test, const char *buf,
			const char *fmt, ...)
{
	char line[64];
	va_list args;

	line[0] = '\n';
	va_start(args, fmt);
	vsnprintf(line + 1, sizeof(line) - 2, fmt, args);
	va_end(args);
	strcat(line, "\n");
	KUNIT_EXPECT_TRUE_MSG(test, strstr(buf, line) || strstarts(buf, line + 1),
			      "no line \"%s\" in \"%s\"", line + 1, buf);
}

/*
 * The debugfs view follows a busy period: the mode, the CPUs held, each
 * CPU's value and the counters. A sparse completion and the one that
 * starts a stream are misses; completions on a held CPU are not.
 */
static void blk_shallow_idle_debugfs_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	struct blk_mq_hw_ctx *hctx = queue_hctx(q, 0);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct test_counts c;
	int i;

	if (!IS_ENABLED(CONFIG_BLK_DEBUG_FS))
		kunit_skip(test, "CONFIG_BLK_DEBUG_FS is off: no view");
	KUNIT_ASSERT_NOT_NULL(test, buf);
	test_show(test, hctx, buf, PAGE_SIZE);
	KUNIT_EXPECT_STREQ(test, buf, "mode=off\n");

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	test_counts(test, hctx, buf, &c);
	expect_line(test, buf, "mode=%d", TEST_LIMIT_US);
	expect_line(test, buf, "active=0 raised=0 held=");
	expect_line(test, buf, "raises=0 relaxes=0 misses=0 runs=0");
	expect_line(test, buf, "cpu%u=none", test_cpu);

	test_issue(test, ctx);
	test_counts(test, hctx, buf, &c);
	KUNIT_EXPECT_EQ_MSG(test, c.misses, 1, "a sparse completion");
	KUNIT_EXPECT_EQ(test, c.raises, 0);

	test_issue(test, ctx);
	KUNIT_ASSERT_TRUE_MSG(test, wait_counts(test, hctx, buf, &c, 1, 0, 1,
						TEST_HOLD_MS / 2),
			      "no busy period in \"%s\"", buf);
	for (i = 0; i < 10; i++)
		test_issue(test, ctx);
	test_counts(test, hctx, buf, &c);
	KUNIT_EXPECT_EQ_MSG(test, c.misses, 2,
			    "2 completions before the raise, 10 while held");
	KUNIT_EXPECT_EQ(test, c.raises, 1);
	KUNIT_EXPECT_EQ(test, c.relaxes, 0);
	expect_line(test, buf, "active=1 raised=1 held=%u", test_cpu);
	expect_line(test, buf, "cpu%u=%d", test_cpu, TEST_LIMIT_US);

	KUNIT_EXPECT_TRUE_MSG(test, wait_counts(test, hctx, buf, &c, 1, 1, 0,
						TEST_RELAX_MS),
			      "busy period not ended in \"%s\"", buf);
	KUNIT_EXPECT_EQ(test, c.misses, 2);
	KUNIT_EXPECT_GT(test, c.runs, 0);
	expect_line(test, buf, "active=0 raised=0 held=");
	expect_line(test, buf, "cpu%u=none", test_cpu);
	expect_all(test, q, NO_LIMIT, 0, "relaxed in debugfs only");
}

/* Each type of hardware queue gets one queue; every map covers every CPU. */
static void types_map_queues(struct blk_mq_tag_set *set)
{
	unsigned int i;

	for (i = 0; i < set->nr_maps; i++) {
		set->map[i].nr_queues = 1;
		set->map[i].queue_offset = i;
		blk_mq_map_queues(&set->map[i]);
	}
}

static const char *const test_type_names[] = {
	[HCTX_TYPE_DEFAULT] = "default",
	[HCTX_TYPE_READ] = "read",
	[HCTX_TYPE_POLL] = "poll",
};

static const struct blk_mq_ops types_mq_ops = {
	.queue_rq = test_queue_rq,
	.map_queues = types_map_queues,
};

/*
 * A tag set with default, read and poll hardware queues (NVMe with
 * read_queues and poll_queues): the default and read hctxs get state for
 * every CPU of their masks; the poll hctx gets none, as a polled request
 * keeps its CPU busy until it completes, and its view says "mode=off".
 */
static void blk_shallow_idle_hctx_types_test(struct kunit *test)
{
	struct blk_mq_tag_set *set = kunit_kzalloc(test, sizeof(*set),
						    GFP_KERNEL);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	unsigned int seen[HCTX_MAX_TYPES] = {};
	struct blk_mq_hw_ctx *hctx;
	struct gendisk *disk;
	unsigned long i;

	KUNIT_ASSERT_NOT_NULL(test, set);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, test_alloc_tag_set(set, &types_mq_ops, 0,
						 HCTX_MAX_TYPES), 0);
	disk = blk_mq_alloc_disk(set, NULL, test->priv);
	if (IS_ERR(disk)) {
		KUNIT_FAIL(test, "blk_mq_alloc_disk: %pe", disk);
		goto free_set;
	}

	KUNIT_EXPECT_EQ(test, blk_shallow_idle_set_mode(disk->queue,
							TEST_LIMIT_US), 0);
	queue_for_each_hw_ctx(disk->queue, hctx, i) {
		int want = cpumask_weight(hctx->cpumask);

		seen[hctx->type]++;
		if (hctx->type == HCTX_TYPE_POLL)
			want = -1;
		KUNIT_EXPECT_EQ_MSG(test, blk_shallow_idle_nr_cpus(hctx), want,
				    "hctx%lu of type %s", i,
				    test_type_names[hctx->type]);
		if (hctx->type == HCTX_TYPE_POLL &&
		    IS_ENABLED(CONFIG_BLK_DEBUG_FS)) {
			test_show(test, hctx, buf, PAGE_SIZE);
			KUNIT_EXPECT_STREQ(test, buf, "mode=off\n");
		}
	}
	for (i = 0; i < HCTX_MAX_TYPES; i++)
		KUNIT_EXPECT_EQ_MSG(test, seen[i], 1, "hctxs of type %s",
				    test_type_names[i]);

	KUNIT_EXPECT_EQ(test, blk_shallow_idle_set_mode(disk->queue,
							BLK_SHALLOW_IDLE_OFF), 0);
	queue_for_each_hw_ctx(disk->queue, hctx, i)
		KUNIT_EXPECT_EQ(test, blk_shallow_idle_nr_cpus(hctx), -1);
	put_disk(disk);
free_set:
	blk_mq_free_tag_set(set);
}

/*
 * Wait up to @ms for the test CPU to hold @value, or for %NO_LIMIT on every
 * CPU of @q's first hctx; false also if the hctx has no present CPU.
 */
static bool wait_all(struct request_queue *q, s32 value, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);
	unsigned int cpu, n = 0;

	if (value != NO_LIMIT)
		return wait_resume_latency_until(test_cpu, value, end);

	for_each_test_cpu(cpu, q) {
		if (!wait_resume_latency_until(cpu, value, end))
			return false;
		n++;
	}
	/* No present CPU in the mask would prove nothing. */
	return n > 0;
}

/*
 * Issue a request every tenth of a hold period for @ms after the raise,
 * then return how long after the last request every CPU was relaxed.
 */
static unsigned int stream_then_relax(struct kunit *test, struct test_ctx *ctx,
				      unsigned int ms)
{
	struct request_queue *q = ctx->disk->queue;
	unsigned long last, end;

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	test_stream(test, ctx);
	last = jiffies;
	KUNIT_ASSERT_TRUE_MSG(test, wait_all(q, TEST_LIMIT_US, TEST_HOLD_MS / 2),
			      "not raised");
	end = jiffies + msecs_to_jiffies(ms);
	while (time_before(jiffies, end)) {
		msleep(TEST_HOLD_MS / 10);
		test_issue(test, ctx);
		last = jiffies;
	}
	KUNIT_ASSERT_TRUE_MSG(test, wait_all(q, NO_LIMIT, 3 * TEST_HOLD_MS),
			      "not relaxed 3 hold periods after the last request");
	return jiffies_to_msecs(jiffies - last);
}

/* Relaxed between one hold period and that plus the slack after @ms of I/O. */
static void expect_relax_bound(struct kunit *test, unsigned int ms)
{
	unsigned int after = stream_then_relax(test, test->priv, ms);

	KUNIT_EXPECT_GE_MSG(test, after, TEST_HOLD_MS,
			    "relaxed %u ms after the last request, inside the hold period",
			    after);
	KUNIT_EXPECT_LE_MSG(test, after, TEST_HOLD_MS + TEST_SLACK_MS,
			    "relaxed %u ms after the last request, hold period %u ms",
			    after, TEST_HOLD_MS);
}

/*
 * A stream that stops at the raise is relaxed one hold period after its
 * last request, not two: the raise starts the hold period.
 */
static void blk_shallow_idle_relax_bound_test(struct kunit *test)
{
	expect_relax_bound(test, 0);
}

/*
 * A stream that stops just after a hold period has ended (1.05 hold
 * periods after the raise) is relaxed one hold period after its last
 * request too: the hold runs from each CPU's last completion, not to the
 * end of the next period.
 */
static void blk_shallow_idle_relax_bound_late_test(struct kunit *test)
{
	expect_relax_bound(test, TEST_HOLD_MS * 105 / 100);
}

/* Two disks on one BLOCKING tag set; the first one's ->queue_rq() sleeps. */
struct blocking_ctx {
	struct blk_mq_tag_set set;
	struct gendisk *sleeper, *disk;
	struct completion wake;		/* lets the sleeping ->queue_rq() return */
	struct completion slept;	/* the sleeper's request has ended */
	struct work_struct work;	/* issues the sleeper's request */
	bool sleeping;
};

static blk_status_t blocking_queue_rq(struct blk_mq_hw_ctx *hctx,
				      const struct blk_mq_queue_data *bd)
{
	struct blocking_ctx *b = hctx->queue->queuedata;

	might_sleep();
	blk_mq_start_request(bd->rq);
	if (hctx->queue == b->sleeper->queue) {
		WRITE_ONCE(b->sleeping, true);
		/* As nbd's ->queue_rq() waits for a connection to come back. */
		wait_for_completion_timeout(&b->wake, 10 * HZ);
		WRITE_ONCE(b->sleeping, false);
	}
	blk_mq_end_request(bd->rq, BLK_STS_OK);
	return BLK_STS_OK;
}

static const struct blk_mq_ops blocking_mq_ops = {
	.queue_rq = blocking_queue_rq,
};

static void blocking_work_fn(struct work_struct *work)
{
	struct blocking_ctx *b = container_of(work, struct blocking_ctx, work);
	struct request *rq = blk_mq_alloc_request(b->sleeper->queue,
						  REQ_OP_DRV_IN, 0);

	if (!IS_ERR(rq)) {
		blk_execute_rq(rq, false);
		blk_mq_free_request(rq);
	}
	complete(&b->slept);
}

/*
 * A BLOCKING tag set shared by two disks (NVMe-oF namespaces, nbd): while
 * one disk's ->queue_rq() sleeps, the other disk's busy period still ends
 * one hold period (plus the slack) after its last request. The relax waits
 * for no dispatch section of the tag set.
 */
static void blk_shallow_idle_blocking_test(struct kunit *test)
{
	struct blocking_ctx *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	struct request_queue *q;
	unsigned long last;
	unsigned int ms;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, b);
	init_completion(&b->wake);
	init_completion(&b->slept);
	INIT_WORK(&b->work, blocking_work_fn);
	KUNIT_ASSERT_EQ(test, test_alloc_tag_set(&b->set, &blocking_mq_ops,
						 BLK_MQ_F_BLOCKING, 1), 0);
	b->sleeper = blk_mq_alloc_disk(&b->set, NULL, b);
	b->disk = IS_ERR(b->sleeper) ? b->sleeper :
		  blk_mq_alloc_disk(&b->set, NULL, b);
	if (IS_ERR(b->disk)) {
		KUNIT_FAIL(test, "blk_mq_alloc_disk: %pe", b->disk);
		goto free_set;
	}
	q = b->disk->queue;

	queue_work(system_dfl_wq, &b->work);
	for (i = 0; i < 1000 && !READ_ONCE(b->sleeping); i++)
		usleep_range(1000, 2000);
	if (!READ_ONCE(b->sleeping)) {
		KUNIT_FAIL(test, "the sleeper's ->queue_rq() never ran");
		goto wake;
	}

	KUNIT_EXPECT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	test_issue_on(test, q);
	test_issue_on(test, q);
	last = jiffies;
	KUNIT_EXPECT_TRUE_MSG(test, wait_all(q, TEST_LIMIT_US, TEST_HOLD_MS / 2),
			      "not raised");
	KUNIT_EXPECT_TRUE_MSG(test,
			      wait_all(q, NO_LIMIT, TEST_HOLD_MS + TEST_SLACK_MS),
			      "relax waited for another disk's sleeping ->queue_rq()");
	ms = jiffies_to_msecs(jiffies - last);
	KUNIT_EXPECT_TRUE_MSG(test, READ_ONCE(b->sleeping),
			      "the sleeper woke up before the check (%u ms)", ms);

wake:
	complete(&b->wake);
	wait_for_completion(&b->slept);
	blk_shallow_idle_set_mode(q, BLK_SHALLOW_IDLE_OFF);
	put_disk(b->disk);
	put_disk(b->sleeper);
	blk_mq_free_tag_set(&b->set);
	return;

free_set:
	if (!IS_ERR(b->sleeper))
		put_disk(b->sleeper);
	blk_mq_free_tag_set(&b->set);
}

/* The request the relax window completes, and that it has. */
static struct request *window_rq;
static bool window_done;

static void complete_in_window(struct blk_mq_hw_ctx *hctx)
{
	struct request *rq = READ_ONCE(window_rq);

	if (rq && rq->mq_hctx == hctx && cmpxchg(&window_rq, rq, NULL) == rq) {
		blk_mq_end_request(rq, BLK_STS_OK);
		WRITE_ONCE(window_done, true);
	}
}

static void clear_relax_hook(void *unused)
{
	WRITE_ONCE(blk_shallow_idle_relax_hook, NULL);
}

/*
 * A completion that lands inside the relax, after the work item's first
 * look at a CPU and before it takes the CPU out of the held set, keeps the
 * CPU held: the work item looks again after its barrier (the issue/relax
 * handshake). The completion takes the fast path, so nothing else would
 * raise the CPU again.
 */
static void blk_shallow_idle_relax_window_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	struct request *rq;
	int i;

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2, "not raised");
	/* Submitted here: its completion notes the test CPU. */
	test_start(test, ctx);
	WRITE_ONCE(window_done, false);
	WRITE_ONCE(window_rq, ctx->held);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, clear_relax_hook,
							NULL), 0);
	WRITE_ONCE(blk_shallow_idle_relax_hook, complete_in_window);
	for (i = 0; i < 3 * TEST_HOLD_MS && !READ_ONCE(window_done); i++)
		usleep_range(1000, 2000);
	clear_relax_hook(NULL);
	rq = xchg(&window_rq, NULL);
	WRITE_ONCE(ctx->hold, false);
	ctx->held = NULL;
	if (rq) {
		blk_mq_end_request(rq, BLK_STS_OK);
		KUNIT_FAIL(test, "no relax started 3 hold periods after the raise");
		return;
	}
	/* Well inside the new hold period: still raised. */
	KUNIT_EXPECT_FALSE_MSG(test,
			       wait_resume_latency(test_cpu, NO_LIMIT, 200),
			       "CPU%u relaxed although a request completed during the relax",
			       test_cpu);
}

/* Starts a stream from a CPU's PM QoS notifier, once, when it is relaxed. */
struct kick_nb {
	struct notifier_block nb;
	struct request *rq;
	int armed;
	int fired;
};

static int kick_during_relax_cb(struct notifier_block *nb, unsigned long value,
				void *unused)
{
	struct kick_nb *k = container_of(nb, struct kick_nb, nb);

	if ((s32)value != NO_LIMIT || !READ_ONCE(k->armed))
		return NOTIFY_OK;
	WRITE_ONCE(k->armed, 0);
	/*
	 * Two completions as __blk_mq_end_request() reports them, without the
	 * I/O itself: this runs in the work item, under the PM QoS mutex.
	 */
	blk_shallow_idle_complete(k->rq);
	blk_shallow_idle_complete(k->rq);
	WRITE_ONCE(k->fired, 1);
	return NOTIFY_OK;
}

/*
 * A stream that starts while the work item relaxes (after its last look at
 * the marks, before the busy period ends) is raised: its kick is not lost.
 */
static void blk_shallow_idle_kick_during_relax_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	struct kick_nb k = {
		.nb.notifier_call = kick_during_relax_cb,
	};
	struct device *dev = get_cpu_device(test_cpu);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	/* Allocated on the test CPU: its completions mark that CPU. */
	k.rq = blk_mq_alloc_request(q, REQ_OP_DRV_IN, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(k.rq));
	WRITE_ONCE(blk_shallow_idle_hold_ms, 20);
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, 1000, "not raised");
	KUNIT_ASSERT_EQ(test, dev_pm_qos_add_notifier(dev, &k.nb,
						      DEV_PM_QOS_RESUME_LATENCY), 0);
	WRITE_ONCE(k.armed, 1);
	for (i = 0; i < 2000 && !READ_ONCE(k.fired); i++)
		usleep_range(1000, 2000);
	dev_pm_qos_remove_notifier(dev, &k.nb, DEV_PM_QOS_RESUME_LATENCY);
	blk_mq_free_request(k.rq);
	KUNIT_ASSERT_TRUE_MSG(test, READ_ONCE(k.fired), "never relaxed");
	/* The work item's CPU took part too: look at the test CPU only. */
	KUNIT_EXPECT_TRUE_MSG(test, wait_resume_latency(test_cpu, TEST_LIMIT_US, 500),
			      "stream started during the relax not raised");
}

/* Runs a function on another CPU, as I/O submitted or completed there. */
struct on_cpu_work {
	struct work_struct work;
	struct test_ctx *ctx;
	struct request_queue *q;
	int n;
};

static void issue_work_fn(struct work_struct *work)
{
	struct on_cpu_work *w = container_of(work, struct on_cpu_work, work);
	struct request *rq;
	int i;

	for (i = 0; i < w->n; i++) {
		rq = blk_mq_alloc_request(w->q, REQ_OP_DRV_IN, 0);
		if (IS_ERR(rq))
			return;
		blk_execute_rq(rq, false);
		blk_mq_free_request(rq);
	}
}

static void complete_work_fn(struct work_struct *work)
{
	test_complete(container_of(work, struct on_cpu_work, work)->ctx);
}

/* Run @fn on @cpu and wait for it. */
static void run_on_cpu(unsigned int cpu, work_func_t fn, struct test_ctx *ctx,
		       struct request_queue *q, int n)
{
	struct on_cpu_work w = { .ctx = ctx, .q = q, .n = n };

	INIT_WORK_ONSTACK(&w.work, fn);
	queue_work_on(cpu, system_percpu_wq, &w.work);
	flush_work(&w.work);
	destroy_work_on_stack(&w.work);
}

/* A second online CPU, or skip the test. */
static unsigned int other_cpu(struct kunit *test)
{
	unsigned int cpu = cpumask_next(test_cpu, cpu_online_mask);

	if (cpu >= nr_cpu_ids)
		kunit_skip(test, "one online CPU");
	return cpu;
}

/*
 * A CPU that starts completing I/O during a busy period is raised at once,
 * not at the end of the hold period; once it stops, it is relaxed within
 * a hold period plus the slack while the CPU that goes on stays raised.
 */
static void blk_shallow_idle_join_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	unsigned int other = other_cpu(test);
	unsigned long end;

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2, "not raised");
	run_on_cpu(other, issue_work_fn, ctx, q, 1);
	KUNIT_EXPECT_TRUE_MSG(test, wait_resume_latency(other, TEST_LIMIT_US,
							TEST_HOLD_MS / 2),
			      "CPU%u completed I/O and is not raised", other);

	/* The test CPU goes on alone for longer than the relax may take. */
	end = jiffies + msecs_to_jiffies(TEST_RELAX_MS);
	while (time_before(jiffies, end)) {
		test_issue(test, ctx);
		msleep(TEST_HOLD_MS / 4);
	}
	KUNIT_EXPECT_EQ_MSG(test, cpu_resume_latency(other), NO_LIMIT,
			    "CPU%u still raised a hold period after its I/O",
			    other);
	KUNIT_EXPECT_EQ_MSG(test, cpu_resume_latency(test_cpu), TEST_LIMIT_US,
			    "CPU%u relaxed while its stream went on", test_cpu);
}

/*
 * The CPU that completes a request is raised, not only the one that
 * submitted it: requests submitted here and completed on another CPU raise
 * both.
 */
static void blk_shallow_idle_completion_cpu_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	unsigned int other = other_cpu(test);
	int i;

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	for (i = 0; i < 2; i++) {
		test_start(test, ctx);
		run_on_cpu(other, complete_work_fn, ctx, q, 0);
	}
	KUNIT_EXPECT_TRUE_MSG(test, wait_resume_latency(other, TEST_LIMIT_US,
							TEST_HOLD_MS / 2),
			      "completing CPU%u not raised", other);
	KUNIT_EXPECT_TRUE_MSG(test, wait_resume_latency(test_cpu, TEST_LIMIT_US,
							TEST_HOLD_MS / 2),
			      "submitting CPU%u not raised", test_cpu);
}

/*
 * Requests that are started and requeued again and again without
 * completing (dm-multipath with queue_if_no_path and no path) start no
 * busy period: only completions count.
 */
static void blk_shallow_idle_requeue_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	struct request *rq;
	int i;

	WRITE_ONCE(blk_shallow_idle_hold_ms, 20);
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	WRITE_ONCE(ctx->requeue, true);
	for (i = 0; i < 2; i++) {
		rq = blk_mq_alloc_request(q, REQ_OP_DRV_IN, 0);
		KUNIT_ASSERT_FALSE(test, IS_ERR(rq));
		rq->end_io = test_end_io;
		blk_execute_rq_nowait(rq, false);
	}
	/* Requeued every 5 ms: about 60 restarts of each. */
	msleep(300);
	KUNIT_EXPECT_EQ_MSG(test, blk_shallow_idle_raises(queue_hctx(q, 0)), 0,
			    "busy periods from requeued requests");
	expect_now(test, q, NO_LIMIT, "raised by requeued requests");
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->ended), 0);

	WRITE_ONCE(ctx->requeue, false);
	blk_mq_kick_requeue_list(q);
	for (i = 0; i < 1000 && atomic_read(&ctx->ended) < 2; i++)
		usleep_range(1000, 2000);
	KUNIT_EXPECT_EQ(test, atomic_read(&ctx->ended), 2);
}

static void complete_remote_work_fn(struct work_struct *work)
{
	struct test_ctx *ctx = container_of(work, struct on_cpu_work, work)->ctx;
	struct request *rq = ctx->held;

	WRITE_ONCE(ctx->hold, false);
	ctx->held = NULL;
	blk_mq_complete_request(rq);
}

/*
 * A request whose interrupt another CPU takes, and which that CPU sends
 * to the submitting CPU (blk_mq_complete_send_ipi()), is one completion:
 * sparse requests completed that way start no busy period.
 */
static void blk_shallow_idle_redirect_sparse_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	unsigned int other = other_cpu(test);
	unsigned long end;
	int i, before;

	/* Redirect even between CPUs that share a cache. */
	blk_queue_flag_set(QUEUE_FLAG_SAME_FORCE, q);
	WRITE_ONCE(blk_shallow_idle_hold_ms, 20);
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	for (i = 0; i < 5; i++) {
		before = atomic_read(&ctx->ended);
		end = jiffies + HZ;
		test_start(test, ctx);
		run_on_cpu(other, complete_remote_work_fn, ctx, q, 0);
		while (atomic_read(&ctx->ended) == before && time_before(jiffies, end))
			usleep_range(1000, 2000);
		KUNIT_ASSERT_EQ(test, atomic_read(&ctx->ended), before + 1);
		msleep(100);
	}
	KUNIT_EXPECT_EQ_MSG(test, blk_shallow_idle_raises(queue_hctx(q, 0)), 0,
			    "busy periods from 5 redirected requests 100 ms apart");
	blk_queue_flag_clear(QUEUE_FLAG_SAME_FORCE, q);
}

/* "auto" takes the limit from the CPU's cpuidle state table. */
static void blk_shallow_idle_auto_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;

	test_register_driver(test, ctx, &fake_drivers[0]);
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, BLK_SHALLOW_IDLE_AUTO), 0);
	test_stream(test, ctx);
	expect_all(test, q, 289, TEST_HOLD_MS / 2, "auto limit");
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, BLK_SHALLOW_IDLE_OFF), 0);
	expect_now(test, q, NO_LIMIT, "constrained after off");
}

/* With no cpuidle driver, a stream in @mode sets no request. */
static void expect_no_driver_no_request(struct kunit *test, int mode)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;

	test_unregister_driver(ctx);
	if (cpuidle_get_driver())
		kunit_skip(test, "cpuidle driver %s registered",
			   cpuidle_get_driver()->name);
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, mode), 0);
	test_stream(test, ctx);
	msleep(100);
	expect_now(test, q, NO_LIMIT, "constrained without a driver");
}

/* "auto" without a cpuidle driver constrains nothing. */
static void blk_shallow_idle_auto_no_driver_test(struct kunit *test)
{
	expect_no_driver_no_request(test, BLK_SHALLOW_IDLE_AUTO);
}

/*
 * An explicit limit without a cpuidle driver constrains nothing either:
 * readers other than cpuidle (ti_sci_suspend()) would take it at its word.
 */
static void blk_shallow_idle_explicit_no_driver_test(struct kunit *test)
{
	expect_no_driver_no_request(test, TEST_LIMIT_US);
}

/*
 * System suspend relaxes a raised queue at once, not a hold period later,
 * and nothing is raised until resume; then streams raise again.
 */
static void blk_shallow_idle_suspend_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2, "not raised");

	blk_shallow_idle_pm_notify(NULL, PM_SUSPEND_PREPARE, NULL);
	expect_now(test, q, NO_LIMIT, "still raised once suspend prepared");
	test_stream(test, ctx);
	test_stream(test, ctx);
	msleep(100);
	expect_now(test, q, NO_LIMIT, "raised while suspended");
	blk_shallow_idle_pm_notify(NULL, PM_POST_SUSPEND, NULL);

	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2,
		   "not raised after resume");
}

/* An explicit limit below the first non-polling state is clamped to it. */
static void blk_shallow_idle_clamp_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;

	test_register_driver(test, ctx, &fake_drivers[1]);
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, 1), 0);
	test_stream(test, ctx);
	expect_all(test, q, 2, TEST_HOLD_MS / 2, "explicit 1 us, C1 at 2 us");
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, 50), 0);
	test_stream(test, ctx);
	expect_all(test, q, 50, TEST_HOLD_MS / 2, "explicit 50 us");
}

/*
 * How long a change of the limits may take to be followed while a queue
 * stays raised: the limits are computed again at the first run of the work
 * item a second after they last were, and the work item runs once per
 * hold period.
 */
#define TEST_REFRESH_MS	(1000 + TEST_HOLD_MS + TEST_SLACK_MS)

/*
 * Keep a stream going (a request every tenth of a hold period) until @cpu's
 * resume latency is @value or @ms have passed: true if it is.
 */
static bool stream_until(struct kunit *test, struct test_ctx *ctx,
			 unsigned int cpu, s32 value, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (cpu_resume_latency(cpu) != value && time_before(jiffies, end)) {
		test_issue(test, ctx);
		msleep(TEST_HOLD_MS / 10);
	}
	return cpu_resume_latency(cpu) == value;
}

/* Disable or enable state @idx on the test CPU, as its sysfs file does. */
static void test_disable_state(int idx, bool disable)
{
	struct cpuidle_device *dev = per_cpu(cpuidle_devices, test_cpu);

	if (disable)
		dev->states_usage[idx].disable |= CPUIDLE_STATE_DISABLED_BY_USER;
	else
		dev->states_usage[idx].disable &= ~CPUIDLE_STATE_DISABLED_BY_USER;
}

/*
 * Raise the test CPU under @mode with the fake Sapphire Rapids driver (its
 * limit @value), then, while a stream keeps the queue raised, disable its
 * first @n states as the user does in sysfs (the limit must become
 * @disabled) and enable them again (@value again), all in one busy period.
 */
static void test_refresh_states(struct kunit *test, int mode, int n,
				s32 value, s32 disabled)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	int i;

	test_register_driver(test, ctx, &fake_drivers[0]);
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, mode), 0);
	test_stream(test, ctx);
	expect_all(test, q, value, TEST_HOLD_MS / 2, "raised");

	for (i = 0; i < n; i++)
		test_disable_state(i, true);
	KUNIT_EXPECT_TRUE_MSG(test, stream_until(test, ctx, test_cpu, disabled,
						 TEST_REFRESH_MS),
			      "%d states disabled while raised: %d, expected %d",
			      n, cpu_resume_latency(test_cpu), disabled);
	for (i = 0; i < n; i++)
		test_disable_state(i, false);
	KUNIT_EXPECT_TRUE_MSG(test, stream_until(test, ctx, test_cpu, value,
						 TEST_REFRESH_MS),
			      "enabled again while raised: %d, expected %d",
			      cpu_resume_latency(test_cpu), value);
	KUNIT_EXPECT_EQ_MSG(test, blk_shallow_idle_raises(queue_hctx(q, 0)), 1,
			    "the limits changed through a new busy period");
	expect_bystanders(test, q, "after the recompute");
}

/*
 * An explicit 1 us is clamped to C1 (1 us), to C1E (2 us) once C1 is
 * disabled while the queue stays raised, and to C1 again once it is
 * enabled.
 */
static void blk_shallow_idle_refresh_states_test(struct kunit *test)
{
	test_refresh_states(test, 1, 1, 1, 2);
}

/*
 * In "auto", a raised CPU whose shallow states (C1, C1E) are disabled
 * while its queue stays raised loses its request's limit (it would poll),
 * and gets the table's limit back once they are enabled again.
 */
static void blk_shallow_idle_refresh_auto_test(struct kunit *test)
{
	test_refresh_states(test, BLK_SHALLOW_IDLE_AUTO, 2, 289, NO_LIMIT);
}

/*
 * A cpuidle driver that registers while a queue is raised is followed: the
 * CPU held without a request (no driver, no limit) gets the table's limit
 * in the same busy period.
 */
static void blk_shallow_idle_refresh_driver_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	struct blk_mq_hw_ctx *hctx = queue_hctx(q, 0);

	test_unregister_driver(ctx);
	if (cpuidle_get_driver())
		kunit_skip(test, "cpuidle driver %s registered",
			   cpuidle_get_driver()->name);
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, BLK_SHALLOW_IDLE_AUTO), 0);
	test_stream(test, ctx);
	KUNIT_ASSERT_TRUE_MSG(test, wait_raises(hctx, 0, TEST_HOLD_MS / 2),
			      "no busy period without a driver");
	test_issue(test, ctx);
	expect_now(test, q, NO_LIMIT, "constrained without a driver");

	test_register_driver(test, ctx, &fake_drivers[0]);
	KUNIT_EXPECT_TRUE_MSG(test, stream_until(test, ctx, test_cpu, 289,
						 TEST_REFRESH_MS),
			      "driver registered while raised: %d, expected 289",
			      cpu_resume_latency(test_cpu));
	KUNIT_EXPECT_EQ_MSG(test, blk_shallow_idle_raises(hctx), 1,
			    "the limit came with a new busy period");
}

/* Every present CPU has resume latency @value within @ms. */
static void expect_present(struct kunit *test, s32 value, unsigned int ms,
			   const char *what)
{
	unsigned int cpu;

	for_each_present_cpu(cpu)
		KUNIT_EXPECT_TRUE_MSG(test, wait_resume_latency(cpu, value, ms),
				      "CPU%u %s: %d, expected %d", cpu, what,
				      cpu_resume_latency(cpu), value);
}

/* Every mapped hctx has state for exactly its mask, the others none. */
static void expect_state_follows_masks(struct kunit *test,
				       struct request_queue *q, unsigned int nr)
{
	struct blk_mq_hw_ctx *hctx;
	unsigned long i;

	KUNIT_EXPECT_EQ(test, q->nr_hw_queues, min(nr, nr_cpu_ids));
	queue_for_each_hw_ctx(q, hctx, i) {
		if (!blk_mq_hw_queue_mapped(hctx)) {
			KUNIT_EXPECT_EQ(test, blk_shallow_idle_nr_cpus(hctx), -1);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, blk_shallow_idle_nr_cpus(hctx),
				    cpumask_weight(hctx->cpumask),
				    "hctx%lu after %u queues", i, nr);
	}
}

/*
 * A remap of the hardware queues gives every hctx new state for its mask,
 * starting afresh: a raised queue is relaxed by the remap (its old hctxs
 * and their state are gone) and raised again by its next stream.
 */
static void blk_shallow_idle_remap_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	unsigned int nr[] = { 2, 4, 1 };
	int k;

	if (nr_cpu_ids < 2)
		kunit_skip(test, "one possible CPU: no remap changes the count");
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	/* One hctx for every CPU: a stream raises the test CPU. */
	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2, "not raised");
	for (k = 0; k < ARRAY_SIZE(nr); k++) {
		blk_mq_update_nr_hw_queues(&ctx->set, nr[k]);
		expect_state_follows_masks(test, q, nr[k]);
		if (k == 0)
			expect_present(test, NO_LIMIT, TEST_HOLD_MS / 2,
				       "still raised after the remap");
	}
	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2, "not raised after remap");
}

/*
 * A mode change and a remap of the hardware queues, each started from
 * inside the other through blk_shallow_idle_locked_hook: the one started
 * second runs in a work item and must wait until the first is done.
 */
struct locked_race {
	struct work_struct work;
	struct test_ctx *ctx;
	unsigned int nr;	/* hardware queues the remap asks for */
	int mode;		/* the mode the mode change writes */
	int ret;		/* what blk_shallow_idle_set_mode() returned */
	bool done;		/* the work item's call returned */
	bool done_early;	/* ... within 200 ms, inside the other one */
};

static struct locked_race *locked_race;

static void race_remap_fn(struct work_struct *work)
{
	struct locked_race *r = container_of(work, struct locked_race, work);

	blk_mq_update_nr_hw_queues(&r->ctx->set, r->nr);
	WRITE_ONCE(r->done, true);
}

static void race_mode_fn(struct work_struct *work)
{
	struct locked_race *r = container_of(work, struct locked_race, work);

	r->ret = blk_shallow_idle_set_mode(r->ctx->disk->queue, r->mode);
	WRITE_ONCE(r->done, true);
}

/* Called once, inside the first of the two: start the second, give it time. */
static void start_in_locked_window(struct request_queue *q)
{
	struct locked_race *r = READ_ONCE(locked_race);

	if (!r || q != r->ctx->disk->queue || cmpxchg(&locked_race, r, NULL) != r)
		return;
	queue_work(system_unbound_wq, &r->work);
	msleep(200);
	WRITE_ONCE(r->done_early, READ_ONCE(r->done));
}

static void clear_locked_hook(void *unused)
{
	WRITE_ONCE(blk_shallow_idle_locked_hook, NULL);
	WRITE_ONCE(locked_race, NULL);
}

/*
 * A race whose second call is @fn, with the hook armed for it; the test
 * clears the hook however it ends.
 */
static struct locked_race *arm_locked_race(struct kunit *test, work_func_t fn)
{
	struct locked_race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	INIT_WORK(&r->work, fn);
	r->ctx = test->priv;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, clear_locked_hook,
							NULL), 0);
	WRITE_ONCE(locked_race, r);
	WRITE_ONCE(blk_shallow_idle_locked_hook, start_in_locked_window);
	return r;
}

/*
 * A remap that starts while a mode change is between reading the number of
 * hardware queues and publishing state for them waits for it (the tag
 * set's tag_list_lock), and then gives the new hctxs state in the new
 * mode: a mode change that allocated outside the lock would publish state
 * for hctxs that the remap has freed.
 */
static void blk_shallow_idle_mode_during_remap_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	struct locked_race *r;

	if (nr_cpu_ids < 2)
		kunit_skip(test, "one possible CPU: no remap changes the count");
	r = arm_locked_race(test, race_remap_fn);
	r->nr = 2;
	KUNIT_EXPECT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	flush_work(&r->work);
	clear_locked_hook(NULL);
	KUNIT_ASSERT_TRUE_MSG(test, r->done, "the remap never ran");
	KUNIT_EXPECT_FALSE_MSG(test, r->done_early,
			       "the remap ran inside the mode change");
	KUNIT_EXPECT_EQ(test, READ_ONCE(q->shallow_idle_mode), TEST_LIMIT_US);
	expect_state_follows_masks(test, q, 2);
	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2,
		   "not raised after the mode change and the remap");
}

/*
 * The other way round: a mode change that starts while a remap is under
 * way waits for it, and then gives every new hctx state for its mask.
 */
static void blk_shallow_idle_remap_during_mode_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	struct locked_race *r;

	if (nr_cpu_ids < 2)
		kunit_skip(test, "one possible CPU: no remap changes the count");
	r = arm_locked_race(test, race_mode_fn);
	r->mode = TEST_LIMIT_US;
	blk_mq_update_nr_hw_queues(&ctx->set, 2);
	flush_work(&r->work);
	clear_locked_hook(NULL);
	KUNIT_ASSERT_TRUE_MSG(test, r->done, "the mode change never ran");
	KUNIT_EXPECT_FALSE_MSG(test, r->done_early,
			       "the mode change ran inside the remap");
	KUNIT_EXPECT_EQ(test, r->ret, 0);
	expect_state_follows_masks(test, q, 2);
	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2,
		   "not raised after the remap and the mode change");
}

/* Bring @cpu back online; 0 or the error, which fails the test. */
static int test_cpu_up(struct kunit *test, unsigned int cpu)
{
	int ret = add_cpu(cpu);

	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "CPU%u did not come back online", cpu);
	return ret;
}

/*
 * CPU hotplug: a CPU taken offline while raised is relaxed as usual and
 * holds no constraint when it comes back; a CPU that comes back while its
 * queue is raised is raised again by its first completion.
 */
static void blk_shallow_idle_hotplug_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	struct blk_mq_hw_ctx *hctx = queue_hctx(q, 0);
	unsigned int other = other_cpu(test);
	unsigned long raises;
	int ret;

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	run_on_cpu(other, issue_work_fn, ctx, q, 2);
	KUNIT_ASSERT_TRUE_MSG(test, wait_resume_latency(other, TEST_LIMIT_US,
							TEST_HOLD_MS / 2),
			      "CPU%u not raised by its stream", other);
	ret = remove_cpu(other);
	if (ret)
		kunit_skip(test, "CPU%u cannot go offline: %d", other, ret);
	KUNIT_EXPECT_TRUE_MSG(test, wait_resume_latency(other, NO_LIMIT,
							TEST_RELAX_MS),
			      "CPU%u offline and not relaxed: %d", other,
			      cpu_resume_latency(other));
	if (test_cpu_up(test, other))
		return;
	msleep(100);
	KUNIT_EXPECT_EQ_MSG(test, cpu_resume_latency(other), NO_LIMIT,
			    "CPU%u relaxed while offline holds a limit when back",
			    other);

	/* Offline and back while the test CPU's stream keeps the queue raised. */
	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2, "not raised");
	raises = blk_shallow_idle_raises(hctx);
	ret = remove_cpu(other);
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "CPU%u cannot go offline again", other);
	test_issue(test, ctx);
	if (!ret && test_cpu_up(test, other))
		return;
	test_issue(test, ctx);
	run_on_cpu(other, issue_work_fn, ctx, q, 1);
	KUNIT_EXPECT_TRUE_MSG(test, wait_resume_latency(other, TEST_LIMIT_US,
							TEST_HOLD_MS / 2),
			      "CPU%u back during a busy period, not raised by its I/O",
			      other);
	KUNIT_EXPECT_EQ_MSG(test, blk_shallow_idle_raises(hctx), raises,
			    "the hotplug outlasted the busy period");
}

struct set_mode_ctx {
	struct work_struct work;
	struct request_queue *q;
	int mode;
	int ret;
	struct completion done;
};

static void set_mode_work_fn(struct work_struct *work)
{
	struct set_mode_ctx *m = container_of(work, struct set_mode_ctx, work);

	m->ret = blk_shallow_idle_set_mode(m->q, m->mode);
	complete(&m->done);
}

/*
 * A mode change waits for no request in flight: with one request stuck in
 * the driver (a stalled controller), enabling, changing and disabling the
 * policy each return at once, and the request completes afterwards.
 */
static void blk_shallow_idle_mode_no_freeze_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	int modes[] = { TEST_LIMIT_US, BLK_SHALLOW_IDLE_AUTO, BLK_SHALLOW_IDLE_OFF };
	struct set_mode_ctx *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	int k;

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->q = q;
	test_start(test, ctx);
	for (k = 0; k < ARRAY_SIZE(modes); k++) {
		INIT_WORK(&m->work, set_mode_work_fn);
		init_completion(&m->done);
		m->mode = modes[k];
		queue_work(system_dfl_wq, &m->work);
		if (!wait_for_completion_timeout(&m->done,
						 msecs_to_jiffies(TEST_HOLD_MS))) {
			KUNIT_FAIL(test, "mode change %d waited for a request in flight",
				   modes[k]);
			/* Let it finish before the test tears the queue down. */
			test_complete(ctx);
			flush_work(&m->work);
			return;
		}
		KUNIT_EXPECT_EQ(test, m->ret, 0);
	}
	test_complete(ctx);
}

/*
 * Tearing the queue down while raised leaves no request behind, once the
 * state detached during the teardown has been freed by its work item.
 */
static void blk_shallow_idle_teardown_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;

	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, TEST_LIMIT_US), 0);
	test_stream(test, ctx);
	expect_all(test, q, TEST_LIMIT_US, TEST_HOLD_MS / 2, "not raised");

	put_disk(ctx->disk);
	blk_mq_free_tag_set(&ctx->set);
	ctx->disk = NULL;

	expect_present(test, NO_LIMIT, 1000, "still constrained");
}

/* Invalid modes fail and change nothing. */
static void blk_shallow_idle_bad_mode_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, blk_shallow_idle_set_mode(q, BLK_SHALLOW_IDLE_AUTO), 0);
	KUNIT_EXPECT_EQ(test, blk_shallow_idle_set_mode(q, -2), -EINVAL);
	KUNIT_EXPECT_EQ(test, blk_shallow_idle_set_mode(q, 0 - 100), -EINVAL);
	KUNIT_EXPECT_EQ(test,
			blk_shallow_idle_set_mode(q, BLK_SHALLOW_IDLE_MAX_US + 1),
			-EINVAL);
	queue_shallow_idle_show(ctx->disk, buf);
	KUNIT_EXPECT_STREQ(test, buf, "auto\n");
	/* The mode in force again: nothing to do. */
	KUNIT_EXPECT_EQ(test, blk_shallow_idle_set_mode(q, BLK_SHALLOW_IDLE_AUTO), 0);
}

static struct kunit_case blk_shallow_idle_test_cases[] = {
	KUNIT_CASE_PARAM(blk_shallow_idle_parse_test, parse_gen_params),
	KUNIT_CASE(blk_shallow_idle_enable_test),
	KUNIT_CASE(blk_shallow_idle_sparse_test),
	KUNIT_CASE(blk_shallow_idle_sparse_edge_test),
	KUNIT_CASE(blk_shallow_idle_stream_test),
	KUNIT_CASE(blk_shallow_idle_hold_test),
	KUNIT_CASE(blk_shallow_idle_relax_bound_test),
	KUNIT_CASE(blk_shallow_idle_relax_bound_late_test),
	KUNIT_CASE(blk_shallow_idle_stall_test),
	KUNIT_CASE(blk_shallow_idle_blocking_test),
	KUNIT_CASE(blk_shallow_idle_handshake_test),
	KUNIT_CASE(blk_shallow_idle_relax_window_test),
	KUNIT_CASE(blk_shallow_idle_kick_during_relax_test),
	KUNIT_CASE(blk_shallow_idle_work_rate_test),
	KUNIT_CASE(blk_shallow_idle_debugfs_test),
	KUNIT_CASE(blk_shallow_idle_hctx_types_test),
	KUNIT_CASE(blk_shallow_idle_join_test),
	KUNIT_CASE(blk_shallow_idle_completion_cpu_test),
	KUNIT_CASE(blk_shallow_idle_requeue_test),
	KUNIT_CASE(blk_shallow_idle_redirect_sparse_test),
	KUNIT_CASE(blk_shallow_idle_auto_test),
	KUNIT_CASE(blk_shallow_idle_auto_no_driver_test),
	KUNIT_CASE(blk_shallow_idle_explicit_no_driver_test),
	KUNIT_CASE(blk_shallow_idle_suspend_test),
	KUNIT_CASE(blk_shallow_idle_clamp_test),
	KUNIT_CASE(blk_shallow_idle_refresh_states_test),
	KUNIT_CASE(blk_shallow_idle_refresh_auto_test),
	KUNIT_CASE(blk_shallow_idle_refresh_driver_test),
	KUNIT_CASE(blk_shallow_idle_remap_test),
	KUNIT_CASE(blk_shallow_idle_mode_during_remap_test),
	KUNIT_CASE(blk_shallow_idle_remap_during_mode_test),
	KUNIT_CASE(blk_shallow_idle_hotplug_test),
	KUNIT_CASE(blk_shallow_idle_mode_no_freeze_test),
	KUNIT_CASE(blk_shallow_idle_teardown_test),
	KUNIT_CASE(blk_shallow_idle_bad_mode_test),
	{}
};

static struct kunit_suite blk_shallow_idle_test_suite = {
	.name = "blk_shallow_idle",
	.init = test_init,
	.exit = test_exit,
	.test_cases = blk_shallow_idle_test_cases,
};

kunit_test_suite(blk_shallow_idle_test_suite);
