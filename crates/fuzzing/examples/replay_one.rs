//! Replays inputs through one target, naming each that panics:
//! `cargo run -p errdex-fuzzing --example replay_one -- TARGET FILE…`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some((_, target)) = errdex_fuzzing::TARGETS
        .iter()
        .find(|(n, _)| Some(*n) == args.get(1).map(String::as_str))
    else {
        eprintln!("usage: replay_one TARGET FILE…");
        std::process::exit(2);
    };
    for p in &args[2..] {
        let data = std::fs::read(p).unwrap();
        let r = std::panic::catch_unwind(|| target(&data));
        println!("{p}: {}", if r.is_ok() { "ok" } else { "PANIC" });
    }
}
