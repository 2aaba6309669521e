//! Walks every [`Lang`] through every table that must know it: the
//! model's names, aliases and extensions, its registered module, grammar,
//! and [`Conventions`] (function heads, the analyser's wording and code
//! writers). A new language that misses one fails here, or does not
//! compile ([`sample_head`] has no default arm).

use crate::{language, language_for_path, Conventions, FunctionHeads, Handling, LANGUAGES};
use errdex_model::Lang;
use std::collections::BTreeSet;

/// A line declaring `handle` (or `T.handle`) in each language.
fn sample_head(lang: Lang) -> &'static str {
    match lang {
        Lang::Go => "func (s *T) handle(x int) error {",
        Lang::Rust => "    pub fn handle(x: u32) -> Result<()> {",
        Lang::Python => "    def handle(self, x):",
        Lang::JavaScript => "export async function handle(req) {",
        Lang::TypeScript => "export function handle(req: Request): void {",
        Lang::Java => "    public void handle(int x) {",
        Lang::Kotlin => "    fun handle(x: Int) {",
        Lang::Scala => "  def handle(x: Int): Unit = {",
        Lang::CSharp => "    public void handle(int x)",
        Lang::Ruby => "  def handle(x)",
        Lang::Php => "    public function handle($x) {",
        Lang::C => "int handle(int x)",
        Lang::Cpp => "void T::handle(int x)",
    }
}

fn modules_of(lang: Lang) -> Vec<&'static dyn crate::LanguageSupport> {
    LANGUAGES
        .iter()
        .copied()
        .filter(|l| l.lang() == lang)
        .collect()
}

#[test]
fn every_lang_has_a_module_claiming_its_extensions() {
    for &lang in Lang::ALL {
        assert_eq!(language(lang).lang(), lang);
        let modules = modules_of(lang);
        let claimed: BTreeSet<&str> = modules
            .iter()
            .flat_map(|m| m.extensions().iter().copied())
            .collect();
        let table: BTreeSet<&str> = lang.extensions().iter().copied().collect();
        assert_eq!(
            claimed, table,
            "{lang:?}: modules claim the model's extensions"
        );
        for ext in lang.extensions() {
            let path = format!("src/x{ext}");
            assert_eq!(
                language_for_path(&path).map(|l| l.lang()),
                Some(lang),
                "{path}"
            );
        }
        let first: *const Conventions = language(lang).conventions();
        for m in modules {
            assert!(
                std::ptr::eq(first, m.conventions()),
                "{lang:?}: one Conventions"
            );
            assert!(m.grammar().node_kind_count() > 0);
        }
    }
}

#[test]
fn every_lang_reads_its_function_heads() {
    for &lang in Lang::ALL {
        let heads = language(lang).conventions().heads;
        let want = if heads == FunctionHeads::Func {
            "T.handle"
        } else {
            "handle"
        };
        assert_eq!(
            heads.declared(sample_head(lang)).as_deref(),
            Some(want),
            "{lang:?}"
        );
        assert_eq!(heads.declared("    x = handle(y);"), None, "{lang:?}");
    }
}

#[test]
fn every_lang_writes_handler_code_that_parses() {
    for &lang in Lang::ALL {
        let module = language(lang);
        let c = module.conventions();
        match c.handling {
            Handling::ByClass(code) => {
                assert!(c.throw_verb.is_some() || lang == Lang::Rust, "{lang:?}");
                let note = format!("{}parse failed", code.comment);
                for (class, transient) in [("ParseError", false), ("ParseError", true)] {
                    let guard = code.type_guard(class, &note);
                    let handler = code.try_catch(class, "load", &note, transient);
                    for (snippet, names) in [(guard, class), (handler, "load")] {
                        let mut p = tree_sitter::Parser::new();
                        p.set_language(&module.grammar()).unwrap();
                        let tree = p.parse(&snippet, None).unwrap();
                        assert!(!tree.root_node().has_error(), "{lang:?}:\n{snippet}");
                        let says = snippet.contains(names) && snippet.contains(&note);
                        assert!(says, "{lang:?}:\n{snippet}");
                    }
                }
            }
            Handling::ErrorValues | Handling::Unwritten => {
                assert_eq!(c.throw_verb, None, "{lang:?} returns its errors");
            }
        }
    }
}
