//! End-to-end tests of `--routes FILE`: the `route` and `route_params` fields of
//! `rapidurl parse`, `rapidurl stats --by route`, and the errors of a bad table. Expected
//! values are written by hand from the URL Pattern Standard.

use std::process::Output;

mod support;

fn rapidurl(args: &[&str], stdin: &str) -> Output {
    support::run(args, stdin.as_bytes())
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("UTF-8 output")
}

/// A route table in a temporary file, removed on drop.
struct Table(std::path::PathBuf);

impl Table {
    fn new(name: &str, text: &str) -> Table {
        let path =
            std::env::temp_dir().join(format!("rapidurl-routes-{}-{name}", std::process::id()));
        std::fs::write(&path, text).expect("write the route table");
        Table(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("UTF-8 path")
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

const LOG: &str = "https://example.com/users/42\nhttps://cdn.example.com/a.js\n\
                   https://example.com/static/app.css\nhttps://other.test/\n\
                   https://example.com/users/7\n";

#[test]
fn parse_with_a_route_table() {
    let table = Table::new(
        "parse",
        "# routes\nuser\thttps://example.com/users/:id(\\d+)\n\nhttps://*.example.com/*\n",
    );
    let out = rapidurl(
        &[
            "parse",
            "--routes",
            table.path(),
            "--fields",
            "pathname,route,route_params",
        ],
        LOG,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "pathname\troute\troute_params\terror\n\
         /users/42\tuser\t{\"id\":\"42\"}\t\n\
         /a.js\thttps://*.example.com/*\t{\"hostname.0\":\"cdn\",\"pathname.0\":\"a.js\"}\t\n\
         /static/app.css\t\t\t\n\
         /\t\t\t\n\
         /users/7\tuser\t{\"id\":\"7\"}\t\n"
    );
}

#[test]
fn stats_by_route() {
    let table = Table::new(
        "stats",
        "user\thttps://example.com/users/:id\nstatic\thttps://example.com/static/*\n",
    );
    let out = rapidurl(
        &[
            "stats",
            "--routes",
            table.path(),
            "--by",
            "route",
            "--format",
            "csv",
        ],
        LOG,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.iter().any(|l| l.starts_with("user,2")), "{stdout}");
    assert!(lines.iter().any(|l| l.starts_with("static,1")), "{stdout}");
    assert!(lines.iter().any(|l| l.starts_with(",2")), "{stdout}");
}

#[test]
fn errors_name_the_table_line_and_what_is_wrong() {
    let table = Table::new(
        "bad",
        "ok\thttps://example.com/*\nx\thttps://example.com/:id/:id\n",
    );
    let out = rapidurl(&["stats", "--routes", table.path(), "--by", "route"], LOG);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "{}:2:3: bad route pattern: duplicate group name `id`",
            table.path()
        )),
        "{stderr}"
    );
    let out = rapidurl(&["parse", "--fields", "route"], LOG);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--routes FILE"),
        "{}",
        text(&out.stderr)
    );
}

/// The route and route_params columns of `parse --routes TABLE [extra…]` over `log`.
fn routes_of(table: &Table, extra: &[&str], log: &str) -> String {
    let mut args = vec![
        "parse",
        "--routes",
        table.path(),
        "--fields",
        "route,route_params",
        "--no-header",
    ];
    args.extend_from_slice(extra);
    let out = rapidurl(&args, log);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout).to_owned()
}

#[test]
fn a_table_of_paths_matches_any_protocol_host_and_port() {
    let table = Table::new(
        "paths",
        "# a web server's routes\nuser\t/users/:id(\\d+)\nstatic\t/static/*\n\
         /search?q=:q\n{/:lang}?/about\n",
    );
    let log = "https://example.com/users/42\n\
               http://other.test:8080/users/7?x=1\n\
               https://example.com/users/bob\n\
               https://cdn.example.com/static/app.css\n\
               ftp://files.test/static/a\n\
               https://example.com/search?q=lamp\n\
               https://example.com/search\n\
               https://example.com/fr/about\n\
               https://example.com/about#team\n";
    assert_eq!(
        routes_of(&table, &[], log),
        "user\t{\"id\":\"42\"}\t\n\
         user\t{\"id\":\"7\"}\t\n\
         \t\t\n\
         static\t{\"pathname.0\":\"app.css\"}\t\n\
         static\t{\"pathname.0\":\"a\"}\t\n\
         /search?q=:q\t{\"q\":\"lamp\"}\t\n\
         \t\t\n\
         {/:lang}?/about\t{\"lang\":\"fr\"}\t\n\
         {/:lang}?/about\t{}\t\n"
    );
}

#[test]
fn a_base_gives_relative_patterns_its_protocol_host_and_port() {
    let table = Table::new(
        "based",
        "user\t/users/:id\napi\tv1/:thing\ncdn\thttps://cdn.example.com/*\n",
    );
    let log = "https://example.com/users/42\n\
               https://example.com/users/42?tab=1\n\
               http://example.com/users/42\n\
               https://example.com:8443/users/42\n\
               https://other.test/users/42\n\
               https://example.com/api/v1/lamp\n\
               https://cdn.example.com/x.js\n";
    assert_eq!(
        routes_of(
            &table,
            &["--routes-base", "https://example.com/api/index.html"],
            log
        ),
        "user\t{\"id\":\"42\"}\t\n\
         user\t{\"id\":\"42\"}\t\n\
         \t\t\n\
         \t\t\n\
         \t\t\n\
         api\t{\"thing\":\"lamp\"}\t\n\
         cdn\t{\"pathname.0\":\"x.js\"}\t\n"
    );
}

#[test]
fn stats_by_route_over_a_table_of_paths() {
    let table = Table::new("stats-paths", "user\t/users/:id\nstatic\t/static/*\n");
    for extra in [&[][..], &["--routes-base", "https://example.com"][..]] {
        let mut args = vec![
            "stats",
            "--routes",
            table.path(),
            "--by",
            "route",
            "--format",
            "csv",
        ];
        args.extend_from_slice(extra);
        let out = rapidurl(&args, LOG);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert!(lines.iter().any(|l| l.starts_with("user,2")), "{stdout}");
        assert!(lines.iter().any(|l| l.starts_with("static,1")), "{stdout}");
        // cdn.example.com/a.js and other.test/ match no route.
        assert!(lines.iter().any(|l| l.starts_with(",2")), "{stdout}");
    }
}

#[test]
fn comments_are_whole_lines_starting_with_a_hash() {
    // `#` first on a line: a comment; a line of white space: skipped; a `#` inside a
    // pattern starts its hash component.
    let table = Table::new(
        "comments",
        "#user\t/users/:id\n  \t \ndocs\t/docs#:section\n# the end\n",
    );
    let log = "https://example.com/docs#intro\nhttps://example.com/users/1\n";
    assert_eq!(
        routes_of(&table, &[], log),
        "docs\t{\"section\":\"intro\"}\t\n\t\t\n"
    );
    // A `#` after white space is not a comment: the line is a (bad) pattern.
    let table = Table::new("indented", "/a\n  # not a comment\n");
    let out = rapidurl(
        &["parse", "--routes", table.path(), "--fields", "route"],
        LOG,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(&format!("{}:2:1: bad route pattern: ", table.path())),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn errors_of_path_and_relative_routes() {
    // A relative pattern that is not a path, without a base: the line, the column where
    // the pattern starts, and what to do.
    let table = Table::new("relative", "ok\t/a\nthing\tusers/:id\n");
    let out = rapidurl(
        &["parse", "--routes", table.path(), "--fields", "route"],
        LOG,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(&format!(
            "{}:2:7: bad route pattern: the pattern string has no protocol and no base URL \
             was given (relative pattern); start a path with `/`, or give --routes-base URL",
            table.path()
        )),
        "{}",
        text(&out.stderr)
    );
    // The same line with a base is fine.
    let out = rapidurl(
        &[
            "parse",
            "--routes",
            table.path(),
            "--routes-base",
            "https://example.com",
            "--fields",
            "route",
        ],
        LOG,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));

    // A bad path: the error's place within the pattern.
    let table = Table::new("bad-path", "/ok\n\nx\t/users/:id/:id\n");
    let out = rapidurl(&["stats", "--routes", table.path(), "--by", "route"], LOG);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(&format!(
            "{}:3:3: bad route pattern: duplicate group name `id` (in the pathname pattern, \
             at code point 11)",
            table.path()
        )),
        "{}",
        text(&out.stderr)
    );
    let table = Table::new("bad-regexp", "/ok\n/users/:id(\\d+\n");
    let out = rapidurl(
        &["parse", "--routes", table.path(), "--fields", "route"],
        LOG,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(&format!("{}:2:1: bad route pattern: ", table.path())),
        "{}",
        text(&out.stderr)
    );

    // A base that is not a URL, and a base without a table.
    let table = Table::new("base", "/a\n");
    let out = rapidurl(
        &[
            "parse",
            "--routes",
            table.path(),
            "--routes-base",
            "example.com",
            "--fields",
            "route",
        ],
        LOG,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--routes-base \"example.com\": not a valid URL"),
        "{}",
        text(&out.stderr)
    );
    let out = rapidurl(
        &[
            "parse",
            "--routes-base",
            "https://example.com",
            "--fields",
            "href",
        ],
        LOG,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("give --routes FILE too"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn help_shows_both_forms() {
    for command in ["parse", "stats"] {
        let out = rapidurl(&[command, "--help"], "");
        assert!(out.status.success());
        let help = text(&out.stdout);
        assert!(help.contains("--routes-base <URL>"), "{help}");
        assert!(help.contains("/users/:id"), "{help}");
        assert!(help.contains("https://example.com/users/:id"), "{help}");
    }
}

/// A route with a lookahead runs on the bounded backtracking interpreter: the line on
/// which it runs out of steps is an error row (its line named on stderr, the `error`
/// column says why), as a line that does not parse is; the other lines keep their routes.
#[test]
fn a_route_lookup_that_runs_out_of_steps_is_an_error_row() {
    let table = Table::new("stall", "word\t/w/:a((?=(?:a|a)*b)\\w*)\nany\t/*\n");
    let stall = format!("https://h.test/w/{}", "a".repeat(40));
    let log = format!("https://h.test/w/aab\n{stall}\nhttp://[::1\nhttps://h.test/x\n");
    let out = rapidurl(
        &[
            "parse",
            "--routes",
            table.path(),
            "--fields",
            "route,route_params",
        ],
        &log,
    );
    let stderr = text(&out.stderr);
    // The same exit status as for the line that does not parse alone.
    let invalid_only = rapidurl(&["parse", "--fields", "href"], "http://[::1\n");
    assert_eq!(out.status.code(), invalid_only.status.code(), "{stderr}");
    let limit = "route-match-limit: matching gave up after 1000000 steps of a regexp group \
                 with a backreference or a lookaround (the input is neither matched nor refused)";
    assert_eq!(
        text(&out.stdout),
        format!(
            "route\troute_params\terror\n\
             word\t{{\"a\":\"aab\"}}\t\n\
             \t\t{limit}\n\
             \t\tIPv6-unclosed at byte 7: the IPv6 address is missing its closing ']'\n\
             any\t{{\"pathname.0\":\"x\"}}\t\n"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("<stdin>:2:1: {limit}")),
        "{stderr}"
    );
    // stats --by route: the row counts among the invalid ones, not under a route.
    let out = rapidurl(&["stats", "--routes", table.path(), "--by", "route"], &log);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.starts_with("lines: 4\ninvalid: 2\n"), "{stdout}");
    assert!(stdout.contains("(2 counted)"), "{stdout}");
    // A table without backreferences and lookarounds looks nothing up twice, and the
    // same line simply has no route.
    let table = Table::new("plain", "word\t/w/:a(\\w*b)\n");
    let out = rapidurl(
        &["parse", "--routes", table.path(), "--fields", "route"],
        &stall,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "route\terror\n\t\n");
}
