//! Defects found in review (issue 9), each pinned by a test that failed before its fix.

use rapidurl::Url;

#[test]
fn reading_search_params_through_the_handle_leaves_the_query_alone() {
    let mut url = Url::parse("https://example.com/?a=1&b").unwrap();
    assert_eq!(url.search_params_mut().get("a"), Some("1"));
    // Before: the handle's drop rewrote the query as `a=1&b=`.
    assert_eq!(url.href(), "https://example.com/?a=1&b");
    {
        let params = url.search_params_mut();
        assert!(params.has("b", None));
        assert_eq!(params.len(), 2);
    }
    assert_eq!(url.href(), "https://example.com/?a=1&b");
}

#[test]
fn a_mutation_through_the_handle_runs_the_update_steps() {
    let mut url = Url::parse("https://example.com/?a=1&b").unwrap();
    // Sorting an already sorted list still updates the URL (§6.2 sort, then update).
    url.search_params_mut().sort();
    assert_eq!(url.href(), "https://example.com/?a=1&b=");
    url.search_params_mut().append("c", "d e");
    assert_eq!(url.href(), "https://example.com/?a=1&b=&c=d+e");
}

#[test]
fn parse_bytes_reports_offsets_in_bytes_of_its_input() {
    // Two invalid bytes become two U+FFFD (six bytes) in the decoded string.
    let input = b"http://\xFF\xFE@h:99999/";
    let err = Url::parse_bytes(input).unwrap_err();
    assert_eq!(err.name(), "port-out-of-range");
    // Before: 16, the offset in the decoded string.
    assert_eq!(err.offset(), Some(12));
    assert_eq!(&input[12..17], b"99999");
    // A truncated multi-byte sequence is one U+FFFD (three bytes) for its two bytes.
    let err = Url::parse_bytes(b"http://\xE2\x82@h:99999/").unwrap_err();
    assert_eq!(err.offset(), Some(7 + 2 + 3));
}

#[test]
fn host_errors_found_after_decoding_point_at_the_host() {
    // The IPv4 parser runs on the ASCII host, `xn--n3h.127.0.0.1`, longer than the input's
    // `☃.127.0.0.1`. Before: byte 23 of a 20-byte input (found by the property test
    // `parse_bytes_is_parse_of_lossy`).
    for (input, host_start) in [("http://☃.127.0.0.1", 7), ("http:☃.127.0.0.1", 5)] {
        let err = Url::parse(input).unwrap_err();
        assert_eq!(err.name(), "IPv4-too-many-parts");
        assert_eq!(err.offset(), Some(host_start), "{input}");
    }
    // Percent-decoding shortens the host: before, byte 19 fell inside `%41`.
    let err = Url::parse("http://%41%41%41%41%41.1.2.3.4.5").unwrap_err();
    assert_eq!(err.name(), "IPv4-too-many-parts");
    assert_eq!(err.offset(), Some(7));
    // A forbidden code point after decoding: before, byte 17 (inside `%44`), not the `%25`.
    let err = Url::parse("http://%41%42%43%44%45%46.com%25").unwrap_err();
    assert_eq!(err.name(), "domain-invalid-code-point");
    assert_eq!(err.offset(), Some(7));
    // A host taken as it is keeps the exact place: the fifth part.
    let err = Url::parse("http://a.127.0.0.1").unwrap_err();
    assert_eq!(err.offset(), Some(17));
}

#[test]
fn parse_bytes_offsets_are_unchanged_for_valid_utf8() {
    let err = Url::parse_bytes("http://é@h:99999/".as_bytes()).unwrap_err();
    assert_eq!(err.offset(), Some(7 + 2 + 3));
}

#[test]
fn parse_utf16_reports_offsets_in_code_units() {
    // é and € are one code unit each (two and three UTF-8 bytes); a lone surrogate is one
    // unit that becomes U+FFFD (three bytes).
    let units: Vec<u16> = "http://é€"
        .encode_utf16()
        .chain([0xD800])
        .chain("@h:99999/".encode_utf16())
        .collect();
    let err = Url::parse_utf16(&units).unwrap_err();
    assert_eq!(err.name(), "port-out-of-range");
    // Before: 7 + 2 + 3 + 3 + 3 = 18 (bytes of the decoded string).
    assert_eq!(err.offset(), Some(7 + 1 + 1 + 1 + 3));
    // The message says which unit it counts.
    assert_eq!(
        err.to_string(),
        "port-out-of-range at UTF-16 code unit 13: the port is greater than 65535"
    );
    // An astral character is two units (four bytes).
    let units: Vec<u16> = "http://😀@h:99999/".encode_utf16().collect();
    assert_eq!(
        Url::parse_utf16(&units).unwrap_err().offset(),
        Some(7 + 2 + 3)
    );
}

#[cfg(feature = "rayon")]
#[test]
fn batch_lines_report_offsets_in_bytes_of_the_line() {
    let column = rapidurl::batch::parse_lines(b"http://\xFF\xFE@h:99999/\nhttp://\xFF@h:1x\n");
    assert_eq!(column.error(0).unwrap().offset(), Some(12));
    // `1x`: port-invalid at the `x`, byte 7 + 1 + 4 = 12 (the decoded line has it at 14).
    let err = column.error(1).unwrap();
    assert_eq!((err.name(), err.offset()), ("port-invalid", Some(12)));
}
