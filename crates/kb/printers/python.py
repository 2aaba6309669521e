"""Prints Python's error texts for the knowledge base's check
(crates/kb/tests/runtimes.rs): each error is made to happen for real and
printed as python/KEY<TAB>TEXT, the text being the last line a traceback
prints (`ClassName: str(e)`, as traceback.format_exception_only writes it),
or, where the interpreter adds to it (a "Did you mean" suggestion) or the
error ends a program, the last line the interpreter itself writes.

Only the standard library and the `openssl` command (for a self-signed
certificate) are used; nothing leaves 127.0.0.1.
"""

import asyncio
import atexit
import ctypes
import errno
import http.client
import http.server
import json
import os
import signal
import socket
import sqlite3
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading
import traceback
import urllib.error
import urllib.request
import warnings
import zipfile

TMP = tempfile.mkdtemp(prefix="errdex-python-")
os.chmod(TMP, 0o755)
atexit.register(shutil.rmtree, TMP, True)


def last_line(e):
    return traceback.format_exception_only(type(e), e)[-1].rstrip("\n")


def emit(key, text):
    assert "\n" not in text, (key, text)
    print(f"python/{key}\t{text}")


def show(key, fn, *args, form=last_line, **kwargs):
    """Runs fn, which must raise; prints the traceback's last line."""
    try:
        fn(*args, **kwargs)
    except BaseException as e:  # KeyboardInterrupt, SystemExit alike
        emit(key, form(e))
        return e
    raise SystemExit(f"{key}: no error happened")


def show_code(key, code, stdin=None, cwd=None):
    """Runs code in a new interpreter; prints the last line it writes to
    standard error (the traceback's, suggestions included)."""
    p = subprocess.run(
        [sys.executable, "-c", code],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )
    assert p.returncode != 0, (key, p.stdout, p.stderr)
    emit(key, p.stderr.strip().splitlines()[-1])


def run(code):
    exec(code, {})


def path(name):
    return os.path.join(TMP, name)


def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def serve(handler, tls=None):
    """A listener on 127.0.0.1 whose connections are handed to handler in
    a thread; returns the port."""
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(16)

    def loop():
        while True:
            c, _ = ls.accept()
            threading.Thread(target=guarded, args=(handler, c), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()
    return ls.getsockname()[1]


def guarded(handler, c):
    try:
        handler(c)
    except Exception:
        pass


# --- processes (first: waitpid(-1) needs no child left) -------------------


def processes():
    show("ChildProcessError", os.waitpid, -1, 0)
    show("ProcessLookupError", os.kill, 0x3FFFFFFF, 0)
    show("subprocess.CalledProcessError", subprocess.run, ["sh", "-c", "exit 3"], check=True)
    show("subprocess.CalledProcessError", subprocess.run, ["sh", "-c", "kill -9 $$"], check=True)
    show("subprocess.TimeoutExpired", subprocess.run, ["sleep", "5"], timeout=0.2)
    show("FileNotFoundError", subprocess.run, [path("no-such-program")])


# --- files ------------------------------------------------------------------


def as_nobody(fn):
    """Runs fn under an unprivileged user (root passes file permission
    checks) in a forked child; returns the lines it printed."""
    if os.geteuid() != 0:
        return fn()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            os.write(w, "\n".join(fn()).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r) as out:
        lines = out.read().splitlines()
    os.waitpid(pid, 0)
    return lines


def denied(secret):
    lines = []
    try:
        open(secret)
    except OSError as e:
        lines.append(last_line(e))
    try:
        # signal 0 to another user's process only checks the permission
        os.kill(other_users_pid(), 0)
    except OSError as e:
        lines.append(last_line(e))
    return lines


def other_users_pid():
    me = os.geteuid()
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if os.stat(f"/proc/{d}").st_uid != me:
                    return int(d)
            except OSError:
                pass
    raise SystemExit("PermissionError: no process of another user to signal")


def files():
    missing = path("missing.txt")
    show("FileNotFoundError", open, missing)
    show("OSError.str", open, missing, form=str)
    f = path("file.txt")
    with open(f, "w") as out:
        out.write("x")
    show("NotADirectoryError", open, os.path.join(f, "child"))
    show("IsADirectoryError", open, TMP)
    show("FileExistsError", os.mkdir, TMP)
    d = path("full")
    os.mkdir(d)
    open(os.path.join(d, "f"), "w").close()
    show("OSError", os.rmdir, d)
    # Executing a file without an execute bit is refused even to root.
    show("PermissionError", subprocess.run, [f])
    secret = path("secret.txt")
    open(secret, "w").close()
    os.chmod(secret, 0)
    lines = as_nobody(lambda: denied(secret))
    assert len(lines) == 2, lines
    for line in lines:
        emit("PermissionError", line)
    show("ValueError.closed-file", lambda: (lambda fh: (fh.close(), fh.read()))(open(f)))
    show("io.UnsupportedOperation", lambda: open(f).write("x"))
    show("zipfile.BadZipFile", zipfile.ZipFile, f)
    db = sqlite3.connect(":memory:")
    show("sqlite3.OperationalError.no-such-table", db.execute, "select * from jobs")
    show("sqlite3.OperationalError.open", sqlite3.connect, os.path.join(missing, "x.db"))
    locked = path("locked.db")
    a = sqlite3.connect(locked, timeout=0, isolation_level=None)
    a.execute("create table t (x)")
    a.execute("begin exclusive")
    b = sqlite3.connect(locked, timeout=0)
    show("sqlite3.OperationalError.locked", b.execute, "select * from t")
    a.execute("rollback")


# --- pipes, sockets, DNS ----------------------------------------------------


def sockets():
    r, w = os.pipe()
    os.close(r)
    show("BrokenPipeError", os.write, w, b"x")
    os.close(w)

    port = closed_port()
    show("ConnectionRefusedError", socket.create_connection, ("127.0.0.1", port))
    show("OSError.str", socket.create_connection, ("127.0.0.1", port), form=str)

    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    held.listen()
    second = socket.socket()
    show("OSError", second.bind, held.getsockname())
    second.close()

    def reset(c):
        c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\1\0\0\0\0\0\0\0")
        c.close()

    c = socket.create_connection(("127.0.0.1", serve(reset)))
    c.settimeout(5)
    show("ConnectionResetError", c.recv, 1)

    def silent(c):
        threading.Event().wait(30)

    quiet = serve(silent)
    c = socket.create_connection(("127.0.0.1", quiet))
    c.settimeout(0.2)
    show("TimeoutError", c.recv, 1)
    c.setblocking(False)
    show("BlockingIOError", c.recv, 1)

    # A listener whose accept queue is full drops new SYNs: the connect
    # waits, then times out (TCP_SYNCNT=1: after about three seconds).
    full = socket.socket()
    full.bind(("127.0.0.1", 0))
    full.listen(0)
    addr = full.getsockname()
    filler = socket.create_connection(addr)
    c = socket.socket()
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_SYNCNT, 1)
    show("TimeoutError", c.connect, addr)

    async def wait():
        await asyncio.wait_for(asyncio.sleep(5), 0.05)

    show("TimeoutError", asyncio.run, wait())

    # A malformed name fails in the resolver itself; name.invalid is what a
    # resolver answers (NXDOMAIN) or, offline, fails to reach.
    show("socket.gaierror", socket.getaddrinfo, b"no-such-host..invalid", 80)
    show("socket.gaierror", socket.getaddrinfo, "name.invalid", 80)
    show("socket.herror", socket.gethostbyaddr, "192.0.2.1")

    # EINTR: Python retries the calls it wraps (PEP 475); a C call made
    # through ctypes is not retried, and code raising from its errno gets
    # InterruptedError.
    libc = ctypes.CDLL(None, use_errno=True)
    r, w = os.pipe()
    signal.signal(signal.SIGALRM, lambda *_: None)
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    buf = ctypes.create_string_buffer(1)
    n = libc.read(r, buf, 1)
    assert n == -1
    code = ctypes.get_errno()

    def interrupted():
        raise OSError(code, os.strerror(code))

    show("InterruptedError", interrupted)
    os.close(r)
    os.close(w)
    filler.close()
    full.close()


# --- TLS, HTTP --------------------------------------------------------------


def certificate():
    key, cert = path("key.pem"), path("cert.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
         "-out", cert, "-days", "2", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost"],
        check=True, capture_output=True,
    )
    return key, cert


def tls():
    key, cert = certificate()
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)

    def tls_echo(c):
        s = server.wrap_socket(c, server_side=True)
        threading.Event().wait(30)

    port = serve(tls_echo)
    default = ssl.create_default_context()

    def connect(ctx, name, timeout=5):
        s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        return ctx.wrap_socket(s, server_hostname=name)

    show("ssl.SSLCertVerificationError", connect, default, "localhost")
    trusting = ssl.create_default_context(cafile=cert)
    show("ssl.hostname-mismatch", connect, trusting, "other.test")
    show("ssl.hostname-mismatch", connect, trusting, "127.0.0.1")
    s = connect(trusting, "localhost")
    s.settimeout(0.2)
    show("TimeoutError.ssl", s.recv, 1)

    def silent(c):
        threading.Event().wait(30)

    quiet = serve(silent)

    def handshake():
        s = socket.create_connection(("127.0.0.1", quiet), timeout=0.2)
        trusting.wrap_socket(s, server_hostname="localhost")

    show("TimeoutError.ssl", handshake)

    def plain(c):
        c.recv(1024)
        c.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        threading.Event().wait(1)

    def hangup(c):
        # Read the ClientHello first: closing with unread data sends a
        # reset instead of an end of stream.
        c.recv(65536)
        c.close()

    for key_, handler in (("ssl.SSLError", plain), ("ssl.SSLEOFError", hangup)):
        p = serve(handler)
        show(key_, lambda: default.wrap_socket(
            socket.create_connection(("127.0.0.1", p), timeout=5), server_hostname="localhost"))

    async def aborted():
        await asyncio.open_connection(
            "127.0.0.1", quiet, ssl=trusting, server_hostname="localhost",
            ssl_handshake_timeout=0.1)

    show("ConnectionAbortedError", asyncio.run, aborted())


class NotFound(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_error(404, "Not Found")

    def log_message(self, *args):
        pass


def http_errors():
    httpd = http.server.HTTPServer(("127.0.0.1", 0), NotFound)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/missing"
    show("urllib.error.HTTPError", urllib.request.urlopen, url, timeout=5)
    show("urllib.error.URLError", urllib.request.urlopen, f"http://127.0.0.1:{closed_port()}/", timeout=5)

    def close_after_request(c):
        c.recv(4096)
        c.close()

    port = serve(close_after_request)
    show("http.client.RemoteDisconnected", urllib.request.urlopen, f"http://127.0.0.1:{port}/", timeout=5)


# --- the language -----------------------------------------------------------


def language():
    show("KeyError", run, "{}['timeout']")
    show("IndexError", run, "[][1]")
    show("IndexError", run, "()[1]")
    show("IndexError", run, "''[1]")
    show("IndexError.pop", run, "[].pop()")
    show("TypeError.unsupported-operand", run, "1 + 'a'")
    show("TypeError.unsupported-operand", run, "None + 1")
    show("TypeError.missing-argument", run, "def f(x): pass\nf()")
    show("TypeError.missing-argument", run, "def f(x, y): pass\nf()")
    show("TypeError.positional-arguments", run, "def f(x): pass\nf(1, 2)")
    show("TypeError.positional-arguments", run, "def f(): pass\nf(1)")
    show("TypeError.positional-arguments", run, "def f(x, y): pass\nf(1, 2, 3)")
    show("TypeError.unexpected-keyword", run, "def f(x): pass\nf(y=1)")
    show("TypeError.not-subscriptable", run, "None[0]")
    show("TypeError.not-callable", run, "x = 'name'\nx()")
    show("TypeError.not-iterable", run, "for x in None: pass")
    show("TypeError.not-iterable", run, "a, b = None")
    show("TypeError.str-concat", run, "'port: ' + 8080")
    show("TypeError.bytes-str", run, "b'a' + 'b'")
    show("TypeError.bytes-str", run, "b'abc'.startswith('a')")
    show("TypeError.indices", run, "'abc'['x']")
    show("TypeError.indices", run, "[1]['x']")
    show("TypeError.item-assignment", run, "t = (1,)\nt[0] = 2")
    show("TypeError.unhashable", run, "{[]: 1}")
    show("TypeError.not-json-serializable", run, "import json, datetime\njson.dumps(datetime.date(2024, 1, 1))")
    show("TypeError.comparison", run, "sorted([1, None])")
    show("TypeError.no-len", run, "len(5)")
    show("TypeError.int-argument", run, "int(None)")
    show("AttributeError", run, "None.get('x')")
    show_code("AttributeError", "'a'.lowr()")
    show("AttributeError.module", run, "import json\njson.loadz")
    show_code("AttributeError.module", "import os\nos.pathx")
    circular = path("circ")
    os.mkdir(circular)
    with open(os.path.join(circular, "first.py"), "w") as f:
        f.write("import second\n")
    with open(os.path.join(circular, "second.py"), "w") as f:
        f.write("import first\nfirst.CONFIG\n")
    show_code("AttributeError.module", "import first", cwd=circular)
    with open(os.path.join(circular, "one.py"), "w") as f:
        f.write("from two import B\nA = 1\n")
    with open(os.path.join(circular, "two.py"), "w") as f:
        f.write("from one import A\nB = 1\n")
    show_code("ImportError", "import one", cwd=circular)
    show("ImportError", run, "from json import loadz")
    with open(os.path.join(circular, "rel.py"), "w") as f:
        f.write("from .sibling import x\n")
    p = subprocess.run([sys.executable, os.path.join(circular, "rel.py")], capture_output=True, text=True)
    emit("ImportError.relative", p.stderr.strip().splitlines()[-1])
    show("ModuleNotFoundError", run, "import requestz")
    show("ModuleNotFoundError", run, "import os.tools")
    show("NameError", run, "undefined_name")
    show_code("NameError", "prnt('x')")
    show("UnboundLocalError", run, "count = 0\ndef f():\n    count += 1\nf()")
    show("ValueError.int", run, "int('8080x')")
    show("ValueError.float", run, "float('1,5')")
    show("ValueError.unpack", run, "a, b = 1, 2, 3")
    show("ValueError.unpack", run, "a, b, c = 1, 2")
    show("ValueError.not-in-list", run, "[].remove(1)")
    show("ValueError.not-in-list", run, "['a'].index('b')")
    show("ValueError.math-domain", run, "import math\nmath.sqrt(-1)")
    show("ValueError.strptime", run, "import datetime\ndatetime.datetime.strptime('2024-13-01', '%Y-%m-%d')")
    show("ZeroDivisionError", run, "1 / 0")
    show("ZeroDivisionError", run, "1.0 / 0")
    show("ZeroDivisionError", run, "1 // 0")
    show("ZeroDivisionError", run, "1 % 0")
    show("RecursionError", run, "def f(): f()\nf()")
    show("RecursionError", run, "import copy\nl = []\nfor _ in range(100000): l = [l]\nrepr(l)")
    show("OverflowError", run, "import math\nmath.exp(1000)")
    show("OverflowError", run, "float(10 ** 400)")
    show("OverflowError", run, "import os\nos.read(0, 2 ** 70)")
    show("MemoryError", run, "bytearray(2 ** 62)")
    show("UnicodeDecodeError", run, "b'\\xff'.decode('utf-8')")
    show("UnicodeDecodeError", run, "b'\\xe2\\x82'.decode('utf-8')")
    show("UnicodeEncodeError", run, "'caf\\xe9'.encode('ascii')")
    show("UnicodeEncodeError", run, "'\\xe9\\xe9'.encode('ascii')")
    show("LookupError.encoding", run, "'x'.encode('utf-9')")
    show("json.JSONDecodeError.expecting-value", json.loads, "")
    show("json.JSONDecodeError.expecting-value", json.loads, "<html><body>502 Bad Gateway</body></html>")
    show("json.JSONDecodeError.extra-data", json.loads, '{"a": 1}\n{"b": 2}')
    for bad in ("{'a': 1}", '"abc', "[1 2]", '{"a" 1}', '"a\nb"', '"\\x"'):
        show("json.JSONDecodeError", json.loads, bad)
    show("StopIteration", run, "next(iter([]))")
    show("RuntimeError.generator-stopiteration", run, "def g():\n    next(iter([]))\n    yield 1\nlist(g())")
    show("RuntimeError.changed-size", run, "d = {1: 1}\nfor k in d: d[2] = 2")
    show("RuntimeError.changed-size", run, "s = {1}\nfor k in s: s.add(2)")
    show("RuntimeError.event-loop", run, "import asyncio\nasync def inner(): pass\nasync def main():\n    c = inner()\n    try:\n        asyncio.run(c)\n    finally:\n        c.close()\nasyncio.run(main())")
    show("AssertionError", run, "assert False")
    show("AssertionError", run, "assert 1 == 2, 'expected 2 workers'")
    show("NotImplementedError", run, "raise NotImplementedError")
    show("NotImplementedError", run, "raise NotImplementedError('subclasses implement this')")
    show("KeyboardInterrupt", signal.raise_signal, signal.SIGINT)
    show_code("EOFError", "input()", stdin="")
    show("pickle.UnpicklingError", run, "import pickle\npickle.loads(b'<html>')")
    show("SyntaxError", run, "exec('x = ')")
    show("SyntaxError", run, "exec('print(\"a\"')")
    show("SyntaxError", run, "exec('if x\\n    pass')")
    show("SyntaxError", run, "exec(\"'abc\")")
    show("SyntaxError", run, "exec('print \"x\"')")
    show("IndentationError", run, "exec('  x = 1')")
    show("IndentationError", run, "exec('if 1:\\nx = 1')")
    show("IndentationError", run, "exec('if 1:\\n    x = 1\\n  y = 1')")
    show("TabError", run, "exec('if 1:\\n\\tx = 1\\n        y = 1')")


def main():
    warnings.simplefilter("ignore")
    signal.signal(signal.SIGINT, signal.default_int_handler)
    processes()
    files()
    sockets()
    tls()
    http_errors()
    language()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
