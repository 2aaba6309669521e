//! What a repository path says about its file.

/// Whether a file is a copy of code made elsewhere: a built bundle (a
/// `dist/` folder, a minified or bundled script) or a vendored copy of
/// another repository's code. Tracing ranks the origin first; the linter
/// reports nothing in them (their maintainers edit the origin).
pub fn is_built_copy(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    path.split('/').any(|d| {
        matches!(
            d,
            "dist" | "vendor" | "third_party" | "node_modules" | "site-packages"
        )
    }) || [".min.js", ".bundle.js", ".min.mjs", ".umd.js"]
        .iter()
        .any(|e| file.ends_with(e))
}
