import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { probeIds } from "../probes/catalog";
import { parsePaste } from "../probes/paste";

const run = promisify(execFile);
const root = path.resolve(__dirname, "..");
const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [tsx, "scripts/probe.ts", ...args], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

// Fixtures that are tool failures (or dd's empty stdout) must be refused with a one-line error.
const REFUSED = /error|stdout\.txt$/;

function fixtures(): { tool: string; file: string }[] {
  // Every probe of the catalog: a new probe's fixtures are checked without touching this test.
  return probeIds.flatMap((tool) =>
    fs
      .readdirSync(path.join(root, "probes", tool, "fixtures"), { withFileTypes: true })
      .filter((d) => d.isFile() && d.name !== "README.md")
      .map((d) => ({ tool, file: path.join("probes", tool, "fixtures", d.name) })),
  );
}

describe("npm run probe -- parse", () => {
  it("reads every captured output of every probe, and refuses the failures", () => {
    // In process, through the same catalog call the CLI makes: a Node process per file would
    // spend minutes starting up for over a hundred fixtures.
    const all = fixtures();
    expect(all.length).toBeGreaterThan(60);
    for (const { tool, file } of all) {
      const parsed = parsePaste(tool, fs.readFileSync(path.join(root, file), "utf8"));
      if (REFUSED.test(file)) {
        expect(parsed.ok, file).toBe(false);
      } else {
        expect(parsed.ok, `${file}: ${parsed.ok ? "" : parsed.error}`).toBe(true);
        if (!parsed.ok) continue;
        expect(parsed.result.tool, file).toBe(tool);
        expect(parsed.result.measurements.length, file).toBeGreaterThan(0);
      }
    }
  });

  it("prints the normalised result of one output per probe, and a one-line error for a failure", async () => {
    const all = fixtures();
    const samples = [...probeIds.map((id) => all.find((f) => f.tool === id && !REFUSED.test(f.file))!), all.find((f) => REFUSED.test(f.file))!];
    for (const { tool, file } of samples) {
      const r = await cli("parse", tool, file);
      if (REFUSED.test(file)) {
        expect(r.code, file).toBe(2);
        expect(r.stderr.trim().split("\n"), file).toHaveLength(1);
        expect(r.stdout, file).toBe("");
      } else {
        expect(r.code, `${file}: ${r.stderr}`).toBe(0);
        const json = JSON.parse(r.stdout) as { tool: string; measurements: unknown[]; warnings: string[] };
        expect(json.tool, file).toBe(tool);
        expect(json.measurements.length, file).toBeGreaterThan(0);
      }
    }
  }, 120_000);

  it("reads a pasted session holding two runs and says so", async () => {
    const r = await cli("parse", "dd", "probes/dd/fixtures/paste-bash-time-session.txt");
    expect(r.stderr).toContain("probe: 2 runs found");
    const json = JSON.parse(r.stdout) as { measurements: { metric: string; value: number; dims: { run?: number } }[] };
    expect(json.measurements.filter((m) => m.metric === "seconds").map((m) => [m.dims.run, m.value])).toEqual([
      [1, 0.179999],
      [2, 0.0110644],
    ]);
  });

  it("prints dd's numbers exactly as the parser reads them", async () => {
    const r = await cli("parse", "dd", "probes/dd/fixtures/dd-write-direct.stderr.txt");
    const json = JSON.parse(r.stdout) as { measurements: { metric: string; value: number }[] };
    expect(json.measurements.find((m) => m.metric === "bytes")?.value).toBe(268435456);
  });

  it.each([
    ["dd", "probes/dd/fixtures/hand-dd-busybox.stderr.txt", "busybox dd"],
    ["dd", "probes/dd/fixtures/hand-dd-macos.stderr.txt", "BSD/macOS dd"],
    ["dd", "probes/dd/fixtures/gen-dd-de_DE-progress.stderr.txt", "coreutils dd (translated: de)"],
    ["fio", "probes/fio/fixtures/fio-3.33-randrw-libaio.txt", "fio text 3.x"],
    ["fio", "probes/fio/fixtures/hand-fio-2.2.10-randrw.txt", "fio text 2.x"],
    ["sar", "probes/sar/fixtures/sysstat/12.0.0/sadf-j.json", "sadf -j (JSON)"],
    ["sar", "probes/sar/fixtures/sysstat/12.0.0/sar-A.ja_JP.txt", "sar text (ja)"],
  ])("says which format it recognised: %s %s", async (tool, file, format) => {
    const r = await cli("parse", tool, file);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { format?: string }).format).toBe(format);
    expect(r.stderr).toContain(`probe: read as ${format}`);
  });

  it("refuses an unknown tool, an unreadable file and another tool's output with exit code 2", async () => {
    const unknown = await cli("parse", "bonnie", "probes/dd/fixtures/dd-write-direct.stderr.txt");
    expect(unknown).toMatchObject({ code: 2, stdout: "" });
    expect(unknown.stderr).toContain('unknown tool "bonnie"');
    const missing = await cli("parse", "sar", "/nonexistent/file");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such file");
    const wrong = await cli("parse", "iozone", "probes/sar/fixtures/sar-B.txt");
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/not iozone output/);
  });
});
