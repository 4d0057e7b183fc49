// SPDX-License-Identifier: GPL-2.0
/*
 * Deliberate defects, one per checker of the debug kernel, for
 * scripts/gates-selftest: loaded with kind=NAME, the module commits that
 * defect once and fails to load. Never part of the series; built out of
 * tree against the test guest's debug kernel.
 */

#include <linux/delay.h>
#include <linux/kfence.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

static char *kind = "";
module_param(kind, charp, 0444);

static volatile int gate_index = 4;
static volatile int gate_shift = 40;

static noinline void gate_kasan(void)
{
	char *p = kmalloc(8, GFP_KERNEL);

	if (!p)
		return;
	pr_info("gate_defects: read %d\n", ((volatile char *)p)[gate_index + 12]);
	kfree(p);
}

static noinline void gate_ubsan_bounds(void)
{
	int a[4] = { 1, 2, 3, 4 };

	pr_info("gate_defects: read %d\n", a[gate_index]);
}

static noinline void gate_ubsan_shift(void)
{
	pr_info("gate_defects: shifted %d\n", 1 << gate_shift);
}

static DEFINE_SPINLOCK(gate_lock_a);
static DEFINE_SPINLOCK(gate_lock_b);

static noinline void gate_lockdep(void)
{
	spin_lock(&gate_lock_a);
	spin_lock(&gate_lock_b);
	spin_unlock(&gate_lock_b);
	spin_unlock(&gate_lock_a);
	spin_lock(&gate_lock_b);
	spin_lock(&gate_lock_a);
	spin_unlock(&gate_lock_a);
	spin_unlock(&gate_lock_b);
}

static noinline void gate_atomic_sleep(void)
{
	spin_lock(&gate_lock_a);
	msleep(1);
	spin_unlock(&gate_lock_a);
}

static int __rcu *gate_rcu_ptr;

static noinline void gate_rcu(void)
{
	pr_info("gate_defects: %p\n", rcu_dereference(gate_rcu_ptr));
}

struct gate_obj {
	struct timer_list timer;
	struct work_struct work;
	struct rcu_head rcu;
	struct list_head node;
};

static void gate_timer_fn(struct timer_list *t)
{
}

static noinline void gate_objects_timer(void)
{
	struct gate_obj *o = kzalloc(sizeof(*o), GFP_KERNEL);

	if (!o)
		return;
	timer_setup(&o->timer, gate_timer_fn, 0);
	mod_timer(&o->timer, jiffies + HZ);
	/* Freed while pending: the debug objects fix it up (deactivate). */
	kfree(o);
}

static void gate_work_fn(struct work_struct *w)
{
}

static noinline void gate_objects_work(void)
{
	struct work_struct w;

	/* On the stack without INIT_WORK_ONSTACK(). */
	INIT_WORK(&w, gate_work_fn);
	schedule_work(&w);
	flush_work(&w);
}

static void gate_rcu_fn(struct rcu_head *h)
{
}

static struct gate_obj gate_static_obj;

static noinline void gate_objects_rcu(void)
{
	call_rcu(&gate_static_obj.rcu, gate_rcu_fn);
	call_rcu(&gate_static_obj.rcu, gate_rcu_fn);
	rcu_barrier();
}

static LIST_HEAD(gate_list);

static noinline void gate_list_double_add(void)
{
	list_add(&gate_static_obj.node, &gate_list);
	list_add(&gate_static_obj.node, &gate_list);
	INIT_LIST_HEAD(&gate_list);
}

static noinline void gate_kfence(void)
{
	unsigned long end = jiffies + 30 * HZ;
	char *p;

	/* Allocate until KFENCE samples one (every 100 ms by default). */
	while (time_before(jiffies, end)) {
		p = kmalloc(32, GFP_KERNEL);
		if (!p)
			return;
		if (is_kfence_address(p)) {
			pr_info("gate_defects: read %d\n",
				((volatile char *)p)[gate_index + 60]);
			kfree(p);
			return;
		}
		kfree(p);
		usleep_range(100, 200);
	}
	pr_info("gate_defects: KFENCE sampled no allocation in 30 s\n");
}

static const struct {
	const char *name;
	void (*fn)(void);
} gate_kinds[] = {
	{ "kasan", gate_kasan },
	{ "ubsan_bounds", gate_ubsan_bounds },
	{ "ubsan_shift", gate_ubsan_shift },
	{ "rcu", gate_rcu },
	{ "atomic_sleep", gate_atomic_sleep },
	{ "objects_timer", gate_objects_timer },
	{ "objects_work", gate_objects_work },
	{ "objects_rcu", gate_objects_rcu },
	{ "list", gate_list_double_add },
	{ "kfence", gate_kfence },
	{ "lockdep", gate_lockdep },
};

static int __init gate_defects_init(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(gate_kinds); i++) {
		if (strcmp(kind, gate_kinds[i].name))
			continue;
		pr_info("gate_defects: kind %s\n", kind);
		gate_kinds[i].fn();
		pr_info("gate_defects: kind %s done\n", kind);
		return -EAGAIN;
	}
	return -EINVAL;
}
module_init(gate_defects_init);

MODULE_DESCRIPTION("Deliberate defects for the debug kernel's checkers");
MODULE_LICENSE("GPL");
