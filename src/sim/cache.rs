//! A Redis-like key-value cache outside the database, with time-to-live:
//! fast and self-cleaning, but it cannot commit together with SQLite.

use super::Millis;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
pub struct Cache {
    pub ttl_ms: Millis,
    /// Key -> the time it expires.
    entries: BTreeMap<String, Millis>,
}

impl Cache {
    pub fn new(ttl_ms: Millis) -> Self {
        Cache {
            ttl_ms,
            entries: BTreeMap::new(),
        }
    }

    /// `SET key 1 NX EX ttl`: true when the key was free and is now set.
    pub fn set_nx(&mut self, key: &str, now: Millis) -> bool {
        self.expire(now);
        if self.entries.contains_key(key) {
            return false;
        }
        self.entries.insert(key.to_string(), now + self.ttl_ms);
        true
    }

    /// `SET key 1 EX ttl`.
    pub fn set(&mut self, key: &str, now: Millis) {
        self.expire(now);
        self.entries.insert(key.to_string(), now + self.ttl_ms);
    }

    /// `GET key`: true on a hit.
    pub fn get(&mut self, key: &str, now: Millis) -> bool {
        self.expire(now);
        self.entries.contains_key(key)
    }

    pub fn expire(&mut self, now: Millis) {
        self.entries.retain(|_, expires| *expires > now);
    }

    /// (key, time left), in key order.
    pub fn entries(&self, now: Millis) -> Vec<(String, Millis)> {
        self.entries
            .iter()
            .filter(|(_, e)| **e > now)
            .map(|(k, e)| (k.clone(), e - now))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_nx_refuses_a_live_key_until_it_expires() {
        let mut cache = Cache::new(100);
        assert!(cache.set_nx("m-1", 0));
        assert!(!cache.set_nx("m-1", 99));
        assert!(cache.get("m-1", 99));
        assert!(!cache.get("m-1", 100));
        assert!(cache.set_nx("m-1", 100));
    }
}
