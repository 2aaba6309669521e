//! JavaScript and TypeScript extraction on constructs written for each rule.

use crate::test_support::pattern_column;
use crate::test_support::{patterns_of, Patterns};
use crate::{language_for_path, resolve_package};

#[test]
fn an_error_constructor_function_passes_its_message_to_its_parent() {
    let s = patterns_of(
        "lib/cancel/StoppedError.js",
        r#"
function StoppedError(message, config) {
  BaseError.call(this, message == null ? 'stopped by the caller' : message, BaseError.ERR_STOPPED, config);
  this.name = 'StoppedError';
}
const TimedOutError = function (ms) {
  BaseError.call(this, `no answer within ${ms} ms`);
};
function Helper(x) {
  Printer.call(this, 'not an error, a printer');
  BaseError.call(that, 'not this object');
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        ["stopped by the caller", "no answer within %v ms"]
    );
}

#[test]
fn a_message_grown_with_appends_and_thrown_is_kept_piece_by_piece() {
    let s = patterns_of(
        "lib/ModuleNotFoundError.js",
        r#"
class ModuleNotFoundError extends WebpackError {
	constructor(module, err, loc) {
		let message = `Module not found: ${err.toString()}`;
		let note = "a note nobody prints";
		if (alias) {
			message +=
				"\n\n" +
				"BREAKING CHANGE: " +
				"webpack < 5 used to include polyfills for node.js core modules by default.\n";
			// One word and a value: enough to trace by.
			message += `\t- install '${dependency}'\n`;
			note += "more of it";
		}
		super(message);
	}
}
class Ci {
	async exec() {
		const msg =
			'The `npm ci` command can only install with an existing package-lock.json or\n' +
			'later to generate a package-lock.json file, then try again.'
		throw this.usageError(msg)
	}
	other() {
		const text = 'thrown by new, followed already'
		throw new Error(text)
	}
}
"#,
    );
    assert_eq!(
            pattern_column(&s),
            [
                "Module not found: %v",
                "\n\nBREAKING CHANGE: webpack < 5 used to include polyfills for node.js core modules by default.\n",
                "\t- install '%v'\n",
                "The `npm ci` command can only install with an existing package-lock.json or\nlater to generate a package-lock.json file, then try again.",
                "thrown by new, followed already",
            ]
        );
}

fn sites(path: &str, src: &str) -> Patterns {
    patterns_of(path, src)
}

#[test]
fn an_array_of_texts_joined_is_one_message() {
    let s = sites(
        "lib/run.js",
        r#"
function f(event, hint) {
  throw new Error([
    `No such task: "${event}"${hint}`,
    '',
    'To list the tasks, run:',
  ].join('\n'));
  throw new Error(['a', name, 'b'].join(' '));
}
"#,
    );
    assert_eq!(
        pattern_column(&s),
        vec![
            "No such task: \"%v\"%v\n\nTo list the tasks, run:",
            "a %v b"
        ]
    );
}

#[test]
fn every_string_form() {
    let s = sites(
        "lib/a.js",
        r#"
const MSG = 'fixed message';
function f(path, n, e) {
  throw new Error('plain 100% sure');
  throw new TypeError(`cannot open ${path}: ${e.message}`);
  throw new Error('read ' + n + ' bytes from ' + path);
  throw Error(i18n.t('translated'));
  throw new Error(MSG);
  throw new Error(util.format('bad %s at %d', path, n));
  throw 'a string\tthrown';
}
"#,
    );
    let got = pattern_column(&s);
    assert_eq!(
        got,
        vec![
            "plain 100%% sure",
            "cannot open %v: %v",
            "read %v bytes from %v",
            "translated",
            "fixed message",
            "bad %s at %d",
            "a string\tthrown",
        ]
    );
    assert_eq!(s[1].2, vec!["path", "e.message"]);
    assert_eq!(s[5].2, vec!["path", "n"]);
}

#[test]
fn util_format_rules() {
    let s = sites(
        "lib/a.js",
        r#"
console.error('failed %s: %o (%c) %% %x', name, obj, 'color: red', err, extra);
console.error('no directives', name);
console.warn('only %s');
"#,
    );
    assert_eq!(s[0].1, "failed %s: %v () %% %%x %v %v");
    assert_eq!(s[0].2, vec!["name", "obj", "err", "extra"]);
    assert_eq!(s[1].1, "no directives %v");
    assert_eq!(s[2].1, "only %%s");
}

#[test]
fn info_and_debug_only_with_all_levels() {
    let src = "console.log('served %s', url);\nlogger.debug('cache miss for ' + key);\nlogger.log('error', 'disk full');\n";
    let js = language_for_path("lib/a.js").unwrap();
    let few = js.extract("lib/a.js", src, &Default::default());
    assert_eq!(few.sites.len(), 1, "winston's log('error', …) is an error");
    let opts = crate::ExtractOptions {
        all_levels: true,
        ..Default::default()
    };
    let (all, _) = resolve_package(vec![js.extract("lib/a.js", src, &opts)]);
    let levels: Vec<&str> = all.iter().map(|s| s.severity.as_str()).collect();
    assert_eq!(levels, vec!["info", "debug", "error"]);
    assert_eq!(all[0].message_pattern, "served %s");
}

#[test]
fn declaration_files_extract_nothing() {
    let ts = language_for_path("types/index.d.ts").unwrap();
    assert!(ts.is_test_path("types/index.d.ts"));
    let facts = ts.extract(
        "types/index.d.ts",
        "declare function f(): void;\nthrow new Error('x');\n",
        &Default::default(),
    );
    assert!(facts.sites.is_empty());
}
