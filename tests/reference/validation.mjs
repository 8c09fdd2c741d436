// The reference side of tests/validation_reference.rs: the URL Standard's reference
// implementation (the npm package whatwg-url, version pinned in package.json) run on
// each input.
//
// Reads JSON lines {"input": string, "base": string | null} on stdin and writes one
// JSON line per input: {"base_ok": bool, "ok": bool, "errors": [name, ...], "valid": bool}.
// `base_ok` is false when the base itself does not parse (then the rest is absent).
//
// Install the package first: `npm ci --prefix tests/reference` (scripts/test-all.sh does).
import { createInterface } from "node:readline";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
let whatwg;
try {
  whatwg = require("whatwg-url");
} catch (e) {
  process.stderr.write(
    "the npm package whatwg-url is not installed: run `npm ci --prefix tests/reference`\n");
  process.exit(3);
}
const { parseURL, parseURLWithValidationErrors, isValidURLString } = whatwg;

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
for await (const line of lines) {
  if (line === "") {
    continue;
  }
  const { input, base } = JSON.parse(line);
  let baseURL = null;
  if (base !== null && base !== undefined) {
    baseURL = parseURL(base);
    if (baseURL === null) {
      out.push(JSON.stringify({ base_ok: false }));
      continue;
    }
  }
  const result = parseURLWithValidationErrors(input, { baseURL });
  out.push(JSON.stringify({
    base_ok: true,
    ok: result.url !== null,
    errors: result.validationErrors,
    valid: isValidURLString(input, { baseURL })
  }));
  if (out.length >= 4096) {
    process.stdout.write(out.join("\n") + "\n");
    out.length = 0;
  }
}
if (out.length > 0) {
  process.stdout.write(out.join("\n") + "\n");
}
