//! The fast path never gives a second opinion: whenever
//! `rapidurl::__testing::parse_fast(input)` answers (a whole canonical input, or a proven
//! scheme and authority with the rest finished by the state machine from the path start
//! state), the state machine alone (`__testing::parse_slow`) succeeds with the same
//! serialization and the same offsets; and the public entry points (`Url::parse`,
//! `parse_ref`, `can_parse`), which take either route, agree with it on every input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapidurl::__testing::{fast_outcome, parse_fast, parse_slow};

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let slow = parse_slow(input);
    let fast = parse_fast(input);
    assert_eq!(fast.is_some(), fast_outcome(input).is_some(), "{input:?}");
    if let Some(fast) = &fast {
        if let Err(rule) = fast.1.check(&fast.0) {
            panic!(
                "fast path ({:?}) on {input:?}: components break {rule:?}: {:?}",
                fast_outcome(input),
                fast.1
            );
        }
        match &slow {
            Ok(slow) => assert_eq!(
                fast,
                slow,
                "fast ({:?}) and slow paths differ on {input:?}",
                fast_outcome(input)
            ),
            Err(e) => panic!("fast path accepted {input:?}, the state machine says {e}"),
        }
    }
    // The public routes: the same answer as the state machine, serialization and offsets.
    let owned = rapidurl::Url::parse(input);
    match (&owned, &slow) {
        (Ok(u), Ok((s, c))) => {
            assert_eq!(u.as_str(), s, "Url::parse on {input:?}");
            assert_eq!(u.components(), c, "Url::parse on {input:?}");
        }
        (Err(_), Err(_)) => {}
        _ => panic!("Url::parse and the state machine disagree on {input:?}"),
    }
    let arena = rapidurl::bumpalo::Bump::new();
    let view = rapidurl::parse_ref(input, &arena);
    assert_eq!(
        view.as_ref().ok().map(|v| (v.as_str(), *v.components())),
        slow.as_ref().ok().map(|(s, c)| (s.as_str(), *c)),
        "parse_ref on {input:?}"
    );
    assert_eq!(
        rapidurl::can_parse(input),
        slow.is_ok(),
        "can_parse on {input:?}"
    );
});
