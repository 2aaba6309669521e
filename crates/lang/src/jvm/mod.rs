//! The JVM family: Java, Kotlin and Scala, one module each, and what they
//! share in [`shared`].

pub(crate) mod java;
pub(crate) mod kotlin;
pub(crate) mod scala;
pub(crate) mod shared;
