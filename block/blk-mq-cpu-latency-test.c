// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test for blk-mq CPU latency QoS (blk-mq-cpu-latency.c).
 *
 * The parser is tested as a function. The state machine
 * is driven through a real request queue of a minimal blk-mq driver with one
 * hardware queue, and observed where it matters: the resume latency PM QoS
 * of the CPU devices.
 */

#include <kunit/test.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/pm_qos.h>

#include "blk-mq-cpu-latency.h"

struct parse_case {
	const char *in;
	int ret;
	int mode;
};

static const struct parse_case parse_cases[] = {
	{ "off", 0, BLK_MQ_CPU_LAT_OFF },
	{ "off\n", 0, BLK_MQ_CPU_LAT_OFF },
	{ "auto", 0, BLK_MQ_CPU_LAT_AUTO },
	{ "auto\n", 0, BLK_MQ_CPU_LAT_AUTO },
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

static void blk_mq_cpu_lat_parse_test(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	int mode = 12345;

	KUNIT_EXPECT_EQ(test, blk_mq_cpu_lat_parse(c->in, &mode), c->ret);
	KUNIT_EXPECT_EQ(test, mode, c->ret ? 12345 : c->mode);
}

struct test_ctx {
	struct blk_mq_tag_set set;
	struct gendisk *disk;
	bool hold;		/* keep the next request in flight */
	struct request *held;	/* the request kept in flight */
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
	if (READ_ONCE(ctx->hold))
		WRITE_ONCE(ctx->held, bd->rq);
	else
		blk_mq_end_request(bd->rq, BLK_STS_OK);
	return BLK_STS_OK;
}

static const struct blk_mq_ops test_mq_ops = {
	.queue_rq = test_queue_rq,
};

static int test_init(struct kunit *test)
{
	struct test_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->set.ops = &test_mq_ops;
	ctx->set.nr_hw_queues = 1;
	ctx->set.queue_depth = 4;
	ctx->set.numa_node = NUMA_NO_NODE;
	KUNIT_ASSERT_EQ(test, blk_mq_alloc_tag_set(&ctx->set), 0);
	ctx->disk = blk_mq_alloc_disk(&ctx->set, NULL, ctx);
	if (IS_ERR(ctx->disk)) {
		blk_mq_free_tag_set(&ctx->set);
		KUNIT_FAIL(test, "blk_mq_alloc_disk: %pe", ctx->disk);
		return PTR_ERR(ctx->disk);
	}
	test->priv = ctx;
	return 0;
}

static void test_exit(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;

	if (!ctx)
		return;
	put_disk(ctx->disk);
	blk_mq_free_tag_set(&ctx->set);
}

static int test_set_mode(struct request_queue *q, int mode)
{
	int ret;

	down_write(&q->tag_set->update_nr_hwq_lock);
	ret = blk_mq_cpu_lat_set_mode(q, mode);
	up_write(&q->tag_set->update_nr_hwq_lock);
	return ret;
}

static enum rq_end_io_ret test_end_io(struct request *rq, blk_status_t error,
				      const struct io_comp_batch *iob)
{
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

/* Resume latency limit of @cpu now in force, from every request. */
static s32 cpu_resume_latency(unsigned int cpu)
{
	return dev_pm_qos_raw_resume_latency(get_cpu_device(cpu));
}

/* Wait up to a second for @cpu's resume latency to become @value. */
static bool wait_resume_latency(unsigned int cpu, s32 value)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (cpu_resume_latency(cpu) == value)
			return true;
		usleep_range(1000, 2000);
	}
	return false;
}

#define TEST_LIMIT_US	4242
#define NO_LIMIT	PM_QOS_RESUME_LATENCY_NO_CONSTRAINT

/* Every CPU of the queue's only hctx. */
#define for_each_test_cpu(cpu, q) \
	for_each_cpu(cpu, queue_hctx((q), 0)->cpumask)

static void blk_mq_cpu_lat_cycle_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	unsigned int cpu;

	for_each_test_cpu(cpu, q)
		KUNIT_ASSERT_GT_MSG(test, cpu_resume_latency(cpu), TEST_LIMIT_US,
				    "CPU%u already constrained", cpu);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, test_set_mode(q, TEST_LIMIT_US), 0);
	blk_mq_cpu_lat_show(q, buf);
	KUNIT_EXPECT_STREQ(test, buf, "4242\n");

	/* Enabled but idle: no constraint yet. */
	msleep(20);
	for_each_test_cpu(cpu, q)
		KUNIT_EXPECT_GT(test, cpu_resume_latency(cpu), TEST_LIMIT_US);

	/*
	 * The first request raises every CPU of the hctx, and they stay raised
	 * while it is in flight, however long...
	 */
	test_start(test, ctx);
	for_each_test_cpu(cpu, q)
		KUNIT_EXPECT_TRUE_MSG(test, wait_resume_latency(cpu, TEST_LIMIT_US),
				      "CPU%u not raised", cpu);
	msleep(50);
	for_each_test_cpu(cpu, q)
		KUNIT_EXPECT_EQ_MSG(test, cpu_resume_latency(cpu), TEST_LIMIT_US,
				    "CPU%u relaxed with I/O in flight", cpu);

	/* ...idle beyond the hold period relaxes them... */
	test_complete(ctx);
	for_each_test_cpu(cpu, q)
		KUNIT_EXPECT_TRUE_MSG(test, wait_resume_latency(cpu, NO_LIMIT),
				      "CPU%u not relaxed", cpu);

	/* ...and the next busy period raises them again. */
	test_start(test, ctx);
	for_each_test_cpu(cpu, q)
		KUNIT_EXPECT_TRUE(test, wait_resume_latency(cpu, TEST_LIMIT_US));
	test_complete(ctx);

	/* Disabling removes every request at once. */
	KUNIT_ASSERT_EQ(test, test_set_mode(q, BLK_MQ_CPU_LAT_OFF), 0);
	for_each_test_cpu(cpu, q)
		KUNIT_EXPECT_EQ(test, cpu_resume_latency(cpu),
				PM_QOS_RESUME_LATENCY_NO_CONSTRAINT);
	blk_mq_cpu_lat_show(q, buf);
	KUNIT_EXPECT_STREQ(test, buf, "off\n");
}

/*
 * Tearing the queue down while raised leaves no request behind, once the
 * state detached during the teardown has been freed by its work item.
 */
static void blk_mq_cpu_lat_teardown_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	unsigned int cpu;

	KUNIT_ASSERT_EQ(test, test_set_mode(q, TEST_LIMIT_US), 0);
	test_start(test, ctx);
	for_each_test_cpu(cpu, q)
		KUNIT_EXPECT_TRUE(test, wait_resume_latency(cpu, TEST_LIMIT_US));
	test_complete(ctx);

	put_disk(ctx->disk);
	blk_mq_free_tag_set(&ctx->set);
	test->priv = NULL;

	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_TRUE_MSG(test, wait_resume_latency(cpu, NO_LIMIT),
				      "CPU%u still constrained", cpu);
}

/* Invalid modes fail and change nothing. */
static void blk_mq_cpu_lat_bad_mode_test(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct request_queue *q = ctx->disk->queue;
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, test_set_mode(q, BLK_MQ_CPU_LAT_AUTO), 0);
	KUNIT_EXPECT_EQ(test, test_set_mode(q, -2), -EINVAL);
	KUNIT_EXPECT_EQ(test, test_set_mode(q, BLK_MQ_CPU_LAT_MAX_US + 1),
			-EINVAL);
	blk_mq_cpu_lat_show(q, buf);
	KUNIT_EXPECT_STREQ(test, buf, "auto\n");
	KUNIT_EXPECT_EQ(test, test_set_mode(q, BLK_MQ_CPU_LAT_OFF), 0);
}

static struct kunit_case blk_mq_cpu_lat_test_cases[] = {
	KUNIT_CASE_PARAM(blk_mq_cpu_lat_parse_test, parse_gen_params),
	KUNIT_CASE(blk_mq_cpu_lat_cycle_test),
	KUNIT_CASE(blk_mq_cpu_lat_teardown_test),
	KUNIT_CASE(blk_mq_cpu_lat_bad_mode_test),
	{}
};

static struct kunit_suite blk_mq_cpu_lat_test_suite = {
	.name = "blk_mq_cpu_latency",
	.init = test_init,
	.exit = test_exit,
	.test_cases = blk_mq_cpu_lat_test_cases,
};

kunit_test_suite(blk_mq_cpu_lat_test_suite);
