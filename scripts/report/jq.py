# SPDX-License-Identifier: GPL-2.0
"""JSON values as jq 1.6 sees them, for the subcommands bench and tables of
scripts/report/report.py, which replaced jq programs and keep their
output byte for byte: numbers are doubles and print as jq prints them,
jq's order of values, its null rules for indexing, adding and joining,
and the JSON values of a file one after the other, as jq reads it.
"""
import functools
import json
import math
import sys

class JqError(Exception):
    """An error that jq would have raised."""



def is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def jq_num(x):
    """A number as jq 1.6 prints it: the shortest digits that read back to
    the same double, exponent form below 1e-4 and past 15 digits of
    zeros ("1e-05", "1e+17"), integral values without a fraction."""
    x = float(x)
    if x != x:
        return "null"
    if math.isinf(x):
        x = math.copysign(sys.float_info.max, x)
    if x == 0:
        return "-0" if math.copysign(1, x) < 0 else "0"
    sign = "-" if x < 0 else ""
    mant, _, exp = repr(abs(x)).partition("e")
    ip, _, fp = mant.partition(".")
    digits = ip + fp
    decpt = len(ip) + (int(exp) if exp else 0)
    stripped = digits.lstrip("0")
    decpt -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    nd = len(digits)
    if decpt <= -4 or decpt > nd + 15:
        out = digits[0] + ("." + digits[1:] if nd > 1 else "")
        e = decpt - 1
        out += "e%s%02d" % ("-" if e < 0 else "+", abs(e))
    elif decpt <= 0:
        out = "0." + "0" * -decpt + digits
    elif nd > decpt:
        out = digits[:decpt] + "." + digits[decpt:]
    else:
        out = digits + "0" * (decpt - nd)
    return sign + out


def jq_str(s):
    out = ['"']
    for ch in s:
        c = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch in "\b\f\n\r\t":
            out.append({"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}[ch])
        elif c < 32 or c == 127:
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def jq_dump(v, indent=None, level=0):
    """v as jq prints it: compact (indent None) or pretty (jq's default)."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if is_num(v):
        return jq_num(v)
    if isinstance(v, str):
        return jq_str(v)
    if isinstance(v, list):
        items = [jq_dump(x, indent, level + 1) for x in v]
    else:
        items = ["%s:%s%s" % (jq_str(k), "" if indent is None else " ", jq_dump(x, indent, level + 1))
                 for k, x in v.items()]
    o, c = ("[", "]") if isinstance(v, list) else ("{", "}")
    if not items:
        return o + c
    if indent is None:
        return o + ",".join(items) + c
    pad = " " * (indent * (level + 1))
    return o + "\n" + ",\n".join(pad + i for i in items) + "\n" + " " * (indent * level) + c


def tostr(v):
    """jq's tostring (and "\\(v)")."""
    return v if isinstance(v, str) else jq_dump(v)


def raw(v):
    """jq -r's output of v, without the newline."""
    return v if isinstance(v, str) else jq_dump(v, 2)


def rank(v):
    if v is None:
        return 0
    if v is False:
        return 1
    if v is True:
        return 2
    if is_num(v):
        return 3
    if isinstance(v, str):
        return 4
    if isinstance(v, list):
        return 5
    return 6


def jq_cmp(a, b):
    """jq's order: null < false < true < numbers < strings < arrays < objects."""
    ra, rb = rank(a), rank(b)
    if ra != rb:
        return -1 if ra < rb else 1
    if ra in (3, 4):
        return (a > b) - (a < b)
    if ra == 5:
        for x, y in zip(a, b):
            r = jq_cmp(x, y)
            if r:
                return r
        return (len(a) > len(b)) - (len(a) < len(b))
    if ra == 6:
        r = jq_cmp(sorted(a), sorted(b))
        if r:
            return r
        for k in sorted(a):
            r = jq_cmp(a[k], b[k])
            if r:
                return r
    return 0


def jq_eq(a, b):
    return jq_cmp(a, b) == 0


def jq_sort(xs, key=lambda x: x):
    """jq's sort_by (stable)."""
    return sorted(xs, key=functools.cmp_to_key(lambda a, b: jq_cmp(key(a), key(b))))


def group_by(xs, key):
    groups = []
    for x in jq_sort(xs, key):
        if groups and jq_eq(key(groups[-1][0]), key(x)):
            groups[-1].append(x)
        else:
            groups.append([x])
    return groups


def truthy(v):
    return v is not None and v is not False


def alt(a, b):
    """jq's a // b."""
    return a if truthy(a) else b


def get(v, k):
    """jq's .[k]: null on null, the member of an object or an array."""
    if v is None:
        return None
    if isinstance(k, str) and isinstance(v, dict):
        return v.get(k)
    if is_num(k) and isinstance(v, list):
        i = int(k)
        if i < 0:
            i += len(v)
        return v[i] if 0 <= i < len(v) else None
    raise JqError("cannot index %s with %s" % (type(v).__name__, jq_dump(k)))


def path(v, *keys):
    for k in keys:
        v = get(v, k)
    return v


def each(v):
    """jq's .[]."""
    if isinstance(v, list):
        return list(v)
    if isinstance(v, dict):
        return list(v.values())
    raise JqError("cannot iterate over %s" % ("null" if v is None else type(v).__name__))


def plus(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if is_num(a) and is_num(b):
        return a + b
    if type(a) is type(b) and isinstance(a, (str, list)):
        return a + b
    if isinstance(a, dict) and isinstance(b, dict):
        return {**a, **b}
    raise JqError("cannot be added")


def minus(a, b):
    if is_num(a) and is_num(b):
        return a - b
    raise JqError("%s and %s cannot be subtracted" % (jq_dump(a), jq_dump(b)))


def divide(a, b):
    if is_num(a) and is_num(b):
        if b == 0:
            raise JqError("%s and %s cannot be divided because the divisor is zero" % (jq_num(a), jq_num(b)))
        return a / b
    raise JqError("%s and %s cannot be divided" % (jq_dump(a), jq_dump(b)))


def add(v):
    """jq's add: null for null and for nothing to add."""
    if v is None:
        return None
    acc = None
    for x in each(v):
        acc = plus(acc, x)
    return acc


def length(v):
    if v is None:
        return 0
    if isinstance(v, bool):
        raise JqError("boolean has no length")
    if is_num(v):
        return abs(v)
    return len(v)


def jq_max(xs):
    best = None
    for i, x in enumerate(xs):
        if i == 0 or jq_cmp(x, best) >= 0:
            best = x
    return best


def join(v, sep):
    """jq 1.6's join: null as "", strings as they are, the rest as JSON."""
    out = None
    for x in each(v):
        out = ("" if out is None else out + sep) + ("" if x is None else x if isinstance(x, str) else jq_dump(x))
    return "" if out is None else out


def first_seen(xs):
    out = []
    for x in xs:
        if not any(jq_eq(x, y) for y in out):
            out.append(x)
    return out



# ---- files ----------------------------------------------------------------------

def parse_stream(text):
    """The JSON values of text, one after the other (as jq reads a file)."""
    dec = json.JSONDecoder(parse_int=float)
    out, i, n = [], 0, len(text)
    while True:
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i >= n:
            return out
        v, i = dec.raw_decode(text, i)
        out.append(v)


def read_stream(p):
    with open(p, encoding="utf-8", errors="replace") as fh:
        return parse_stream(fh.read())
