//! [`SpaceLevels`]: the exact counts one row of a search-space table computed. The kinds'
//! swept tables ([`super::SweptTable`]) fill them and read them back; a table experiment's
//! record keeps them (the `levels` object of its `stats`, see the harness's `RecordStats`).
//! No backend fills them. Cost: a map of big integers, written as decimal strings.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use serde::{Deserialize, Serialize};

/// The exact counts one row of a search-space table experiment computed: each level by its
/// key (`every_cell`, `three_axes`, ...: the kind's table names them and reads them back), and
/// the fixed points Burnside's lemma needs when the row's orbits are completed later (a
/// sharded count). Written as decimal strings, so no digit is lost.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceLevels {
    /// Each level's exact count, by its key.
    #[serde(with = "decimal_map")]
    pub counts: BTreeMap<String, BigUint>,
    /// Placements fixed by each symmetry but the identity, when the row counted them.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "decimal_list")]
    pub fixed_points: Vec<BigUint>,
}

impl SpaceLevels {
    /// The count of level `key`, if the row has it.
    pub fn get(&self, key: &str) -> Option<&BigUint> {
        self.counts.get(key)
    }

    /// Sets the count of level `key`.
    pub fn set(&mut self, key: &str, count: impl Into<BigUint>) {
        self.counts.insert(key.into(), count.into());
    }
}

/// Exact big integers as JSON decimal strings (a JSON number would lose digits).
mod decimal_map {
    use std::collections::BTreeMap;

    use num_bigint::BigUint;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        map: &BTreeMap<String, BigUint>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(map.iter().map(|(k, v)| (k, v.to_string())))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<String, BigUint>, D::Error> {
        let text = BTreeMap::<String, String>::deserialize(d)?;
        text.into_iter()
            .map(|(k, v)| match v.parse() {
                Ok(n) => Ok((k, n)),
                Err(_) => Err(serde::de::Error::custom(format!(
                    "level {k}: '{v}' is not a whole number"
                ))),
            })
            .collect()
    }
}

/// A list of exact big integers as JSON decimal strings.
mod decimal_list {
    use num_bigint::BigUint;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(list: &[BigUint], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(list.iter().map(|v| v.to_string()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<BigUint>, D::Error> {
        Vec::<String>::deserialize(d)?
            .into_iter()
            .map(|v| {
                v.parse()
                    .map_err(|_| serde::de::Error::custom(format!("'{v}' is not a whole number")))
            })
            .collect()
    }
}
