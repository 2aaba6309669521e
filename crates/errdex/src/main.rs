//! The `errdex` command; all logic lives in the library so it can be tested.

// tree-sitter allocates and frees many small nodes per file; with glibc's
// allocator the parse threads contend on heap growth and scale poorly.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(errdex::run(std::env::args_os()));
}
