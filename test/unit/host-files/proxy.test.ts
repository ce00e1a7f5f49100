/**
 * The proxy types and the files written from them. The fuzz parses each generated file back as
 * apt (apt.conf(5): a quoted value ends at the next quote, no escapes) and systemd (systemd.exec(5):
 * Environment= words unquoted with C escapes, then `%` specifiers) read it: every value that passed
 * the parsers comes back unchanged and as exactly the statements written, so none escapes its
 * quoting. Not proven: the real apt and systemd parsers (the lab byte-check covers the files on a VM).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aptProxyConf, parseNoProxy, parseProxyUrl, proxyDropIn, systemdQuote, type ProxyUrl } from "../../../components/host-files";

const RUNS = { numRuns: 5000 };

/** apt.conf as apt reads these lines: `Name "value";`, the value up to the next quote. */
function parseApt(text: string): [string, string][] {
  if (text === "") return [];
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => {
      const m = /^([A-Za-z0-9:_./+-]+) "([^"]*)";$/.exec(line);
      expect(m, line).not.toBeNull();
      expect(m![2]).not.toMatch(/[\\\p{Cc}]/u);
      return [m![1], m![2]];
    });
}

/** One Environment= line as systemd reads it: quoted words, `\\` `\"` escapes, then `%%` → `%`. */
function parseEnvironment(line: string): string[] {
  expect(line.startsWith("Environment=")).toBe(true);
  const words: string[] = [];
  let i = "Environment=".length;
  while (i < line.length) {
    if (line[i] === " ") {
      i++;
      continue;
    }
    expect(line[i], line).toBe('"');
    let w = "";
    for (i++; line[i] !== '"'; i++) {
      expect(i < line.length, `unterminated: ${line}`).toBe(true);
      if (line[i] === "\\") {
        i++;
        expect(["\\", '"']).toContain(line[i]);
      }
      w += line[i];
    }
    i++;
    expect(i === line.length || line[i] === " ", line).toBe(true);
    // Specifiers: only `%%` may appear; any other would be expanded by systemd.
    expect(w.replace(/%%/g, "")).not.toContain("%");
    words.push(w.replace(/%%/g, "%"));
  }
  return words;
}

function parseDropIn(text: string): string[] {
  const lines = text.split("\n");
  expect(lines[0]).toBe("[Service]");
  expect(lines.at(-1)).toBe("");
  return lines.slice(1, -1).flatMap(parseEnvironment);
}

const proxy = (s: string) => {
  const r = parseProxyUrl(s);
  if (!("value" in r)) throw new Error(`${s}: ${r.reason}`);
  return r.value;
};

describe("the proxy files", () => {
  // The same text test/bats/k8s-node.bats and install-registry.bats send to the scripts.
  it("apt.conf as written; the drop-in with `%` doubled, both spellings, `$(id)` left as text", () => {
    const url = proxy("http://u:p%25$(id)@proxy:3128");
    expect(aptProxyConf({ httpProxy: url, httpsProxy: url })).toBe(
      'Acquire::http::Proxy "http://u:p%25$(id)@proxy:3128";\nAcquire::https::Proxy "http://u:p%25$(id)@proxy:3128";\n',
    );
    expect(proxyDropIn({ httpProxy: url, httpsProxy: url, noProxy: "localhost,10.10.0.0/24" })).toBe(
      [
        "[Service]",
        'Environment="HTTP_PROXY=http://u:p%%25$(id)@proxy:3128" "http_proxy=http://u:p%%25$(id)@proxy:3128"',
        'Environment="HTTPS_PROXY=http://u:p%%25$(id)@proxy:3128" "https_proxy=http://u:p%%25$(id)@proxy:3128"',
        'Environment="NO_PROXY=localhost,10.10.0.0/24" "no_proxy=localhost,10.10.0.0/24"',
        "",
      ].join("\n"),
    );
    const reg = proxy("http://user1:pa%25ss$(id)@host1:3128");
    expect(aptProxyConf({ httpProxy: reg })).toBe('Acquire::http::Proxy "http://user1:pa%25ss$(id)@host1:3128";\n');
    expect(proxyDropIn({ httpProxy: reg, noProxy: "10.0.0.0/8" })).toBe(
      '[Service]\nEnvironment="HTTP_PROXY=http://user1:pa%%25ss$(id)@host1:3128" "http_proxy=http://user1:pa%%25ss$(id)@host1:3128"\nEnvironment="NO_PROXY=10.0.0.0/8" "no_proxy=10.0.0.0/8"\n',
    );
  });

  it("the generators refuse what their language cannot hold, whatever the type says", () => {
    expect(() => aptProxyConf({ httpProxy: 'http://p"; X "' as ProxyUrl })).toThrow(/cannot be written to apt.conf/);
    expect(() => proxyDropIn({ noProxy: "a\nEnvironment=LD_PRELOAD=/x.so" })).toThrow(/control character/);
  });

  it("the issue's payloads are no proxy URL and no no_proxy", () => {
    expect(parseProxyUrl('http://p:3128"; APT::Update::Pre-Invoke {"id > F";}; Dummy "')).toHaveProperty("reason");
    expect(parseNoProxy('10.0.0.1" "LD_PRELOAD=/x.so')).toHaveProperty("reason");
  });
});

// Characters a URL may hold, the ones that mean something to apt, systemd or a shell weighted in.
const URL_CHAR = fc.constantFrom(..."abcXYZ019-._~:/?#[]@!$&()*+,;=%".split(""));
const HOSTILE = fc.constantFrom(..."\"'\\ \t\n\r\u0000\u007f%$`;{}<>|".split(""), "\u2028", "é", "%%", "%n", '\\"');

describe("fuzz: nothing that passes the parsers escapes its quoting", () => {
  const anyText = fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), fc.string({ unit: fc.oneof(URL_CHAR, HOSTILE), maxLength: 40 }));
  const urls = fc.oneof(
    { arbitrary: anyText, weight: 1 },
    {
      arbitrary: fc
        .tuple(
          fc.constantFrom("http", "https", "ftp"),
          fc.string({ unit: fc.oneof({ arbitrary: URL_CHAR, weight: 8 }, { arbitrary: HOSTILE, weight: 1 }), maxLength: 24 }),
          fc.domain(),
          fc.integer({ min: 0, max: 70000 }),
        )
        .map(([s, user, host, port]) => `${s}://${user}@${host}:${port}`),
      weight: 4,
    },
  );

  it("proxy URLs: accepted ones come back unchanged from apt.conf and the drop-in; the rest are refused", () => {
    let accepted = 0;
    fc.assert(
      fc.property(urls, (s) => {
        const r = parseProxyUrl(s);
        if ("reason" in r) {
          expect(r.reason).not.toContain(s.length > 3 ? s : "\u0000never");
          return;
        }
        accepted++;
        expect(s).not.toMatch(/["'\\\s\p{Cc}]/u);
        expect(parseApt(aptProxyConf({ httpProxy: r.value, httpsProxy: r.value }))).toEqual([
          ["Acquire::http::Proxy", s],
          ["Acquire::https::Proxy", s],
        ]);
        expect(parseDropIn(proxyDropIn({ httpProxy: r.value, httpsProxy: r.value }))).toEqual([
          `HTTP_PROXY=${s}`,
          `http_proxy=${s}`,
          `HTTPS_PROXY=${s}`,
          `https_proxy=${s}`,
        ]);
      }),
      RUNS,
    );
    // The property means something only if many cases got through.
    expect(accepted).toBeGreaterThan(500);
  });

  it("no_proxy lists: accepted ones come back as the same entries from the drop-in", () => {
    const token = fc.oneof(
      fc.domain(),
      fc.ipV4(),
      fc.ipV6(),
      fc.ipV4().map((a) => `${a}/24`),
      fc.string({ unit: fc.oneof(URL_CHAR, HOSTILE), maxLength: 12 }),
    );
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(token, { maxLength: 6 }), (tokens) => {
        const r = parseNoProxy(tokens.join(","));
        if ("reason" in r) return;
        accepted++;
        const joined = r.value.join(",");
        if (joined === "") return;
        expect(parseDropIn(proxyDropIn({ noProxy: joined }))).toEqual([`NO_PROXY=${joined}`, `no_proxy=${joined}`]);
        for (const t of r.value) expect(t).not.toMatch(/["'\\\s\p{Cc}%,]/u);
      }),
      RUNS,
    );
    expect(accepted).toBeGreaterThan(500);
  });

  it("systemdQuote on any text: one word that reads back as the text, or a refusal (control characters)", () => {
    fc.assert(
      fc.property(anyText, (s) => {
        let quoted: string;
        try {
          quoted = systemdQuote(`K=${s}`);
        } catch {
          expect(s).toMatch(/\p{Cc}/u);
          return;
        }
        expect(parseEnvironment(`Environment=${quoted}`)).toEqual([`K=${s}`]);
      }),
      RUNS,
    );
  });

  it("aptProxyConf on any text: the value reads back unchanged, or a refusal", () => {
    fc.assert(
      fc.property(anyText, (s) => {
        let text: string;
        try {
          text = aptProxyConf({ httpProxy: s as ProxyUrl });
        } catch {
          expect(s).toMatch(/["\\\p{Cc}]/u);
          return;
        }
        expect(parseApt(text)).toEqual(s === "" ? [] : [["Acquire::http::Proxy", s]]);
      }),
      RUNS,
    );
  });
});
