#!/usr/bin/env bash
# requests 2.32.3 / urllib3 2.2.3 / click 8.1.7 run from the corpus sdists
# (`corpora.sh python`). The lines in log.txt were captured for
# crates/explain/tests/real_python.rs (the original script was not kept;
# this one provokes the same errors). Memory addresses are normalised to
# 0x7f0000000000 and the corpus path to /opt/py.
set -uo pipefail
P=/var/tmp/errdex-corpora/python
export PYTHONPATH=$P/requests-2.32.3/src:$P/urllib3-2.2.3/src:$P/click-8.1.7/src
cat > /tmp/clk.py <<'PY'
import click
@click.command()
@click.argument("path", type=click.Path(exists=True))
@click.option("--count", type=int, default=1)
@click.option("--mode", type=click.Choice(["fast", "slow"]))
def main(path, count, mode):
    pass
main()
PY
# A server that reads a request, then closes without an answer ("close"),
# or answers with less body than it announced ("short", "chunk").
cat > /tmp/badsrv.py <<'PY'
import socket, sys
mode, port = sys.argv[1], int(sys.argv[2])
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port))
s.listen(5)
answer = {
    "close": b"",
    "short": b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc",
    "chunk": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
}[mode]
while True:
    c, _ = s.accept()
    c.recv(65536)
    c.sendall(answer)
    c.close()
PY
python3 /tmp/badsrv.py close 18081 & python3 /tmp/badsrv.py short 18082 & python3 /tmp/badsrv.py chunk 18083 &
trap 'kill $(jobs -p) 2>/dev/null' EXIT
sleep 1
{
  python3 /tmp/clk.py
  python3 /tmp/clk.py . --count x
  python3 /tmp/clk.py /nonexistent
  python3 /tmp/clk.py . --mode medium
  python3 /tmp/clk.py . --bogus
  python3 -c 'import requests; requests.get("nota url")'
  python3 -c 'import requests; requests.get("http://")'
  python3 -c 'import requests; requests.get("ftp://x/y")'
  python3 -c 'import requests; requests.get("http://127.0.0.1:9/", timeout=(1, 2, 3))'
  python3 -c 'import urllib3; urllib3.util.parse_url("http://[::1")'
  python3 -c 'import urllib3; urllib3.Timeout(connect="abc")'
  python3 -c 'import requests; requests.get("http://127.0.0.1:9/")'
  python3 -c 'import requests; requests.get("http://127.0.0.1:18081/")'
  python3 -c 'import requests; requests.get("http://127.0.0.1:18082/")'
  python3 -c 'import requests; requests.get("http://127.0.0.1:18083/")'
  python3 -c 'import urllib3; urllib3.request("GET", "http://127.0.0.1:18081/", retries=False)'
} 2>&1 | sed -E "s/0x[0-9a-f]{12}/0x7f0000000000/g; s|$P|/opt/py|g"
