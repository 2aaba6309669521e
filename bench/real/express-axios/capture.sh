#!/bin/sh
# Re-captures log.txt: real Node.js programs failing inside express
# 4.21.2 and axios 1.7.9 (the corpus versions, `corpora.sh js`).
#   sh capture.sh > log.txt
# Needs node and npm; installs the two packages into $JSREAL (default
# /tmp/jsreal). Axios is imported as an ES module so its frames point into
# lib/ (the corpus sources), not the bundled dist/node/axios.cjs. Paths
# under $JSREAL are normalised to /app, so frames read
# /app/node_modules/express/lib/application.js:217:11.
# Left out, as errdex cannot trace them right yet: axios's 'Unsupported
# protocol ftp:' (the xhr adapter's longer template, in dist/ only, wins
# over http.js's hinted one), Node's own 'Invalid URL' (it equals axios's
# fromDataURI text) and a bare 'Request failed with status code 404'
# without frames (its copies in dist/ tie with lib/core/settle.js).
set -eu
JSREAL=${JSREAL:-/tmp/jsreal}
mkdir -p "$JSREAL/progs"
cd "$JSREAL"
if [ ! -d node_modules/express ] || [ ! -d node_modules/axios ]; then
  [ -f package.json ] || npm init -y >/dev/null
  npm install --no-save express@4.21.2 axios@1.7.9 >/dev/null 2>&1
fi
P=progs

# --- express, uncaught errors while the app is set up ---
cat > $P/use.js <<'JS'
const express = require('express');
const app = express();
app.use('/api');
JS
cat > $P/route.js <<'JS'
const express = require('express');
const handlers = {};
const app = express();
app.get('/users', handlers.listUsers);
JS
cat > $P/router-use.js <<'JS'
const express = require('express');
const router = express.Router();
router.use('/x', 42);
JS
cat > $P/etag.js <<'JS'
const express = require('express');
const app = express();
app.set('etag', 'sometimes');
JS
cat > $P/bodyparser.js <<'JS'
const express = require('express');
const app = express();
app.use(express.bodyParser());
JS
cat > $P/static.js <<'JS'
const express = require('express');
const app = express();
app.use(express.static());
JS
cat > $P/param.js <<'JS'
const express = require('express');
const app = express();
app.param('id', 'user');
JS

# --- express, errors while serving (finalhandler prints err.stack) and
# deprecations (depd), then axios requests against the same server ---
cat > $P/serve.mjs <<'JS'
import express from 'express';
import axios, { AxiosHeaders } from 'axios';
import net from 'node:net';

const app = express();
app.set('views', '/app/views');
app.get('/file', (req, res) => res.sendFile('report.pdf'));
app.get('/render', (req, res) => res.render('index'));
app.engine('html', (file, opts, cb) => cb(null, ''));
app.get('/page', (req, res) => res.render('missing.html'));
app.get('/type', (req, res) => res.set('Content-Type', ['text/html', 'text/plain']).end());
app.get('/cookie', (req, res) => res.cookie('sid', '1', { signed: true }).end());
app.get('/header', (req, res) => res.send(req.get()));
app.get('/old', (req, res) => res.send(201, 'created'));
app.get('/back', (req, res) => res.redirect('back'));
app.get('/status', (req, res) => res.status(200.5).end());
app.get('/big', (req, res) => res.send('x'.repeat(1000)));
app.get('/loop', (req, res) => res.redirect('/loop'));
app.get('/slow', () => {});
app.get('/json', (req, res) => res.type('json').send('{"a": oops}'));

const server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.on('listening', r));
const base = `http://127.0.0.1:${server.address().port}`;

const show = (err) => console.error(err.stack);
const get = (path, opts) => axios.get(base + path, opts).catch(show);

// The server prints these; the client's 500s are not shown again.
for (const p of ['/file', '/render', '/page', '/type', '/cookie', '/header',
                 '/old', '/back', '/status']) {
  await axios.get(base + p, { maxRedirects: 0 }).catch(() => {});
}
await get('/nowhere');
await get('/big', { maxContentLength: 100 });
await get('/loop', { maxRedirects: 2 });
await get('/slow', { timeout: 50 });
await get('/json', { responseType: 'json', transitional: { silentJSONParsing: false } });
await get('/big', { timeout: 'soon' });
await axios.get('http://127.0.0.1:9/').catch(show);
await axios.get(base + '/big', { adapter: 'carrier-pigeon' }).catch(show);
await axios.post(base + '/big', 'x'.repeat(100), { maxBodyLength: 10 }).catch(show);
await axios.get(base + '/big', { transitional: { silentJSONParsing: 'yes' } }).catch(show);
const controller = new AbortController();
const pending = axios.get(base + '/slow', { signal: controller.signal }).catch(show);
controller.abort();
await pending;
try {
  new AxiosHeaders().set(' ', 'x');
} catch (err) {
  show(err);
}
server.close();
server.closeAllConnections();
JS

run() {
  node "$@" 2>&1 || true
}
{
  for f in use route router-use etag bodyparser static param; do
    run $P/$f.js
  done
  run $P/serve.mjs
} | sed -e "s#$JSREAL#/app#g"
