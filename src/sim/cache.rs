//! A Redis-like key-value cache outside the database, with time-to-live:
//! fast and self-cleaning, but it cannot commit together with SQLite.

use super::Millis;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug)]
pub struct Cache {
    pub ttl_ms: Millis,
    /// Key -> the time it expires.
    entries: BTreeMap<String, Millis>,
    /// (expires, key), soonest first: expiry visits only the keys due.
    due: BTreeSet<(Millis, String)>,
    /// Keys set or expired since `take_changed`.
    changed: Vec<String>,
}

impl Cache {
    pub fn new(ttl_ms: Millis) -> Self {
        Cache {
            ttl_ms,
            entries: BTreeMap::new(),
            due: BTreeSet::new(),
            changed: Vec::new(),
        }
    }

    /// `SET key 1 NX EX ttl`: true when the key was free and is now set.
    pub fn set_nx(&mut self, key: &str, now: Millis) -> bool {
        self.expire(now);
        if self.entries.contains_key(key) {
            return false;
        }
        self.insert(key, now);
        true
    }

    /// `SET key 1 EX ttl`.
    pub fn set(&mut self, key: &str, now: Millis) {
        self.expire(now);
        self.insert(key, now);
    }

    fn insert(&mut self, key: &str, now: Millis) {
        let expires = now + self.ttl_ms;
        if let Some(old) = self.entries.insert(key.to_string(), expires) {
            self.due.remove(&(old, key.to_string()));
        }
        self.due.insert((expires, key.to_string()));
        self.changed.push(key.to_string());
    }

    /// `GET key`: true on a hit.
    pub fn get(&mut self, key: &str, now: Millis) -> bool {
        self.expire(now);
        self.entries.contains_key(key)
    }

    /// Drops the keys whose time is up; returns them.
    pub fn expire(&mut self, now: Millis) -> Vec<String> {
        let mut gone = Vec::new();
        while let Some((expires, _)) = self.due.first()
            && *expires <= now
        {
            let (_, key) = self.due.pop_first().expect("just looked");
            self.entries.remove(&key);
            self.changed.push(key.clone());
            gone.push(key);
        }
        gone
    }

    /// Keys set or expired since the last call.
    pub fn take_changed(&mut self) -> Vec<String> {
        std::mem::take(&mut self.changed)
    }

    /// Whether `key` is set and not expired at `now`.
    pub fn holds(&self, key: &str, now: Millis) -> bool {
        self.entries.get(key).is_some_and(|e| *e > now)
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
