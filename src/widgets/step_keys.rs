//! The keys that move a stepper: → or ↓ one step on, ← or ↑ one step back, Home the
//! first step, End the last (the caller keeps the step within its steps).

/// The step `key` moves to from `now`, or `None` when the key moves nothing.
pub fn step_for_key(key: &str, now: usize) -> Option<usize> {
    match key {
        "ArrowRight" | "ArrowDown" => Some(now + 1),
        "ArrowLeft" | "ArrowUp" => Some(now.saturating_sub(1)),
        "Home" => Some(0),
        "End" => Some(usize::MAX),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::step_for_key;

    #[test]
    fn arrows_move_one_step_home_and_end_the_ends_other_keys_nothing() {
        assert_eq!(step_for_key("ArrowRight", 3), Some(4));
        assert_eq!(step_for_key("ArrowDown", 3), Some(4));
        assert_eq!(step_for_key("ArrowLeft", 3), Some(2));
        assert_eq!(step_for_key("ArrowUp", 0), Some(0));
        assert_eq!(step_for_key("Home", 7), Some(0));
        assert_eq!(step_for_key("End", 7), Some(usize::MAX));
        assert_eq!(step_for_key("a", 7), None);
    }
}
