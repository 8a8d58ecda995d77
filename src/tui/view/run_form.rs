//! One form for a whole run. A label, a heading or a header that changed
//! its form from step to step (`duplicate deliveries 0`, then `dup.
//! deliveries 1 (+1)`; `consumer A …`, then `A: …`; `design: naive (m)`,
//! then `naive`) read as a different thing each time: each view chooses
//! its form once, for every step it may show, with this.

/// The first of `forms` (widest first) that `fits` at every one of
/// `steps`; `None` where none fits them all, and the caller says which
/// form it falls back to.
pub fn widest<F: Copy, S>(
    forms: impl IntoIterator<Item = F>,
    steps: &[S],
    fits: impl Fn(F, &S) -> bool,
) -> Option<F> {
    forms
        .into_iter()
        .find(|&form| steps.iter().all(|s| fits(form, s)))
}

#[cfg(test)]
mod tests {
    use super::widest;

    #[test]
    fn the_form_fits_the_steps_that_need_most() {
        let steps = [3, 9, 5];
        // Form `n` holds a step of up to `n`.
        assert_eq!(widest([4, 8, 10, 12], &steps, |n, &s| s <= n), Some(10));
        assert_eq!(widest([4, 8], &steps, |n, &s| s <= n), None);
        let none: [usize; 0] = [];
        assert_eq!(widest([4, 8], &none, |n, &s| s <= n), Some(4));
    }
}
