//! End-to-end tests of `rapidurl dedup` and of the `surt` and `canonical` fields of
//! `rapidurl parse`. Expected outputs are written by hand.

use std::process::Output;

mod support;

fn rapidurl(args: &[&str], stdin: &str) -> Output {
    support::run(args, stdin.as_bytes())
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("UTF-8 output")
}

const FRONTIER: &str = "HTTP://Example.com:80/a?b=2&a=1#top\n\
    http://example.com/a?a=1&b=2\n\
    http://example.com/a?a=1&b=2&utm_source=mail\n\
    http://exa mple.com/\n\
    https://www.example.com/a?a=1&b=2\n\
    http://example.com/%7Ea\n\
    http://example.com/~a\n";

#[test]
fn lines_keep_the_first_of_each_key_in_order() {
    let out = rapidurl(&["dedup"], FRONTIER);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "HTTP://Example.com:80/a?b=2&a=1#top\n\
         https://www.example.com/a?a=1&b=2\n\
         http://example.com/%7Ea\n"
    );
    assert_eq!(
        text(&out.stderr),
        "<stdin>:4:11: domain-invalid-code-point at byte 10: the domain holds a forbidden \
         domain code point\n\
         rapidurl dedup: read 7 rows, kept 3 (3 duplicates, 1 invalid; 3 distinct keys of 16 \
         bytes)\n"
    );
}

#[test]
fn keys_surt_and_href() {
    let out = rapidurl(&["dedup", "--key", "surt"], FRONTIER);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // SURT drops `www` and the scheme but keeps tracking parameters.
    assert_eq!(
        text(&out.stdout),
        "HTTP://Example.com:80/a?b=2&a=1#top\n\
         http://example.com/a?a=1&b=2&utm_source=mail\n\
         http://example.com/%7Ea\n"
    );
    let out = rapidurl(&["dedup", "--key", "href"], FRONTIER);
    assert_eq!(
        text(&out.stdout),
        "HTTP://Example.com:80/a?b=2&a=1#top\n\
         http://example.com/a?a=1&b=2\n\
         http://example.com/a?a=1&b=2&utm_source=mail\n\
         https://www.example.com/a?a=1&b=2\n\
         http://example.com/%7Ea\n\
         http://example.com/~a\n"
    );
}

#[test]
fn tables_keep_their_columns() {
    let csv = "id,url,note\n1,http://a.com/?x=1&y=2,\"first, quoted\"\n2,http://a.com/?y=2&x=1,dup\n3,http://b.com/,x\n";
    let out = rapidurl(&["dedup", "--input-format", "csv"], csv);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "id,url,note\r\n1,http://a.com/?x=1&y=2,\"first, quoted\"\r\n3,http://b.com/,x\r\n"
    );
    let jsonl = "{\"u\":\"http://a.com/#1\",\"n\":1}\n{\"u\":\"http://a.com/#2\",\"n\":2}\n";
    let out = rapidurl(
        &["dedup", "--input-format", "jsonl", "--column", "u"],
        jsonl,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "{\"u\":\"http://a.com/#1\",\"n\":1}\n");
}

#[test]
fn parse_has_the_surt_and_canonical_fields() {
    let out = rapidurl(
        &["parse", "--fields", "surt,canonical", "--no-header"],
        "https://www.Example.com/B/?z=1&a=2&gclid=x#f\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "com,example)/b?a=2&gclid=x&z=1\thttps://www.example.com/B/?a=2&z=1\t\n"
    );
}

#[test]
fn dedup_writes_only_text_formats() {
    let out = rapidurl(&["dedup", "--format", "parquet"], FRONTIER);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("invalid value 'parquet'")
            && err.contains("[possible values: tsv, csv, jsonl]"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    let out = rapidurl(&["dedup", "--format", "jsonl"], "https://a.example/\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "https://a.example/\n");
}
