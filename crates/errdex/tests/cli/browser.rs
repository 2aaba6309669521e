//! The site in a real browser: `errdex up` on the seed fixture, driven by
//! tests/browser/run.js in headless Chromium (playwright-core). Needs
//! Debian's chromium and `npm ci` in tests/browser (`.ci/run` installs
//! both); skips with a notice elsewhere, fails under CI=true.

use super::serve::start;
use super::*;

#[test]
fn a_person_finds_an_error_from_a_log_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let chromium = Path::new("/usr/bin/chromium");
    let driver = root.join("tests/browser/node_modules/playwright-core");
    if !chromium.exists() || !driver.exists() {
        let why = format!(
            "needs {} and {} (apt-get install chromium; npm ci in tests/browser)",
            chromium.display(),
            driver.display()
        );
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("browser test cannot run: {why}");
        }
        eprintln!("skipped: {why}");
        return;
    }
    let env = Env::new("seed");
    let tree = env.tree();
    let (mut child, url) = start(
        &env.db(),
        &[
            "up",
            tree.to_str().unwrap(),
            "--repo",
            "kubernetes/kops",
            "--addr",
            "127.0.0.1:0",
        ],
    );
    let out = root.join("target/browser");
    let o = Command::new("node")
        .arg(root.join("tests/browser/run.js"))
        .arg(&url)
        .arg(&out)
        .output()
        .expect("node runs");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        o.status.success(),
        "browser test failed:\n{}\n{}",
        stdout(&o),
        stderr(&o)
    );
    for shot in [
        "error-page-desktop.png",
        "error-page-phone.png",
        "home-phone.png",
    ] {
        let len = std::fs::metadata(out.join(shot))
            .map(|m| m.len())
            .unwrap_or(0);
        assert!(len > 5_000, "{shot}: {len} bytes");
    }
}
