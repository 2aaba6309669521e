//! AFL++ target: `errdex_fuzzing::stack`.
fn main() {
    afl::fuzz!(|data: &[u8]| errdex_fuzzing::stack(data));
}
