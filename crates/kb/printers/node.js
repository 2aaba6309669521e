// Prints Node's error texts for the knowledge base's check
// (crates/kb/tests/runtimes.rs): each error is made to happen for real and
// its `err.message` (first line: some add a require stack or an OpenSSL
// newline) is printed as node/KEY<TAB>TEXT. Only Node's own modules and the
// `openssl` command (for a self-signed certificate) are used; nothing
// leaves 127.0.0.1.
'use strict';

const assert = require('assert');
const cp = require('child_process');
const dns = require('dns');
const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');
const stream = require('stream');
const timers = require('timers/promises');
const tls = require('tls');

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'errdex-node-'));
fs.chmodSync(TMP, 0o755);
process.on('exit', () => fs.rmSync(TMP, { recursive: true, force: true }));
const tmp = (name) => path.join(TMP, name);

function emit(key, text) {
  assert(!text.includes('\n'), `${key}: ${JSON.stringify(text)}`);
  process.stdout.write(`node/${key}\t${text}\n`);
}

const firstLine = (e) => String(e.message).split('\n')[0];

// fn must throw (or reject); its error's message is printed.
async function show(key, fn) {
  let error;
  try {
    await fn();
  } catch (e) {
    error = e;
  }
  assert(error !== undefined, `${key}: no error happened`);
  emit(key, firstLine(error));
  return error;
}

// A promise that rejects with the first 'error' an emitter emits and
// resolves on `done` (an event that must not come first).
function failure(emitter, done = 'connect') {
  return new Promise((resolve, reject) => {
    emitter.once('error', reject);
    if (done) emitter.once(done, () => resolve(`${done} instead of an error`));
  });
}

function listen(server, ...args) {
  return new Promise((resolve) => server.listen(...args, () => resolve(server.address().port)));
}

async function closedPort() {
  const s = net.createServer();
  const port = await listen(s, 0, '127.0.0.1');
  await new Promise((r) => s.close(r));
  return port;
}

// Runs a Node script in a child and gives what it prints.
function child(code, options = {}) {
  return cp.execFileSync(process.execPath, [...(options.flags || []), '-e', code], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options.spawn,
  });
}

// --- the language -------------------------------------------------------------

async function language() {
  let missing;
  let nothing = null;
  await show('TypeError.undefined-property', () => missing.name);
  await show('TypeError.undefined-property', () => nothing.name);
  await show('TypeError.set-property', () => { missing.name = 1; });
  await show('TypeError.not-a-function', () => missing());
  await show('TypeError.not-a-function', () => ({ items: {} }).items.map((x) => x));
  await show('ReferenceError.not-defined', () => eval('undefinedName'));
  await show('ReferenceError.before-initialization', () => eval('value; let value = 1'));
  await show('TypeError.assignment-to-constant', () => eval('const limit = 1; limit = 2'));
  await show('TypeError.not-iterable', () => { for (const x of missing) void x; });
  await show('TypeError.not-iterable', () => nothing[Symbol.iterator]);
  await show('TypeError.not-iterable', () => { const [a] = {}; void a; });
  await show('TypeError.not-a-constructor', () => new (() => {})());
  await show('TypeError.not-a-constructor', () => { const api = {}; return new api.Client(); });
  await show('RangeError.call-stack', () => { const f = () => f(); f(); });
  await show('RangeError.invalid-array-length', () => new Array(-1));
  await show('TypeError.reduce-empty', () => [].reduce((a, b) => a + b));
  await show('SyntaxError.JSON', () => JSON.parse('<html><body>Bad Gateway</body></html>'));
  await show('SyntaxError.JSON', () => JSON.parse("{'a': 1}"));
  await show('SyntaxError.JSON', () => JSON.parse('{"a": 1,}'));
  await show('SyntaxError.JSON', () => JSON.parse('{"a" 1}'));
  await show('SyntaxError.JSON', () => JSON.parse('{"a": 1}\n{"b": 2}'));
  await show('SyntaxError.JSON', () => JSON.parse(undefined));
  await show('SyntaxError.JSON-end', () => JSON.parse(''));
  await show('SyntaxError.JSON-end', () => JSON.parse('{"a": [1, 2'));
  await show('SyntaxError.import-outside-module', () => eval('import fs from "fs"'));
  await show('ERR_UNHANDLED_REJECTION', () => new Promise((resolve, reject) => {
    process.once('uncaughtException', reject);
    Promise.reject('connection lost'); // a rejection with a reason that is no Error
  }));
}

// --- modules ------------------------------------------------------------------

async function modules() {
  await show('MODULE_NOT_FOUND', () => require('left-padx'));
  await show('MODULE_NOT_FOUND', () => require('./lib/missing'));
  await show('ERR_MODULE_NOT_FOUND', () => import('left-padx'));
  await show('ERR_MODULE_NOT_FOUND', () => import(tmp('missing.mjs')));
  fs.writeFileSync(tmp('app.ts'), 'const port: number = 8080;\n');
  await show('ERR_UNKNOWN_FILE_EXTENSION', () => import(tmp('app.ts')));
  const esm = tmp('esm.mjs');
  fs.writeFileSync(esm, 'export default 1;\n');
  const req = `try { require(${JSON.stringify(esm)}); } catch (e) { console.log(e.message.split('\\n')[0]); }`;
  // Node 20.19 and later load ES modules with require() unless told not to.
  let printed = child(req).trim();
  if (!printed) printed = child(req, { flags: ['--no-experimental-require-module'] }).trim();
  emit('ERR_REQUIRE_ESM', printed);
}

// --- arguments and streams ---------------------------------------------------

async function api() {
  await show('ERR_INVALID_ARG_TYPE', () => fs.readFileSync(undefined));
  await show('ERR_INVALID_ARG_TYPE', () => fs.writeFileSync(tmp('n'), 5));
  await show('ERR_INVALID_URL', () => new URL('/api/users'));
  await show('ERR_OUT_OF_RANGE', () => Buffer.alloc(-1));
  await show('ERR_SOCKET_BAD_PORT', () => net.createServer().listen(70000));
  await show('ERR_INVALID_CHAR', () => http.request({ host: '127.0.0.1', headers: { Authorization: 'Bearer x\n' } }));
  const w = new stream.Writable({ write(chunk, enc, cb) { cb(); } });
  w.end();
  await show('ERR_STREAM_WRITE_AFTER_END', () => new Promise((resolve, reject) => {
    w.on('error', reject);
    w.write('x');
  }));
  const r = new stream.Readable({ read() {} });
  await show('ERR_STREAM_PREMATURE_CLOSE', () => new Promise((resolve, reject) => {
    stream.finished(r, (e) => (e ? reject(e) : resolve()));
    r.destroy();
  }));
  const ac = new AbortController();
  const waiting = timers.setTimeout(5000, null, { signal: ac.signal });
  ac.abort();
  await show('AbortError', () => waiting);
  await show('exec.command-failed', () => cp.execSync('exit 3', { stdio: 'pipe' }));
}

// --- files, processes --------------------------------------------------------

async function files() {
  const file = tmp('file.txt');
  fs.writeFileSync(file, 'x');
  await show('ENOENT.fs', () => fs.readFileSync(tmp('missing.json')));
  await show('ENOENT.fs', () => fs.promises.stat(tmp('missing')));
  await show('EISDIR.fs', () => fs.readFileSync(TMP));
  await show('ENOTDIR.fs', () => fs.readdirSync(file));
  await show('EEXIST.fs', () => fs.mkdirSync(TMP));
  fs.mkdirSync(tmp('full'));
  fs.writeFileSync(tmp('full/f'), '');
  await show('ENOTEMPTY.fs', () => fs.rmdirSync(tmp('full')));
  await show('EPERM.fs', () => fs.linkSync(TMP, tmp('dir-link')));
  // Executing a file without an execute bit is refused even to root.
  await show('EACCES.spawn', () => cp.execFileSync(file));
  await show('EACCES.spawn', () => failure(cp.spawn(file), 'spawn'));
  await show('ENOENT.spawn', () => failure(cp.spawn('no-such-program-x'), 'spawn'));
  await show('ENOENT.spawn', () => cp.execFileSync('no-such-program-x'));
  await show('ESRCH.kill', () => process.kill(0x3fffffff, 0));
  // Permission checks on files pass for root: run them as an unprivileged
  // user (nobody) when root.
  const secret = tmp('secret.txt');
  fs.writeFileSync(secret, 'x');
  fs.chmodSync(secret, 0);
  const locked = tmp('locked');
  fs.mkdirSync(locked, { mode: 0o555 });
  fs.chmodSync(locked, 0o555);
  const code = `
    const fs = require('fs');
    const say = (f) => { try { f(); } catch (e) { console.log(e.message); } };
    say(() => fs.readFileSync(${JSON.stringify(secret)}));
    say(() => fs.mkdirSync(${JSON.stringify(path.join(locked, 'sub'))}));
    const me = process.geteuid();
    const owner = (d) => { try { return fs.statSync('/proc/' + d).uid; } catch { return me; } };
    const other = fs.readdirSync('/proc').find((d) => /^\\d+$/.test(d) && owner(d) !== me);
    say(() => process.kill(Number(other), 0));`;
  const asRoot = process.geteuid() === 0;
  const lines = child(code, { spawn: asRoot ? { uid: 65534, gid: 65534 } : {} }).trim().split('\n');
  assert.strictEqual(lines.length, 3, lines.join('\n'));
  emit('EACCES.fs', lines[0]);
  emit('EACCES.fs', lines[1]);
  emit('EPERM.kill', lines[2]);
  // A low descriptor limit, as `ulimit -n` sets it.
  const emfile = cp.execFileSync('sh', ['-c', `ulimit -n 32 && exec "$0" -e "$1"`, process.execPath, `
    const fs = require('fs');
    try { for (;;) fs.openSync(${JSON.stringify(file)}); } catch (e) { console.log(e.message); }`], { encoding: 'utf8' });
  emit('EMFILE.fs', emfile.trim());
  const oom = cp.spawnSync(process.execPath, ['--max-old-space-size=16', '-e',
    'const a = []; for (;;) a.push(new Array(100000).fill(1));'], { encoding: 'utf8' });
  const fatal = oom.stderr.split('\n').find((l) => l.startsWith('FATAL ERROR:'));
  assert(fatal, oom.stderr);
  emit('heap-out-of-memory', fatal);
}

// --- network ---------------------------------------------------------------------

async function network() {
  const held = net.createServer();
  const port = await listen(held, 0, '127.0.0.1');
  await show('EADDRINUSE.listen', () => failure(net.createServer().listen(port, '127.0.0.1'), 'listening'));
  await show('EADDRNOTAVAIL.listen', () => failure(net.createServer().listen(0, '192.0.2.254'), 'listening'));
  const closed = await closedPort();
  await show('ECONNREFUSED.connect', () => failure(net.connect(closed, '127.0.0.1')));
  await show('ENOENT.connect', () => failure(net.connect(tmp('docker.sock'))));
  const fetchError = await show('TypeError.fetch-failed', () => fetch(`http://127.0.0.1:${closed}/`));
  emit('ECONNREFUSED.connect', firstLine(fetchError.cause));

  const reset = net.createServer((c) => setTimeout(() => c.resetAndDestroy(), 200));
  const resetPort = await listen(reset, 0, '127.0.0.1');
  await show('ECONNRESET.read', () => failure(net.connect(resetPort, '127.0.0.1'), null));

  const hangup = net.createServer((c) => c.once('data', () => c.end()));
  const hangupPort = await listen(hangup, 0, '127.0.0.1');
  await show('ECONNRESET.socket-hang-up', () => failure(http.get(`http://127.0.0.1:${hangupPort}/`), 'response'));
  const closedByPeer = await show('TypeError.fetch-failed', () => fetch(`http://127.0.0.1:${hangupPort}/`));
  emit('UND_ERR_SOCKET', firstLine(closedByPeer.cause));

  // A child that closes its standard input: writes to it fail.
  const reader = cp.spawn('sh', ['-c', 'exec 0<&-; sleep 30']);
  const writing = setInterval(() => reader.stdin.write('x'), 100);
  await show('EPIPE.write', () => failure(reader.stdin, null));
  clearInterval(writing);
  reader.kill();

  const quiet = net.createServer(() => {});
  const quietPort = await listen(quiet, 0, '127.0.0.1');
  await show('ECONNRESET.socket-hang-up', () => new Promise((resolve, reject) => {
    const req = http.get(`http://127.0.0.1:${quietPort}/`, { timeout: 50 }, resolve);
    req.on('timeout', () => req.destroy());
    req.on('error', reject);
  }));
  await show('TimeoutError.abort-signal', () => fetch(`http://127.0.0.1:${quietPort}/`, { signal: AbortSignal.timeout(50) }));
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 20);
  await show('AbortError', () => fetch(`http://127.0.0.1:${quietPort}/`, { signal: ac.signal }));

  // ETIMEDOUT: a listener in a process whose event loop is blocked never
  // accepts; once its queue is full the kernel drops new SYNs. Node's
  // address racing (autoSelectFamily) times the attempt out.
  const holder = cp.spawn(process.execPath, ['-e', `
    const s = require('net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
      process.stdout.write(s.address().port + '\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 15000);
      process.exit(0);
    });`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const fullPort = Number(await new Promise((r) => holder.stdout.once('data', (d) => r(String(d).trim()))));
  const fillers = [1, 2, 3].map(() => net.connect(fullPort, '127.0.0.1').on('error', () => {}));
  await timers.setTimeout(300);
  const aggregate = await new Promise((resolve) => {
    const c = net.connect({
      host: 'api.test', port: fullPort, autoSelectFamily: true, autoSelectFamilyAttemptTimeout: 100,
      lookup: (host, o, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }, { address: '127.0.0.2', family: 4 }]),
    });
    c.on('error', resolve);
    c.on('connect', () => resolve(new Error('connected')));
  });
  const timedOut = (aggregate.errors || []).find((e) => e.code === 'ETIMEDOUT');
  assert(timedOut, `no ETIMEDOUT: ${aggregate.stack}`);
  emit('ETIMEDOUT.connect', firstLine(timedOut));
  fillers.forEach((f) => f.destroy());
  holder.kill();

  // A malformed name fails in the resolver without asking a server;
  // name.invalid fails with ENOTFOUND where a DNS server answers, and with
  // EAI_AGAIN where none can be reached.
  const lookup = (name) => new Promise((resolve, reject) => dns.lookup(name, (e) => (e ? reject(e) : resolve())));
  const notFound = await show('ENOTFOUND.getaddrinfo', () => lookup('no-such-host..invalid'));
  emit('getaddrinfo', firstLine(notFound));
  const invalid = await lookup('name.invalid').then(() => null, (e) => e);
  assert(invalid, 'name.invalid resolved');
  emit('getaddrinfo', firstLine(invalid));
  if (invalid.code === 'ENOTFOUND') emit('ENOTFOUND.getaddrinfo', firstLine(invalid));
  await show('ENOTFOUND.getaddrinfo', () => failure(http.get('http://no-such-host..invalid/'), 'response'));

  const server = http.createServer((req, res) => {
    res.end('ok');
    try {
      res.setHeader('X-Late', '1');
    } catch (e) {
      emit('ERR_HTTP_HEADERS_SENT', firstLine(e));
    }
  });
  const httpPort = await listen(server, 0, '127.0.0.1');
  await fetch(`http://127.0.0.1:${httpPort}/`).then((r) => r.text());

  [held, reset, hangup, quiet, server].forEach((s) => s.close());
}

// --- TLS ---------------------------------------------------------------------------

async function tlsErrors() {
  const key = tmp('key.pem');
  const cert = tmp('cert.pem');
  cp.execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert,
    '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'ignore' });
  const ca = fs.readFileSync(cert);
  const server = tls.createServer({ key: fs.readFileSync(key), cert: ca }, () => {});
  const port = await listen(server, 0, '127.0.0.1');
  const connect = (options) => failure(tls.connect({ port, host: '127.0.0.1', ...options }), 'secureConnect');
  await show('ERR_TLS_CERT_ALTNAME_INVALID', () => connect({ servername: 'api.example.test', ca }));
  await show('ERR_TLS_CERT_ALTNAME_INVALID', () => connect({ ca }));

  // The ClientHello is read first: closing with unread data sends a reset.
  const hangup = net.createServer((c) => c.once('data', () => c.destroy()));
  const hangupPort = await listen(hangup, 0, '127.0.0.1');
  await show('ECONNRESET.tls-disconnected', () => failure(tls.connect({ port: hangupPort, host: '127.0.0.1', servername: 'localhost' }), 'secureConnect'));

  const plain = net.createServer((c) => c.once('data', () => c.end('HTTP/1.1 400 Bad Request\r\n\r\n')));
  const plainPort = await listen(plain, 0, '127.0.0.1');
  await show('ERR_SSL_WRONG_VERSION_NUMBER', () => failure(tls.connect({ port: plainPort, host: '127.0.0.1', servername: 'localhost' }), 'secureConnect'));
  [server, hangup, plain].forEach((s) => s.close());
}

async function main() {
  await language();
  await modules();
  await api();
  await files();
  await network();
  await tlsErrors();
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`${e.stack}\n`);
    process.exit(1);
  },
);
