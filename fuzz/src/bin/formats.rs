//! AFL++ target: `errdex_fuzzing::formats`.
fn main() {
    afl::fuzz!(|data: &[u8]| errdex_fuzzing::formats(data));
}
