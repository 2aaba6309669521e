//! AFL++ target: `errdex_fuzzing::mcp`.
fn main() {
    afl::fuzz!(|data: &[u8]| errdex_fuzzing::mcp(data));
}
