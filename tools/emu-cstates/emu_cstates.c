// SPDX-License-Identifier: GPL-2.0
/*
 * emu_cstates - emulated C-states for virtual test machines (test only).
 *
 * A virtual machine has no cpuidle driver of its own, so CPU latency and
 * resume latency PM QoS requests have no effect in it. This driver registers
 * POLL plus the C-states of a real machine, copied from intel_idle or
 * acpi_idle, so that the idle governors (menu, teo) and PM QoS behave in the
 * guest the way they do on that hardware.
 *
 * Every non-POLL state halts the vCPU the standard way (interrupts enabled
 * by "sti; hlt", then disabled again, as acpi_idle and the x86 default idle
 * routine do) and then busy-waits for the exit latency of the state with
 * interrupts still disabled, so the task woken by the interrupt pays the
 * wake-up cost of the emulated state. The "penalty" parameter turns the
 * busy-wait off at run time.
 *
 * Parameters:
 *   table=spr|skx|icx|amd  state table (read-only, default spr)
 *   penalty=Y|N            busy-wait the exit latency (default Y)
 *   skip_cpu=N             leave CPU N without emulated C-states: it gets no
 *                          cpuidle device and idles in HLT, with no exit
 *                          latency (the controller CPU of tools/emu-blk;
 *                          default -1, none)
 *
 * The package: each table marks the core state that package C6 (or its
 * AMD counterpart) needs on every core (EMU_PKG). The debugfs file
 * emu_cstates/package counts how long every CPU with emulated states was
 * in that state at once (from its HLT to its wake-up, the exit latency
 * left out) and how often that began: the time in which the package could
 * have entered its deep state. One CPU kept out of it keeps the package
 * out. It counts the CPUs online at load; with CPU hotplug it means
 * nothing.
 *
 * The driver loads only when no other cpuidle driver is registered. It does
 * not set cpuidle_driver.owner: the cpuidle core would then hold a reference
 * on the module for as long as the driver is registered, and it could never
 * be unloaded.
 *
 * This module is a test tool. It is never part of the kernel series.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuidle.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/instrumentation.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/string_choices.h>
#include <linux/thread_info.h>

/*
 * v2 of the series had intel_idle declare the MWAIT C1 class (C1, C1E)
 * shallow and acpi_idle the ACPI C1 state, with CPUIDLE_FLAG_SHALLOW, and
 * so does this table on a v2 kernel (a --series-commit run). v1 and
 * v3 have no such flag: v3 reads the class from the table itself.
 */
#ifdef CPUIDLE_FLAG_SHALLOW
#define EMU_SHALLOW	CPUIDLE_FLAG_SHALLOW
#else
#define EMU_SHALLOW	0
#endif

/* The core state that the package's deep state needs on every core. */
#define EMU_PKG		BIT(31)

struct emu_state {
	const char *name;
	unsigned int exit_latency;	/* us */
	unsigned int target_residency;	/* us */
	unsigned int flags;		/* CPUIDLE_FLAG_*, EMU_PKG */
};

struct emu_table {
	const char *name;
	const struct emu_state *states;
	unsigned int count;
};

/* drivers/idle/intel_idle.c: spr_cstates[] (Sapphire Rapids) */
static const struct emu_state spr_states[] __initconst = {
	{ "C1",    1,   1, EMU_SHALLOW },
	{ "C1E",   2,   4, EMU_SHALLOW },
	{ "C6",  290, 800, CPUIDLE_FLAG_TLB_FLUSHED | EMU_PKG },
};

/* drivers/idle/intel_idle.c: skx_cstates[] (Skylake server) */
static const struct emu_state skx_states[] __initconst = {
	{ "C1",    2,   2, EMU_SHALLOW },
	{ "C1E",  10,  20, EMU_SHALLOW },
	{ "C6",  133, 600, CPUIDLE_FLAG_TLB_FLUSHED | EMU_PKG },
};

/* drivers/idle/intel_idle.c: icx_cstates[] (Ice Lake server) */
static const struct emu_state icx_states[] __initconst = {
	{ "C1",    1,   1, EMU_SHALLOW },
	{ "C1E",   4,   4, EMU_SHALLOW },
	{ "C6",  170, 600, CPUIDLE_FLAG_TLB_FLUSHED | EMU_PKG },
};

/*
 * drivers/acpi/processor_idle.c on an AMD server: C1 and C2 from _CST,
 * target residency = 2 * exit latency, no C1E.
 */
static const struct emu_state amd_states[] __initconst = {
	{ "C1",    1,   2, EMU_SHALLOW },
	{ "C2",  400, 800, EMU_PKG },
};

static const struct emu_table emu_tables[] __initconst = {
	{ "spr", spr_states, ARRAY_SIZE(spr_states) },
	{ "skx", skx_states, ARRAY_SIZE(skx_states) },
	{ "icx", icx_states, ARRAY_SIZE(icx_states) },
	{ "amd", amd_states, ARRAY_SIZE(amd_states) },
};

static char *table = "spr";
module_param(table, charp, 0444);
MODULE_PARM_DESC(table, "State table: spr (default), skx, icx or amd");

static bool penalty = true;
module_param(penalty, bool, 0644);
MODULE_PARM_DESC(penalty, "Busy-wait the exit latency after HLT (default: Y)");

static int skip_cpu = -1;
module_param(skip_cpu, int, 0444);
MODULE_PARM_DESC(skip_cpu, "CPU left without emulated C-states, idling in HLT (default -1: none)");

static struct cpumask emu_cpus;

/*
 * The package: emu_pkg_states has a bit per driver state marked EMU_PKG;
 * the rest is under emu_pkg_lock. The idle path runs with RCU not
 * watching: an arch spinlock and ktime_get_mono_fast_ns() (the clock of
 * ktime_get() without its seqcount, so without lockdep's lock events,
 * which warn when RCU is not watching).
 */
static unsigned long emu_pkg_states;
static arch_spinlock_t emu_pkg_lock = __ARCH_SPIN_LOCK_UNLOCKED;
static unsigned int emu_pkg_cpus;	/* CPUs that take part */
static unsigned int emu_pkg_in;		/* of those, in the state now */
static u64 emu_pkg_since_ns;		/* all in since (emu_pkg_in == cpus) */
static u64 emu_pkg_ns;			/* all in, in total */
static u64 emu_pkg_entries;		/* times all were in */
static struct dentry *emu_debugfs;

static void emu_pkg_enter(void)
{
	arch_spin_lock(&emu_pkg_lock);
	if (++emu_pkg_in == emu_pkg_cpus) {
		emu_pkg_since_ns = ktime_get_mono_fast_ns();
		emu_pkg_entries++;
	}
	arch_spin_unlock(&emu_pkg_lock);
}

static void emu_pkg_exit(void)
{
	arch_spin_lock(&emu_pkg_lock);
	if (emu_pkg_in-- == emu_pkg_cpus)
		emu_pkg_ns += ktime_get_mono_fast_ns() - emu_pkg_since_ns;
	arch_spin_unlock(&emu_pkg_lock);
}

static int emu_package_show(struct seq_file *m, void *v)
{
	u64 ns, entries, now;
	unsigned long flags;
	unsigned int in, cpus;

	local_irq_save(flags);
	arch_spin_lock(&emu_pkg_lock);
	now = ktime_get_mono_fast_ns();
	ns = emu_pkg_ns;
	if (emu_pkg_cpus && emu_pkg_in == emu_pkg_cpus)
		ns += now - emu_pkg_since_ns;
	entries = emu_pkg_entries;
	in = emu_pkg_in;
	cpus = emu_pkg_cpus;
	arch_spin_unlock(&emu_pkg_lock);
	local_irq_restore(flags);

	seq_printf(m, "cpus %u\nin_now %u\nall_in_ns %llu\nall_in_entries %llu\nnow_ns %llu\n",
		   cpus, in, ns, entries, now);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emu_package);

static __cpuidle int emu_enter(struct cpuidle_device *dev,
			       struct cpuidle_driver *drv, int index)
{
	unsigned int lat = drv->states[index].exit_latency;

	bool pkg = emu_pkg_states & BIT(index);

	if (tif_need_resched())
		return index;

	if (pkg) {
		instrumentation_begin();
		emu_pkg_enter();
		instrumentation_end();
	}

	/* "sti; hlt" as in acpi_safe_halt(), then interrupts off again. */
	raw_safe_halt();
	raw_local_irq_disable();

	if (pkg) {
		instrumentation_begin();
		emu_pkg_exit();
		instrumentation_end();
	}

	if (READ_ONCE(penalty) && lat) {
		/* The emulated exit latency, with interrupts disabled. */
		instrumentation_begin();
		udelay(lat);
		instrumentation_end();
	}

	return index;
}

static struct cpuidle_driver emu_driver = {
	.name = "emu_cstates",
};

static int __init emu_cstates_init(void)
{
	const struct emu_table *t = NULL;
	struct cpuidle_driver *cur;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(emu_tables); i++) {
		if (!strcmp(table, emu_tables[i].name)) {
			t = &emu_tables[i];
			break;
		}
	}
	if (!t) {
		pr_err("unknown table '%s' (known: spr, skx, icx, amd)\n",
		       table);
		return -EINVAL;
	}

	if (skip_cpu >= 0) {
		if ((unsigned int)skip_cpu >= nr_cpu_ids || !cpu_possible(skip_cpu)) {
			pr_err("skip_cpu=%d: not a possible CPU\n", skip_cpu);
			return -EINVAL;
		}
		cpumask_copy(&emu_cpus, cpu_possible_mask);
		cpumask_clear_cpu(skip_cpu, &emu_cpus);
		emu_driver.cpumask = &emu_cpus;
	} else if (skip_cpu != -1) {
		pr_err("skip_cpu=%d: want a CPU or -1\n", skip_cpu);
		return -EINVAL;
	}

	cur = cpuidle_get_driver();
	if (cur) {
		pr_err("cpuidle driver '%s' is already registered, not loading\n",
		       cur->name);
		return -EBUSY;
	}

	cpuidle_poll_state_init(&emu_driver);
	for (i = 0; i < t->count; i++) {
		const struct emu_state *e = &t->states[i];
		struct cpuidle_state *s = &emu_driver.states[i + 1];

		strscpy(s->name, e->name);
		snprintf(s->desc, sizeof(s->desc), "emulated %s %s (HLT+%uus)",
			 t->name, e->name, e->exit_latency);
		s->exit_latency = e->exit_latency;
		s->target_residency = e->target_residency;
		s->flags = e->flags & ~EMU_PKG;
		s->enter = emu_enter;
		if (e->flags & EMU_PKG)
			emu_pkg_states |= BIT(i + 1);
	}
	emu_driver.state_count = t->count + 1;

	emu_pkg_cpus = 0;
	for_each_online_cpu(i)
		if (!emu_driver.cpumask || cpumask_test_cpu(i, emu_driver.cpumask))
			emu_pkg_cpus++;

	ret = cpuidle_register(&emu_driver, NULL);
	if (ret) {
		pr_err("cpuidle_register() failed: %d\n", ret);
		return ret;
	}

	emu_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("package", 0400, emu_debugfs, NULL, &emu_package_fops);

	pr_info("registered table %s: POLL + %u states, penalty %s, skip_cpu %d\n",
		t->name, t->count, str_on_off(READ_ONCE(penalty)), skip_cpu);
	return 0;
}

static void __exit emu_cstates_exit(void)
{
	debugfs_remove_recursive(emu_debugfs);
	cpuidle_unregister(&emu_driver);
}

module_init(emu_cstates_init);
module_exit(emu_cstates_exit);

MODULE_DESCRIPTION("Emulated C-states for virtual test machines (HLT plus exit latency busy-wait)");
MODULE_LICENSE("GPL");
