//! Text as Go's `fmt` would print it for a template, with random values:
//! what the property tests and the trace benchmark feed the matcher.

use errdex_model::{HoleKind, Segment, Template};

/// Deterministic pseudo-random numbers (xorshift), so runs reproduce.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A made-up word, unlikely to be a template's literal.
    pub fn word(&mut self) -> String {
        const W: &[&str] = &[
            "failed", "open", "lease", "snapshot", "peer", "member", "cannot", "invalid", "raft",
            "wal", "key", "revision", "cluster", "token", "backend", "compact", "watch", "grpc",
            "proxy", "auth",
        ];
        let mut w = W[self.below(W.len() as u64) as usize].to_string();
        w.push_str(&self.below(1000).to_string());
        w
    }
}

/// What Go's fmt prints for a random value of a verb, with its width.
pub fn value(kind: HoleKind, verb: &str, r: &mut Rng) -> String {
    let spec = verb.trim_start_matches('%');
    let left = spec.starts_with('-');
    let width: usize = spec
        .trim_start_matches(['-', '+', '#', ' ', '0'])
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .unwrap_or(0);
    let v = match kind {
        HoleKind::Any => match r.below(4) {
            0 => r.word(),
            1 => format!("{} {}", r.word(), r.word()),
            2 => format!("/var/lib/{}/{}", r.word(), r.word()),
            _ => (r.below(100_000)).to_string(),
        },
        HoleKind::Int => (r.below(2_000_001) as i64 - 1_000_000).to_string(),
        HoleKind::Hex => format!("{:x}", r.next_u64() >> 20),
        HoleKind::Octal => format!("{:o}", r.below(100_000)),
        HoleKind::Binary => format!("{:b}", r.below(100_000)),
        HoleKind::Float => format!("{:.6}", (r.below(1_000_000) as f64) / 997.0),
        HoleKind::Bool => (r.below(2) == 0).to_string(),
        HoleKind::Quoted => format!("{:?}", format!("{} \"{}\"", r.word(), r.word())),
        HoleKind::Char => "é".to_string(),
        HoleKind::Unicode => format!("U+{:04X}", r.below(0xFFFF) + 0x100),
        HoleKind::Pointer => format!("0xc{:09x}", r.below(1 << 36)),
        HoleKind::Type => "*errors.errorString".to_string(),
    };
    let n = v.chars().count();
    if n >= width {
        v
    } else if left {
        v + &" ".repeat(width - n)
    } else {
        " ".repeat(width - n) + &v
    }
}

/// The template printed with random values.
pub fn render(t: &Template, r: &mut Rng) -> String {
    t.segments
        .iter()
        .map(|s| match s {
            Segment::Lit(l) => l.clone(),
            Segment::Hole(h) => value(h.kind, &h.verb, r),
        })
        .collect()
}
