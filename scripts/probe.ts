// `npm run --silent probe -- parse <probe> <file>`: prints the normalised result as JSON.
import { isProbeId, probeIds } from "../probes/catalog";
import { parseAs, readOutput } from "./probe-parse";

const USAGE = `usage: npm run --silent probe -- parse <${probeIds.join("|")}> <file>   (file "-" reads standard input)`;

function fail(message: string): never {
  console.error(`probe: ${message}`);
  process.exit(2);
}

function main() {
  const [command, tool, file, ...extra] = process.argv.slice(2);
  if (command === "--help" || command === "help") {
    console.log(USAGE);
    return;
  }
  if (command !== "parse") fail(command ? `unknown command "${command}"; ${USAGE}` : USAGE);
  if (!tool || !isProbeId(tool)) fail(`unknown tool "${tool ?? ""}": choose one of ${probeIds.join(", ")}`);
  if (!file || extra.length > 0) fail(USAGE);
  let output: string;
  try {
    output = readOutput(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    fail(`cannot read ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code === "EACCES" ? "permission denied" : String(err)}`);
  }
  const parsed = parseAs(tool, output);
  if (!parsed.ok) fail(parsed.error.split("\n")[0] ?? parsed.error);
  // On stderr, so that stdout stays the JSON alone for pipes.
  if (parsed.result.format) console.error(`probe: read as ${parsed.result.format}`);
  if (parsed.runs.length > 1) console.error(`probe: ${parsed.runs.length} runs found (measurements carry run: 1…${parsed.runs.length})`);
  process.stdout.write(`${JSON.stringify(parsed.result, null, 2)}\n`);
}

main();
