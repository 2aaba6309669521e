#!/usr/bin/env bash
# ripgrep 13.0.0 (a Rust CLI; Debian bookworm ripgrep 13.0.0-4+b2, built
# from the Debian crate packages whose versions the binary's own panic
# paths name: clap 2.34.0, regex-syntax 0.6.27, grep-regex 0.1.10, ignore
# 0.4.18, ...): bad patterns, missing paths, unknown flags and values, a
# bad glob, a bad type, an unreadable file, a bad encoding, a bad ignore
# file. stderr verbatim; the temp dir is normalised to /tmp/rgx.
set -uo pipefail
rg --version | head -1 | grep -q '^ripgrep 13.0.0$' || { echo "need ripgrep 13.0.0" >&2; exit 1; }
T=$(mktemp -d /tmp/rgx.XXXX); trap 'chmod -R u+rwx "$T"; rm -rf "$T"' EXIT
cd "$T"; echo hello > a.txt; printf 'foo[\n' > .ignore
{
  rg 'foo(' .
  rg '[z-a]' .
  rg 'x{99999999999}' .
  rg hello /nonexistent
  rg --bogus hello
  rg --max-count abc hello
  rg -g '{a' hello
  rg -t nosuchtype hello
  rg -E nosuchenc hello
  rg --color sometimes hello
  rg -f /nonexistent.pat
  rg '\p{Nope}' .
  rg --sort bogus hello
  rg -r
} 2>&1 | sed "s|$T|/tmp/rgx|g"
