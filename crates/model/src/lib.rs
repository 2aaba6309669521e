//! The errdex data model: what an error site is, how sites group into a
//! [`Record`] (the seed's schema-v2 JSON record), and the stable identifiers
//! (`id`, `slug`) that pages and links rely on. No I/O lives here, so every
//! other crate can share these types.
//!
//! ```
//! use errdex_model::{record_id, slugify};
//! assert_eq!(slugify("serving readiness probe: %w"), "serving-readiness-probe-w");
//! assert_eq!(record_id("kubernetes/kops", "stop requested").len(), 16);
//! ```
#![deny(missing_docs)]

mod ids;
mod memo;
mod paths;
mod record;
mod template;
mod versions;

pub use ids::{record_id, slugify, unique_slugs, SLUG_MAX_LEN};
pub use memo::{Analysed, AnalysisMemo};
pub use paths::is_built_copy;
pub use record::{
    Cause, ClosedHole, DynamicSite, ErrorType, FieldGiven, FieldKey, FieldOption, Fill, IndexStats,
    Lang, NamedValue, RawSite, Record, RelatedError, RepoDataset, RepoVersion, Severity, Site,
    SiteFacts, VersionRange, MAX_CHECKS, SCHEMA_VERSION, TOO_COMMON_NAMES,
};
pub use template::{Hole, HoleKind, Segment, Template, BULLETS};
pub use versions::{in_range, version_order};
