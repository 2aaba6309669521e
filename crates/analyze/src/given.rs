//! What the caller gives: a guard that reads a field the class's
//! constructor sets from its parameter (`self.input_stream`, set from
//! `input_stream` in `EnvironBuilder.__init__`) is decided when the
//! object is created, so the step names the constructor's parameter and
//! the value that avoids the error; and a condition that leaves before
//! the error (`if value in self.items: return …`) is one the caller can
//! make hold.

use crate::prose::code;
use crate::Cx;

/// Words of a parameter's declaration that say it may be left unset.
const OPTIONAL: &[&str] = &["None", "null", "Optional", "?", "undefined", "nil"];
/// Words of a parameter's declaration that say it is a flag.
const FLAG: &[&str] = &["bool", "True", "False", "true", "false"];

/// The step for guard `g` when it tests, as set or unset or as a flag, a
/// field the constructor sets from a parameter declared so (`= None`,
/// `: bool`). Other tests of the field (`len(self.x) != 3`), and fields
/// read where a type writes its own text (`__str__`), give none.
pub(crate) fn field_step(cx: &Cx<'_>, g: &str) -> Option<String> {
    if cx.is_text_method() {
        return None;
    }
    let given =
        cx.f.fields_given
            .iter()
            .find(|f| g.contains(f.field.as_str()))?;
    let declared = |words: &[&str]| words.iter().any(|w| given.declared.contains(w));
    let ctor = code(&format!("{}(…)", given.class));
    let param = code(&given.param);
    let f = given.field.as_str();
    let g = g.trim();
    let is = |forms: &[&str]| forms.iter().any(|form| form.replace("F", f) == g);
    let what = if is(&["F is not None", "F != null", "F !== null", "!F.nil?"]) && declared(OPTIONAL)
    {
        format!("Create {ctor} without {param} (leave it unset)")
    } else if is(&["F is None", "F == null", "F === null", "F.nil?"]) && declared(OPTIONAL) {
        format!("Give {ctor} a {param}")
    } else if is(&["F"]) && declared(FLAG) {
        format!("Create {ctor} with {param} false")
    } else if is(&["not F", "!F"]) && declared(FLAG) {
        format!("Create {ctor} with {param} true")
    } else {
        return None;
    };
    let also = match &given.also[..] {
        [] => String::new(),
        more => {
            let shown: Vec<String> = more.iter().map(|a| code(a)).collect();
            format!(" (the constructor also sets it by {})", shown.join(" and "))
        }
    };
    Some(format!(
        "{what}: {} is the {param} given to {ctor}{also}, and this {} happens when {} holds.",
        code(f),
        cx.noun(),
        code(g)
    ))
}

/// For a site with no guard of its own, the condition of an earlier `if`
/// that leaves first (`if value in self.items: return str(value)`): the
/// caller avoids the error by making it hold.
pub(crate) fn passed_step(cx: &Cx<'_>) -> Option<String> {
    let f = cx.f;
    if !cx.guards().is_empty() || f.wrapped_call.is_some() {
        return None;
    }
    let first = f.passed.first()?;
    let function = code(cx.fname.unwrap_or("the function"));
    if let Some((value, set)) = membership(first) {
        return Some(format!(
            "Give {} one of the values in {}{}: {function} takes no other.",
            code(value),
            code(set),
            if cx.literal.contains(" one of ") {
                " (the message lists them)"
            } else {
                ""
            }
        ));
    }
    // Leaving when an error is there (`e is not None`) is no way out a
    // person takes: an error is what they want to avoid.
    if tests_an_error(first) {
        return None;
    }
    Some(format!(
        "Make {} hold when {function} runs: it then leaves before this {}.",
        code(first),
        cx.noun()
    ))
}

/// A test that an error value is there or not, in any language (`err !=
/// nil`, `e is not None`, `error !== null`).
fn tests_an_error(g: &str) -> bool {
    if crate::is_err_check(g) {
        return true;
    }
    let g = g.trim();
    let absent = [
        " is not None",
        " is None",
        " != null",
        " == null",
        " !== null",
        " === null",
        " !== undefined",
    ];
    absent.iter().any(|suffix| {
        g.strip_suffix(suffix).is_some_and(|value| {
            let last = value
                .rsplit('.')
                .next()
                .unwrap_or(value)
                .to_ascii_lowercase();
            matches!(
                last.as_str(),
                "e" | "ex" | "exc" | "err" | "error" | "exception"
            )
        })
    })
}

/// A test that a value is one of a set: `value in self.items`,
/// `items.includes(value)`, `slices.Contains(items, value)`; the value
/// and the set.
fn membership(g: &str) -> Option<(&str, &str)> {
    let g = g.trim();
    let plain = crate::is_plain_name;
    if let Some((value, set)) = g.split_once(" in ") {
        let (value, set) = (value.trim(), set.trim());
        return (plain(value) && plain(set) && !value.starts_with("not")).then_some((value, set));
    }
    if let Some(inner) = g
        .strip_prefix("slices.Contains(")
        .and_then(|r| r.strip_suffix(')'))
    {
        let (set, value) = inner.split_once(", ")?;
        return (plain(set) && plain(value)).then_some((value, set));
    }
    let (set, value) = [".includes(", ".contains(", ".Contains("]
        .iter()
        .find_map(|m| g.split_once(m))?;
    let value = value.strip_suffix(')')?;
    (plain(set) && plain(value)).then_some((value, set))
}

#[cfg(test)]
mod tests {
    use super::membership;

    #[test]
    fn a_test_of_one_of_a_set_names_the_value_and_the_set() {
        assert_eq!(
            membership("value in self.items"),
            Some(("value", "self.items"))
        );
        assert_eq!(
            membership("allowed.includes(mode)"),
            Some(("mode", "allowed"))
        );
        assert_eq!(
            membership("slices.Contains(modes, m)"),
            Some(("m", "modes"))
        );
        assert_eq!(membership("key in data[0]"), None);
        assert_eq!(membership("x > 0"), None);
    }
}
