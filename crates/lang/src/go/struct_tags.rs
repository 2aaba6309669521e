//! The keys Go struct fields are read from: `PeerClientCertAuth bool
//! `yaml:"peer-client-cert-auth"`` is the key `peer-client-cert-auth` of
//! a YAML file. Read from the lines of every struct type in the file,
//! whether or not the parse read its declaration: a configuration type
//! seldom holds an error site, so the prefilter skips it.

use errdex_model::FieldKey;

/// Tag formats in the order a key is preferred: a configuration file's
/// format before JSON's, which protobuf types add to every field. A JSON
/// key counts only when written with dashes (`data-dir`): that is how
/// configuration files name keys (etcd reads its YAML file through JSON
/// tags), while a message's or an API's fields are `camelCase`,
/// `snake_case` or the Go name.
const FORMATS: &[&str] = &["yaml", "toml", "mapstructure", "json"];

/// Every field declared in a struct of `source`, with the key of its
/// first tag format in [`FORMATS`] (format and key empty when it has
/// none): one entry per declaration.
pub(crate) fn field_keys(source: &str) -> Vec<FieldKey> {
    let mut out = Vec::new();
    // Open braces of the struct bodies the line is in.
    let mut depth = 0usize;
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or(line).trim();
        if depth == 0 {
            if opens_struct(code) {
                depth = 1;
            }
            continue;
        }
        if code.starts_with('}') {
            depth -= 1;
            continue;
        }
        if opens_struct(code) {
            depth += 1;
        }
        out.extend(declared(code));
    }
    out
}

/// `type Config struct {`, `Inner struct {`, `Config struct {` inside a
/// `type (` group.
fn opens_struct(code: &str) -> bool {
    let before_tag = code.split('`').next().unwrap_or(code);
    before_tag.ends_with("struct {") || before_tag.ends_with("struct{")
}

/// The fields a line of a struct body declares (`A, B int `json:"a"``),
/// each with its tag's key; embedded types (`*Base`) declare none.
fn declared(code: &str) -> Vec<FieldKey> {
    let (decl, tag) = match code.split_once('`') {
        Some((decl, rest)) => (decl.trim(), rest.trim_end_matches('`')),
        None => (code, ""),
    };
    // Names separated by commas, then the type.
    let mut names = Vec::new();
    let mut rest = decl;
    loop {
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        if !is_identifier(name) {
            return Vec::new();
        }
        names.push(name);
        rest = rest[end..].trim_start();
        match rest.strip_prefix(',') {
            Some(more) => rest = more.trim_start(),
            None => break,
        }
    }
    if rest.is_empty() {
        return Vec::new();
    }
    let (format, key) = preferred_key(tag).unwrap_or_default();
    names
        .into_iter()
        .map(|n| FieldKey {
            field: n.to_string(),
            format: format.clone(),
            key: key.clone(),
        })
        .collect()
}

fn is_identifier(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The key of the first format of [`FORMATS`] tag `tag` names, without
/// its options (`omitempty`); `-` (never read) is none.
fn preferred_key(tag: &str) -> Option<(String, String)> {
    FORMATS.iter().find_map(|format| {
        let marker = format!("{format}:\"");
        let start = tag
            .match_indices(&marker)
            .find(|(at, _)| *at == 0 || tag.as_bytes()[at - 1] == b' ')?
            .0
            + marker.len();
        let value = &tag[start..start + tag[start..].find('"')?];
        let key = value.split(',').next()?.trim();
        let kept = !key.is_empty() && key != "-" && (*format != "json" || key.contains('-'));
        kept.then(|| (format.to_string(), key.to_string()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(source: &str) -> Vec<(String, String, String)> {
        field_keys(source)
            .into_iter()
            .map(|k| (k.field, k.format, k.key))
            .collect()
    }

    fn key(field: &str, format: &str, key: &str) -> (String, String, String) {
        (field.into(), format.into(), key.into())
    }

    #[test]
    fn struct_fields_are_read_with_their_tag_keys() {
        let source = r#"package config

// Member is one member of the cluster file.
type Member struct {
	Name      string `json:"Name,omitempty" yaml:"name"`
	DataDir   string `yaml:"data-dir,omitempty"`
	WALDir    string `json:"wal-dir"`
	Revision  int64  `json:"revision,omitempty"`
	Peer, Own bool   `toml:"peer"`
	Secret    string `json:"-"`
	Plain     int
	*Base
	Limits struct {
		MaxBytes int `json:"max-bytes"`
	} `yaml:"limits"`
}

func (m *Member) Validate() error {
	if m.Name == "" {
		return nil
	}
	return nil
}
"#;
        assert_eq!(
            keys(source),
            vec![
                key("Name", "yaml", "name"),
                key("DataDir", "yaml", "data-dir"),
                key("WALDir", "json", "wal-dir"),
                // An API's JSON field is no key a person sets.
                key("Revision", "", ""),
                key("Peer", "toml", "peer"),
                key("Own", "toml", "peer"),
                key("Secret", "", ""),
                key("Plain", "", ""),
                // A nested struct's tag sits on its closing line: the
                // field counts as untagged, which keeps its name from
                // meaning one key.
                key("Limits", "", ""),
                key("MaxBytes", "json", "max-bytes"),
            ]
        );
    }

    #[test]
    fn a_type_group_and_code_outside_structs_declare_nothing_else() {
        let source = "package p\n\ntype (\n\tA struct {\n\t\tX int `yaml:\"x\"`\n\t}\n)\n\nvar y = struct{}{}\n\nfunc f() {\n\tz := 1\n\t_ = z\n}\n";
        assert_eq!(keys(source), vec![key("X", "yaml", "x")]);
    }
}
