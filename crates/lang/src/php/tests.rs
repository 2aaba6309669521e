//! PHP extraction on constructs written for each rule.

use crate::test_support::pattern_column;
use crate::test_support::patterns_of;

#[test]
fn pieces_returned_to_a_caller_that_joins_them_are_one_message() {
    let s = patterns_of(
        "src/Problem.php",
        r#"<?php
class Problem {
    public function describe($name) {
        return "\n    ".implode(self::missingReason($name));
    }
    public static function missingReason($name) {
        if ($name === 'php') {
            $msg = "- Root composer.json requires ".$name.' but ';
            return [$msg, 'your PHP version does not satisfy that requirement.'];
        }
        return ["- Root composer.json requires $name, it ", "could not be found in any version."];
    }
    public static function pair($a) {
        return ['left', 'right'];
    }
    public function words($a) {
        return implode(', ', $this->listed($a));
    }
    public function listed($a) {
        return ["first $a", 'second'];
    }
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        [
            "- Root composer.json requires %v but ",
            "- Root composer.json requires %v, it could not be found in any version.",
            "first %v, second",
        ]
    );
}

#[test]
fn parent_construct_in_an_exception_class_is_its_message() {
    let s = patterns_of(
        "src/Errors.php",
        r#"<?php
class UnknownCommandException extends \RuntimeException {
    public function __construct($name) {
        parent::__construct("Unknown command $name");
    }
}
class Widget extends Base {
    public function __construct($name) {
        parent::__construct("not an error $name");
    }
}
class QuotaError extends \Exception {
    public function __construct($message) {
        parent::__construct($message);
    }
}
"#,
    );
    assert_eq!(
        s,
        [(
            "parent::__construct".to_string(),
            "Unknown command %v".to_string(),
            vec!["$name".to_string()]
        )]
    );
}

#[test]
fn throw_with_every_php_string_form() {
    let s = patterns_of(
        "src/App.php",
        r#"<?php
function f($x, $y, $e) {
    throw new \RuntimeException(sprintf('cannot open %s: %s', $x, $e->getMessage()));
    throw new Foo\Bar("v $x and {$y->z} 100%\n");
    throw new X('it\'s ' . $y . " \$done");
    throw new Y(vsprintf('%d of %d', [$x, $y]));
    throw new LogicException();
    throw $e;
}
"#,
    );
    let got = pattern_column(&s);
    assert_eq!(
        got,
        vec![
            "cannot open %s: %s",
            "v %v and %v 100%%\n",
            "it's %v $done",
            "%d of %d",
            "LogicException",
        ]
    );
    assert_eq!(s[0].2, vec!["$x", "$e->getMessage()"]);
    assert_eq!(s[1].2, vec!["$x", "$y->z"]);
}

#[test]
fn an_exception_built_outside_a_throw_is_a_site() {
    let s = patterns_of(
        "src/App.php",
        r#"<?php
function open($f, $m) {
    $ex = null;
    set_error_handler(static function (int $no, string $str) use ($f, &$ex): bool {
        $ex = new \RuntimeException(sprintf('Unable to open "%s": %s', $f, $str));
        return true;
    });
    if ($ex) {
        throw $ex;
    }
}
function make($x) {
    $e = new FooException('built, not thrown');
    $exx = new BarException('thrown under another name');
    throw $exx;
    return $e;
}
"#,
    );
    let got = pattern_column(&s);
    assert_eq!(
        got,
        vec![
            "Unable to open \"%s\": %s",
            "built, not thrown",
            "thrown under another name"
        ]
    );
}

#[test]
fn psr3_placeholders_take_context_values() {
    let s = patterns_of(
        "src/App.php",
        r#"<?php
$this->logger->error('cannot reach {host} after {n} tries', ['host' => $h, 'n' => 3]);
$logger->log(LogLevel::CRITICAL, 'disk {disk} full', $context);
$this->logger->info('fine');
"#,
    );
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].1, "cannot reach %v after %v tries");
    assert_eq!(s[0].2, vec!["$h", "3"]);
    assert_eq!(s[1].1, "disk %v full");
    assert_eq!(s[1].2, vec!["disk"]);
}
#[test]
fn logger_logs_through_itself() {
    let src = r#"<?php
class L implements \Psr\Log\LoggerInterface {
    public function log($level, $message, array $context = []): void {
        $this->warning('loop at {depth}', ['depth' => $this->depth]);
        $this->debug('entered');
    }
}
class NotALogger {
    public function run(): void { $this->warning('not a log site'); }
}
"#;
    let s = patterns_of("src/App.php", src);
    assert_eq!(s.len(), 1);
    assert_eq!(s[0].0, "$this->warning");
    assert_eq!(s[0].1, "loop at %v");
    assert_eq!(s[0].2, vec!["$this->depth"]);
    let php = crate::language_for_path("src/App.php").unwrap();
    let all = crate::ExtractOptions {
        all_levels: true,
        ..Default::default()
    };
    let (s, _) = crate::resolve_package(vec![php.extract("src/App.php", src, &all)]);
    let got: Vec<(&str, &str)> = s
        .iter()
        .map(|x| (x.callee.as_str(), x.severity.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![("$this->warning", "warning"), ("$this->debug", "debug")]
    );
}

/// Extracts a real code base: must not panic. Prints files, sites,
/// dynamic sites, files with syntax errors and time; with
/// `ERRDEX_CORPUS_OUT` set, writes one line per site there.
#[test]
#[ignore]
fn corpus() {
    let files = crate::test_support::files_under(
        &["/usr/share/php/Monolog", "/usr/share/php/GuzzleHttp"],
        &[".php"],
    );
    crate::test_support::run("php", &files, &Default::default(), false);
}
