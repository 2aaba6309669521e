#!/usr/bin/env bash
# A small Flask 3.1.0 app (program/app.py) on Werkzeug 3.1.9's development
# server, Jinja2 3.1.6, click 8.1.7 (pip install flask==3.1.0
# click==8.1.7 into a venv: the versions whose sdists are the corpus).
# Provoked: the flask CLI without an app, a bad import string, an unknown
# command option, a port in use, a missing config file; then a live app:
# a view that raises (ZeroDivisionError), a missing template, a session
# without SECRET_KEY, a bad JSON body, a view returning None, a 403 and a
# 404; kept with the server's own log lines (werkzeug access log,
# "Exception on / [GET]" tracebacks). Everything verbatim but the venv
# path, normalised to /venv.
set -uo pipefail
V=${FLASKENV:-/tmp/flaskenv}
[ -x "$V/bin/flask" ] || { python3 -m venv "$V" && "$V/bin/pip" install -q flask==3.1.0 click==8.1.7; }
"$V/bin/python" -c 'import flask, werkzeug, jinja2, click, importlib.metadata as m; assert m.version("flask")=="3.1.0" and m.version("werkzeug")=="3.1.9" and m.version("jinja2")=="3.1.6" and click.__version__=="8.1.7"' || exit 1
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/program"
export PATH="$V/bin:$PATH" FLASK_DEBUG=0
{
  (cd /tmp && flask run)
  flask --app nosuchmodule run
  flask --app app run --bogus
  flask --app app:nosuch run
  python3 -m http.server 18500 --bind 127.0.0.1 >/dev/null 2>&1 & PY=$!
  sleep 1
  timeout 5 flask --app app run --port 18500
  kill $PY
  python3 -c 'from app import app; app.config.from_file("/nonexistent.json", load=__import__("json").load)'
  timeout 12 flask --app app run --port 18501 & FL=$!
  sleep 3
  c() { curl -s -o /dev/null -m 5 "$@"; }
  c http://127.0.0.1:18501/boom
  c http://127.0.0.1:18501/tmpl
  c http://127.0.0.1:18501/session
  c -H 'Content-Type: application/json' -d '{bad' http://127.0.0.1:18501/json
  c http://127.0.0.1:18501/nothing
  c http://127.0.0.1:18501/forbidden
  c http://127.0.0.1:18501/nope
  sleep 1; kill -INT $FL; wait $FL
} 2>&1 | sed "s|$V|/venv|g"
