//! The documented limit on input length (`ErrorKind::InputTooLong`): inputs and
//! serializations over 4 GiB - 1 bytes, which the `u32` offsets cannot address.
//!
//! These tests allocate 4 to 9 GiB each and need an optimized build, so this target is not
//! part of a plain `cargo test` (`test = false` in Cargo.toml); `scripts/test-all.sh` runs
//! it as `cargo test --release --test limits`. The tests take a lock so that only one of
//! them holds its gigabytes at a time (about 100 s in all, 12 GiB of memory at most).

use rapidurl::{ErrorKind, Url};
use std::sync::{Mutex, MutexGuard};

/// Serializes the tests of this file: each needs most of the machine's memory.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `http://h/aaa…`: 4 GiB + 1 bytes, one more than the offsets can address.
fn over_the_limit() -> String {
    let mut input = String::with_capacity(u32::MAX as usize + 2);
    input.push_str("http://h/");
    input.extend(std::iter::repeat_n(
        'a',
        u32::MAX as usize - input.len() + 2,
    ));
    input
}

/// 4 GiB + 1 bytes: refused with `input-too-long` before any work by `parse`,
/// `parse_bytes` and `parse_ref` (`can_parse`: see `can_parse_over_4_gib_is_false`).
#[test]
fn input_over_4_gib_is_input_too_long() {
    let _one_at_a_time = one_at_a_time();
    let input = over_the_limit();
    assert_eq!(input.len(), u32::MAX as usize + 2);
    let err = Url::parse(&input).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InputTooLong);
    assert_eq!(err.name(), "input-too-long");
    assert_eq!(
        Url::parse_bytes(input.as_bytes()).unwrap_err().kind(),
        ErrorKind::InputTooLong
    );
    let arena = rapidurl::bumpalo::Bump::new();
    assert_eq!(
        rapidurl::parse_ref(&input, &arena).unwrap_err().kind(),
        ErrorKind::InputTooLong
    );
}

/// `can_parse` must agree with `Url::parse` on an input over the limit. It does not:
/// `can_parse` first asks `parser::proof::proven_valid`, which proves validity from the
/// scheme and a plain authority alone ("path, query and fragment never fail") and so
/// answers `true` before the length check that `Url::parse` runs. Same for an input under
/// the limit whose serialization is over it (1.5 GiB of spaces in a fragment).
/// Expected: `false` (what `Url::parse` says: input-too-long).
#[test]
fn can_parse_over_4_gib_is_false() {
    let _one_at_a_time = one_at_a_time();
    let input = over_the_limit();
    assert_eq!(
        Url::parse(&input).unwrap_err().kind(),
        ErrorKind::InputTooLong
    );
    assert!(!rapidurl::can_parse(&input));
    drop(input);
    // Under the limit, but its serialization (every space is "%20") is over it.
    let input = format!("http://h/#{}x", " ".repeat(u32::MAX as usize / 3 + 1));
    assert_eq!(
        Url::parse(&input).unwrap_err().kind(),
        ErrorKind::InputTooLong
    );
    assert!(!rapidurl::can_parse(&input));
}

/// An input under the limit whose serialization is over it (every space becomes "%20"):
/// `input-too-long` too: about 1.4 GiB in, 4 GiB out.
#[test]
fn serialization_over_4_gib_is_input_too_long() {
    let _one_at_a_time = one_at_a_time();
    let spaces = (u32::MAX as usize) / 3 + 1;
    // A final "x": trailing spaces would be trimmed (§4.4 step 1).
    let input = format!("http://h/#{}x", " ".repeat(spaces));
    assert!(input.len() < u32::MAX as usize);
    assert_eq!(
        Url::parse(&input).unwrap_err().kind(),
        ErrorKind::InputTooLong
    );
}

/// A setter must not build a serialization the `u32` offsets cannot address. `Url::parse`
/// refuses such a URL (`input-too-long`, `Parser::finish`), but the setters rebuild the
/// serialization in `Pieces::build` (src/parser/setters.rs), which stores
/// `out.len() as u32` unchecked: a URL just under the limit plus a query goes over it,
/// and the next offset written past 4 GiB wraps (`fragment_start` below points into the
/// path, so `hash()` returns a slice of the path). Expected: a setter whose result would
/// be over the limit leaves the URL unchanged (setters have no error to return).
#[test]
fn setters_never_exceed_the_offset_limit() {
    let _one_at_a_time = one_at_a_time();
    let limit = u32::MAX as usize;
    let mut url = {
        let mut input = String::with_capacity(limit - 64);
        input.push_str("http://h/");
        input.extend(std::iter::repeat_n('a', limit - 64 - 9));
        Url::parse(&input).expect("just under the limit")
    };
    assert_eq!(url.href().len(), limit - 64);
    url.set_search(&"q".repeat(128));
    assert!(
        url.href().len() <= limit,
        "set_search made a {}-byte serialization",
        url.href().len()
    );
    url.set_hash("frag");
    // The URL was left as it was, so this fits: 5 bytes more.
    assert_eq!(url.hash(), "#frag");
}

/// The time limits `rapidurl::pattern` documents hold on hostile patterns and inputs of a
/// mebibyte: each of these finishes (a backtracking matcher takes exponential time on the
/// first, a suffix lookup at every dot of a hostname quadratic time on the second).
#[test]
#[cfg(feature = "pattern")]
fn hostile_patterns_and_inputs_finish() {
    use rapidurl::pattern::{PatternSet, UrlPattern};
    let mebibyte = 1 << 20;
    // 80 wildcards in one pathname: the own Pike VM, O(n × m) for `test`.
    let stars = "*".repeat(40);
    let p = UrlPattern::parse(&format!("https://h/{stars}x{stars}"), None).unwrap();
    let path = "e".repeat(mebibyte);
    assert!(!p.test_str(&format!("https://h/{path}"), None).unwrap());
    assert!(p.test_str(&format!("https://h/{path}x"), None).unwrap());
    // `exec` carries 80 groups' captures per thread: O(n × m × g), on 16 KiB.
    let short = &path[..16 << 10];
    let m = p
        .exec_str(&format!("https://h/{short}x"), None)
        .unwrap()
        .unwrap();
    assert_eq!(m.pathname.input.len(), short.len() + 2);
    assert!(
        p.exec_str(&format!("https://h/{short}"), None)
            .unwrap()
            .is_none()
    );
    // A hostname of half a million labels against a table with host suffixes.
    let mut set = PatternSet::new();
    set.add(None, "https://*.b.example.org/*").unwrap();
    set.add(None, "https://*.example.com/*").unwrap();
    let host = format!("{}example.com", "a.".repeat(mebibyte / 2));
    let arena = rapidurl::bumpalo::Bump::new();
    let (hit, miss) = (format!("https://{host}/x"), format!("https://{host}.net/x"));
    let url = rapidurl::parse_ref(&hit, &arena).unwrap();
    assert_eq!(url.hostname().len(), host.len());
    assert_eq!(set.all(&url).unwrap(), vec![1]);
    let url = rapidurl::parse_ref(&miss, &arena).unwrap();
    assert_eq!(set.first(&url).unwrap(), None);
}

/// The regexp groups of `benches/pattern_adversarial.rs` on a pathname of a mebibyte:
/// each finishes (a backtracking matcher takes exponential time on the first ones), with
/// the Standard's answer; the one with a lookahead gives up with `MatchLimit`.
#[test]
#[cfg(feature = "pattern")]
fn hostile_regexp_groups_finish() {
    use rapidurl::pattern::{PatternErrorKind, UrlPattern};
    let mebibyte = 1 << 20;
    let cases = [
        "https://h/:a((?:a+)+)b",
        "https://h/:a(.*.*.*.*)b",
        "https://h/:a((?:a|a)*)b",
        "https://h/:a((?:a|a|aa)*?(?:a|a)*)b",
        "https://h/:a((?:a{1,10}){20})b",
    ];
    let path = "a".repeat(mebibyte);
    for pattern in cases {
        let p = UrlPattern::parse(pattern, None).unwrap();
        assert!(
            !p.test_str(&format!("https://h/{path}"), None).unwrap(),
            "{pattern}"
        );
        assert!(
            p.exec_str(&format!("https://h/{path}"), None)
                .unwrap()
                .is_none(),
            "{pattern}"
        );
    }
    // A match, with its group.
    let p = UrlPattern::parse("https://h/:a((?:a|a)*)b", None).unwrap();
    let m = p
        .exec_str(&format!("https://h/{path}b"), None)
        .unwrap()
        .unwrap();
    assert_eq!(m.pathname.get("a").map(str::len), Some(mebibyte));
    let p = UrlPattern::parse("https://h/:a((?:\\b\\w*\\b)*)!", None).unwrap();
    let words = "ab ".repeat(mebibyte / 3);
    assert!(!p.test_str(&format!("https://h/{words}"), None).unwrap());
    let p = UrlPattern::parse("https://h/:a((?=(?:a|a)*b)\\w*)", None).unwrap();
    let err = p.test_str(&format!("https://h/{path}"), None).unwrap_err();
    assert_eq!(err.kind(), &PatternErrorKind::MatchLimit);
}
