#!/usr/bin/env bash
# Issue 23's figures, in one run on this machine:
#  1. incremental: a full index of a kops-sized Go tree (golang.org/x from
#     Debian's gocode, ~1,800 files) with an empty cache, then a re-index
#     after a commit that changes 10 files; the ratio (goal <= 5 %).
#  2. releases: the newest release against 20 releases as tags (--tags),
#     each with an empty cache (goal <= 3x), for three real series from
#     PyPI: requests' 20 newest, Django 4.2 … 4.2.19, Django 5.0 … 5.1.4.
#  3. crawl: bench/crawl/make-repos.sh's 320 repositories (Go modules of
#     gocode) with `errdex crawl`, in repositories per hour (goal >= 1,000).
# Usage: bench/repos/bench.sh [WORK_DIR]   (ERRDEX=path/to/errdex; ONLY=1|2|3
# runs one part)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
E=${ERRDEX:-$here/target/release/errdex}
work=${1:-/tmp/errdex-bench-repos}
rm -rf "$work" && mkdir -p "$work"
now() { date +%s.%N; }
secs() { python3 -c "print(f'{$2 - $1:.3f}')"; }
gitc() { git -c user.email=bench@errdex -c user.name=bench "$@"; }

if [ -z "${ONLY:-}" ] || [ "$ONLY" = 1 ]; then
echo "== 1. full index vs re-index after 10 changed files"
tree="$work/x"
cp -r /usr/share/gocode/src/golang.org/x "$tree"
(cd "$tree" && git init -q && git add -A && gitc commit -qm import)
for i in 1 2 3; do
  rm -rf "$work/cache1" "$work/x.db"*
  t0=$(now); ERRDEX_CACHE_DIR="$work/cache1" "$E" --db "$work/x.db" index "$tree" >/dev/null 2>&1; t1=$(now)
  full[$i]=$(secs "$t0" "$t1")
done
echo "full index (empty cache), 3 runs: ${full[1]} ${full[2]} ${full[3]} s"
mapfile -t files < <(cd "$tree" && git ls-files '*.go' | grep -v _test.go | awk 'NR % 150 == 1' | head -10)
for i in 1 2 3; do
  n=0
  for f in "${files[@]}"; do
    n=$((n + 1))
    printf '\nfunc benchChanged%s%s() error { return fmt.Errorf("bench change %s in run %s") }\n' "$n" "$i" "$n" "$i" >> "$tree/$f"
    grep -q '"fmt"' "$tree/$f" || sed -i '0,/^package .*/s//&\nimport "fmt"/' "$tree/$f"
  done
  (cd "$tree" && git add -A && gitc commit -qm "change $i")
  t0=$(now); ERRDEX_CACHE_DIR="$work/cache1" "$E" --db "$work/x.db" index "$tree" >/dev/null 2>&1; t1=$(now)
  incr[$i]=$(secs "$t0" "$t1")
done
echo "re-index after 10 changed files, 3 runs: ${incr[1]} ${incr[2]} ${incr[3]} s"
python3 -c "
f=sorted([${full[1]},${full[2]},${full[3]}])[1]; i=sorted([${incr[1]},${incr[2]},${incr[3]}])[1]
print(f'median: full {f:.2f} s, incremental {i:.3f} s = {100*i/f:.1f} % of a full index (goal <= 5 %)')"

fi
if [ -z "${ONLY:-}" ] || [ "$ONLY" = 2 ]; then
echo "== 2. one release vs 20 releases"
# releases NAME PIP_NAME VERSION…: the sdists as tagged commits, then the
# newest alone and all of them, each with an empty cache (median of 3).
releases() {
  local name=$1 pkg=$2; shift 2
  local versions=("$@") repo="$work/$name" sdist="$work/sdist-$name"
  mkdir -p "$sdist" "$repo"
  for v in "${versions[@]}"; do
    pip download -q --no-deps --no-binary :all: -d "$sdist" "$pkg==$v" >/dev/null 2>&1
  done
  (cd "$repo" && git init -q)
  for v in "${versions[@]}"; do
    local f
    f=$(ls "$sdist" | grep -i "^$pkg-$v\.tar\.gz$" | head -1)
    (cd "$repo" && git rm -rqf --ignore-unmatch . && tar -xzf "$sdist/$f" --strip-components=1 && git add -A && gitc commit -qm "$v" && git tag "$v")
  done
  local newest=${versions[-1]} one=() twenty=()
  for i in 1 2 3; do
    rm -rf "$work/c-$name" "$work/$name-1.db"*; t0=$(now)
    ERRDEX_CACHE_DIR="$work/c-$name" "$E" --db "$work/$name-1.db" index "$repo" --ref "$newest" >/dev/null 2>&1; t1=$(now)
    one+=("$(secs "$t0" "$t1")")
    rm -rf "$work/c-$name" "$work/$name-20.db"*; t0=$(now)
    ERRDEX_CACHE_DIR="$work/c-$name" "$E" --db "$work/$name-20.db" index "$repo" --tags '*' 2>"$work/$name-20.log" >/dev/null; t1=$(now)
    twenty+=("$(secs "$t0" "$t1")")
  done
  grep -E "versions:|cache:" "$work/$name-20.log" || true
  python3 -c "
one=sorted([$(IFS=,; echo "${one[*]}")])[1]; twenty=sorted([$(IFS=,; echo "${twenty[*]}")])[1]
print(f'$name ${versions[0]} … $newest: 1 release {one:.2f} s, 20 releases {twenty:.2f} s = {twenty/one:.2f}x (goal <= 3x)')"
}
mapfile -t rq < <(pip index versions requests 2>/dev/null | sed -n 's/^Available versions: //p' | tr ',' '\n' | tr -d ' ' | head -20 | tac)
releases requests requests "${rq[@]}"
# Django's LTS series 4.2 … 4.2.19 (4.2.12's sdist has Windows line ends:
# every blob of that release is new) and 5.0 … 5.1.4 (a feature release
# and 5.0.5, with Windows line ends too).
releases django-lts django 4.2 $(seq -f "4.2.%g" 1 19)
releases django-5 django 5.0 $(seq -f "5.0.%g" 1 14) 5.1 5.1.1 5.1.2 5.1.3 5.1.4

fi
if [ -z "${ONLY:-}" ] || [ "$ONLY" = 3 ]; then
echo "== 3. crawl of the gocode modules"
bash "$here/bench/crawl/make-repos.sh" "$work/crawl" 320 >/dev/null
rm -rf "$work/cache4"; t0=$(now)
ERRDEX_CACHE_DIR="$work/cache4" "$E" --db "$work/crawl.db" crawl "$work/crawl/list.txt" 2>&1 | grep -E "^crawled" || true
t1=$(now)
python3 -c "n=$(wc -l < "$work/crawl/list.txt"); s=$(secs "$t0" "$t1"); print(f'{n} repositories in {s:.1f} s = {n/s*3600:.0f} per hour (goal >= 1,000)')"
fi
