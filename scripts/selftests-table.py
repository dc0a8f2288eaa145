#!/usr/bin/env python3
"""The table of `make selftests` (scripts/selftests.sh).

    selftests-table.py --logs DIR --out FILE [--expected FILE]
                       [--reference SWITCH,...] SWITCH...

Reads DIR/SWITCH/guest.log (the guest console of tests/selftests/run.sh)
for each SWITCH and prints one row per selftest case, the kernel
selftests' "TEST: <name>  [ OK ]" lines, one column per switch. A
selftest that printed no TEST line at all (it skipped as a whole, or
died) gets one row of its own so that it cannot vanish from the table.

Cells: OK, FAIL, SKIP; "xfail" is a failure listed in the expected file
for that switch (its reason is printed under the table); "-" means the
case did not run on that switch.

The expected file has one entry per line, '|'-separated:

    SWITCHES | SELFTEST | CASE | REASON

SWITCHES is '*' or a comma-separated list, SELFTEST a selftest name and
CASE an fnmatch pattern over the case name (whitespace collapsed).
'#' starts a comment.

The last line, "N passed, N failed", counts the switches that are not
references: cases passed or failed as expected, and unexpected failures
plus guests that did not finish.

Exit status: 1 when a case fails that the expected file does not list,
when a guest did not finish, or when the expected file is malformed.
Failures of --reference switches (QEMU's rocker: not this project's
device, not its driver) are listed but do not count.
"""

import argparse
import fnmatch
import os
import re
import sys

TEST_RE = re.compile(r"TEST: (.*?)\s*\[\s*(OK|FAIL|SKIP|XFAIL)\s*\]\s*$")
BEGIN_RE = re.compile(r"^selftests: begin (\S+)")
END_RE = re.compile(r"^selftests: end (\S+) rc=(\d+) seconds=(\d+)")
SKIP_RE = re.compile(r"^(SKIP: .*)$")


def norm(name):
    return " ".join(name.split())


# local_termination names its cases after the receiving interface, the
# switch's first port, whose netdev name differs from switch to switch:
# call it swp1 so that the columns line up.
PORT_PREFIX_RE = re.compile(r"^eth\d+: ")


def case_name(name):
    return PORT_PREFIX_RE.sub("swp1: ", norm(name))


class Expected:
    def __init__(self, paths):
        self.entries = []  # (switches or None, selftest, pattern, reason)
        self.reasons = []  # distinct reasons, in file order
        for path in paths or []:
            self.load(path)

    def load(self, path):
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                parts = [p.strip() for p in line.split("|")]
                if len(parts) != 4 or not all(parts):
                    sys.exit(f"{path}:{lineno}: want 'SWITCHES | SELFTEST | CASE | REASON'")
                sws, test, pattern, reason = parts
                switches = None if sws == "*" else set(s.strip() for s in sws.split(","))
                self.entries.append((switches, test, norm(pattern), reason))
                if reason not in self.reasons:
                    self.reasons.append(reason)

    def reason(self, switch, test, case):
        for switches, t, pattern, reason in self.entries:
            if t != test or (switches is not None and switch not in switches):
                continue
            if fnmatch.fnmatchcase(case, pattern):
                return reason
        return None


class Column:
    """One switch: its selftests in order, each with its cases."""

    def __init__(self, switch, logdir):
        self.switch = switch
        self.tests = {}  # selftest -> list of (case, verdict, detail)
        self.order = []
        self.info = {}  # selftest -> (rc, seconds)
        self.finished = False
        self.seconds = None
        self.notes = []
        path = os.path.join(logdir, switch, "guest.log")
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                self._parse(f)
        except FileNotFoundError:
            self.notes.append(f"{path} missing: this switch did not run")
        try:
            with open(os.path.join(logdir, switch, "seconds"), encoding="utf-8") as f:
                self.seconds = int(f.read().strip())
        except (FileNotFoundError, ValueError):
            pass

    def _parse(self, f):
        current = None
        cases = None
        last_fail = None
        skip_line = None
        seen = {}
        for raw in f:
            line = raw.rstrip("\n").rstrip("\r")
            m = BEGIN_RE.match(line)
            if m:
                current = m.group(1)
                cases = self.tests.setdefault(current, [])
                if current not in self.order:
                    self.order.append(current)
                seen = {}
                last_fail = None
                skip_line = None
                continue
            if line.startswith("selftests: finished"):
                self.finished = True
                continue
            m = END_RE.match(line)
            if m and current == m.group(1):
                self.info[current] = (int(m.group(2)), int(m.group(3)))
                if not cases:
                    # No TEST line: say why, in one row.
                    rc = int(m.group(2))
                    verdict = "SKIP" if rc == 4 else "FAIL"
                    cases.append(("(no TEST lines, exit %d)" % rc, verdict, skip_line or ""))
                current = None
                continue
            if current is None:
                continue
            m = TEST_RE.search(line)
            if m:
                case = case_name(m.group(1))
                n = seen.get(case, 0) + 1
                seen[case] = n
                if n > 1:
                    case = f"{case} ({n})"
                verdict = "FAIL" if m.group(2) == "XFAIL" else m.group(2)
                entry = [case, verdict, ""]
                cases.append(entry)
                last_fail = entry if verdict == "FAIL" else None
                continue
            if last_fail is not None and line.startswith("\t") and not last_fail[2]:
                last_fail[2] = line.strip()
                continue
            m = SKIP_RE.match(line)
            if m and skip_line is None:
                skip_line = m.group(1)


def merge_order(sequences):
    """One order holding every item of every sequence, each sequence's
    order kept (items new to a later sequence follow their predecessor)."""
    out = []
    for seq in sequences:
        prev = -1
        for item in seq:
            if item in out:
                prev = out.index(item)
            else:
                out.insert(prev + 1, item)
                prev += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--logs", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--expected", action="append",
                    help="expected failures; may be given more than once")
    ap.add_argument("--reference", default="",
                    help="comma-separated switches whose failures do not count")
    ap.add_argument("switches", nargs="+")
    args = ap.parse_args()

    expected = Expected(args.expected)
    reference = set(x for x in args.reference.split(",") if x)
    cols = [Column(sw, args.logs) for sw in args.switches]
    tests = merge_order([c.order for c in cols])

    case_w = 64
    col_w = max(8, max(len(sw) for sw in args.switches) + 1)
    lines = []
    header = "%-*s" % (case_w, "selftest / case") + "".join("%*s" % (col_w, sw) for sw in args.switches)
    lines.append(header)
    lines.append("=" * len(header))

    counts = {c.switch: {"OK": 0, "FAIL": 0, "SKIP": 0, "xfail": 0} for c in cols}
    used_reasons = {}
    unexpected = []  # (switch, test, case, detail)
    worse = []  # (test, case, reasons per switch) where switchx2 fails, bridge passes

    for test in tests:
        # The selftest's own line: run time and exit status per switch.
        cells = []
        for c in cols:
            rc_s = c.info.get(test)
            cells.append("-" if rc_s is None else "%ds" % rc_s[1])
        lines.append("%-*s" % (case_w, test) + "".join("%*s" % (col_w, x) for x in cells))
        per_col = []
        for c in cols:
            per_col.append({case: (v, d) for case, v, d in c.tests.get(test, [])})
        cases = merge_order([[case for case, _, _ in c.tests.get(test, [])] for c in cols])
        for case in cases:
            cells = []
            verdicts = {}
            for c, got in zip(cols, per_col):
                if case not in got:
                    cells.append("-")
                    continue
                v, detail = got[case]
                verdicts[c.switch] = v
                if v == "FAIL":
                    reason = expected.reason(c.switch, test, case)
                    if reason is not None:
                        n = used_reasons.setdefault(reason, len(used_reasons) + 1)
                        counts[c.switch]["xfail"] += 1
                        cells.append("xfail[%d]" % n)
                        continue
                    unexpected.append((c.switch, test, case, detail))
                counts[c.switch][v] += 1
                cells.append(v)
            if verdicts.get("switchx2") == "FAIL" and verdicts.get("bridge") == "OK":
                worse.append((test, case))
            name = "  " + case
            if len(name) > case_w - 1:
                name = name[: case_w - 4] + "..."
            lines.append("%-*s" % (case_w, name) + "".join("%*s" % (col_w, x) for x in cells))
    lines.append("=" * len(header))

    for label, key in (("passed", "OK"), ("failed", "FAIL"), ("skipped", "SKIP"), ("expected failures", "xfail")):
        lines.append("%-*s" % (case_w, label) + "".join("%*d" % (col_w, counts[c.switch][key]) for c in cols))
    lines.append("%-*s" % (case_w, "guest wall time")
                 + "".join("%*s" % (col_w, "-" if c.seconds is None else "%ds" % c.seconds) for c in cols))
    lines.append("")

    if used_reasons:
        lines.append("Expected failures (tests/selftests/expected.txt):")
        for reason, n in sorted(used_reasons.items(), key=lambda x: x[1]):
            lines.append("  [%d] %s" % (n, reason))
        lines.append("")

    if worse:
        lines.append("SwitchX-2 fails where the software bridge passes:")
        for test, case in worse:
            lines.append("  %s: %s" % (test, case))
        lines.append("")

    rc = 0
    for title, group in (("Unexpected failures:", [u for u in unexpected if u[0] not in reference]),
                         ("Failures of the reference (%s), not counted:" % ", ".join(sorted(reference)),
                          [u for u in unexpected if u[0] in reference])):
        if not group:
            continue
        if not title.startswith("Failures of the reference"):
            rc = 1
        lines.append(title)
        for sw, test, case, detail in group:
            lines.append("  %s  %s: %s%s" % (sw, test, case, (" -- " + detail) if detail else ""))
        lines.append("")
    for c in cols:
        for note in c.notes:
            lines.append("%s: %s" % (c.switch, note))
        if not c.finished:
            rc = 1
            lines.append("%s: the guest did not finish the selftests (see %s)"
                         % (c.switch, os.path.join(args.logs, c.switch, "guest.log")))

    # The summary line CI sums (as make qemu-test's): cases that passed
    # or failed as expected, and unexpected failures plus unfinished
    # guests, over the switches that count.
    counted = [c for c in cols if c.switch not in reference]
    n_pass = sum(counts[c.switch]["OK"] + counts[c.switch]["xfail"] for c in counted)
    n_fail = sum(1 for u in unexpected if u[0] not in reference)
    n_fail += sum(1 for c in counted if not c.finished)
    lines.append("")
    lines.append("%d passed, %d failed" % (n_pass, n_fail))

    text = "\n".join(lines).rstrip("\n") + "\n"
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    sys.stdout.write(text)
    return rc


if __name__ == "__main__":
    sys.exit(main())
