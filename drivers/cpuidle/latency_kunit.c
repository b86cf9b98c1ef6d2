// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test for the cpuidle latency limits (latency.c).
 *
 * The state tables are those of current platforms as registered by
 * intel_idle, acpi_idle, cpuidle-psci, cpuidle-powernv and cpuidle-haltpoll,
 * with the flags those drivers set. A fake driver registered for the test
 * runs cpuidle_latency_limits() end to end.
 */

#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/module.h>

#include "cpuidle.h"

#define S(_name, _exit_us, _flags)					\
	{ .name = _name, .exit_latency_ns = (u64)(_exit_us) * NSEC_PER_USEC, \
	  .flags = (_flags) }
#define POLL		S("POLL", 0, CPUIDLE_FLAG_POLLING)
#define TLB		CPUIDLE_FLAG_TLB_FLUSHED
#define TSTOP		CPUIDLE_FLAG_TIMER_STOP
#define OFF		CPUIDLE_FLAG_OFF

/**
 * struct shallow_case - One state table and what the rule must make of it.
 * @desc: platform.
 * @drv: the table.
 * @expected: the limit, or the error.
 * @anchor: index of the state the limit must still admit (-1: none).
 */
struct shallow_case {
	const char *desc;
	struct cpuidle_driver drv;
	s32 expected;
	int anchor;
};

#define CASE(_desc, _expected, _anchor, ...)				\
	{								\
		.desc = _desc,						\
		.drv = {						\
			.name = "test",					\
			.states = { __VA_ARGS__ },			\
			.state_count = ARRAY_SIZE(((struct cpuidle_state[]){ __VA_ARGS__ })), \
		},							\
		.expected = _expected,					\
		.anchor = _anchor,					\
	}

static const struct shallow_case shallow_cases[] = {
	/* intel_idle: C1 and C1E are the shallow class. */
	CASE("SPR/EMR", 289, 2,
	     POLL, S("C1", 1, 0), S("C1E", 2, 0), S("C6", 290, TLB)),
	CASE("SPR, PC6 off", 189, 2,
	     POLL, S("C1", 1, 0), S("C1E", 2, 0), S("C6", 190, TLB)),
	CASE("ICX", 169, 2,
	     POLL, S("C1", 1, 0), S("C1E", 4, 0), S("C6", 170, TLB)),
	CASE("GNR-X", 169, 2,
	     POLL, S("C1", 1, 0), S("C1E", 4, 0), S("C6", 170, TLB),
	     S("C6P", 210, TLB)),
	CASE("SKX", 132, 2,
	     POLL, S("C1", 2, 0), S("C1E", 10, 0), S("C6", 133, TLB)),
	CASE("SRF", 269, 2,
	     POLL, S("C1", 1, 0), S("C1E", 2, 0), S("C6S", 270, TLB),
	     S("C6SP", 310, TLB)),
	CASE("SNR, C1E at 15 us is still shallow", 129, 2,
	     POLL, S("C1", 2, 0), S("C1E", 15, 0), S("C6", 130, TLB)),
	CASE("ADL, C1 unusable", 219, 1,
	     POLL, S("C1E", 2, 0), S("C6", 220, TLB), S("C8", 280, TLB),
	     S("C10", 680, TLB)),
	CASE("MTL-L, C1E 1 us", 139, 1,
	     POLL, S("C1E", 1, 0), S("C6", 140, TLB), S("C10", 310, TLB)),
	/* Disabled states (OFF: as registered, or by the user in sysfs). */
	CASE("SPR, C1 missing from _CST: C1E is the anchor", 289, 2,
	     POLL, S("C1", 1, OFF), S("C1E", 2, 0), S("C6", 290, TLB)),
	CASE("C1E disabled: C1 is the anchor, C6 still the bound", 289, 1,
	     POLL, S("C1", 1, 0), S("C1E", 2, OFF), S("C6", 290, TLB)),
	CASE("C1 and C1E disabled: no limit, it would leave only POLL", -ENOENT,
	     -1, POLL, S("C1", 1, OFF), S("C1E", 2, OFF),
	     S("C6", 290, TLB)),
	CASE("GNR-X, C6 disabled is still rejected", 169, 2,
	     POLL, S("C1", 1, 0), S("C1E", 4, 0), S("C6", 170, TLB | OFF),
	     S("C6P", 210, TLB)),
	CASE("ADL, C1E unusable (driver) and no C1: no limit", -ENOENT, -1,
	     POLL, S("C1E", 2, CPUIDLE_FLAG_UNUSABLE), S("C6", 220, TLB)),
	CASE("ARM PSCI, WFI disabled: no limit", -ENOENT, -1,
	     S("WFI", 1, OFF), S("cpu-sleep", 370, TSTOP)),
	CASE("next state 1 us slower than the anchor", 10, 2,
	     POLL, S("C1", 2, 0), S("C1E", 10, 0), S("C6", 11, TLB)),
	CASE("old Atom, unflagged MWAIT C2 at 20 us", 19, 1,
	     POLL, S("C1E", 10, 0), S("C2", 20, 0), S("C4", 100, TLB),
	     S("C6", 140, TLB)),
	/*
	 * ACPI _CST (acpi_idle, intel_idle without a table): only C3-type
	 * states flush the TLB, so C2 (CC6 on AMD) is told from C1 by its
	 * exit latency alone.
	 */
	CASE("RPL _CST, unflagged C2_ACPI", 126, 1,
	     POLL, S("C1_ACPI", 1, 0), S("C2_ACPI", 127, 0),
	     S("C3_ACPI", 1048, TLB)),
	CASE("AMD Zen, C2 18 us", 17, 1,
	     POLL, S("C1", 1, 0), S("C2", 18, 0), S("C3", 350, TLB)),
	CASE("AMD Zen, unflagged C2 (CC6) at 16 us is rejected", 15, 1,
	     POLL, S("C1", 1, 0), S("C2", 16, 0)),
	CASE("unflagged C2 reported at 15 us is taken for shallow", -ENOENT, -1,
	     POLL, S("C1", 1, 0), S("C2", 15, 0)),
	CASE("AMD Zen, C2 400 us", 399, 1,
	     POLL, S("C1", 1, 0), S("C2", 400, 0)),
	/* Other architectures. */
	CASE("ARM PSCI", 369, 0,
	     S("WFI", 1, 0), S("cpu-sleep", 370, TSTOP),
	     S("cluster-sleep", 900, TSTOP)),
	CASE("POWER9 powernv", 99, 4,
	     S("snooze", 0, CPUIDLE_FLAG_POLLING), S("stop0_lite", 1, 0),
	     S("stop0", 2, 0), S("stop1", 5, 0), S("stop2", 10, 0),
	     S("stop4", 100, 0), S("stop5", 200, 0)),
	CASE("POWER10 powernv", 19, 2,
	     S("snooze", 0, CPUIDLE_FLAG_POLLING), S("stop0_lite", 1, 0),
	     S("stop0", 10, 0), S("stop2", 20, 0), S("stop3", 45, 0)),
	CASE("the class ends above the residency threshold (15 us)", 15, 2,
	     POLL, S("C1", 1, 0), S("C1E", 15, 0), S("C2", 16, 0)),
	CASE("the class ends at a TLB-flushing state", 14, 1,
	     POLL, S("C1", 2, 0), S("C6", 15, TLB)),
	/* No limit: nothing to reject, or nothing to anchor on. */
	CASE("haltpoll: POLL and C1 only", -ENOENT, -1,
	     POLL, S("haltpoll idle", 1, 0)),
	CASE("deeper state no slower than the anchor", -ENOENT, -1,
	     POLL, S("C1", 1, 0), S("C1E", 10, 0), S("C6", 10, TLB)),
	CASE("single state", -EOPNOTSUPP, -1, S("C1", 1, 0)),
	CASE("no shallow state", -ENOENT, -1,
	     POLL, S("C2", 100, 0), S("C3", 400, TLB)),
};

static void shallow_case_desc(const struct shallow_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(shallow, shallow_cases, shallow_case_desc);

/* The states disabled on a CPU the table is registered for, as cpuidle does. */
static unsigned long table_disabled(const struct cpuidle_driver *drv)
{
	unsigned long disabled = 0;
	int i;

	for (i = 0; i < drv->state_count; i++) {
		if (drv->states[i].flags & (OFF | CPUIDLE_FLAG_UNUSABLE))
			disabled |= BIT(i);
	}
	return disabled;
}

/* The rule gives the expected limit for each table. */
static void cpuidle_shallow_table_test(struct kunit *test)
{
	const struct shallow_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, cpuidle_driver_shallow_latency(&c->drv,
							     table_disabled(&c->drv)),
			c->expected);
}

/*
 * Whatever the limit returned, the governors (which admit an enabled state
 * whose exit latency is at most the limit) keep the anchor and every
 * shallower enabled non-polling state, reject every deeper enabled state,
 * and do not poll.
 */
static void cpuidle_shallow_admits_anchor_test(struct kunit *test)
{
	const struct shallow_case *c = test->param_value;
	unsigned long disabled = table_disabled(&c->drv);
	s32 limit = cpuidle_driver_shallow_latency(&c->drv, disabled);
	u64 limit_ns;
	int i;

	if (c->anchor < 0) {
		KUNIT_EXPECT_LT(test, limit, 0);
		return;
	}
	KUNIT_ASSERT_GT(test, limit, 0);
	KUNIT_EXPECT_GE(test, limit, cpuidle_driver_min_latency(&c->drv, disabled));

	limit_ns = (u64)limit * NSEC_PER_USEC;
	for (i = 0; i < c->drv.state_count; i++) {
		const struct cpuidle_state *s = &c->drv.states[i];

		if (s->flags & CPUIDLE_FLAG_POLLING || disabled & BIT(i))
			continue;
		if (i <= c->anchor)
			KUNIT_EXPECT_LE_MSG(test, s->exit_latency_ns, limit_ns,
					    "state %s rejected", s->name);
		else
			KUNIT_EXPECT_GT_MSG(test, s->exit_latency_ns, limit_ns,
					    "state %s admitted", s->name);
	}
}

struct min_case {
	const char *desc;
	struct cpuidle_driver drv;
	s32 expected;
};

#define MIN_CASE(_desc, _expected, ...)					\
	{								\
		.desc = _desc,						\
		.drv = {						\
			.name = "test",					\
			.states = { __VA_ARGS__ },			\
			.state_count = ARRAY_SIZE(((struct cpuidle_state[]){ __VA_ARGS__ })), \
		},							\
		.expected = _expected,					\
	}

static const struct min_case min_cases[] = {
	MIN_CASE("SPR: C1", 1,
		 POLL, S("C1", 1, 0), S("C1E", 2, 0), S("C6", 290, TLB)),
	MIN_CASE("SKX: C1 at 2 us", 2,
		 POLL, S("C1", 2, 0), S("C1E", 10, 0), S("C6", 133, TLB)),
	MIN_CASE("ADL: C1E, C1 unusable", 2,
		 POLL, S("C1E", 2, 0), S("C6", 220, TLB)),
	MIN_CASE("ARM: WFI, no polling state", 1,
		 S("WFI", 1, 0), S("cpu-sleep", 370, TSTOP)),
	MIN_CASE("exit latency below 1 us rounds up to 1", 1,
		 POLL, S("C1", 0, 0)),
	MIN_CASE("SPR, C1 missing from _CST: C1E", 2,
		 POLL, S("C1", 1, OFF), S("C1E", 2, 0), S("C6", 290, TLB)),
	MIN_CASE("C1 and C1E disabled: C6", 290,
		 POLL, S("C1", 1, OFF), S("C1E", 2, OFF),
		 S("C6", 290, TLB)),
	MIN_CASE("polling only", -ENOENT, POLL),
	MIN_CASE("every non-polling state disabled", -ENOENT,
		 POLL, S("C1", 1, OFF), S("C6", 290, TLB | OFF)),
};

static void min_case_desc(const struct min_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(min, min_cases, min_case_desc);

/* The floor for explicit limits is the first enabled non-polling exit latency. */
static void cpuidle_min_latency_test(struct kunit *test)
{
	const struct min_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, cpuidle_driver_min_latency(&c->drv,
							 table_disabled(&c->drv)),
			c->expected);
}

static int fake_enter(struct cpuidle_device *dev, struct cpuidle_driver *drv,
		      int index)
{
	return index;
}

/* Sapphire Rapids as intel_idle registers it, entering nothing. */
static struct cpuidle_driver fake_spr_driver = {
	.name = "kunit_spr",
	.states = {
		{ .name = "C1", .exit_latency = 1, .target_residency = 1,
		  .enter = fake_enter },
		{ .name = "C1E", .exit_latency = 2, .target_residency = 4,
		  .enter = fake_enter },
		{ .name = "C6", .exit_latency = 290, .target_residency = 800,
		  .flags = CPUIDLE_FLAG_TLB_FLUSHED, .enter = fake_enter },
	},
	.state_count = 3,
};

/* Room for the limits of every possible CPU. */
static struct cpuidle_cpu_latency *alloc_limits(struct kunit *test)
{
	struct cpuidle_cpu_latency *lim;

	lim = kunit_kcalloc(test, num_possible_cpus(), sizeof(*lim), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lim);
	/* No entry is right by chance. */
	memset(lim, 0x5a, num_possible_cpus() * sizeof(*lim));
	return lim;
}

/*
 * With a driver registered for the online CPUs, each of them gets the
 * limits of its table, in the order of the mask, and the other CPUs none;
 * once the driver is gone, no CPU gets one.
 */
static void cpuidle_cpu_limit_test(struct kunit *test)
{
	struct cpuidle_cpu_latency *lim;
	unsigned int cpu, i = 0;
	int ret;

	if (cpuidle_get_driver())
		kunit_skip(test, "cpuidle driver %s already registered",
			   cpuidle_get_driver()->name);

	fake_spr_driver.cpumask = (struct cpumask *)cpu_online_mask;
	ret = cpuidle_register(&fake_spr_driver, NULL);
	KUNIT_ASSERT_EQ(test, ret, 0);

	lim = alloc_limits(test);
	cpus_read_lock();
	cpuidle_latency_limits(cpu_possible_mask, lim);
	for_each_possible_cpu(cpu) {
		/* The driver was registered for the online CPUs. */
		bool on = cpu_online(cpu);

		KUNIT_EXPECT_EQ_MSG(test, lim[i].shallow, on ? 289 : -ENODEV,
				    "CPU%u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, lim[i].min, on ? 1 : -ENODEV,
				    "CPU%u", cpu);
		i++;
	}
	cpus_read_unlock();

	cpuidle_unregister(&fake_spr_driver);

	lim = alloc_limits(test);
	cpuidle_latency_limits(cpu_possible_mask, lim);
	for (i = 0; i < num_possible_cpus(); i++) {
		KUNIT_EXPECT_EQ_MSG(test, lim[i].shallow, -ENODEV, "entry %u", i);
		KUNIT_EXPECT_EQ_MSG(test, lim[i].min, -ENODEV, "entry %u", i);
	}
}

/* Set or clear the user's disable bit of state @idx on every online CPU. */
static void set_user_disabled(int idx, bool disable)
{
	struct cpuidle_device *dev;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		dev = per_cpu(cpuidle_devices, cpu);
		if (disable)
			dev->states_usage[idx].disable |= CPUIDLE_STATE_DISABLED_BY_USER;
		else
			dev->states_usage[idx].disable &= ~CPUIDLE_STATE_DISABLED_BY_USER;
	}
}

/* Every online CPU has the limits @shallow and @min. */
static void expect_online_limits(struct kunit *test, s32 shallow, s32 min,
				 const char *what)
{
	struct cpuidle_cpu_latency *lim = alloc_limits(test);
	unsigned int i;

	cpus_read_lock();
	cpuidle_latency_limits(cpu_online_mask, lim);
	for (i = 0; i < num_online_cpus(); i++) {
		KUNIT_EXPECT_EQ_MSG(test, lim[i].shallow, shallow, "%s", what);
		KUNIT_EXPECT_EQ_MSG(test, lim[i].min, min, "%s", what);
	}
	cpus_read_unlock();
}

/*
 * States disabled on the CPUs, as the user does in sysfs, are followed at
 * the next call: C1 disabled raises the floor to C1E, C1 and C1E disabled
 * leave no shallow limit (it would make the CPU poll), and enabling them
 * again gives the first limits back.
 */
static void cpuidle_disabled_states_test(struct kunit *test)
{
	if (cpuidle_get_driver())
		kunit_skip(test, "cpuidle driver %s already registered",
			   cpuidle_get_driver()->name);

	fake_spr_driver.cpumask = (struct cpumask *)cpu_online_mask;
	KUNIT_ASSERT_EQ(test, cpuidle_register(&fake_spr_driver, NULL), 0);

	expect_online_limits(test, 289, 1, "all states enabled");
	set_user_disabled(0, true);
	expect_online_limits(test, 289, 2, "C1 disabled");
	set_user_disabled(1, true);
	expect_online_limits(test, -ENOENT, 290, "C1 and C1E disabled");
	set_user_disabled(0, false);
	set_user_disabled(1, false);
	expect_online_limits(test, 289, 1, "enabled again");

	cpuidle_unregister(&fake_spr_driver);
}

static struct kunit_case cpuidle_latency_test_cases[] = {
	KUNIT_CASE_PARAM(cpuidle_shallow_table_test, shallow_gen_params),
	KUNIT_CASE_PARAM(cpuidle_shallow_admits_anchor_test, shallow_gen_params),
	KUNIT_CASE_PARAM(cpuidle_min_latency_test, min_gen_params),
	KUNIT_CASE(cpuidle_cpu_limit_test),
	KUNIT_CASE(cpuidle_disabled_states_test),
	{}
};

static struct kunit_suite cpuidle_latency_test_suite = {
	.name = "cpuidle_latency",
	.test_cases = cpuidle_latency_test_cases,
};

kunit_test_suite(cpuidle_latency_test_suite);

MODULE_DESCRIPTION("KUnit test for the cpuidle latency limits");
MODULE_LICENSE("GPL");
