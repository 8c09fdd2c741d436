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
