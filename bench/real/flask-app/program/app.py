import json
from flask import Flask, abort, render_template, request, session

app = Flask(__name__)


@app.route("/")
def index():
    return "ok"


@app.route("/boom")
def boom():
    return {"total": 1 / int(request.args.get("n", "0"))}


@app.route("/tmpl")
def tmpl():
    return render_template("missing.html")


@app.route("/session")
def sess():
    session["user"] = "alice"  # no SECRET_KEY
    return "set"


@app.route("/json", methods=["POST"])
def body():
    return json.dumps(request.json)


@app.route("/nothing")
def nothing():
    pass


@app.route("/forbidden")
def forbidden():
    abort(403)
