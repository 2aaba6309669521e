#!/bin/sh
# Re-captures log.txt: runs program/main.rb with Debian's ruby 3.1
# and the rack 2.2.22 / sinatra 3.0.5 gems, whose installed sources
# (/usr/share/rubygems-integration/all/gems) are exactly the corpus.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# The uncaught error at the end makes ruby exit 1.
(cd "$here/program" && ruby main.rb) > "$here/log.txt" 2>&1 || true
