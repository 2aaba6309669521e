//! AFL++ target: `errdex_fuzzing::prefix`.
fn main() {
    afl::fuzz!(|data: &[u8]| errdex_fuzzing::prefix(data));
}
