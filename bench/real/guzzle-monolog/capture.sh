#!/usr/bin/env bash
# Captures log.txt: real errors of Debian's php-guzzlehttp-psr7 2.4.5
# and php-monolog 2.9.1 (the sources under /usr/share/php that
# bench/real/score indexes), run by PHP 8.2's CLI (Debian's php-cli). First
# every case caught and printed as `Class: message`, then some left
# uncaught, as PHP prints them (`PHP Fatal error:  Uncaught …`, `Stack
# trace:`, `#0 …` frames, `Next …` for chained exceptions). The fixture's
# own folder is normalised to /app. Run once by hand; the test reads the
# log, not PHP.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/program"
{
  php main.php caught
  for c in uri-from-parts factory-mode stream-handler socket-connect level-name \
           response-status uri-parse type-error; do
    php main.php "$c" || true
  done
} 2>&1 | sed "s|$here/program|/app|g" > "$here/program.log"
