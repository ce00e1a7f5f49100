// The process list during one integration file, for the canary scan (canary-watch.ts): every
// 200 ms, the command line of every process (/proc/<pid>/cmdline). Distinct command lines are kept
// in memory only (they are other users' too, on a shared machine), and matched against the secret
// forms the parent sends over IPC; at "finish" it answers with the matches (never a command line)
// and exits. It exits too when the parent goes away.
import { readdirSync, readFileSync } from "node:fs";

const intervalMs = Number(process.argv[2] ?? "200");
const seen = new Map(); // command line -> first pid
let needles = []; // { purpose, form, needle }
const hits = new Map(); // `${purpose}|${form}` -> { purpose, form, pid, argv0 }

function match(line, pid) {
  for (const n of needles) {
    const key = `${n.purpose}|${n.form}`;
    if (!hits.has(key) && line.includes(n.needle)) hits.set(key, { purpose: n.purpose, form: n.form, pid, argv0: line.split("\0")[0] });
  }
}

function sample() {
  let pids;
  try {
    pids = readdirSync("/proc");
  } catch {
    return;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    let raw;
    try {
      raw = readFileSync(`/proc/${pid}/cmdline`);
    } catch {
      continue;
    }
    if (raw.length === 0) continue;
    const line = raw.toString("utf8");
    if (seen.has(line)) continue;
    seen.set(line, pid);
    match(line, pid);
  }
}

process.on("message", (m) => {
  if (m.type === "needles") {
    needles = m.needles;
    // A secret registered late (the lab's token, once the lab is up) is looked for in every command line seen before too.
    for (const [line, pid] of seen) match(line, pid);
  } else if (m.type === "finish") {
    sample();
    process.send(
      {
        type: "result",
        commandLines: seen.size,
        hits: [...hits.values()].map(({ purpose, form, pid, argv0 }) => ({ purpose, form, pid, argv0: argv0.split("/").pop() })),
      },
      () => process.exit(0),
    );
  }
});
process.on("disconnect", () => process.exit(0));
sample();
setInterval(sample, intervalMs);
