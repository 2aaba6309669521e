//! Java, Kotlin, Scala: `Exception in thread "main" x.Y: msg`, `Caused
//! by: x.Y: msg` (read as exception lines, [`super::exception`]), `at
//! pkg.C.m(C.java:123)` and `... 5 more` (frames follow their message, so
//! they hint the message above them).

use super::{Block, Line, Role, StackReader};

/// JVM frames need no state: each hints the last message.
#[derive(Default)]
pub(super) struct Jvm;

impl StackReader for Jvm {
    #[inline]
    fn open(&self) -> bool {
        false
    }

    fn read(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool {
        if !line.marked {
            return false;
        }
        let t = line.trimmed;
        if let Some(frame) = jvm_frame(t) {
            block.frame_after(frame);
            return true;
        }
        if t.starts_with("... ") && t.ends_with(" more") {
            block.other(Role::Frame);
            return true;
        }
        false
    }
}

/// `at pkg.C.m(C.java:123)`, `at pkg.C.m(C.kt:9)`; the file name is all a
/// JVM frame names, and the package gives its folders.
fn jvm_frame(t: &str) -> Option<(String, u32)> {
    let rest = t.strip_prefix("at ")?;
    let open = rest.rfind('(')?;
    let inner = rest[open + 1..].strip_suffix(')')?;
    let (file, line) = inner.rsplit_once(':')?;
    if !(file.ends_with(".java") || file.ends_with(".kt") || file.ends_with(".scala")) {
        return None;
    }
    let line: u32 = line.parse().ok()?;
    // `org.apache.commons.lang3.Validate.notNull` → org/apache/commons/lang3/Validate.java
    // `java.base/java.util.Objects.requireNonNull`, `app//com.x.Y.m`: a
    // module or class loader before the class.
    let qualified = &rest[..open];
    let qualified = qualified.rsplit('/').next().unwrap_or(qualified);
    let parts: Vec<&str> = qualified.split('.').collect();
    let dirs = parts
        .iter()
        .take_while(|p| p.starts_with(|c: char| c.is_ascii_lowercase()))
        .copied()
        .collect::<Vec<_>>();
    let path = if dirs.is_empty() {
        file.to_string()
    } else {
        format!("{}/{file}", dirs.join("/"))
    };
    Some((path, line))
}
