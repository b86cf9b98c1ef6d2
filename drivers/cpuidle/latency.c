// SPDX-License-Identifier: GPL-2.0
/*
 * Resume latency limit that keeps a CPU in its shallow idle states.
 */

/**
 * DOC: cpuidle shallow latency limit
 *
 * Some kernel code knows that a CPU will be woken up soon and often, and
 * that the exit latency of a deep idle state would be paid on every wakeup:
 * a CPU that completes block I/O is the main example. Such code can hold a
 * resume latency PM QoS request on the CPU device that admits the shallow
 * idle states (C1, C1E on x86) and rejects the deep ones (C6 and below),
 * instead of making the user guess a number of microseconds.
 *
 * cpuidle_shallow_latency_limit() returns that number for one CPU, read from
 * the state table of the cpuidle driver that currently drives the CPU (per-CPU
 * drivers exist on ARM and hybrid systems, and drivers may register late or
 * go away, so the table is read every time, never cached). The rule:
 *
 * 1. The anchor is the state named "C1E", where the driver has one (native
 *    intel_idle tables).
 * 2. Otherwise the anchor is the deepest state in the leading run of states
 *    that neither poll, flush the TLB nor stop the local timer and whose exit
 *    latency is at most %CPUIDLE_SHALLOW_EXIT_NS (15 us). This is C1 on AMD
 *    and on ACPI _CST tables, WFI on ARM and the shallow stop states on POWER.
 * 3. The limit is the anchor's exit latency in microseconds (rounded up) plus
 *    a margin of one microsecond, but strictly below the exit latency of the
 *    shallowest deeper state, and never below the anchor's own exit latency.
 *
 * The governors (menu, teo, ladder) admit a state whose exit latency equals
 * the limit, so the anchor stays usable, and the limit is never below the exit
 * latency of the first non-polling state, so menu does not fall back to
 * polling. States disabled by the user or the driver are not skipped: the
 * limit is an upper bound, and the governors skip disabled states anyway.
 *
 * No limit is returned for a CPU without a cpuidle driver (the idle loop
 * then ignores PM QoS), for a driver with a single state (the governor is not
 * even called) and for the haltpoll driver, whose governor honours only a
 * zero limit.
 */

#include <linux/cpuidle.h>
#include <linux/export.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "cpuidle.h"

/* States that lose more than their exit latency suggests. */
#define CPUIDLE_DEEP_FLAGS	(CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_TIMER_STOP)

static s32 cpuidle_state_exit_us(const struct cpuidle_state *s)
{
	return DIV_ROUND_UP_ULL(s->exit_latency_ns, NSEC_PER_USEC);
}

static int cpuidle_find_named_c1e(const struct cpuidle_driver *drv)
{
	int i;

	for (i = 1; i < drv->state_count; i++) {
		if (!strcmp(drv->states[i].name, "C1E"))
			return i;
	}
	return -ENOENT;
}

static int cpuidle_find_shallow_anchor(const struct cpuidle_driver *drv)
{
	int i, anchor = -ENOENT;

	for (i = 0; i < drv->state_count; i++) {
		const struct cpuidle_state *s = &drv->states[i];

		if (s->flags & CPUIDLE_FLAG_POLLING)
			continue;
		if (s->flags & CPUIDLE_DEEP_FLAGS ||
		    s->exit_latency_ns > CPUIDLE_SHALLOW_EXIT_NS)
			break;
		anchor = i;
	}
	return anchor;
}

/* Exit latency of the shallowest state deeper than @anchor, or S32_MAX. */
static s32 cpuidle_next_exit_us(const struct cpuidle_driver *drv, int anchor)
{
	s32 next = S32_MAX;
	int i;

	for (i = anchor + 1; i < drv->state_count; i++)
		next = min(next, cpuidle_state_exit_us(&drv->states[i]));
	return next;
}

/**
 * cpuidle_driver_shallow_latency - Shallow latency limit of a state table.
 * @drv: cpuidle driver whose state table to read.
 *
 * Apply the rule described in "cpuidle shallow latency limit" to the state
 * table of @drv. The caller must keep @drv from being unregistered.
 *
 * Return: the limit in microseconds (> 0), -EOPNOTSUPP if the driver has a
 * single state or is the haltpoll driver, or -ENOENT if no state qualifies
 * as the anchor.
 */
VISIBLE_IF_KUNIT s32 cpuidle_driver_shallow_latency(const struct cpuidle_driver *drv)
{
	s32 anchor_us, next_us;
	int anchor;

	if (drv->state_count < 2 || !strcmp(drv->name, "haltpoll"))
		return -EOPNOTSUPP;

	anchor = cpuidle_find_named_c1e(drv);
	if (anchor < 0)
		anchor = cpuidle_find_shallow_anchor(drv);
	if (anchor < 0)
		return anchor;

	anchor_us = cpuidle_state_exit_us(&drv->states[anchor]);
	next_us = cpuidle_next_exit_us(drv, anchor);

	return max(min(anchor_us + 1, next_us - 1), anchor_us);
}

/**
 * cpuidle_shallow_latency_limit - Resume latency that keeps a CPU shallow.
 * @cpu: CPU whose cpuidle driver to consult.
 *
 * Compute, from the state table of the cpuidle driver currently driving @cpu,
 * the resume latency limit (in microseconds) that admits the CPU's shallow
 * idle states (up to C1E) and rejects the deeper ones, for use in a
 * %DEV_PM_QOS_RESUME_LATENCY request on the CPU device.
 *
 * Context: Process context; takes cpuidle_lock (a mutex), so it may sleep.
 * The table is read under the lock, so a driver going away concurrently is
 * safe; the result may be stale as soon as the lock is dropped.
 *
 * Return: the limit in microseconds (> 0), -ENODEV if cpuidle is disabled or
 * no cpuidle driver drives @cpu, -EOPNOTSUPP for a single-state or haltpoll
 * driver, or -ENOENT if the table has no shallow state to anchor on.
 */
s32 cpuidle_shallow_latency_limit(int cpu)
{
	struct cpuidle_device *dev;
	struct cpuidle_driver *drv;

	might_sleep();

	if (cpuidle_disabled())
		return -ENODEV;

	guard(mutex)(&cpuidle_lock);

	dev = per_cpu(cpuidle_devices, cpu);
	if (!dev || !dev->registered)
		return -ENODEV;

	drv = cpuidle_get_cpu_driver(dev);
	if (!drv)
		return -ENODEV;

	return cpuidle_driver_shallow_latency(drv);
}
EXPORT_SYMBOL_GPL(cpuidle_shallow_latency_limit);
