// fio's job-file format, read without fio: fio's HOWTO ("Job file format", HOWTO.rst of
// axboe/fio; fio.readthedocs.io) says it is "the classic ini file": `[name]` starts a job
// (`[global]` sets defaults for the jobs below it), then one parameter a line, `key=value` or a
// bare `key` (a boolean switched on, e.g. `time_based`), and a line whose first character is ';'
// or '#' is a comment. fio's own reader goes further (init.c __parse_jobs_ini → parse.c
// strip_blank_end): it cuts every line at its first ';' or '#', so "filename=a.tmp ; note" is
// a.tmp; this parser cuts the same way, so that it reads each line as fio will. A line starting
// with `include` pulls in another file; it is kept as an entry so that the validator can refuse
// it by name. Never throws: anything it cannot read is a problem with its line number.

export interface JobFileEntry {
  /** The option's name as written, lower-cased (fio's option names are case-insensitive). */
  key: string;
  /** null for a bare key. */
  value: string | null;
  line: number;
}

export interface JobFileSection {
  name: string;
  line: number;
  entries: JobFileEntry[];
}

export interface JobFileProblem {
  line: number;
  /** The option the problem is about; absent for a line that is not an option at all. */
  option?: string;
  reason: string;
}

export interface ParsedJobFile {
  sections: JobFileSection[];
  problems: JobFileProblem[];
}

const SECTION = /^\[([^\]]*)\]$/;
// fio's own option names: letters, digits, '_' and '-' (trigger-file, hugepage-size).
const KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;

export function parseJobFile(text: unknown): ParsedJobFile {
  const sections: JobFileSection[] = [];
  const problems: JobFileProblem[] = [];
  if (typeof text !== "string") return { sections, problems: [{ line: 0, reason: "a job file is text" }] };
  if (text.includes("\u0000")) return { sections, problems: [{ line: 0, reason: "a job file must not contain NUL bytes" }] };
  const lines = text.split(/\r\n|\n|\r/);
  let current: JobFileSection | null = null;
  lines.forEach((raw, i) => {
    const line = i + 1;
    const s = raw.replace(/[;#].*$/s, "").trim();
    if (s === "") return;
    const sec = SECTION.exec(s);
    if (sec) {
      current = { name: sec[1]!.trim(), line, entries: [] };
      sections.push(current);
      return;
    }
    if (s.startsWith("[")) {
      problems.push({ line, reason: `"${clip(s)}" is not a section header: a section is [name] on a line of its own` });
      return;
    }
    // fio takes every line that starts with "include" as its directive (strncmp in __parse_jobs_ini).
    const include = s.startsWith("include") ? [s, s.slice("include".length).replace(/^=/, "")] : null;
    const eq = s.indexOf("=");
    const key = (include ? "include" : eq < 0 ? s : s.slice(0, eq)).trim();
    const value = include ? include[1]!.trim() : eq < 0 ? null : s.slice(eq + 1).trim();
    if (!KEY.test(key)) {
      problems.push({ line, reason: `"${clip(s)}" is neither key=value nor a bare option name` });
      return;
    }
    if (!current) {
      problems.push({ line, option: key.toLowerCase(), reason: "an option before any [section]: fio needs [global] or a [job] first" });
      return;
    }
    (current as JobFileSection).entries.push({ key: key.toLowerCase(), value, line });
  });
  return { sections, problems };
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
