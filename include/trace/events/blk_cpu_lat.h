/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM blk_cpu_lat

#if !defined(_TRACE_BLK_CPU_LAT_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_BLK_CPU_LAT_H

#include <linux/tracepoint.h>

/**
 * blk_cpu_lat_raise - CPUs of a hardware queue are raised
 * @disk: name of the disk
 * @hctx: index of the hardware queue
 * @nr_cpus: CPUs raised: those that took part in its completions
 * @limit: smallest resume latency limit set, in us (2147483647: none)
 */
TRACE_EVENT(blk_cpu_lat_raise,
	    TP_PROTO(const char *disk, unsigned int hctx, unsigned int nr_cpus,
		     s32 limit),
	    TP_ARGS(disk, hctx, nr_cpus, limit),
	    TP_STRUCT__entry(__string(disk, disk)
			     __field(unsigned int, hctx)
			     __field(unsigned int, nr_cpus)
			     __field(s32, limit)),
	    TP_fast_assign(__assign_str(disk);
			   __entry->hctx = hctx;
			   __entry->nr_cpus = nr_cpus;
			   __entry->limit = limit;),
	    TP_printk("%s hctx%u cpus=%u limit=%d", __get_str(disk),
		      __entry->hctx, __entry->nr_cpus, __entry->limit)
);

/**
 * blk_cpu_lat_relax - CPUs of a hardware queue are relaxed
 * @disk: name of the disk
 * @hctx: index of the hardware queue
 * @nr_cpus: CPUs relaxed: those that saw no completion for a hold period
 */
TRACE_EVENT(blk_cpu_lat_relax,
	    TP_PROTO(const char *disk, unsigned int hctx, unsigned int nr_cpus),
	    TP_ARGS(disk, hctx, nr_cpus),
	    TP_STRUCT__entry(__string(disk, disk)
			     __field(unsigned int, hctx)
			     __field(unsigned int, nr_cpus)),
	    TP_fast_assign(__assign_str(disk);
			   __entry->hctx = hctx;
			   __entry->nr_cpus = nr_cpus;),
	    TP_printk("%s hctx%u cpus=%u", __get_str(disk), __entry->hctx,
		      __entry->nr_cpus)
);

#endif /* _TRACE_BLK_CPU_LAT_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
