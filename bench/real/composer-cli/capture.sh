#!/usr/bin/env bash
# Composer 2.5.5 (a PHP CLI on Symfony Console; Debian bookworm composer
# 2.5.5-1+deb12u5, PHP 8.2 CLI), offline: no composer.json, an invalid
# composer.json, a schema violation, a package no repository has, an
# unknown command and option, a bad version constraint, a missing script,
# a failing script, validate on a bad file, a missing path repository, an
# unreachable repository. stderr and stdout verbatim (--no-ansi); the
# temp dir is normalised to /tmp/compx.
set -uo pipefail
composer --version 2>/dev/null | grep -q '^Composer version 2.5.5 ' || { echo "need composer 2.5.5" >&2; exit 1; }
T=$(mktemp -d /tmp/compx.XXXX); trap 'rm -rf "$T"' EXIT
export COMPOSER_HOME="$T/home" COMPOSER_CACHE_DIR="$T/cache" COMPOSER_NO_INTERACTION=1 COMPOSER_DISABLE_NETWORK=1
mkdir -p "$T/p"; cd "$T/p"
c() { composer --no-ansi "$@" 2>&1; }
{
  c install
  echo '{"name": "x/y",' > composer.json
  c install
  echo '{"name": "x/y", "require": "not-an-object"}' > composer.json
  c validate
  echo '{"name": "x/y", "require": {"nosuch/pkg-errdex": "^1.0"}, "repositories": [{"packagist.org": false}]}' > composer.json
  c update
  c frobnicate
  c install --bogus
  echo '{"name": "x/y", "require": {"php": ">=>8"}}' > composer.json
  c update
  echo '{"name": "x/y", "scripts": {"fail": "exit 3"}}' > composer.json
  c run-script nosuch
  c run-script fail
  echo '{"name": "x/y", "repositories": [{"type": "path", "url": "/nonexistent/pkg"}], "require": {"a/b": "*"}}' > composer.json
  c update
  echo '{"name": "x/y", "repositories": [{"type": "composer", "url": "http://127.0.0.1:9"}, {"packagist.org": false}], "require": {"a/b": "*"}}' > composer.json
  COMPOSER_DISABLE_NETWORK=0 c update
} | sed "s|$T|/tmp/compx|g"
