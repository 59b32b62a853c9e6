// Day discovery and dedupe on real sysstat files: a committed day made by sadc, the same day
// under both of sysstat's names, and a file sadc writes now (today, still growing), each read by
// this machine's own sadf.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HistoryDayRequest } from "../protocol/schemas";
import { discoverSaFiles, HostHistory, runSadf, type HistoryDeps } from "./history";

const fixture = path.join(__dirname, "..", "sar", "fixtures", "history", "sa-busy");
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

let root: string;
let dir: string;
let state: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "pb-history-"));
  dir = path.join(root, "sa");
  state = path.join(root, "state");
  fs.mkdirSync(dir);
  fs.mkdirSync(state);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A server stand-in with the server's rule: one run per day, a repeat answers the stored one. */
function recordingServer() {
  const days = new Map<string, string>();
  const bodies: HistoryDayRequest[] = [];
  let failNext = 0;
  const upload: HistoryDeps["upload"] = async (body) => {
    if (failNext > 0) {
      failNext--;
      throw Object.assign(new Error("cannot reach the server"), { kind: "network" });
    }
    bodies.push(body);
    const known = days.get(body.day);
    if (known) return { runId: known, created: false };
    const runId = `00000000-0000-4000-8000-${String(days.size + 1).padStart(12, "0")}`;
    days.set(body.day, runId);
    return { runId, created: true };
  };
  return { upload, bodies, days, failOnce: () => void (failNext = 1) };
}

function countingSadf() {
  const files: string[] = [];
  return { files, sadf: (file: string) => (files.push(file), runSadf(file)) };
}

const after = (day: string) => () => new Date(`${day}T12:00:00`);

describe("discoverSaFiles", () => {
  it("lists regular saDD and saYYYYMMDD files, not sar text reports, links or missing dirs", () => {
    fs.copyFileSync(fixture, path.join(dir, "sa23"));
    fs.copyFileSync(fixture, path.join(dir, "sa20261123"));
    fs.writeFileSync(path.join(dir, "sar23"), "Linux … text report\n");
    fs.symlinkSync("/etc/passwd", path.join(dir, "sa22"));
    fs.mkdirSync(path.join(dir, "sa21"));
    const found = discoverSaFiles([dir, path.join(root, "missing")]);
    expect(found.map((f) => path.basename(f.path))).toEqual(["sa20261123", "sa23"]);
    expect(found[0]!.size).toBe(fs.statSync(fixture).size);
  });
});

describe("HostHistory", () => {
  it("uploads a finished day once, whichever of its names, and a restart neither re-reads nor re-sends it", async () => {
    fs.copyFileSync(fixture, path.join(dir, "sa23"));
    fs.copyFileSync(fixture, path.join(dir, "sa20261123"));
    const server = recordingServer();
    const reader = countingSadf();
    const first = await new HostHistory([dir], state, { log: quiet, upload: server.upload, sadf: reader.sadf, now: after("2026-11-24") }).check();
    expect(first).toEqual({ uploaded: ["2026-11-23"], known: [], unfinished: [], failed: [] });
    expect(server.bodies).toHaveLength(1);
    expect(server.bodies[0]!.day).toBe("2026-11-23");
    expect(server.bodies[0]!.file).toBe(path.join(dir, "sa20261123"));
    expect(server.bodies[0]!.output).toContain('"file-date": "2026-11-23"');
    expect(reader.files).toHaveLength(2);

    const again = countingSadf();
    const restarted = await new HostHistory([dir], state, { log: quiet, upload: server.upload, sadf: again.sadf, now: after("2026-11-25") }).check();
    expect(restarted).toEqual({ uploaded: [], known: [], unfinished: [], failed: [] });
    expect(server.bodies).toHaveLength(1);
    expect(again.files).toEqual([]);
    const saved = JSON.parse(fs.readFileSync(path.join(state, "history-state.json"), "utf8"));
    expect(saved.days["2026-11-23"].runId).toBe(server.days.get("2026-11-23"));
  });

  it("a lost state file costs one more upload that the server answers with the stored run", async () => {
    fs.copyFileSync(fixture, path.join(dir, "sa23"));
    const server = recordingServer();
    const deps = { log: quiet, upload: server.upload, now: after("2026-11-24") };
    await new HostHistory([dir], state, deps).check();
    fs.rmSync(path.join(state, "history-state.json"));
    const r = await new HostHistory([dir], state, deps).check();
    expect(r.known).toEqual(["2026-11-23"]);
    expect(server.days.size).toBe(1);
  });

  it("leaves today's growing file alone until the day is over", async () => {
    // A file sadc writes now carries today's date, like /var/log/sysstat/saDD during the day.
    const today = path.join(dir, "sa99");
    execFileSync("/usr/lib/sysstat/sadc", ["-S", "DISK", "1", "2", today]);
    const server = recordingServer();
    const now = new Date();
    const r = await new HostHistory([dir], state, { log: quiet, upload: server.upload, now: () => now }).check();
    expect(r.unfinished).toEqual([today]);
    expect(server.bodies).toHaveLength(0);

    const tomorrow = new Date(now.getTime() + 24 * 3600 * 1000);
    const next = await new HostHistory([dir], state, { log: quiet, upload: server.upload, now: () => tomorrow }).check();
    expect(next.uploaded).toHaveLength(1);
    expect(server.bodies[0]!.file).toBe(today);
  });

  it("retries a failed upload at the next check", async () => {
    fs.copyFileSync(fixture, path.join(dir, "sa23"));
    const server = recordingServer();
    server.failOnce();
    const history = new HostHistory([dir], state, { log: quiet, upload: server.upload, now: after("2026-11-24") });
    expect((await history.check()).failed).toEqual([path.join(dir, "sa23")]);
    expect((await history.check()).uploaded).toEqual(["2026-11-23"]);
  });

  it("a file sadf cannot read is reported, not uploaded", async () => {
    fs.writeFileSync(path.join(dir, "sa05"), "not a sysstat file\n");
    const server = recordingServer();
    const r = await new HostHistory([dir], state, { log: quiet, upload: server.upload, now: after("2026-11-24") }).check();
    expect(r.failed).toEqual([path.join(dir, "sa05")]);
    expect(server.bodies).toHaveLength(0);
  });
});
