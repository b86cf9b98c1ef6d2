# SPDX-License-Identifier: GPL-2.0
"""report.py states INTEL_IDLE_C [ACPI_TSV] > TSV - the "auto" limit of
every C-state table, by the rule of v2 and by that of v3.

Review point 10 of v2 ("what CPUIDLE_FLAG_SHALLOW buys"): reads every
static state table of drivers/idle/intel_idle.c (the baseline tree's) and
prints, per table, the states as intel_idle registers them (POLL first,
CPUIDLE_FLAG_UNUSABLE states dropped), then the "auto" limit of two rules:

  flag   v2's patch 1: the shallow class is the states of the MWAIT C1
         class (hint C-state 0: C1, C1E), which CPUIDLE_FLAG_SHALLOW marked;
  table  v3 (drivers/cpuidle/latency.c): the leading run of non-polling
         states that do not flush the TLB and exit in at most
         RESIDENCY_THRESHOLD_NS (15 us);
  lt     the same with "below 15 us", as v2's fallback for drivers that
         set no flag had it (shown to say why v3 says "at most").

ACPI_TSV (optional) adds _CST tables as acpi_idle registers them, one
per line: system, then states as "name exit type" joined by ", " (type
C1, C2 or C3: only C3 flushes the TLB, the flag marked C1), then the
source. Those rows are named "acpi: SYSTEM".

For both: the anchor is the deepest state of the class, the limit one
microsecond below the exit latency of the shallowest state deeper than
the anchor and outside the class; "none" if there is no such state or it
is no slower than the anchor. States disabled by default (CPUIDLE_FLAG_OFF
after _CST) are not modelled: both rules treat them alike.

Output: one header line, then one line per table:
table, states ("name exit[/TLB]" joined by ", "), flag class, flag limit,
table class, table limit, lt limit, same (flag and table limits equal).

scripts/bench/state-tables.sh runs it on the baseline tree. Exit status 0,
1 when a table cannot be parsed, 2 on usage errors.
"""
import re
import sys

from common import die, not_a_program, usage

THRESHOLD_US = 15


def parse_state(body):
    name = re.search(r'\.name = "([^"]+)"', body)
    if not name:
        return None  # the { .enter = NULL } terminator
    flags = re.search(r'\.flags = (.*?),\n', body, re.S).group(1)
    hint = int(re.search(r'MWAIT2flg\((0x[0-9a-fA-F]+)\)', flags).group(1), 16)
    return {
        'name': name.group(1),
        'exit': int(re.search(r'\.exit_latency = (\d+)', body).group(1)),
        'tlb': 'CPUIDLE_FLAG_TLB_FLUSHED' in flags,
        'unusable': 'CPUIDLE_FLAG_UNUSABLE' in flags,
        'c1class': (hint >> 4) == 0,
    }


def limit(states, in_class):
    """states: registered, non-polling, in table order; in_class: list."""
    members = [i for i, s in enumerate(states) if in_class[i]]
    if not members:
        return 'none'
    anchor = members[-1]
    deeper = [s['exit'] for i, s in enumerate(states)
              if i > anchor and not in_class[i]]
    if not deeper or min(deeper) <= max(states[anchor]['exit'], 1):
        return 'none'
    return str(min(deeper) - 1)


def table_class(states, strict=False):
    cls, run = [], True
    for s in states:
        cheap = s['exit'] < THRESHOLD_US if strict else s['exit'] <= THRESHOLD_US
        run = run and not s['tlb'] and cheap
        cls.append(run)
    return cls


def names(states, cls):
    return '+'.join(s['name'] for s, c in zip(states, cls) if c) or '-'


def acpi_tables(path):
    out = []
    with open(path) as f:
        lines = f.readlines()
    for line in lines:
        if not line.strip() or line.startswith('#') or line.startswith('system\t'):
            continue
        system, desc = line.rstrip('\n').split('\t')[:2]
        states = []
        for st in desc.split(', '):
            name, exit_us, typ = st.split()
            states.append({'name': name, 'exit': int(exit_us),
                           'tlb': typ == 'C3', 'c1class': typ == 'C1'})
        out.append(('acpi: ' + system, states))
    return out


def intel_tables(path):
    with open(path) as f:
        src = f.read()
    tables = re.findall(
        r'static struct cpuidle_state (\w+)_cstates\[\] __initdata = \{(.*?)\n\};',
        src, re.S)
    if not tables:
        die('no state table found in ' + path, prog='state-tables')
    out = []
    for tname, body in tables:
        states = [s for s in (parse_state(b) for b in body.split('\n\t{')[1:])
                  if s and not s['unusable']]
        if not states:
            die('table %s has no state' % tname, prog='state-tables')
        out.append((tname, states))
    return out


def main(args):
    if len(args) not in (1, 2):
        return usage(__doc__)
    rows = intel_tables(args[0]) + (acpi_tables(args[1]) if len(args) > 1 else [])
    print('table\tstates\tflag_class\tflag_limit\ttable_class\ttable_limit\tlt_limit\tsame')
    for tname, states in rows:
        fcls = [s['c1class'] for s in states]
        tcls = table_class(states)
        fl, tl = limit(states, fcls), limit(states, tcls)
        ll = limit(states, table_class(states, strict=True))
        desc = ', '.join('%s %d%s' % (s['name'], s['exit'], '/TLB' if s['tlb'] else '')
                         for s in states)
        print('\t'.join([tname, desc, names(states, fcls), fl,
                         names(states, tcls), tl, ll, 'yes' if fl == tl else 'no']))
    return 0


if __name__ == "__main__":
    sys.exit(not_a_program("states"))
