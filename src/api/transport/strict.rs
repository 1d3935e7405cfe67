//! A deserializer wrapper that reads request bodies the way their JSON
//! Schema (the OpenAPI document) describes them:
//!
//! - an object is an object: serde's derived structs also accept an array
//!   of their fields in order (`"limits": [4]`), which the schema refuses;
//!   `Strict` refuses it too, at every depth;
//! - an integer is a number without a fractional part: JSON Schema counts
//!   `1.0` as an integer, so `Strict` takes a whole-number float where an
//!   integer is expected (and still refuses `1.5`).
//!
//! Everything else is forwarded unchanged to the wrapped deserializer, so
//! error messages (and `serde_path_to_error`'s paths) stay the same.

use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};

/// The wrapped deserializer.
pub struct Strict<D>(pub D);

/// What a wrapped visitor changes.
#[derive(Clone, Copy)]
enum Mode {
    /// Nothing: it only passes `Strict` on to nested values.
    Plain,
    /// A struct: refuses arrays.
    Struct,
    /// An integer: takes whole-number floats.
    Integer,
}

/// A visitor that passes `Strict` on and applies its mode.
struct Wrap<V> {
    visitor: V,
    mode: Mode,
}

impl<V> Wrap<V> {
    fn plain(visitor: V) -> Wrap<V> {
        Wrap {
            visitor,
            mode: Mode::Plain,
        }
    }
}

macro_rules! forward_deserialize {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method(Wrap::plain(visitor))
        }
    )*};
}

macro_rules! integer_deserialize {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method(Wrap { visitor, mode: Mode::Integer })
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any deserialize_bool deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    integer_deserialize! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, Wrap::plain(visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_newtype_struct(name, Wrap::plain(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Wrap::plain(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_tuple_struct(name, len, Wrap::plain(visitor))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let visitor = Wrap {
            visitor,
            mode: Mode::Struct,
        };
        self.0.deserialize_struct(name, fields, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0
            .deserialize_enum(name, variants, Wrap::plain(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident: $ty:ty)*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
            self.visitor.$method(v)
        }
    )*};
}

/// The largest magnitude a whole-number float is taken as an integer at:
/// 2^53, below which every integer is exact in an `f64`.
const EXACT: f64 = 9_007_199_254_740_992.0;

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    forward_visit! {
        visit_bool: bool visit_i8: i8 visit_i16: i16 visit_i32: i32 visit_i64: i64
        visit_i128: i128 visit_u8: u8 visit_u16: u16 visit_u32: u32 visit_u64: u64
        visit_u128: u128 visit_f32: f32 visit_char: char visit_str: &str
        visit_string: String visit_bytes: &[u8] visit_byte_buf: Vec<u8>
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        let whole = v.fract() == 0.0 && v.abs() <= EXACT;
        match self.mode {
            Mode::Integer if whole && v >= 0.0 => self.visitor.visit_u64(v as u64),
            Mode::Integer if whole => self.visitor.visit_i64(v as i64),
            _ => self.visitor.visit_f64(v),
        }
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.visitor.visit_borrowed_str(v)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<V::Value, E> {
        self.visitor.visit_borrowed_bytes(v)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.visitor.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.visitor.visit_some(Strict(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.visitor.visit_newtype_struct(Strict(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        if let Mode::Struct = self.mode {
            return Err(de::Error::invalid_type(Unexpected::Seq, &self));
        }
        self.visitor.visit_seq(Strict(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_map(Strict(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.visitor.visit_enum(Strict(data))
    }
}

/// A seed whose deserializer is wrapped.
struct Seed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Strict(d))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Strict<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Strict<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Seed(seed))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Strict<A> {
    type Error = A::Error;
    type Variant = Strict<A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let (value, variant) = self.0.variant_seed(Seed(seed))?;
        Ok((value, Strict(variant)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Strict<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Seed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap::plain(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let visitor = Wrap {
            visitor,
            mode: Mode::Struct,
        };
        self.0.struct_variant(fields, visitor)
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Limits {
        depth: Option<u32>,
        nodes: Option<u64>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Body {
        position: String,
        #[serde(default)]
        limits: Option<Limits>,
        #[serde(default)]
        moves: Vec<Limits>,
    }

    fn parse(text: &str) -> Result<Body, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        Body::deserialize(Strict(&mut de))
    }

    #[test]
    fn objects_are_objects_at_every_depth() {
        assert!(parse(r#"{"position":"x","limits":{"depth":4}}"#).is_ok());
        // serde alone takes all of these.
        for text in [
            r#"["x"]"#,
            r#"{"position":"x","limits":[4, null]}"#,
            r#"{"position":"x","limits":[null, null]}"#,
            r#"{"position":"x","moves":[[1, 2]]}"#,
        ] {
            let plain: Result<Body, _> = serde_json::from_str(text);
            assert!(plain.is_ok(), "{text} (serde accepts it)");
            assert!(parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn whole_number_floats_are_integers() {
        let body = parse(r#"{"position":"x","limits":{"depth":4.0,"nodes":1e3}}"#).unwrap();
        assert_eq!(
            body.limits,
            Some(Limits {
                depth: Some(4),
                nodes: Some(1000)
            })
        );
        for text in [
            r#"{"position":"x","limits":{"depth":4.5}}"#,
            r#"{"position":"x","limits":{"depth":-1.0}}"#,
            r#"{"position":"x","limits":{"depth":4294967296.0}}"#,
            r#"{"position":"x","limits":{"nodes":1e300}}"#,
        ] {
            assert!(parse(text).is_err(), "{text}");
        }
    }
}
