//! The pages of `errdex lint`'s rules, served beside the atlas.

use super::{get, start};

#[test]
fn every_lint_rule_has_a_page_with_its_examples() {
    let (base, _dir) = start();
    let (status, _, index) = get(&format!("{base}/rules/"));
    assert_eq!(status, 200);
    for r in errdex_lint::RULES {
        assert!(index.contains(&format!("/rules/{}/", r.id)), "{}", r.id);
        let (status, _, page) = get(&format!("{base}/rules/{}/", r.id));
        assert_eq!(status, 200, "{}", r.id);
        for e in r.examples {
            assert!(
                page.contains(&format!("<h2>{}</h2>", e.lang)),
                "{} {}",
                r.id,
                e.lang
            );
        }
    }
    assert_eq!(get(&format!("{base}/rules/no-such-rule/")).0, 404);
}
