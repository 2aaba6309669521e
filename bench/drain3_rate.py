"""Drain3 (log template mining) over the same generated lines, for a
throughput comparison with `errdex explain -`. Usage: drain3_rate.py LINES [N]"""
import sys
import time

from drain3 import TemplateMiner
from drain3.template_miner_config import TemplateMinerConfig

path = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
lines = []
with open(path, encoding="utf-8", errors="replace") as f:
    for i, line in enumerate(f):
        if i >= n:
            break
        lines.append(line.rstrip("\n"))
config = TemplateMinerConfig()
config.profiling_enabled = False
miner = TemplateMiner(config=config)
start = time.perf_counter()
for line in lines:
    miner.add_log_message(line)
secs = time.perf_counter() - start
print(f"drain3: {len(lines)} lines in {secs:.2f} s = {len(lines) / secs:.0f} lines/s, {len(miner.drain.clusters)} clusters")
