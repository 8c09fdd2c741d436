//! Builds the built-in public suffix table (`src/psl/table.rs`) from the `psl` crate's
//! `data/rules.txt`, the list its compiled matcher was generated from, so that the
//! repository holds no copy of the list.
//!
//! A build script cannot see where a dependency's files are, so this one takes the path
//! in `RAPIDURL_PSL_RULES`, or looks for the `psl` package beside its own (a registry's
//! `src/<index>/psl-<version>/`, `cargo vendor`'s `vendor/psl/` or `vendor/psl-<version>/`:
//! no cargo to run, so offline, vendored and read-only builds find it), and only then asks
//! cargo (`cargo metadata --offline`, on this package's manifest with its `Cargo.lock`,
//! else on a throw-away manifest in `OUT_DIR` that depends on `psl` alone). The file has
//! no sections; each rule's section, and the file itself, are checked against the `psl`
//! crate's matcher (a build-dependency of the same version, and this script runs again
//! when it changes): every rule must give, on a host made from it, the suffix and section
//! the matcher gives, so a file of another version is passed over. The build fails,
//! saying why, when no file of that version is found: there is no other implementation
//! to fall back to. `rapidurl::psl::BUILTIN_LIST_VERSION` names the version built in.
//!
//! Without the feature `psl` (which also brings the `psl` build-dependency) there is no
//! table to build, and the script does nothing.

#[cfg(feature = "psl")]
#[allow(dead_code)]
#[path = "src/psl/table.rs"]
mod table;

#[cfg(feature = "psl")]
#[path = "src/host/punycode.rs"]
mod punycode;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // Without the feature there is nothing to build (and no `psl` crate to build it with).
    #[cfg(feature = "psl")]
    if std::env::var_os("CARGO_FEATURE_PSL").is_some() {
        suffix_table::main();
    }
}

/// The public suffix table.
#[cfg(feature = "psl")]
mod suffix_table {
    use psl::Psl;
    use std::env;
    use std::fmt::Write as _;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    use super::{punycode, table};

    /// Builds `OUT_DIR/psl_table.rs`, or panics saying why it cannot.
    pub(super) fn main() {
        println!("cargo:rerun-if-changed=src/psl/table.rs");
        println!("cargo:rerun-if-changed=src/host/punycode.rs");
        println!("cargo:rerun-if-env-changed=RAPIDURL_PSL_RULES");
        let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
        let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
        let mut why = Vec::new();
        let built = match env::var_os("RAPIDURL_PSL_RULES") {
            Some(path) => {
                let named = vec![("(RAPIDURL_PSL_RULES)".to_owned(), PathBuf::from(path))];
                first_built(named, &mut why)
            }
            // `cargo metadata` only when no package beside this one is the linked version.
            None => first_built(siblings(&manifest_dir, &mut why), &mut why).or_else(|| {
                first_built(from_metadata(&out_dir, &manifest_dir, &mut why), &mut why)
            }),
        };
        let Some((version, path, table, rules)) = built else {
            panic!(
                "rapidurl: no `data/rules.txt` of the `psl` crate this build links was found \
                 to build the public suffix table from ({}); set RAPIDURL_PSL_RULES to that \
                 file",
                why.join("; ")
            );
        };
        println!("cargo:rerun-if-changed={}", path.display());
        let code = generate(&table, &version, rules);
        std::fs::write(out_dir.join("psl_table.rs"), code).expect("OUT_DIR is writable");
    }

    /// The first of `candidates` (a `psl` version and its `data/rules.txt`) whose file
    /// builds a table that agrees with the linked matcher, with that table and its number
    /// of rules; why each one before it did not, in `why`.
    fn first_built(
        candidates: Vec<(String, PathBuf)>,
        why: &mut Vec<String>,
    ) -> Option<(String, PathBuf, table::OwnedTable, usize)> {
        for (version, path) in candidates {
            // A panic of the builder is reported with the other reasons.
            let built = std::fs::read_to_string(&path)
                .map_err(|e| e.to_string())
                .and_then(|text| {
                    std::panic::catch_unwind(|| build(&text))
                        .unwrap_or_else(|_| Err("the table's builder panicked".to_owned()))
                });
            match built {
                Ok((table, rules)) => return Some((version, path, table, rules)),
                Err(e) => why.push(format!("{}: {e}", path.display())),
            }
        }
        None
    }

    /// The `psl` 2.x packages beside this one, newest first, found without running cargo
    /// (which offline, vendored and read-only builds may not be able to do): cargo unpacks
    /// every package of a registry into one folder (`~/.cargo/registry/src/<index>/`, as
    /// `<name>-<version>/`), and `cargo vendor` puts packages side by side (`vendor/<name>/`,
    /// or `vendor/<name>-<version>/` when it keeps more than one version of a name). Each
    /// is checked against the linked matcher, so the linked version is the one used (or
    /// one whose list is the same); a package that is not in such a folder (a checkout of
    /// this repository) has none, and `cargo metadata` is asked.
    fn siblings(manifest_dir: &Path, why: &mut Vec<String>) -> Vec<(String, PathBuf)> {
        let Some(parent) = manifest_dir.parent() else {
            return Vec::new();
        };
        let mut found = Vec::new();
        for entry in std::fs::read_dir(parent).into_iter().flatten().flatten() {
            let folder = entry.file_name();
            let folder = folder.to_string_lossy();
            let versioned = folder
                .strip_prefix("psl-")
                .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()));
            if folder != "psl" && !versioned {
                continue;
            }
            let dir = entry.path();
            let Some((name, version)) = package_name_version(&dir.join("Cargo.toml")) else {
                continue;
            };
            if name == "psl" && version.starts_with("2.") {
                found.push((version, dir.join("data").join("rules.txt")));
            }
        }
        if found.is_empty() {
            why.push(format!(
                "no psl 2.x package beside this one in {}",
                parent.display()
            ));
        }
        found.sort_by_cached_key(|(version, _)| std::cmp::Reverse(version_key(version)));
        found
    }

    /// The `name` and `version` of a package's `Cargo.toml` (a published one, as cargo
    /// normalizes it: `key = "value"` lines under `[package]`).
    fn package_name_version(manifest: &Path) -> Option<(String, String)> {
        let text = std::fs::read_to_string(manifest).ok()?;
        let (mut name, mut version) = (None, None);
        let mut in_package = false;
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                in_package = line == "[package]";
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            let value = value.trim().trim_matches('"').to_owned();
            match key.trim() {
                "name" if in_package => name = Some(value),
                "version" if in_package => version = Some(value),
                _ => {}
            }
        }
        Some((name?, version?))
    }

    /// A version's numbers (`2.1.247` → `[2, 1, 247]`), for ordering; a pre-release or build
    /// suffix is left out.
    fn version_key(version: &str) -> Vec<u64> {
        let core = version.split(['-', '+']).next().unwrap_or("");
        core.split('.').map(|n| n.parse().unwrap_or(0)).collect()
    }

    /// Where `data/rules.txt` of the `psl` crate may be, with that crate's version, as
    /// `cargo metadata` names them (the one that agrees with the matcher is used).
    fn from_metadata(
        out_dir: &Path,
        manifest_dir: &Path,
        why: &mut Vec<String>,
    ) -> Vec<(String, PathBuf)> {
        let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut found: Vec<(String, PathBuf)> = Vec::new();
        let own = manifest_dir.join("Cargo.toml");
        match metadata(&cargo, &own, &["--locked"]) {
            Ok(f) => found.extend(f),
            Err(e) => {
                why.push(format!("cargo metadata on {}: {e}", own.display()));
                // A manifest of our own, depending on psl alone, resolved from what cargo
                // has downloaded (this package's own may need dev-dependencies it lacks).
                let dir = out_dir.join("psl-probe");
                let probe = dir.join("Cargo.toml");
                let text = "[package]\nname = \"rapidurl-psl-probe\"\nversion = \"0.0.0\"\n\
                            edition = \"2021\"\n[lib]\npath = \"lib.rs\"\n[dependencies]\n\
                            psl = { version = \"2.1\", default-features = false }\n[workspace]\n";
                let written = std::fs::create_dir_all(&dir)
                    .and_then(|()| std::fs::write(&probe, text))
                    .and_then(|()| std::fs::write(dir.join("lib.rs"), ""));
                match written
                    .map_err(|e| e.to_string())
                    .and_then(|()| metadata(&cargo, &probe, &[]))
                {
                    Ok(f) => found.extend(f),
                    Err(e) => why.push(format!("cargo metadata on {}: {e}", probe.display())),
                }
            }
        }
        if found.is_empty() {
            why.push("no psl package found by cargo metadata".to_owned());
        }
        found
    }

    /// `cargo metadata --offline` on `manifest`: the version and `data/rules.txt` of every
    /// `psl` 2.x package.
    fn metadata(
        cargo: &std::ffi::OsStr,
        manifest: &Path,
        extra: &[&str],
    ) -> Result<Vec<(String, PathBuf)>, String> {
        let out = Command::new(cargo)
            .args(["metadata", "--format-version", "1", "--offline"])
            .args(extra)
            .arg("--manifest-path")
            .arg(manifest)
            .env("CARGO_NET_OFFLINE", "true")
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            return Err(err
                .lines()
                .find(|l| l.starts_with("error"))
                .unwrap_or("failed")
                .to_owned());
        }
        let text = String::from_utf8(out.stdout).map_err(|e| e.to_string())?;
        let json = Json::parse(&text).ok_or("unreadable output")?;
        let mut found = Vec::new();
        for package in json.get("packages").map(Json::items).unwrap_or_default() {
            let (Some(name), Some(version), Some(manifest)) = (
                package.get("name").and_then(Json::str),
                package.get("version").and_then(Json::str),
                package.get("manifest_path").and_then(Json::str),
            ) else {
                continue;
            };
            if name == "psl" && version.starts_with("2.") {
                let rules = Path::new(manifest).with_file_name("data").join("rules.txt");
                found.push((version.to_owned(), rules));
            }
        }
        if found.is_empty() {
            return Err("no psl package in the output".to_owned());
        }
        Ok(found)
    }

    /// A rule of `rules.txt`, in ASCII: its labels from the right (`*` for a wildcard) and
    /// whether it is an exception.
    struct Rule {
        labels: Vec<String>,
        exception: bool,
    }

    impl Rule {
        /// A host the rule matches, and the length of the public suffix it gives there.
        fn probe(&self) -> (String, usize) {
            let host: Vec<&str> = self
                .labels
                .iter()
                .rev()
                .map(|l| {
                    if l == "*" {
                        "rapidurl-probe"
                    } else {
                        l.as_str()
                    }
                })
                .collect();
            let host = host.join(".");
            let len = if self.exception {
                host.len() - host.find('.').expect("two labels") - 1
            } else {
                host.len()
            };
            (host, len)
        }
    }

    fn psl_find(host: &str) -> (usize, u8) {
        let info = psl::List.find(host.rsplit('.').map(str::as_bytes));
        let kind = match info.typ {
            None => 0,
            Some(psl::Type::Icann) => 1,
            Some(psl::Type::Private) => 2,
        };
        (info.len, kind)
    }

    fn table_find(t: &table::Table<'_>, host: &str) -> (usize, u8) {
        let found = t.find(host.as_bytes(), table::RULES | table::EXCEPTIONS);
        let kind = match found.flag {
            0 => 0,
            f if f & table::ICANN != 0 => 1,
            _ => 2,
        };
        (host.len() - found.start, kind)
    }

    /// Reads `rules.txt`, takes each rule's section from the `psl` crate's matcher, builds
    /// the table and checks it against the matcher on hosts made from every rule.
    fn build(text: &str) -> Result<(table::OwnedTable, usize), String> {
        let mut rules = Vec::new();
        for line in text.lines() {
            let Some(rule) = line.split_whitespace().next() else {
                continue;
            };
            if rule.starts_with("//") {
                continue;
            }
            let (exception, body) = match rule.strip_prefix('!') {
                Some(body) => (true, body),
                None => (false, rule),
            };
            let mut labels = Vec::new();
            for label in body.rsplit('.') {
                let ascii = to_ascii(label).ok_or_else(|| format!("rule {rule:?}"))?;
                if ascii.is_empty() || ascii.len() > table::MAX_LABEL {
                    return Err(format!("rule {rule:?}"));
                }
                labels.push(ascii);
            }
            rules.push(Rule { labels, exception });
        }
        if rules.len() < 1000 {
            return Err(format!("only {} rules", rules.len()));
        }
        let mut builder = table::Builder::new();
        for rule in &rules {
            let (host, len) = rule.probe();
            let (theirs, kind) = psl_find(&host);
            if theirs != len || kind == 0 {
                return Err(format!(
                    "the psl crate gives {host:?} a suffix of {theirs} bytes, not {len}: \
                     another version of the list"
                ));
            }
            let flag = match (kind, rule.exception) {
                (1, false) => table::ICANN_RULE,
                (1, true) => table::ICANN_EXCEPTION,
                (_, false) => table::PRIVATE_RULE,
                (_, true) => table::PRIVATE_EXCEPTION,
            };
            builder.add(rule.labels.iter().map(String::as_bytes), flag);
        }
        let owned = builder.finish().map_err(|e| format!("{e:?}"))?;
        let t = owned.view();
        for rule in &rules {
            let (host, _) = rule.probe();
            for host in [host.clone(), format!("rapidurl-probe.{host}")] {
                let (ours, theirs) = (table_find(&t, &host), psl_find(&host));
                if ours != theirs {
                    return Err(format!(
                        "on {host:?} the table gives {ours:?}, the psl crate {theirs:?}"
                    ));
                }
            }
        }
        Ok((owned, builder.rule_count()))
    }

    /// The table as Rust source: static arrays, `TABLE` (a constant, whose slices' lengths
    /// the compiler knows) and `TABLE_AT` (the same in memory), `VERSION`, `RULES`.
    fn generate(t: &table::OwnedTable, version: &str, rules: usize) -> String {
        let mut code = String::new();
        let _ = writeln!(
            code,
            "// Generated by build.rs from the psl crate's data/rules.txt."
        );
        let _ = writeln!(code, "pub(super) const VERSION: &str = {version:?};");
        let _ = writeln!(
            code,
            "#[allow(dead_code)]\npub(super) const RULES: usize = {rules};"
        );
        for (name, pairs) in [("SLOTS", &t.slots), ("NAMES", &t.names)] {
            let _ = write!(code, "static {name}: [[u64; 2]; {}] = [", pairs.len());
            for (i, [a, b]) in pairs.iter().enumerate() {
                if i % 4 == 0 {
                    code.push('\n');
                }
                let _ = write!(code, "[{a:#x},{b:#x}],");
            }
            code.push_str("];\n");
        }
        let _ = write!(code, "static PILOTS: [u32; {}] = [", t.pilots.len());
        for (i, p) in t.pilots.iter().enumerate() {
            if i % 16 == 0 {
                code.push('\n');
            }
            let _ = write!(code, "{p},");
        }
        for (name, words) in [
            ("FILTER", &t.filter[..]),
            ("PAIRS", &t.pairs[..]),
            ("WILD", &t.wild[..]),
            ("TRIPLES", &t.triples[..]),
        ] {
            let _ = write!(code, "];\nstatic {name}: [u64; {}] = [", words.len());
            for (i, w) in words.iter().enumerate() {
                if i % 8 == 0 {
                    code.push('\n');
                }
                let _ = write!(code, "{w:#x},");
            }
        }
        let _ = write!(code, "];\nstatic TAILS: [u8; {}] = *b\"", t.tails.len());
        for &b in &t.tails {
            code.push(char::from(b));
        }
        let _ = writeln!(
            code,
            "\";\npub(super) const TABLE: Table<'static> = Table {{ slots: &SLOTS, pilots: &PILOTS, \
             tails: &TAILS, filter: &FILTER, pairs: &PAIRS, wild: &WILD, triples: &TRIPLES, names: &NAMES, seed: {:#x}, root_flags: {} }};\n\
             pub(super) static TABLE_AT: Table<'static> = TABLE;",
            t.seed, t.root_flags
        );
        code
    }

    /// A label in ASCII: lower case if it is ASCII, else `xn--` and its Punycode (RFC 3492).
    /// The list's Unicode rules are in the form UTS #46 keeps, so this is their ASCII form;
    /// the check against the `psl` crate catches any that are not.
    fn to_ascii(label: &str) -> Option<String> {
        if label.is_ascii() {
            return Some(label.to_ascii_lowercase());
        }
        let chars: Vec<char> = label.chars().collect();
        let mut out = String::from("xn--");
        punycode::encode(&chars, |c| out.push(c))?;
        Some(out)
    }

    /// Just enough JSON for `cargo metadata`'s output.
    enum Json {
        Null,
        Bool,
        Num,
        Str(String),
        Arr(Vec<Json>),
        Obj(Vec<(String, Json)>),
    }

    impl Json {
        fn parse(text: &str) -> Option<Json> {
            let mut p = Parser {
                b: text.as_bytes(),
                i: 0,
            };
            p.value()
        }

        fn get(&self, key: &str) -> Option<&Json> {
            match self {
                Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
                _ => None,
            }
        }

        fn items(&self) -> Vec<&Json> {
            match self {
                Json::Arr(items) => items.iter().collect(),
                _ => Vec::new(),
            }
        }

        fn str(&self) -> Option<&str> {
            match self {
                Json::Str(s) => Some(s),
                _ => None,
            }
        }
    }

    struct Parser<'a> {
        b: &'a [u8],
        i: usize,
    }

    impl Parser<'_> {
        fn ws(&mut self) {
            while self.b.get(self.i).is_some_and(u8::is_ascii_whitespace) {
                self.i += 1;
            }
        }

        fn eat(&mut self, c: u8) -> bool {
            self.ws();
            let ok = self.b.get(self.i) == Some(&c);
            self.i += usize::from(ok);
            ok
        }

        fn value(&mut self) -> Option<Json> {
            self.ws();
            match *self.b.get(self.i)? {
                b'{' => {
                    self.i += 1;
                    let mut fields = Vec::new();
                    if self.eat(b'}') {
                        return Some(Json::Obj(fields));
                    }
                    loop {
                        self.ws();
                        let Json::Str(key) = self.string()? else {
                            return None;
                        };
                        if !self.eat(b':') {
                            return None;
                        }
                        fields.push((key, self.value()?));
                        if self.eat(b'}') {
                            return Some(Json::Obj(fields));
                        }
                        if !self.eat(b',') {
                            return None;
                        }
                    }
                }
                b'[' => {
                    self.i += 1;
                    let mut items = Vec::new();
                    if self.eat(b']') {
                        return Some(Json::Arr(items));
                    }
                    loop {
                        items.push(self.value()?);
                        if self.eat(b']') {
                            return Some(Json::Arr(items));
                        }
                        if !self.eat(b',') {
                            return None;
                        }
                    }
                }
                b'"' => self.string(),
                b't' | b'f' | b'n' => {
                    let word = self.b[self.i..]
                        .iter()
                        .take_while(|c| c.is_ascii_alphabetic())
                        .count();
                    let v = match &self.b[self.i..self.i + word] {
                        b"true" | b"false" => Json::Bool,
                        b"null" => Json::Null,
                        _ => return None,
                    };
                    self.i += word;
                    Some(v)
                }
                _ => {
                    let len = self.b[self.i..]
                        .iter()
                        .take_while(|c| c.is_ascii_digit() || b"+-.eE".contains(c))
                        .count();
                    if len == 0 {
                        return None;
                    }
                    self.i += len;
                    Some(Json::Num)
                }
            }
        }

        fn string(&mut self) -> Option<Json> {
            if self.b.get(self.i) != Some(&b'"') {
                return None;
            }
            self.i += 1;
            let mut out = Vec::new();
            loop {
                let c = *self.b.get(self.i)?;
                self.i += 1;
                match c {
                    b'"' => return String::from_utf8(out).ok().map(Json::Str),
                    b'\\' => {
                        let e = *self.b.get(self.i)?;
                        self.i += 1;
                        match e {
                            b'n' => out.push(b'\n'),
                            b't' => out.push(b'\t'),
                            b'r' => out.push(b'\r'),
                            b'b' => out.push(8),
                            b'f' => out.push(12),
                            b'u' => {
                                let hex =
                                    std::str::from_utf8(self.b.get(self.i..self.i + 4)?).ok()?;
                                self.i += 4;
                                let unit = u32::from_str_radix(hex, 16).ok()?;
                                // Paths with surrogate pairs are not ours to find.
                                let c = char::from_u32(unit).unwrap_or('\u{FFFD}');
                                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                            }
                            other => out.push(other),
                        }
                    }
                    _ => out.push(c),
                }
            }
        }
    }
}
