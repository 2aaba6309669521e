//! Version names (tags, refs) in release order.

/// Names compared as versions: runs of digits by value, the rest as text
/// (`v1.10.0` after `v1.9.3`).
pub fn version_order(a: &str, b: &str) -> std::cmp::Ordering {
    fn parts(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let b = s.as_bytes();
        for i in 1..=b.len() {
            if i == b.len() || b[i].is_ascii_digit() != b[start].is_ascii_digit() {
                out.push((b[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let (pa, pb) = (parts(a), parts(b));
    for (x, y) in pa.iter().zip(&pb) {
        let o = match (x.0, y.0) {
            (true, true) => {
                let (u, v) = (x.1.trim_start_matches('0'), y.1.trim_start_matches('0'));
                u.len().cmp(&v.len()).then_with(|| u.cmp(v))
            }
            _ => x.1.cmp(y.1),
        };
        if o.is_ne() {
            return o;
        }
    }
    pa.len().cmp(&pb.len())
}

/// Whether `name` lies in the range `from..=to` of versions.
pub fn in_range(name: &str, from: &str, to: &str) -> bool {
    version_order(from, name).is_le() && version_order(name, to).is_le()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_sort_by_their_numbers() {
        let mut v = vec!["v1.10.0", "v1.9.3", "v1.2.0", "v2.0.0-rc1", "v1.9.10"];
        v.sort_by(|a, b| version_order(a, b));
        assert_eq!(v, ["v1.2.0", "v1.9.3", "v1.9.10", "v1.10.0", "v2.0.0-rc1"]);
        assert!(in_range("v1.9.10", "v1.9.3", "v1.10.0"));
        assert!(!in_range("v1.2.0", "v1.9.3", "v1.10.0"));
    }
}
