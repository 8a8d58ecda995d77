//! A count as a reader takes it in: `60,657`, in the table, the
//! explorer and the tries one bound further alike.

/// Thousands separated with commas, so the counts can be read at a glance.
pub fn num(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands_are_separated() {
        assert_eq!(super::num(0), "0");
        assert_eq!(super::num(999), "999");
        assert_eq!(super::num(60_657), "60,657");
        assert_eq!(super::num(1_234_567), "1,234,567");
    }
}
