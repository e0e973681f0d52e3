//! [`Count`]: an exact solution count of any size.
//!
//! Most counts fit in `u128`, and the enumerating engines count one by one in a `u128`; the
//! memo engine's products of components and the free variables' factor `2^free` can pass
//! 2^128 (a model of 130 free variables has 2^130 solutions). A `Count` holds either exactly,
//! as a `BigUint`: nothing is wrapped or rounded. Shown in decimal; in JSON a number while it
//! fits in `u128` (as counts always were) and a decimal string beyond (no JSON reader keeps
//! such a number exact).

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// An exact solution count of any size (see the module docs). Costs one small heap
/// allocation for a nonzero count; counters keep their running totals in machine integers
/// and convert once at the end.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Count(BigUint);

impl Count {
    /// The count `0`.
    pub fn zero() -> Count {
        Count(BigUint::zero())
    }

    /// Whether the count is `0`.
    pub fn is_zero(&self) -> bool {
        self.0.is_zero()
    }

    /// The count as `u128`, or `None` past 2^128 - 1.
    pub fn to_u128(&self) -> Option<u128> {
        self.0.to_u128()
    }

    /// The count as `u64`, or `None` past 2^64 - 1.
    pub fn to_u64(&self) -> Option<u64> {
        self.0.to_u64()
    }

    /// The count as the nearest `f64` (for ratios and plots only: inexact past 2^53).
    pub fn to_f64(&self) -> f64 {
        self.0.to_f64().unwrap_or(f64::INFINITY)
    }

    /// The count as a `BigUint`.
    pub fn as_big(&self) -> &BigUint {
        &self.0
    }

    /// The smaller of the count and `n`, as `u128` (e.g. how many witnesses to keep).
    pub fn min_u128(&self, n: u128) -> u128 {
        self.to_u128().map_or(n, |c| c.min(n))
    }
}

impl From<u128> for Count {
    fn from(n: u128) -> Count {
        Count(BigUint::from(n))
    }
}

impl From<u64> for Count {
    fn from(n: u64) -> Count {
        Count(BigUint::from(n))
    }
}

impl From<usize> for Count {
    fn from(n: usize) -> Count {
        Count(BigUint::from(n))
    }
}

impl From<BigUint> for Count {
    fn from(n: BigUint) -> Count {
        Count(n)
    }
}

impl PartialEq<u128> for Count {
    fn eq(&self, other: &u128) -> bool {
        self.to_u128() == Some(*other)
    }
}

impl PartialOrd<u128> for Count {
    fn partial_cmp(&self, other: &u128) -> Option<std::cmp::Ordering> {
        Some(match self.to_u128() {
            Some(c) => c.cmp(other),
            None => std::cmp::Ordering::Greater,
        })
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl std::str::FromStr for Count {
    type Err = num_bigint::ParseBigIntError;
    /// A decimal count (digits only).
    fn from_str(s: &str) -> Result<Count, Self::Err> {
        s.parse::<BigUint>().map(Count)
    }
}

impl Serialize for Count {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.to_u128() {
            Some(n) => s.serialize_u128(n),
            None => s.serialize_str(&self.0.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for Count {
    /// A JSON number (up to `u128`) or a decimal string of any length.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        struct Digits;
        impl serde::de::Visitor<'_> for Digits {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a count: a whole number, or its decimal digits as a string")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Count, E> {
                Ok(Count::from(n))
            }
            fn visit_u128<E: serde::de::Error>(self, n: u128) -> Result<Count, E> {
                Ok(Count::from(n))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Count, E> {
                s.parse().map_err(E::custom)
            }
        }
        d.deserialize_any(Digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_a_number_up_to_u128_and_a_string_beyond() {
        let max = Count::from(u128::MAX);
        assert_eq!(serde_json::to_string(&max).unwrap(), u128::MAX.to_string());
        let big = Count::from(BigUint::from(u128::MAX) + 1u32);
        let text = serde_json::to_string(&big).unwrap();
        assert_eq!(text, "\"340282366920938463463374607431768211456\"");
        assert_eq!(serde_json::from_str::<Count>(&text).unwrap(), big);
        assert_eq!(serde_json::from_str::<Count>("92").unwrap(), 92u128);
        assert!(big > u128::MAX && big.to_u128().is_none());
        assert_eq!(big.min_u128(16), 16);
    }
}
