//! End-to-end tests of the host analytics fields of `rapidurl parse` (`public_suffix`,
//! `registrable_domain`, `subdomain`, `param:NAME`) and of `--psl FILE`. Expected values
//! are written by hand from URL Standard §3.2 and the Public Suffix List's rules.

use std::process::Output;

mod support;

/// Runs the tool with `args`, `stdin` as its input.
fn rapidurl(args: &[&str], stdin: &str) -> Output {
    support::run(args, stdin.as_bytes())
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("UTF-8 output")
}

#[test]
fn csv_of_registrable_domains() {
    let out = rapidurl(
        &[
            "parse",
            "--format",
            "csv",
            "--on-error",
            "skip",
            "--fields",
            "hostname,public_suffix,registrable_domain",
        ],
        "https://www.example.co.uk/x\nhttp://[::1]/\nhttp://192.168.0.1/\nhttps://WWW.Example.COM./\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "hostname,public_suffix,registrable_domain\r\n\
         www.example.co.uk,co.uk,example.co.uk\r\n\
         [::1],,\r\n\
         192.168.0.1,,\r\n\
         www.example.com.,com.,example.com.\r\n"
    );
}

#[test]
fn subdomain_and_params_in_tsv() {
    let out = rapidurl(
        &[
            "parse",
            "--no-header",
            "--on-error",
            "skip",
            "--fields",
            "subdomain,param:q,param:utm_source",
        ],
        "https://a.b.example.com/?q=caf%C3%A9+au+lait&q=2\nhttps://example.com/?x=1\nhttps://com/\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "a.b\tcafé au lait\t\n\t\t\n\t\t\n");
}

#[test]
fn psl_file_replaces_the_builtin_list_and_errors_name_the_line() {
    let dir = std::env::temp_dir();
    let good = dir.join(format!("rapidurl-psl-good-{}.dat", std::process::id()));
    let bad = dir.join(format!("rapidurl-psl-bad-{}.dat", std::process::id()));
    std::fs::write(&good, "// ===BEGIN ICANN DOMAINS===\nuk\nexample.co.uk\n").unwrap();
    std::fs::write(&bad, "uk\n// a comment\nco..uk\n").unwrap();
    let fields = [
        "parse",
        "--no-header",
        "--fields",
        "public_suffix,registrable_domain",
    ];

    let mut args = fields.to_vec();
    args.extend(["--psl", good.to_str().unwrap()]);
    let out = rapidurl(&args, "https://www.example.co.uk/x\nhttps://a.co.uk/\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "example.co.uk\twww.example.co.uk\t\nuk\tco.uk\t\n"
    );

    let mut args = fields.to_vec();
    args.extend(["--psl", bad.to_str().unwrap()]);
    let out = rapidurl(&args, "https://a.example/\n");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty());
    assert_eq!(
        text(&out.stderr).trim_end(),
        format!(
            "rapidurl: {}:3: rule \"co..uk\" has an empty label",
            bad.display()
        )
    );
    let _ = std::fs::remove_file(good);
    let _ = std::fs::remove_file(bad);
}
