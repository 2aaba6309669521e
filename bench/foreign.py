"""Honesty on real messages the atlas does not hold: reads `errdex explain
--json -` output for such messages on stdin, prints how many came back
unknown, and lists every other answer with the pattern it was pinned to,
to be read by hand (the same words in Go, or a Go template whose hole takes
the rest, are right answers; a short template behind prose is not)."""
import collections
import json
import sys

verdicts = collections.Counter()
others = []
for line in sys.stdin:
    e = json.loads(line)
    verdicts[e["verdict"]] += 1
    if e["verdict"] != "unknown":
        patterns = [f["candidates"][0]["messagePattern"] for f in e["frames"]]
        others.append(f"  {e['verdict']}: {e['input'][:70]!r} -> {patterns} prefix {e['prefix']!r}")
total = sum(verdicts.values())
print(
    f"foreign messages: {verdicts['unknown']}/{total} unknown "
    f"({100 * verdicts['unknown'] / max(total, 1):.2f}%), "
    + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items()) if v != "unknown")
)
print("\n".join(others))
