//! Go's type declarations as the cause graph reads them ([`TypeFlow`]):
//! a struct's fields and their types, its embedded types, and an
//! interface's methods. A call on a field (`tw.s.le.Attach`) is resolved
//! through them to the method of the field's type, or, for an interface,
//! to the methods of the types of its package that implement it.

use crate::flows::TypeFlow;
use tree_sitter::Node;

/// The types a `type` declaration declares.
pub(super) fn types(decl: Node<'_>, src: &[u8], out: &mut Vec<TypeFlow>) {
    let text = |n: Node<'_>| n.utf8_text(src).unwrap_or_default().to_string();
    let mut cur = decl.walk();
    for spec in decl.named_children(&mut cur) {
        if spec.kind() != "type_spec" {
            continue;
        }
        let (Some(name), Some(ty)) = (
            spec.child_by_field_name("name"),
            spec.child_by_field_name("type"),
        ) else {
            continue;
        };
        let mut t = TypeFlow {
            name: text(name),
            ..TypeFlow::default()
        };
        match ty.kind() {
            "struct_type" => fields(ty, src, &mut t),
            "interface_type" => {
                t.interface = true;
                let mut c = ty.walk();
                for m in ty.named_children(&mut c) {
                    if matches!(m.kind(), "method_elem" | "method_spec") {
                        t.methods.extend(m.child_by_field_name("name").map(text));
                    }
                }
            }
            _ => continue,
        }
        out.push(t);
    }
}

/// A struct's named fields (`le lease.Lessor`) and embedded types
/// (`storeTxnRead`, `*Base`), with `*` and type arguments removed.
fn fields(ty: Node<'_>, src: &[u8], t: &mut TypeFlow) {
    let text = |n: Node<'_>| n.utf8_text(src).unwrap_or_default();
    let mut c = ty.walk();
    let Some(list) = ty
        .named_children(&mut c)
        .find(|n| n.kind() == "field_declaration_list")
    else {
        return;
    };
    let mut c = list.walk();
    for field in list.named_children(&mut c) {
        if field.kind() != "field_declaration" {
            continue;
        }
        let Some(ty) = field.child_by_field_name("type") else {
            continue;
        };
        let ty = bare_type(text(ty));
        let mut names = field.walk();
        let names: Vec<String> = field
            .children_by_field_name("name", &mut names)
            .map(|n| text(n).to_string())
            .collect();
        if names.is_empty() {
            t.embedded.push(ty);
        } else {
            t.fields.extend(names.into_iter().map(|n| (n, ty.clone())));
        }
    }
}

/// A type as a name: `*store` → `store`, `lease.Lessor` stays,
/// `List[T]` → `List`; slices, maps, channels and functions give `""`.
fn bare_type(t: &str) -> String {
    let t = t.trim().trim_start_matches('*');
    let t = t.split('[').next().unwrap_or(t);
    let name = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    if t.is_empty() || !t.chars().all(name) {
        return String::new();
    }
    t.to_string()
}
