// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test for the cpuidle shallow latency limit (latency.c).
 *
 * The state tables are those of current platforms as registered by
 * intel_idle, acpi_idle, cpuidle-psci, cpuidle-powernv and cpuidle-haltpoll.
 */

#include <kunit/test.h>
#include <linux/cpuidle.h>
#include <linux/module.h>

#include "cpuidle.h"

#define S(_name, _exit_us, _flags)					\
	{ .name = _name, .exit_latency_ns = (u64)(_exit_us) * NSEC_PER_USEC, \
	  .flags = (_flags) }
#define POLL		S("POLL", 0, CPUIDLE_FLAG_POLLING)
#define TLB		CPUIDLE_FLAG_TLB_FLUSHED
#define TSTOP		CPUIDLE_FLAG_TIMER_STOP

struct shallow_case {
	const char *desc;
	struct cpuidle_driver drv;
	s32 expected;
};

#define CASE(_desc, _drv_name, _expected, ...)				\
	{								\
		.desc = _desc,						\
		.drv = {						\
			.name = _drv_name,				\
			.states = { __VA_ARGS__ },			\
			.state_count = ARRAY_SIZE(((struct cpuidle_state[]){ __VA_ARGS__ })), \
		},							\
		.expected = _expected,					\
	}

static const struct shallow_case shallow_cases[] = {
	CASE("SPR/EMR", "intel_idle", 3,
	     POLL, S("C1", 1, 0), S("C1E", 2, 0), S("C6", 290, TLB)),
	CASE("SPR, PC6 off", "intel_idle", 3,
	     POLL, S("C1", 1, 0), S("C1E", 2, 0), S("C6", 190, TLB)),
	CASE("ICX", "intel_idle", 5,
	     POLL, S("C1", 1, 0), S("C1E", 4, 0), S("C6", 170, TLB)),
	CASE("GNR-X", "intel_idle", 5,
	     POLL, S("C1", 1, 0), S("C1E", 4, 0), S("C6", 170, TLB),
	     S("C6P", 210, TLB)),
	CASE("SKX", "intel_idle", 11,
	     POLL, S("C1", 2, 0), S("C1E", 10, 0), S("C6", 133, TLB)),
	CASE("SRF", "intel_idle", 3,
	     POLL, S("C1", 1, 0), S("C1E", 2, 0), S("C6S", 270, TLB),
	     S("C6SP", 310, TLB)),
	CASE("SNR, C1E at 15 us", "intel_idle", 16,
	     POLL, S("C1", 2, 0), S("C1E", 15, 0), S("C6", 130, TLB)),
	CASE("ADL, C1 unusable", "intel_idle", 3,
	     POLL, S("C1E", 2, 0), S("C6", 220, TLB), S("C8", 280, TLB),
	     S("C10", 680, TLB)),
	CASE("MTL-L, C1E 1 us", "intel_idle", 2,
	     POLL, S("C1E", 1, 0), S("C6", 140, TLB), S("C10", 310, TLB)),
	CASE("C1E disabled by the user is still the anchor", "intel_idle", 3,
	     POLL, S("C1", 1, 0), S("C1E", 2, CPUIDLE_FLAG_OFF),
	     S("C6", 290, TLB)),
	CASE("margin capped below the next state", "intel_idle", 10,
	     POLL, S("C1", 2, 0), S("C1E", 10, 0), S("C6", 11, TLB)),
	CASE("old Atom, C1E named at MWAIT 0", "intel_idle", 11,
	     POLL, S("C1E", 10, 0), S("C2", 20, 0), S("C4", 100, TLB),
	     S("C6", 140, TLB)),
	CASE("RPL _CST, unflagged C2_ACPI", "intel_idle", 2,
	     POLL, S("C1_ACPI", 1, 0), S("C2_ACPI", 127, 0),
	     S("C3_ACPI", 1048, TLB)),
	CASE("AMD Zen, C2 18 us", "acpi_idle", 2,
	     POLL, S("C1", 1, 0), S("C2", 18, 0), S("C3", 350, TLB)),
	CASE("AMD Zen, C2 400 us", "acpi_idle", 2,
	     POLL, S("C1", 1, 0), S("C2", 400, 0)),
	CASE("ARM PSCI", "psci_idle", 2,
	     S("WFI", 1, 0), S("cpu-sleep", 370, TSTOP),
	     S("cluster-sleep", 900, TSTOP)),
	CASE("POWER9 powernv", "powernv_idle", 11,
	     S("snooze", 0, CPUIDLE_FLAG_POLLING), S("stop0_lite", 1, 0),
	     S("stop0", 2, 0), S("stop1", 5, 0), S("stop2", 10, 0),
	     S("stop4", 100, 0), S("stop5", 200, 0)),
	CASE("POWER10 powernv", "powernv_idle", 11,
	     S("snooze", 0, CPUIDLE_FLAG_POLLING), S("stop0_lite", 1, 0),
	     S("stop0", 10, 0), S("stop2", 20, 0), S("stop3", 45, 0)),
	CASE("Avoton, flagged C6 at 15 us", "intel_idle", 3,
	     POLL, S("C1", 2, 0), S("C6", 15, TLB)),
	CASE("haltpoll", "haltpoll", -EOPNOTSUPP,
	     POLL, S("haltpoll idle", 1, 0)),
	CASE("single state", "acpi_idle", -EOPNOTSUPP, S("C1", 1, 0)),
	CASE("no shallow state", "odd_idle", -ENOENT,
	     POLL, S("C2", 100, 0), S("C3", 400, TLB)),
};

static void shallow_case_desc(const struct shallow_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(shallow, shallow_cases, shallow_case_desc);

static void cpuidle_shallow_table_test(struct kunit *test)
{
	const struct shallow_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, cpuidle_driver_shallow_latency(&c->drv),
			c->expected);
}

/* The limit admits the anchor and rejects every deeper state. */
static void cpuidle_shallow_admits_anchor_test(struct kunit *test)
{
	const struct shallow_case *c = test->param_value;
	u64 limit_ns;
	int i, admitted = 0;

	if (c->expected < 0)
		return;

	limit_ns = (u64)c->expected * NSEC_PER_USEC;
	for (i = 0; i < c->drv.state_count; i++) {
		const struct cpuidle_state *s = &c->drv.states[i];

		if (s->flags & CPUIDLE_FLAG_POLLING)
			continue;
		if (s->exit_latency_ns <= limit_ns)
			admitted++;
		if (s->flags & (TLB | TSTOP))
			KUNIT_EXPECT_GT(test, s->exit_latency_ns, limit_ns);
	}
	/* At least the first non-polling state: menu must not poll. */
	KUNIT_EXPECT_GE(test, admitted, 1);
}

/* A CPU without a cpuidle driver gets no limit at all. */
static void cpuidle_shallow_cpu_test(struct kunit *test)
{
	struct cpuidle_device *dev = per_cpu(cpuidle_devices, 0);
	s32 ret = cpuidle_shallow_latency_limit(0);

	if (!dev || !cpuidle_get_cpu_driver(dev))
		KUNIT_EXPECT_EQ(test, ret, -ENODEV);
	else
		KUNIT_EXPECT_EQ(test, ret,
				cpuidle_driver_shallow_latency(cpuidle_get_cpu_driver(dev)));
}

static struct kunit_case cpuidle_shallow_test_cases[] = {
	KUNIT_CASE_PARAM(cpuidle_shallow_table_test, shallow_gen_params),
	KUNIT_CASE_PARAM(cpuidle_shallow_admits_anchor_test, shallow_gen_params),
	KUNIT_CASE(cpuidle_shallow_cpu_test),
	{}
};

static struct kunit_suite cpuidle_shallow_test_suite = {
	.name = "cpuidle_shallow_latency",
	.test_cases = cpuidle_shallow_test_cases,
};

kunit_test_suite(cpuidle_shallow_test_suite);

MODULE_DESCRIPTION("KUnit test for the cpuidle shallow latency limit");
MODULE_LICENSE("GPL");
