//! Templates: a message pattern parsed into literal text and typed holes,
//! so raw error text can be matched back to it.

use serde::{Deserialize, Serialize};

/// What text a hole accepts: what the language's formatter prints for the
/// verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HoleKind {
    /// Any text, possibly empty (`%v`, `%s`, `%w`).
    Any,
    /// A decimal integer, optionally signed and space-padded (`%d`), or a
    /// bracketed list of them.
    Int,
    /// Hexadecimal digits, optionally `0x`-prefixed (`%x`, `%X`).
    Hex,
    /// Octal digits (`%o`, `%O`).
    Octal,
    /// Binary digits (`%b`).
    Binary,
    /// A floating-point number, `Inf` or `NaN` (`%e`, `%f`, `%g`).
    Float,
    /// `true` or `false` (`%t`).
    Bool,
    /// A quoted string with escapes, or a quoted rune (`%q`).
    Quoted,
    /// One character (`%c`).
    Char,
    /// `U+1F600` (`%U`).
    Unicode,
    /// `0xc000012345` (`%p`).
    Pointer,
    /// A type name without spaces (`%T`).
    Type,
}

/// A hole: a value only known at run time.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hole {
    /// What text it accepts.
    pub kind: HoleKind,
    /// The verb as written (`%-10s`, `{}`), for display.
    pub verb: String,
    /// The argument expression from the source, when known.
    pub arg: Option<String>,
    /// Whether the value is a wrapped error whose own text can be traced
    /// again (`%w`, or `%v` of `err`).
    pub chain: bool,
}

/// One piece of a template.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Segment {
    /// Text printed as is.
    Lit(String),
    /// A run-time value.
    Hole(Hole),
}

/// The list bullets loggers and programs put before a line (`- `, `* `,
/// `• `, `> `, `└ `, `| `): a log line's reading strips them.
pub const BULLETS: &[&str] = &["- ", "* ", "• ", "> ", "└ ", "| "];

/// A message pattern as literal segments and holes, adjacent literals
/// merged.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Template {
    /// The pieces in order.
    pub segments: Vec<Segment>,
}

impl Template {
    /// Appends literal text, merging with a preceding literal.
    pub fn push_lit(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if let Some(Segment::Lit(last)) = self.segments.last_mut() {
            last.push_str(s);
        } else {
            self.segments.push(Segment::Lit(s.to_string()));
        }
    }

    /// Appends a hole.
    pub fn push_hole(&mut self, hole: Hole) {
        self.segments.push(Segment::Hole(hole));
    }

    /// Bytes of literal text: how much of a matching line the template
    /// explains by itself.
    pub fn literal_len(&self) -> usize {
        self.segments
            .iter()
            .map(|s| match s {
                Segment::Lit(l) => l.len(),
                Segment::Hole(_) => 0,
            })
            .sum()
    }

    /// Letters and digits in the literal text: what makes a template
    /// selective. `%s: %v` has none.
    pub fn literal_alnum(&self) -> usize {
        self.segments
            .iter()
            .map(|s| match s {
                Segment::Lit(l) => l.chars().filter(|c| c.is_alphanumeric()).count(),
                Segment::Hole(_) => 0,
            })
            .sum()
    }

    /// A template that prints several lines (`"usage: …\n  -v  verbose"`,
    /// C's `"a\n" "b\n"` literals) as one template per line, for logs
    /// that are read a line at a time; empty lines are dropped. A template
    /// of one line gives nothing.
    pub fn lines(&self) -> Vec<Template> {
        let has_newline = self
            .segments
            .iter()
            .any(|s| matches!(s, Segment::Lit(l) if l.contains('\n')));
        if !has_newline {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut cur = Template::default();
        for seg in &self.segments {
            match seg {
                Segment::Hole(h) => cur.push_hole(h.clone()),
                Segment::Lit(l) => {
                    let mut pieces = l.split('\n');
                    if let Some(first) = pieces.next() {
                        cur.push_lit(first.trim_end_matches('\r'));
                    }
                    for piece in pieces {
                        out.push(std::mem::take(&mut cur));
                        cur.push_lit(piece.trim_end_matches('\r'));
                    }
                }
            }
        }
        out.push(cur);
        out.retain(|t| !t.segments.is_empty());
        out
    }

    /// The template without the list bullet its first literal text
    /// starts with (`" - A typo in the package name"`), which a log line's
    /// reading strips as it strips leading white space; `None` when it
    /// starts with none.
    pub fn without_bullet(mut self) -> Option<Template> {
        let Some(Segment::Lit(l)) = self.segments.first_mut() else {
            return None;
        };
        let t = l.trim_start();
        let b = BULLETS.iter().find(|b| t.starts_with(**b))?;
        *l = t[b.len()..].trim_start().to_string();
        if l.is_empty() {
            self.segments.remove(0);
        }
        Some(self)
    }

    /// The template without white space before its first literal text:
    /// a log line's leading white space is stripped before it is traced
    /// (`fmt.Fprintf(os.Stderr, "\tto the %d declared here")`).
    pub fn trimmed_start(mut self) -> Template {
        if let Some(Segment::Lit(l)) = self.segments.first_mut() {
            let t = l.trim_start();
            if t.len() != l.len() {
                *l = t.to_string();
            }
            if l.is_empty() {
                self.segments.remove(0);
            }
        }
        self
    }

    /// The holes, in order.
    pub fn holes(&self) -> impl Iterator<Item = &Hole> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Hole(h) => Some(h),
            Segment::Lit(_) => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_white_space_is_trimmed() {
        let mut t = Template::default();
        t.push_lit("\tto the ");
        t.push_hole(Hole {
            kind: HoleKind::Int,
            verb: "%d".into(),
            arg: None,
            chain: false,
        });
        let t = t.trimmed_start();
        assert_eq!(t.segments[0], Segment::Lit("to the ".into()));
        let mut blank = Template::default();
        blank.push_lit("  ");
        assert!(blank.trimmed_start().segments.is_empty());
    }

    #[test]
    fn a_leading_bullet_is_dropped() {
        let mut t = Template::default();
        t.push_lit(" - A typo in ");
        t.push_hole(Hole {
            kind: HoleKind::Any,
            verb: "%s".into(),
            arg: None,
            chain: false,
        });
        let t = t.without_bullet().unwrap();
        assert_eq!(t.segments[0], Segment::Lit("A typo in ".into()));
        let mut plain = Template::default();
        plain.push_lit("*** FATAL -- ");
        assert!(plain.without_bullet().is_none());
        let mut bare = Template::default();
        bare.push_lit("- ");
        assert!(bare.without_bullet().unwrap().segments.is_empty());
    }

    #[test]
    fn a_template_of_several_lines_splits_into_lines() {
        let mut t = Template::default();
        t.push_lit("\n*** FATAL CONFIG FILE ERROR (Redis ");
        t.push_hole(Hole {
            kind: HoleKind::Any,
            verb: "%s".into(),
            arg: None,
            chain: false,
        });
        t.push_lit(") ***\r\nReason: bad\n\n");
        let lines: Vec<Vec<Segment>> = t.lines().into_iter().map(|t| t.segments).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0][0],
            Segment::Lit("*** FATAL CONFIG FILE ERROR (Redis ".into())
        );
        assert_eq!(lines[0][2], Segment::Lit(") ***".into()));
        assert_eq!(lines[1], [Segment::Lit("Reason: bad".into())]);
        let mut one = Template::default();
        one.push_lit("no newline");
        assert!(one.lines().is_empty());
    }

    #[test]
    fn literals_merge_and_count() {
        let mut t = Template::default();
        t.push_lit("serving ");
        t.push_lit("readiness probe: ");
        t.push_hole(Hole {
            kind: HoleKind::Any,
            verb: "%w".into(),
            arg: Some("err".into()),
            chain: true,
        });
        assert_eq!(t.segments.len(), 2);
        assert_eq!(t.literal_len(), "serving readiness probe: ".len());
        assert_eq!(t.literal_alnum(), 21);
        assert_eq!(t.holes().count(), 1);
    }
}
