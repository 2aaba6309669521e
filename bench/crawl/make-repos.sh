#!/usr/bin/env bash
# Builds the crawl benchmark's repositories from Debian's Go sources: each
# module under /usr/share/gocode/src (host/owner/name, or host/name outside
# the code hosts) committed as its own git repository, and the large ones
# (over 40 .go files) split into one repository per top-level package, so
# the list holds a few hundred repositories of real, varied sizes.
# Usage: make-repos.sh OUT [MAX]   (writes OUT/repos/* and OUT/list.txt)
set -euo pipefail
out=${1:?usage: make-repos.sh OUT [MAX]}
max=${2:-400}
src=/usr/share/gocode/src
[ -d "$src" ] || { echo "no $src: run ../shared/bench/corpora.sh go" >&2; exit 1; }
mkdir -p "$out/repos"
cd "$src"
roots() {
  for d in */*/*/; do case "$d" in github.com/*|gitlab.com/*|bitbucket.org/*|code.google.com/*) echo "${d%/}";; esac; done
  for d in */*/; do case "$d" in github.com/*|gitlab.com/*|bitbucket.org/*|code.google.com/*) ;; *) echo "${d%/}";; esac; done
}
gofiles() { find -L "$1" -name '*.go' 2>/dev/null | wc -l; }
: > "$out/list.txt"
n=0
while read -r root; do
  if [ "$(gofiles "$root")" -gt 40 ]; then
    parts=$(for s in "$root"/*/; do if [ "$(gofiles "$s")" -gt 0 ]; then echo "${s%/}"; fi; done)
  else
    parts=$root
  fi
  for p in $parts; do
    [ "$(gofiles "$p")" -gt 0 ] || continue
    name=$(echo "$p" | tr '/' '_')
    repo="$out/repos/$name"
    if [ ! -d "$repo/.git" ]; then
      mkdir -p "$repo" && cp -rL "$p"/. "$repo"/ 2>/dev/null || true
      (cd "$repo" && git init -q && git add -A && git -c user.email=bench@errdex -c user.name=bench commit -qm "$p" >/dev/null)
    fi
    echo "$repo" >> "$out/list.txt"
    n=$((n + 1))
    [ "$n" -ge "$max" ] && break 2
  done
done < <(roots)
echo "$n repositories listed in $out/list.txt"
