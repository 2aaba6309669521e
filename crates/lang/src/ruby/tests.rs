//! Ruby extraction tests.

use crate::test_support::pattern_column;
use crate::test_support::{all_level_patterns_of, classed_patterns_of, patterns_of};

#[test]
fn cleaned_text_and_stdout_prints_are_sites() {
    let s = all_level_patterns_of(
        "lib/rubygems/command_manager.rb",
        r#"
def alert_error(statement, question=nil)
  @errs.puts "ERROR:  #{statement}"
end

def run(args)
  say "Gem '#{name}' is not installed" if specs.empty?
  puts banner
rescue StandardError => ex
  alert_error clean_text("While executing gem ... (#{ex.class})\n    #{ex}")
end
"#,
    );
    assert_eq!(
        pattern_column(&s),
        [
            "ERROR:  %v",
            "Gem '%v' is not installed",
            "While executing gem ... (%v)\n    %v",
        ]
    );
}

#[test]
fn each_branch_of_a_kept_choice_of_messages_is_a_site() {
    let s = patterns_of(
        "lib/pick.rb",
        r#"
def pick(spec, forbidden)
  msg = forbidden ? "Download forbidden by policy" : "No matching version found for #{spec}."
  raise ArgumentError, msg
end
"#,
    );
    let got = pattern_column(&s);
    assert!(
        got.contains(&"No matching version found for %v."),
        "{got:?}"
    );
    assert!(got.contains(&"Download forbidden by policy"), "{got:?}");
}

#[test]
fn texts_a_message_method_ends_with_are_sites() {
    let s = patterns_of(
        "lib/rubygems/commands/build_command.rb",
        r#"
def error_message
  if gem_name
    "Couldn't find a gemspec file matching '#{gem_name}' in #{Dir.pwd}"
  else
    "Couldn't find a gemspec file in #{Dir.pwd}"
  end
end

def failure_msg(n)
  return "too many (#{n})" if n > 9
  n.zero? ? "none left" : "only #{n} left"
end

def usage
  "not a message method"
end

def message_for(code)
  case code
  when 1 then "bad input"
  else
    log(code)
    "unknown code #{code}"
  end
end
"#,
    );
    assert_eq!(
        pattern_column(&s),
        [
            "Couldn't find a gemspec file matching '%v' in %v",
            "Couldn't find a gemspec file in %v",
            "none left",
            "only %v left",
            "bad input",
            "unknown code %v",
        ]
    );
}

#[test]
fn super_in_an_error_class_initialize_is_its_message() {
    let s = classed_patterns_of(
        "lib/errors.rb",
        r#"
class UnknownCommandError < Gem::Exception
  def initialize(unknown_command)
    @unknown_command = unknown_command
    super("Unknown command #{unknown_command}")
  end
end
class Parser < Base
  def initialize(src)
    super("not an error #{src}")
  end
end
class QuotaError < StandardError
  def initialize(msg = nil)
    super(msg)
  end
  def retry!
    super("retrying #{self}")
  end
end
"#,
    );
    assert_eq!(
        s,
        [(
            "super".to_string(),
            "Unknown command %v".to_string(),
            vec!["unknown_command".to_string()],
            Some("UnknownCommandError".to_string())
        )]
    );
}

#[test]
fn raise_with_every_ruby_string_form() {
    let s = patterns_of(
        "lib/app.rb",
        r#"
def f(path, n, e)
  raise ArgumentError, "cannot open #{path}: #{e.message}"
  raise IOError.new('no #{interpolation} 100%')
  raise "read %d of %s" % [n, path]
  fail format("bad %<n>d in %{file}", n: n, file: path)
  raise Errno::ENOENT
  raise "a" + n.to_s + " b"
  raise format('Unknown media type: %p', n)
  raise format('%d%%p of %-4p', n, path)
  raise
  raise e
end
"#,
    );
    let got = pattern_column(&s);
    assert_eq!(
        got,
        vec![
            "cannot open %v: %v",
            "no #{interpolation} 100%%",
            "read %d of %s",
            "bad %d in %s",
            "ENOENT",
            "a%v b",
            "Unknown media type: %s",
            "%d%%p of %-4s",
        ]
    );
    assert_eq!(s[0].2, vec!["path", "e.message"]);
    assert_eq!(s[3].2, vec!["n", "path"]);
}
/// Extracts a real code base: must not panic. Prints files, sites,
/// dynamic sites, files with syntax errors and time; with
/// `ERRDEX_CORPUS_OUT` set, writes one line per site there.
#[test]
fn kept_messages_and_statement_functions_are_sites() {
    let patterns = |path: &str, src: &str| -> Vec<String> {
        let lang = crate::language_for_path(path).unwrap();
        let mut files = vec![lang.extract(path, src, &Default::default())];
        crate::apply_wrappers(&mut files, false);
        let (sites, _) = crate::resolve_package(files);
        sites.into_iter().map(|s| s.message_pattern).collect()
    };
    let s = patterns(
        "lib/gem.rb",
        r#"
class Policy
  def error(statement)
    raise Gem::InvalidSpecificationException, statement
  end
  def check(files, gem)
    error "[#{files}] are not files"
    msg = String.new "Could not find a valid gem #{gem}"
    msg << " in any repository"
    name = "not a message"
  end
end
"#,
    );
    assert_eq!(s, ["Could not find a valid gem %v", "[%v] are not files"]);
}

#[test]
fn writes_to_an_error_stream_are_sites() {
    let s = patterns_of(
        "lib/ui.rb",
        r#"
class UI
  def alert_error(statement)
    @errs.puts "ERROR:  #{statement}"
  end
  def warn_it(x)
    $stderr.print "warning: #{x}"
    @outs.puts "done #{x}"
  end
end
"#,
    );
    assert_eq!(pattern_column(&s), vec!["ERROR:  %v", "warning: %v"]);
}

#[test]
#[ignore]
fn corpus() {
    let files = crate::test_support::files_under(
        &[
            "/usr/share/rubygems-integration/all/gems/rack-2.2.22/lib/rack",
            "/usr/share/rubygems-integration/all/gems/sinatra-3.0.5/lib/sinatra",
        ],
        &[".rb"],
    );
    crate::test_support::run("ruby", &files, &Default::default(), false);
}

#[test]
fn a_method_whose_whole_body_is_a_literal_is_that_text_where_called() {
    let s = patterns_of(
        "lib/policy.rb",
        r##"
class Policy
  def alert_warning(statement)
    @errs.puts "WARNING:  #{statement}"
  end

  def error(statement)
    raise InvalidSpec, statement
  ensure
    alert_warning help_text
  end

  def check
    raise ArgumentError, self.help_text
  end

  def report(name)
    raise ArgumentError, "#{name}: " + usage()
  end

  def help_text # :nodoc:
    "See https://guides.example.org/spec for help"
  end

  def usage
    return 'usage: policy check'
  end

  def busy(x)
    "not a constant #{x}"
  end
end
"##,
    );
    assert_eq!(
        pattern_column(&s),
        [
            "WARNING:  %v",
            "See https://guides.example.org/spec for help",
            "%v: usage: policy check",
        ]
    );
}

#[test]
fn text_appended_to_a_kept_message_is_a_piece_of_it() {
    let s = patterns_of(
        "lib/store/format_error.rb",
        r#"
class FormatError < StoreError
  def initialize(message, source = nil)
    if source
      message = message + " in #{source.path}" if source.path
    end
    super message
  end
end

def check(msg)
  msg += " (while reading the index)"
  total = total + " more"
  count += 1
  raise IndexError, msg
end
"#,
    );
    assert_eq!(pattern_column(&s), [" in %v", " (while reading the index)"]);
}

#[test]
fn an_exception_built_outside_a_raise_is_a_site() {
    let s = patterns_of(
        "lib/size.rb",
        r#"
def check(size)
  err = ArgumentError.new("bad size #{size}")
  yield err
  box = Box.new("not an exception")
  raise Foo::BadError.new("raised directly")
end
"#,
    );
    let rows: Vec<&str> = s.iter().map(|(_, p, _)| p.as_str()).collect();
    assert_eq!(rows, ["bad size %v", "raised directly"]);
}
