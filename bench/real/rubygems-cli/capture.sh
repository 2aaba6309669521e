#!/usr/bin/env bash
# RubyGems 3.3.15 (`gem`, a Ruby CLI; Debian bookworm ruby-rubygems 3.3.15-2+deb12u1,
# /usr/lib/ruby/vendor_ruby/rubygems*, run by ruby 3.1.2) failing locally
# only (--local, no network): a gem that is not installed, a missing
# gemspec, a broken gemspec, an unknown command and option, a bad version
# requirement, uninstalling what is not there, a corrupt .gem file, a
# missing file to install. stderr and stdout verbatim; the temp dir is
# normalised to /tmp/gemx.
set -uo pipefail
[ "$(gem --version)" = 3.3.15 ] || { echo "need rubygems 3.3.15" >&2; exit 1; }
T=$(mktemp -d /tmp/gemx.XXXX); trap 'rm -rf "$T"' EXIT
cd "$T"; export GEM_HOME="$T/home" HOME="$T"
{
  gem install nosuch-gem-errdex --local
  gem build nosuch.gemspec
  echo 'Gem::Specification.new do |s| s.name = "x"; s.version = "1.0"; s.summary = "x"; s.files = ["nothere.rb"]; end' > x.gemspec
  gem build x.gemspec
  echo 'Gem::Specification.new do |s| s.name = "y" end' > y.gemspec
  gem build y.gemspec
  echo 'this is not ruby (' > z.gemspec
  gem build z.gemspec
  gem frobnicate
  gem list --bogus
  gem install 'rake:>=>1' --local
  gem uninstall nosuch-gem-errdex
  printf 'garbage' > bad-1.0.gem
  gem install ./bad-1.0.gem --local
  gem install /nonexistent/thing-1.0.gem --local
  gem specification nosuch-gem-errdex
  gem contents nosuch-gem-errdex
} 2>&1 | sed "s|$T|/tmp/gemx|g"
