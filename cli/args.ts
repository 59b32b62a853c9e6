import { parseArgs, type ParseArgsConfig } from "node:util";
import { usageError } from "./exit-codes";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** util.parseArgs with its errors turned into usage errors (exit 2) that name the command. */
export function parse<T extends NonNullable<ParseArgsConfig["options"]>>(command: string, argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: "boolean", short: "h" } }, allowPositionals, strict: true });
  } catch (err) {
    const message = (err as Error).message.replace(/\.? To specify a positional argument.*$/s, "").replace(/\.?$/, ".");
    throw usageError(`${command}: ${message} See \`probebook ${command} --help\`.`);
  }
}

export const connectionOptions = {
  server: { type: "string" },
  token: { type: "string" },
} as const;

export function runId(value: string, what = "run id"): string {
  if (!UUID.test(value)) throw usageError(`"${value}" is not a ${what} (a UUID such as 3f2c…-…, as \`probebook runs list\` prints).`);
  return value.toLowerCase();
}

export function positiveInt(value: string | undefined, name: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw usageError(`--${name} must be a whole number from 1 to ${max}, not "${value}".`);
  return n;
}

/** --param k=v: numbers, true/false, null and JSON arrays/objects are read as JSON, anything else as text. */
export function paramPairs(values: string[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of values ?? []) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw usageError(`--param takes key=value, not "${pair}".`);
    const key = pair.slice(0, eq).trim();
    const raw = pair.slice(eq + 1);
    let value: unknown = raw;
    if (/^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null|\[.*\]|\{.*\})$/s.test(raw.trim())) {
      try {
        value = JSON.parse(raw);
      } catch {
        throw usageError(`--param ${key}: "${raw}" looks like JSON but does not parse.`);
      }
    }
    out[key] = value;
  }
  return out;
}
