#!/usr/bin/env python3
"""Annotation aid: check a site against the source, and grep text in a root.

Never asks errdex. Used to convert the old crates/explain/tests/fixtures/
real-* expectations (whose `sites`/`frames` were read by hand) into
truth.jsonl, checking every site against the source:

  draft.py check ROOT FILE LINE TEXT   -> prints [stmt, literal] or FAIL
  draft.py grep ROOT TEXT              -> files:lines holding TEXT's literal runs

`check` reads the source around LINE, takes the string literals there,
splits them at placeholders, and requires a literal run of >= 5 chars (or
the whole literal) to occur in TEXT; the literal's line and the statement's
first line (walking back over continuation lines) are the accepted lines.
"""
import os
import re
import subprocess
import sys

PH = re.compile(
    r"%[-+ #0]*\*?\d*(?:\.\d+)?(?:hh|h|ll|l|L|q|j|z|t)?[a-zA-Z%]"  # printf
    r"|\{[^{}]*\}"  # format / f-string / ruby #{..} braces
    r"|\$\{[^}]*\}"  # js template
    r"|#\{[^}]*\}"
    r"|\$\w+(?:->\w+)*"  # php interpolation
)
LIT = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`')


def runs(lit):
    lit = lit.replace("\\n", " ").replace('\\"', '"').replace("\\'", "'").replace("\\t", " ")
    return [r.strip() for r in PH.split(lit) if len(r.strip()) >= 4]


def stmt_start(lines, i):
    """First line (0-based) of the statement holding line i."""
    j = i
    while j > 0:
        prev = lines[j - 1].rstrip()
        cur = lines[j].lstrip()
        cont = prev.endswith(("(", ",", "+", "=", "||", "&&", "?", ":", "[", "{", "\\", ".", "<<", "%")) or cur.startswith(
            (".", "+", ")", "]", "?", ":", "%", "<<", '"', "'", "`", "f\"", "f'")
        )
        if prev.endswith("{") and not re.search(r"\($|\[$|=\s*\{$|\(\s*\{$", prev):
            cont = False  # a block opener ends the previous statement
        if prev.endswith(":") and prev.lstrip().startswith(("def ", "if ", "else", "elif ", "try", "except", "for ", "while ", "with ", "case ", "default")):
            cont = False
        if not cont:
            break
        j -= 1
    return j


def check(root, file, line, text, window=3):
    path = os.path.join(root, file)
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    best = None
    for k in range(max(0, line - 1 - 1), min(len(lines), line - 1 + window + 1)):
        for m in LIT.finditer(lines[k]):
            lit = next(g for g in m.groups() if g is not None)
            for r in runs(lit):
                if r in text and (best is None or len(r) > len(best[1])):
                    best = (k, r)
    if best is None:
        # A named constant on the site line: its literal is on its definition.
        for name in re.findall(r"\b([A-Z][A-Z0-9_]{3,})\b", lines[line - 1]):
            for k, l in enumerate(lines):
                if re.search(r"\b" + name + r"\s*(=|:=)", l):
                    for kk in (k, k + 1, k + 2):
                        for m in LIT.finditer(lines[kk] if kk < len(lines) else ""):
                            lit = next(g for g in m.groups() if g is not None)
                            if any(r in text for r in runs(lit)):
                                return sorted({stmt_start(lines, line - 1) + 1, kk + 1})
        return None
    lit_line = best[0]
    s = stmt_start(lines, min(lit_line, line - 1))
    return sorted({s + 1, lit_line + 1})


def grep(root, text):
    pieces = sorted({r for r in re.split(r"[\"'`()\[\]]|\d+|/\S*", text) for r in [r.strip(" :,.")] if len(r) >= 8}, key=len, reverse=True)[:3]
    out = []
    for p in pieces:
        r = subprocess.run(["grep", "-rnF", "--include=*.*", p, root], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        hits = [l for l in r.stdout.splitlines() if "/test" not in l and "_test." not in l and "/doc" not in l][:5]
        out.append((p, hits))
    return out


if __name__ == "__main__":
    if sys.argv[1] == "check":
        print(check(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]) or "FAIL")
    else:
        for p, hits in grep(sys.argv[2], sys.argv[3]):
            print(repr(p))
            for h in hits:
                print("   ", h[:200])
