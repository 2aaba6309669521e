//! AFL++ target: `errdex_fuzzing::matcher`.
fn main() {
    afl::fuzz!(|data: &[u8]| errdex_fuzzing::matcher(data));
}
