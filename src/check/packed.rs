//! A fingerprint as a compact byte string, for the set of states seen:
//! hundreds of thousands of them are kept at wider bounds, and one boxed
//! string of bytes takes a fraction of the memory of the same data as
//! vectors and strings, each with its own allocation. Every value is
//! written whole and every string and list with its length first, so two
//! fingerprints pack to the same bytes only when they are equal: nothing is
//! hashed away, the search stays exact.

/// A packed fingerprint.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Packed(Box<[u8]>);

#[derive(Default)]
pub struct Packer(Vec<u8>);

impl Packer {
    /// Seven bits a byte, high bit set on all but the last: small numbers,
    /// the common case, take one byte.
    pub fn number(&mut self, n: u64) -> &mut Self {
        let mut n = n;
        while n >= 0x80 {
            self.0.push((n as u8) | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
        self
    }

    pub fn flag(&mut self, b: bool) -> &mut Self {
        self.0.push(u8::from(b));
        self
    }

    pub fn text(&mut self, s: &str) -> &mut Self {
        self.number(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
        self
    }

    /// `None` and `Some(x)` apart: a marker byte, then the value.
    pub fn maybe<T>(&mut self, v: Option<T>, pack: impl FnOnce(&mut Self, T)) -> &mut Self {
        self.flag(v.is_some());
        if let Some(v) = v {
            pack(self, v);
        }
        self
    }

    /// A list: its length, then each item.
    pub fn list<T>(&mut self, items: &[T], mut pack: impl FnMut(&mut Self, &T)) -> &mut Self {
        self.number(items.len() as u64);
        for item in items {
            pack(self, item);
        }
        self
    }

    pub fn done(self) -> Packed {
        Packed(self.0.into_boxed_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed(f: impl FnOnce(&mut Packer)) -> Packed {
        let mut p = Packer::default();
        f(&mut p);
        p.done()
    }

    #[test]
    fn different_values_pack_differently() {
        let a = packed(|p| {
            p.text("ab").text("c");
        });
        let b = packed(|p| {
            p.text("a").text("bc");
        });
        assert_ne!(a, b);
        let none = packed(|p| {
            p.maybe(None::<u64>, |p, n| {
                p.number(n);
            });
        });
        let zero = packed(|p| {
            p.maybe(Some(0), |p, n| {
                p.number(n);
            });
        });
        assert_ne!(none, zero);
        assert_ne!(
            packed(|p| {
                p.number(128);
            }),
            packed(|p| {
                p.number(0).number(1);
            })
        );
        assert_eq!(
            packed(|p| {
                p.number(300);
            })
            .0
            .len(),
            2
        );
    }
}
