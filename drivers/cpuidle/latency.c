// SPDX-License-Identifier: GPL-2.0
/*
 * Resume latency limits that keep a CPU in its shallow idle states.
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
 * cpuidle_latency_limits() returns that number for a set of CPUs, read from
 * the state table of the cpuidle driver that currently drives each CPU
 * (per-CPU drivers exist on ARM big.LITTLE systems, and drivers may register
 * late or go away, so the tables are read at every call, never cached). The
 * rule:
 *
 * 1. The shallow class is the leading run of states that neither poll,
 *    flush the TLB nor stop the local timer and whose exit latency is at
 *    most the governors' %RESIDENCY_THRESHOLD_NS (15 us): C1 and C1E in
 *    every intel_idle table, ACPI C1, WFI on ARM and the shallow stop
 *    states on POWER. The first state that fails a test ends the class,
 *    so a state deeper than one that is not shallow is never shallow.
 * 2. The anchor is the deepest state of the shallow class that the CPU may
 *    enter: not disabled by the user (in sysfs, or by default with
 *    %CPUIDLE_FLAG_OFF, as intel_idle does for a C1 missing from _CST on
 *    some Sapphire Rapids firmware) nor by the driver.
 * 3. The limit is the largest one that still rejects every deeper state: one
 *    microsecond below the exit latency (rounded up) of the shallowest
 *    non-polling state deeper than the anchor and outside the shallow class,
 *    enabled or not, so that a deep state enabled again later is rejected
 *    too. Any value from the anchor's exit latency (rounded up) up to that
 *    admits the same states; the largest one also stays clear of governor
 *    heuristics that treat a small limit as a sign of latency-critical work
 *    (teo keeps the scheduler tick running below %LATENCY_THRESHOLD_NS).
 *
 * The rule needs no help from the drivers. ACPI flags only C3-type states
 * as flushing the TLB, so on AMD an ACPI C2 (core C6) is told from C1 by
 * its exit latency alone: the tables seen report it at 18 us or more (up
 * to 800, set by the firmware). A C2 reported at 15 us or less is taken for
 * shallow, which costs at most that exit latency per wakeup.
 *
 * No limit is returned when there is nothing to reject: for a CPU without a
 * cpuidle driver, for a driver with a single state, for a table with no
 * state deeper than the anchor (POLL and C1 only, as with the haltpoll
 * driver, whose governor honours no limit but zero anyway), and when a
 * deeper state is not slower to leave than the anchor. Nor is one returned
 * when every state of the shallow class is disabled: the limit would then
 * leave the CPU only the polling state, and the governors would poll.
 *
 * cpuidle_latency_limits() also returns the smallest limit that still leaves
 * the CPU an enabled non-polling state: menu and teo select the polling
 * state when no enabled non-polling state meets the limit, so a user of an
 * explicit limit clamps it to this floor to avoid burning the CPU.
 *
 * Both limits depend on which states are disabled, which the user may change
 * at any time through sysfs; a caller that holds a limit for long computes it
 * again from time to time to follow such a change.
 */

#include <linux/cpuidle.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <kunit/visibility.h>

#include "cpuidle.h"
#include "governors/gov.h"

/* States that lose more than their exit latency suggests. */
#define CPUIDLE_DEEP_FLAGS	(CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_TIMER_STOP)

static s32 cpuidle_state_exit_us(const struct cpuidle_state *s)
{
	return DIV_ROUND_UP_ULL(s->exit_latency_ns, NSEC_PER_USEC);
}

/*
 * The end of the shallow class: the deepest state of the leading run of
 * cheap, non-polling states. The class is every non-polling state up to it.
 */
static int cpuidle_shallow_class_end(const struct cpuidle_driver *drv)
{
	int i, end = -ENOENT;

	for (i = 0; i < drv->state_count; i++) {
		const struct cpuidle_state *s = &drv->states[i];

		if (s->flags & CPUIDLE_FLAG_POLLING)
			continue;
		if (s->flags & CPUIDLE_DEEP_FLAGS ||
		    s->exit_latency_ns > RESIDENCY_THRESHOLD_NS)
			break;
		end = i;
	}
	return end;
}

static bool cpuidle_in_shallow_class(const struct cpuidle_state *s, int i,
				     int end)
{
	return !(s->flags & CPUIDLE_FLAG_POLLING) && i <= end;
}

/* The deepest state of the shallow class that is not in @disabled. */
static int cpuidle_find_anchor(const struct cpuidle_driver *drv,
			       unsigned long disabled, int end)
{
	int i;

	for (i = end; i >= 0; i--) {
		if (!(disabled & BIT(i)) &&
		    cpuidle_in_shallow_class(&drv->states[i], i, end))
			return i;
	}
	return -ENOENT;
}

/*
 * Exit latency of the shallowest non-polling state deeper than @anchor and
 * outside the shallow class, enabled or not.
 */
static s32 cpuidle_next_exit_us(const struct cpuidle_driver *drv, int anchor,
				int end)
{
	s32 next = -ENOENT;
	int i;

	for (i = anchor + 1; i < drv->state_count; i++) {
		const struct cpuidle_state *s = &drv->states[i];

		if (s->flags & CPUIDLE_FLAG_POLLING ||
		    cpuidle_in_shallow_class(s, i, end))
			continue;
		if (next < 0 || cpuidle_state_exit_us(s) < next)
			next = cpuidle_state_exit_us(s);
	}
	return next;
}

/**
 * cpuidle_driver_shallow_latency - Shallow latency limit of a state table.
 * @drv: cpuidle driver whose state table to read.
 * @disabled: the states the CPU may not enter, one bit per state index.
 *
 * Apply the rule described in "cpuidle shallow latency limit" to the state
 * table of @drv. The caller must keep @drv from being unregistered.
 *
 * Return: the limit in microseconds (> 0), -EOPNOTSUPP if the driver has a
 * single state, or -ENOENT if no enabled state qualifies as the anchor or
 * none is deeper than it (the limit would reject nothing).
 */
VISIBLE_IF_KUNIT s32 cpuidle_driver_shallow_latency(const struct cpuidle_driver *drv,
						    unsigned long disabled)
{
	s32 anchor_us, next_us;
	int anchor, end;

	if (drv->state_count < 2)
		return -EOPNOTSUPP;

	end = cpuidle_shallow_class_end(drv);
	if (end < 0)
		return end;
	anchor = cpuidle_find_anchor(drv, disabled, end);
	if (anchor < 0)
		return anchor;

	next_us = cpuidle_next_exit_us(drv, anchor, end);
	anchor_us = cpuidle_state_exit_us(&drv->states[anchor]);
	/*
	 * Nothing deeper, or nothing a limit could tell from the anchor; a
	 * limit of 0 would make the CPU poll.
	 */
	if (next_us <= max(anchor_us, 1))
		return -ENOENT;

	return next_us - 1;
}

/**
 * cpuidle_driver_min_latency - Smallest limit that avoids polling.
 * @drv: cpuidle driver whose state table to read.
 * @disabled: the states the CPU may not enter, one bit per state index.
 *
 * The caller must keep @drv from being unregistered.
 *
 * Return: the exit latency in microseconds (rounded up, at least 1) of the
 * shallowest enabled non-polling state of @drv, or -ENOENT if it has none.
 */
VISIBLE_IF_KUNIT s32 cpuidle_driver_min_latency(const struct cpuidle_driver *drv,
						unsigned long disabled)
{
	s32 min_us = -ENOENT;
	int i;

	for (i = 0; i < drv->state_count; i++) {
		const struct cpuidle_state *s = &drv->states[i];

		if (s->flags & CPUIDLE_FLAG_POLLING || disabled & BIT(i))
			continue;
		if (min_us < 0 || cpuidle_state_exit_us(s) < min_us)
			min_us = cpuidle_state_exit_us(s);
	}
	return min_us < 0 ? min_us : max(min_us, 1);
}

/* The states of @dev that are disabled, by the user or the driver. */
static unsigned long cpuidle_disabled_states(const struct cpuidle_device *dev,
					     const struct cpuidle_driver *drv)
{
	unsigned long disabled = 0;
	int i;

	for (i = 0; i < drv->state_count; i++) {
		if (READ_ONCE(dev->states_usage[i].disable))
			disabled |= BIT(i);
	}
	return disabled;
}

/*
 * The driver that drives @cpu, or NULL, and the states disabled on @cpu in
 * @disabled; called with cpuidle_lock held.
 */
static const struct cpuidle_driver *cpuidle_locked_cpu_driver(unsigned int cpu,
							      unsigned long *disabled)
{
	const struct cpuidle_driver *drv;
	struct cpuidle_device *dev;

	lockdep_assert_held(&cpuidle_lock);

	dev = per_cpu(cpuidle_devices, cpu);
	if (!dev || !dev->registered)
		return NULL;
	drv = cpuidle_get_cpu_driver(dev);
	if (drv)
		*disabled = cpuidle_disabled_states(dev, drv);
	return drv;
}

/**
 * cpuidle_latency_limits - Resume latency limits of a set of CPUs.
 * @cpus: CPUs whose cpuidle drivers to consult.
 * @limits: one entry for each CPU of @cpus, in the order of for_each_cpu().
 *
 * For each CPU of @cpus, compute from the state table of the cpuidle driver
 * currently driving it and from the states disabled on that CPU:
 *
 * - @limits[i].shallow: the resume latency limit (in microseconds) that
 *   admits the CPU's enabled shallow idle states (up to C1E) and rejects the
 *   deeper ones, for a %DEV_PM_QOS_RESUME_LATENCY request on the CPU device;
 * - @limits[i].min: the smallest limit that still leaves the CPU an enabled
 *   non-polling state (a smaller one makes the governors poll), which users
 *   of explicit limits clamp them to.
 *
 * cpuidle_lock is taken once, and a state table is read again only for a
 * CPU whose driver or disabled states differ from those of the CPU before
 * it: one driver drives every CPU unless %CONFIG_CPUIDLE_MULTIPLE_DRIVERS,
 * and states are usually disabled on all CPUs alike.
 *
 * Context: Process context; takes cpuidle_lock (a mutex), so it may sleep.
 * The tables are read under the lock, so a driver going away concurrently is
 * safe; the results may be stale as soon as the lock is dropped, and as soon
 * as the user enables or disables a state.
 *
 * Each value is > 0, or -ENODEV if cpuidle is disabled or no cpuidle driver
 * drives the CPU; @shallow is -EOPNOTSUPP for a single-state driver and
 * -ENOENT if the table has no enabled shallow state to anchor on or nothing
 * deeper to reject; @min is -ENOENT if every enabled state polls.
 */
void cpuidle_latency_limits(const struct cpumask *cpus,
			    struct cpuidle_cpu_latency *limits)
{
	static const struct cpuidle_cpu_latency none = {
		.shallow = -ENODEV, .min = -ENODEV,
	};
	const struct cpuidle_driver *drv, *last = NULL;
	unsigned long disabled = 0, last_disabled = 0;
	struct cpuidle_cpu_latency lim = { };
	unsigned int cpu, i = 0;

	might_sleep();

	guard(mutex)(&cpuidle_lock);

	for_each_cpu(cpu, cpus) {
		drv = cpuidle_disabled() ? NULL :
			cpuidle_locked_cpu_driver(cpu, &disabled);
		if (!drv) {
			limits[i++] = none;
			continue;
		}
		if (drv != last || disabled != last_disabled) {
			lim.shallow = cpuidle_driver_shallow_latency(drv, disabled);
			lim.min = cpuidle_driver_min_latency(drv, disabled);
			last = drv;
			last_disabled = disabled;
		}
		limits[i++] = lim;
	}
}
