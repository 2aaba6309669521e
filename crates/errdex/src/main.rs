//! The `errdex` command; all logic lives in the library so it can be tested.

use std::ffi::c_void;

// tree-sitter allocates and frees many small nodes per file; with glibc's
// allocator the parse threads contend on heap growth and scale poorly.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    no_transparent_huge_pages();
    no_purging();
    use_mimalloc_for_tree_sitter();
    std::process::exit(errdex::run(std::env::args_os()));
}

/// tree-sitter's C core calls `malloc` directly, bypassing the global
/// allocator; glibc then hands its large parse stacks back to the kernel
/// after every file and the kernel zeroes fresh pages for the next one.
/// Routing it to mimalloc keeps those pages warm across files.
// Installing a C allocator is an FFI call, so this is unsafe code; the
// others (SIMD loads in match, the mapped trace cache in explain) are listed
// in ARCHITECTURE.md under "Rules that hold", each with its SAFETY comment.
#[allow(unsafe_code)]
fn use_mimalloc_for_tree_sitter() {
    unsafe extern "C" fn ts_calloc(count: usize, size: usize) -> *mut c_void {
        // An overflowing request cannot be met; mimalloc reports it as
        // out of memory, the same as calloc would.
        let bytes = count.saturating_mul(size);
        unsafe { libmimalloc_sys::mi_zalloc(bytes) }
    }
    // SAFETY: called once, first thing, before any tree-sitter object
    // exists; all four functions belong to mimalloc, which aligns like malloc.
    unsafe {
        tree_sitter::set_allocator(Some(tree_sitter::Allocator {
            malloc: libmimalloc_sys::mi_malloc,
            calloc: ts_calloc,
            realloc: libmimalloc_sys::mi_realloc,
            free: libmimalloc_sys::mi_free,
        }));
    }
}

/// mimalloc hands freed memory back to the kernel after a delay and once
/// more at exit; a run allocates in waves, so the next wave faults the
/// same pages in again, zeroed, and the exit spends milliseconds on
/// memory about to go anyway (`docs/perf.md`, "Issue 23, eighth pass").
/// A server's heap stays at its high-water mark instead, as with glibc.
#[allow(unsafe_code)]
fn no_purging() {
    // `mi_option_purge_delay` in mimalloc 3's `mimalloc.h` (the
    // `libmimalloc-sys` build without the `v2` feature).
    const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    // SAFETY: sets one option before any thread exists; -1 is the
    // documented value for "never purge".
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

/// mimalloc asks for transparent huge pages on the regions it maps; the
/// kernel then zeroes (and, with `defrag = madvise`, first compacts) 2 MiB
/// for every region an index run touches, which measured as the larger
/// share of a run's time (`docs/perf.md`, "Huge pages"). Small pages cost
/// less here: the heap is allocated and freed in waves, not held.
#[allow(unsafe_code)]
fn no_transparent_huge_pages() {
    const PR_SET_THP_DISABLE: std::ffi::c_int = 41;
    extern "C" {
        fn prctl(option: std::ffi::c_int, ...) -> std::ffi::c_int;
    }
    // SAFETY: PR_SET_THP_DISABLE takes one integer argument and touches
    // only this process's memory policy; a kernel without it returns an
    // error, which changes nothing.
    #[cfg(target_os = "linux")]
    unsafe {
        prctl(
            PR_SET_THP_DISABLE,
            1 as std::ffi::c_ulong,
            0 as std::ffi::c_ulong,
            0 as std::ffi::c_ulong,
            0 as std::ffi::c_ulong,
        );
    }
}
