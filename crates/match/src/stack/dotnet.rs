//! C#: `Unhandled exception. X: msg`, ` ---> X: msg` (read as exception
//! lines, [`super::exception`]), `at N.C.M() in /src/F.cs:line 42`,
//! `--- End of inner exception stack trace ---`.

use super::{starts, suffix_path, Block, Line, Role, StackReader};

/// .NET frames need no state: each hints the last message.
#[derive(Default)]
pub(super) struct DotNet;

impl StackReader for DotNet {
    #[inline]
    fn open(&self) -> bool {
        false
    }

    fn read(&mut self, line: &Line<'_>, block: &mut Block<'_, '_>) -> bool {
        if !line.marked {
            return false;
        }
        let t = line.trimmed;
        if let Some(frame) = dotnet_frame(t) {
            block.frame_after(frame);
            return true;
        }
        if starts(t, "--- End of inner exception stack trace")
            || starts(t, "--- End of stack trace from previous location")
        {
            block.other(Role::Frame);
            return true;
        }
        false
    }
}

/// `at N.C.M() in /src/F.cs:line 42`.
fn dotnet_frame(t: &str) -> Option<(String, u32)> {
    let rest = t.strip_prefix("at ")?;
    let (_, loc) = rest.rsplit_once(" in ")?;
    let (file, line) = loc.rsplit_once(":line ")?;
    Some((suffix_path(file), line.trim().parse().ok()?))
}
