//! Deprecated names of this module's items before #34 renamed them (the plan lint's
//! `Finding`, `FindingKind` and `Severity` had the same names), for at least one release
//! (CONTRIBUTING.md, "Deprecation").

use super::finding::{SchemaFinding, SchemaFindingKind, SchemaSeverity};

/// Renamed [`SchemaFinding`].
#[deprecated(note = "use rowkey::struct_key::SchemaFinding")]
pub type Finding = SchemaFinding;

/// Renamed [`SchemaFindingKind`].
#[deprecated(note = "use rowkey::struct_key::SchemaFindingKind")]
pub type FindingKind = SchemaFindingKind;

/// Renamed [`SchemaSeverity`].
#[deprecated(note = "use rowkey::struct_key::SchemaSeverity")]
pub type Severity = SchemaSeverity;
