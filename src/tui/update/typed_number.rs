//! A number typed into a long menu (the scenario picker, the fault menu):
//! one digit, or two when the menu has more than nine items. Written once,
//! so every menu reads the same keys the same way.

/// What a digit does to a menu of `n` items when `first` is the digit
/// typed before it (if it is still waiting): the item to select (from 0),
/// and the digit that now waits for a second one. A digit that no item's
/// number starts with selects nothing (`None`). A first digit waits only
/// where a two-digit number can start with it (`1` in a menu of 12, not
/// `2`).
pub(super) fn typed(n: usize, first: Option<u8>, digit: u8) -> Option<(usize, Option<u8>)> {
    let two = first.map(|first| usize::from(first) * 10 + usize::from(digit));
    let (number, waiting) = match two {
        Some(k) if (1..=n).contains(&k) => (k, None),
        _ => (usize::from(digit), Some(digit)),
    };
    (1..=n)
        .contains(&number)
        .then(|| (number - 1, waiting.filter(|&d| usize::from(d) * 10 <= n)))
}

#[cfg(test)]
mod tests {
    use super::typed;

    #[test]
    fn one_digit_or_two_in_a_long_menu() {
        // Twelve items: `1` selects the first and waits; `2` after it is 12.
        assert_eq!(typed(12, None, 1), Some((0, Some(1))));
        assert_eq!(typed(12, Some(1), 2), Some((11, None)));
        // `10` and `0` alone.
        assert_eq!(typed(12, Some(1), 0), Some((9, None)));
        assert_eq!(typed(12, None, 0), None);
        // No number of twelve items starts with 2 and a second digit.
        assert_eq!(typed(12, None, 2), Some((1, None)));
        // A second digit that makes no item starts again.
        assert_eq!(typed(12, Some(1), 3), Some((2, None)));
        assert_eq!(typed(12, Some(1), 1), Some((10, None)));
        // Past the end of a short menu: nothing.
        assert_eq!(typed(3, None, 3), Some((2, None)));
        assert_eq!(typed(3, None, 4), None);
        // A menu of exactly ten waits after `1` (for 10), not after `2`.
        assert_eq!(typed(10, None, 1), Some((0, Some(1))));
        assert_eq!(typed(10, None, 2), Some((1, None)));
        assert_eq!(typed(9, None, 1), Some((0, None)));
    }
}
