//! `SearchParams` (URLSearchParams, §6.2) and `rapidurl::form`
//! (application/x-www-form-urlencoded, §5): parse, mutate, serialize.
//!
//! The list is checked against a model written straight from the Standard's steps (a
//! `Vec` of pairs; `sort` is a stable sort by the names' UTF-16 code units), and after
//! every step serialize → parse must give the list back. A URL bound through
//! `search_params_mut()` must end up with the list's serialization as its query, or a
//! null query when the list is empty.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rapidurl::{SearchParams, Url, form};

#[derive(Arbitrary, Debug)]
enum Op {
    Append(String, String),
    Delete(String),
    DeleteValue(String, String),
    Set(String, String),
    Sort,
}

#[derive(Arbitrary, Debug)]
struct Input {
    query: String,
    raw: Vec<u8>,
    ops: Vec<Op>,
}

type Pairs = Vec<(String, String)>;

/// The model of each operation, §6.2 step by step.
fn apply_model(model: &mut Pairs, op: &Op) {
    match op {
        Op::Append(n, v) => model.push((n.clone(), v.clone())),
        Op::Delete(n) => model.retain(|(m, _)| m != n),
        Op::DeleteValue(n, v) => model.retain(|(m, w)| !(m == n && w == v)),
        Op::Set(n, v) => match model.iter().position(|(m, _)| m == n) {
            // "set the value of the first such name-value pair to value and remove the
            // others"
            Some(first) => {
                model[first].1 = v.clone();
                let mut i = 0;
                model.retain(|(m, _)| {
                    let keep = m != n || i == first;
                    i += 1;
                    keep
                });
            }
            None => model.push((n.clone(), v.clone())),
        },
        Op::Sort => {
            // Stable: pairs with equal names keep their relative order.
            model.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
        }
    }
}

fn apply(params: &mut SearchParams, op: &Op) {
    match op {
        Op::Append(n, v) => params.append(n, v),
        Op::Delete(n) => params.delete(n, None),
        Op::DeleteValue(n, v) => params.delete(n, Some(v)),
        Op::Set(n, v) => params.set(n, v),
        Op::Sort => params.sort(),
    }
}

/// serialize → parse gives the list back (§5.2 then §5.1 with UTF-8).
fn assert_round_trip(params: &SearchParams) {
    let text = params.to_string();
    assert_eq!(text, form::serialize_utf8(params.iter()));
    assert_eq!(
        SearchParams::parse(&text).as_slice(),
        params.as_slice(),
        "{text:?}"
    );
    assert_eq!(form::parse(text.as_bytes()), params.as_slice(), "{text:?}");
}

fuzz_target!(|input: Input| {
    // §6.2 constructor: one leading `?` is removed, then the string parser.
    let mut params = SearchParams::parse(&input.query);
    let expected = form::parse_str(input.query.strip_prefix('?').unwrap_or(&input.query));
    assert_eq!(params.as_slice(), expected.as_slice());
    assert_round_trip(&params);
    // The byte parser never panics, and round-trips too.
    let raw = SearchParams::from_pairs(form::parse(&input.raw));
    assert_round_trip(&raw);

    let mut model: Pairs = params.as_slice().to_vec();
    let mut url = Url::parse("https://example.com/path").unwrap();
    url.set_search(&params.to_string());
    for op in &input.ops {
        apply(&mut params, op);
        apply_model(&mut model, op);
        assert_eq!(params.as_slice(), model.as_slice(), "after {op:?}");
        assert_round_trip(&params);
        if let Op::Append(n, _) | Op::Set(n, _) | Op::Delete(n) = op {
            let first = model.iter().find(|(m, _)| m == n).map(|(_, v)| v.as_str());
            assert_eq!(params.get(n), first);
            assert_eq!(params.has(n, None), first.is_some());
            let all: Vec<&str> = model
                .iter()
                .filter(|(m, _)| m == n)
                .map(|(_, v)| v.as_str())
                .collect();
            assert_eq!(params.get_all(n), all);
        }

        // The same operation through a URL's bound list.
        apply(&mut url.search_params_mut(), op);
        assert_eq!(
            url.search_params().as_slice(),
            model.as_slice(),
            "URL {:?}",
            url.href()
        );
        if model.is_empty() {
            assert_eq!(url.query(), None, "an empty list makes the query null");
        } else {
            assert_eq!(url.query(), Some(params.to_string().as_str()));
        }
        rapidurl_testkit::invariants::assert_fixed_point(&url, &op);
    }
});
