//! A deserializer wrapper that reads request bodies the way their JSON
//! Schema (the OpenAPI document) describes them, and keeps what was wrong
//! with one it cannot take:
//!
//! - an object is an object: serde's derived structs also accept an array
//!   of their fields in order (`"limits": [4]`), which the schema refuses;
//!   `Strict` refuses it too, at every depth;
//! - an integer is a number without a fractional part: JSON Schema counts
//!   `1.0` as an integer, so `Strict` takes a whole-number float where an
//!   integer is expected (and still refuses `1.5`);
//! - a value of the wrong shape is named as serde's `de::Error` methods
//!   name it ([`DataFault`]: what came, what was expected, which field),
//!   kept in a [`Seen`] beside the error the wrapped deserializer returns
//!   (whose type cannot carry it): the service tells a fault from that
//!   structure, never from an error's words. So that every such fault is
//!   a visitor's, a JSON value is read with `deserialize_any` wherever
//!   serde_json would otherwise refuse a value of another kind itself: the
//!   visitor then refuses it, in the same words.
//!
//! Everything else is forwarded unchanged to the wrapped deserializer, so
//! error messages (and `serde_path_to_error`'s paths) stay the same.

use std::cell::Cell;
use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Expected, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};

use super::json_fault::{Came, DataFault};

/// The wrapped deserializer (or seed, or access), and how it reads.
pub struct Strict<'f, D> {
    inner: D,
    how: How<'f>,
}

/// How one deserialization reads: where its faults are kept, and whether
/// the format says each value's kind (JSON) so that a value is read with
/// `deserialize_any` (a form's values are text read as each type asks).
#[derive(Clone, Copy)]
struct How<'f> {
    seen: &'f Seen,
    self_describing: bool,
}

impl<'f, D> Strict<'f, D> {
    /// `inner`, each value read as its type asks, the faults visitors
    /// raise kept in `seen` (a value of another kind the format refuses
    /// itself, in its own words and at its own place).
    pub fn new(inner: D, seen: &'f Seen) -> Strict<'f, D> {
        let how = How {
            seen,
            self_describing: false,
        };
        Strict { inner, how }
    }

    /// `inner`, a JSON deserializer, each value read by its kind so that
    /// every fault is a visitor's, kept in `seen` (in the same words; a
    /// fault in an array or an object where a value of another kind was
    /// expected is placed after it rather than at its start).
    pub fn naming_every_fault(inner: D, seen: &'f Seen) -> Strict<'f, D> {
        let how = How {
            seen,
            self_describing: true,
        };
        Strict { inner, how }
    }
}

impl<'f> How<'f> {
    /// `inner`, wrapped as this reading wraps.
    fn strict<T>(self, inner: T) -> Strict<'f, T> {
        Strict { inner, how: self }
    }

    fn seed<S>(self, seed: S) -> Seed<'f, S> {
        Seed { seed, how: self }
    }

    /// An error made back into the wrapped deserializer's, its fault kept.
    fn back<E: de::Error>(self) -> impl Fn(Error<E>) -> E + 'f {
        move |error| error.into_inner(self.seen)
    }
}

/// Where the wrappers of one deserialization keep the data fault that
/// ended it (the last one raised: the one the error that came out is).
#[derive(Default)]
pub struct Seen(Cell<Option<DataFault>>);

impl Seen {
    /// The error that came out of a deserialization wrapped with this, and
    /// the data fault it is, if it is one.
    pub fn fault<E: de::Error>(&self, error: Error<E>) -> (E, Option<DataFault>) {
        match error {
            Error::Inner(inner) => (inner, self.0.take()),
            Error::Data(fault) => (fault.to_error(false), Some(*fault)),
        }
    }
}

/// An error inside the wrapper: the wrapped deserializer's own, or a data
/// fault a visitor raised.
#[derive(Debug)]
pub enum Error<E> {
    Inner(E),
    Data(Box<DataFault>),
}

impl<E: de::Error> Error<E> {
    /// The wrapped deserializer's error: a data fault as the same error
    /// the wrapped one would have made of it, the fault kept in `seen`.
    fn into_inner(self, seen: &Seen) -> E {
        match self {
            Error::Inner(inner) => inner,
            Error::Data(fault) => {
                let error = fault.to_error(false);
                seen.0.set(Some(*fault));
                error
            }
        }
    }
}

impl<E: de::Error> fmt::Display for Error<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Inner(inner) => fmt::Display::fmt(inner, f),
            Error::Data(fault) => fmt::Display::fmt(&fault.to_error::<E>(false), f),
        }
    }
}

impl<E: de::Error> std::error::Error for Error<E> {}

/// serde's `de::Error` constructors, each keeping the [`DataFault`] it
/// names.
macro_rules! data_faults {
    ($($method:ident($($arg:ident: $type:ty),*) => $fault:expr;)*) => {$(
        fn $method($($arg: $type),*) -> Self {
            Error::Data(Box::new($fault))
        }
    )*};
}

impl<E: de::Error> de::Error for Error<E> {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Error::Data(Box::new(DataFault::Custom(message.to_string())))
    }

    data_faults! {
        invalid_type(came: Unexpected<'_>, expected: &dyn Expected) =>
            DataFault::InvalidType { came: Came::of(came), expected: expected.to_string() };
        invalid_value(came: Unexpected<'_>, expected: &dyn Expected) =>
            DataFault::InvalidValue { came: Came::of(came), expected: expected.to_string() };
        invalid_length(len: usize, expected: &dyn Expected) =>
            DataFault::InvalidLength { len, expected: expected.to_string() };
        unknown_variant(name: &str, expected: Names) =>
            DataFault::UnknownVariant { name: name.to_owned(), expected };
        unknown_field(name: &str, expected: Names) =>
            DataFault::UnknownField { name: name.to_owned(), expected };
        missing_field(name: &'static str) => DataFault::MissingField(name);
        duplicate_field(name: &'static str) => DataFault::DuplicateField(name);
    }
}

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
struct Wrap<'f, V> {
    visitor: V,
    mode: Mode,
    how: How<'f>,
}

/// Read as the wrapped deserializer reads it.
macro_rules! forward_deserialize {
    ($($method:ident($($arg:ident: $ty:ty),*): $mode:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Self::Error> {
            let how = self.how;
            let visitor = Wrap { visitor, mode: Mode::$mode, how };
            self.inner.$method($($arg,)* visitor).map_err(Error::Inner)
        }
    )*};
}

/// Read with `deserialize_any` where the format says each value's kind,
/// so that the visitor refuses a value of another kind.
macro_rules! any_deserialize {
    ($($method:ident($($arg:ident: $ty:ty),*): $mode:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Self::Error> {
            let how = self.how;
            let visitor = Wrap { visitor, mode: Mode::$mode, how };
            let read = match how.self_describing {
                true => self.inner.deserialize_any(visitor),
                false => self.inner.$method($($arg,)* visitor),
            };
            read.map_err(Error::Inner)
        }
    )*};
}

type Names = &'static [&'static str];

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<'_, D> {
    type Error = Error<D::Error>;

    forward_deserialize! {
        deserialize_any(): Plain deserialize_bytes(): Plain deserialize_byte_buf(): Plain
        deserialize_option(): Plain deserialize_identifier(): Plain
        deserialize_ignored_any(): Plain deserialize_i128(): Plain deserialize_u128(): Plain
        deserialize_newtype_struct(name: &'static str): Plain
        deserialize_enum(name: &'static str, variants: Names): Plain
    }

    any_deserialize! {
        deserialize_bool(): Plain deserialize_f32(): Plain deserialize_f64(): Plain
        deserialize_char(): Plain deserialize_str(): Plain deserialize_string(): Plain
        deserialize_unit(): Plain deserialize_seq(): Plain deserialize_map(): Plain
        deserialize_i8(): Integer deserialize_i16(): Integer deserialize_i32(): Integer
        deserialize_i64(): Integer deserialize_u8(): Integer deserialize_u16(): Integer
        deserialize_u32(): Integer deserialize_u64(): Integer
        deserialize_unit_struct(name: &'static str): Plain
        deserialize_tuple(len: usize): Plain
        deserialize_tuple_struct(name: &'static str, len: usize): Plain
        deserialize_struct(name: &'static str, fields: Names): Struct
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident$(: $ty:ty)?)*) => {$(
        fn $method<E: de::Error>(self $(, v: $ty)?) -> Result<V::Value, E> {
            self.visitor.$method::<Error<E>>($(forward_visit!(@value v $ty))?).map_err(self.how.back())
        }
    )*};
    // The argument, once for a method that takes one (`$ty` given).
    (@value $v:ident $ty:ty) => { $v };
}

/// Visits of a nested value: the value is read strictly too.
macro_rules! forward_nested {
    ($($method:ident($arg:ident: $access:ident))*) => {$(
        fn $method<A: $access<'de>>(self, $arg: A) -> Result<V::Value, A::Error> {
            let how = self.how;
            self.visitor.$method(how.strict($arg)).map_err(how.back())
        }
    )*};
}

const EXACT: f64 = 9_007_199_254_740_992.0;

impl<'de, V: Visitor<'de>> Visitor<'de> for Wrap<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    forward_visit! {
        visit_bool: bool visit_i8: i8 visit_i16: i16 visit_i32: i32 visit_i64: i64
        visit_i128: i128 visit_u8: u8 visit_u16: u16 visit_u32: u32 visit_u64: u64
        visit_u128: u128 visit_f32: f32 visit_char: char visit_str: &str
        visit_string: String visit_bytes: &[u8] visit_byte_buf: Vec<u8>
        visit_borrowed_str: &'de str visit_borrowed_bytes: &'de [u8] visit_none visit_unit
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        let whole = v.fract() == 0.0 && v.abs() <= EXACT;
        match self.mode {
            Mode::Integer if whole && v >= 0.0 => self.visitor.visit_u64::<Error<E>>(v as u64),
            Mode::Integer if whole => self.visitor.visit_i64(v as i64),
            _ => self.visitor.visit_f64(v),
        }
        .map_err(self.how.back())
    }

    forward_nested! {
        visit_some(d: Deserializer) visit_newtype_struct(d: Deserializer)
        visit_map(map: MapAccess) visit_enum(data: EnumAccess)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let how = self.how;
        if let Mode::Struct = self.mode {
            let refused: Error<A::Error> = de::Error::invalid_type(Unexpected::Seq, &self);
            return Err(refused.into_inner(how.seen));
        }
        self.visitor.visit_seq(how.strict(seq)).map_err(how.back())
    }
}

struct Seed<'f, S> {
    seed: S,
    how: How<'f>,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        let how = self.how;
        self.seed.deserialize(how.strict(d)).map_err(how.back())
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Strict<'_, A> {
    type Error = Error<A::Error>;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Self::Error> {
        self.inner
            .next_element_seed(self.how.seed(seed))
            .map_err(Error::Inner)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Strict<'_, A> {
    type Error = Error<A::Error>;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        self.inner
            .next_key_seed(self.how.seed(seed))
            .map_err(Error::Inner)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<T::Value, Self::Error> {
        self.inner
            .next_value_seed(self.how.seed(seed))
            .map_err(Error::Inner)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'f, 'de, A: EnumAccess<'de>> EnumAccess<'de> for Strict<'f, A> {
    type Error = Error<A::Error>;
    type Variant = Strict<'f, A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), Self::Error> {
        let how = self.how;
        let seed = Seed { seed, how };
        let (value, variant) = self.inner.variant_seed(seed).map_err(Error::Inner)?;
        Ok((
            value,
            Strict {
                inner: variant,
                how,
            },
        ))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Strict<'_, A> {
    type Error = Error<A::Error>;

    fn unit_variant(self) -> Result<(), Self::Error> {
        self.inner.unit_variant().map_err(Error::Inner)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<T::Value, Self::Error> {
        self.inner
            .newtype_variant_seed(self.how.seed(seed))
            .map_err(Error::Inner)
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let (mode, how) = (Mode::Plain, self.how);
        let visitor = Wrap { visitor, mode, how };
        self.inner.tuple_variant(len, visitor).map_err(Error::Inner)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let (mode, how) = (Mode::Struct, self.how);
        let visitor = Wrap { visitor, mode, how };
        self.inner
            .struct_variant(fields, visitor)
            .map_err(Error::Inner)
    }
}

#[cfg(test)]
#[path = "strict_tests.rs"]
mod tests;
