//! The fast path never gives a second opinion: whenever
//! `rapidurl::__testing::parse_fast(input)` answers, the state machine
//! (`__testing::parse_slow`) succeeds with the same serialization and the same offsets.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapidurl::__testing::{parse_fast, parse_slow};

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let slow = parse_slow(input);
    if let Some(fast) = parse_fast(input) {
        if let Err(rule) = fast.1.check(&fast.0) {
            panic!(
                "fast path on {input:?}: components break {rule:?}: {:?}",
                fast.1
            );
        }
        match slow {
            Ok(slow) => assert_eq!(fast, slow, "fast and slow paths differ on {input:?}"),
            Err(e) => panic!("fast path accepted {input:?}, the state machine says {e}"),
        }
    }
});
