// The host side of experiments outside any one run: at start, revert what a killed agent left
// changed (tunables journal) or mounted (lab journal); and the lab and tunables parts of the
// capabilities, so the host page can show what this agent may do and what is changed right now.
import { statfs } from "node:fs/promises";
import { availableLabFs, Lab } from "../lab/lab";
import { describeLabDevices } from "../lab/lab-device";
import { LabJournal } from "../lab/lab-journal";
import { diskOfPath } from "../profile/block-device";
import type { Capabilities, SetupReport } from "../protocol/schemas";
import { TUNABLES } from "../tunables/catalogue";
import { TunableController } from "../tunables/controller";
import { DROP_CACHES } from "./arm-setup";
import type { Logger } from "./logger";

export interface ExperimentHostConfig {
  stateDir: string;
  labDir: string | null;
  labDevices?: readonly string[];
  allowTunables: readonly string[];
  allowDirs: readonly string[];
}

const where = (name: string, device: string | null) => (device ? `${name} (${device})` : name);

export interface Recovery {
  restored: number;
  problems: string[];
  /** Per interrupted run: what its arm had changed and what this start undid, for its finish. */
  setups: Map<string, SetupReport>;
}

/**
 * Before the first claim: puts back every setting the tunables journal lists and takes down
 * every lab file system the lab journal lists, one log line each. What fails stays in its
 * journal (and shows in the capabilities as changed) for the next start.
 */
export async function recoverHost(config: ExperimentHostConfig, log: Logger): Promise<Recovery> {
  const problems: string[] = [];
  const setups = new Map<string, SetupReport>();
  const reportOf = (runId: string): SetupReport => {
    const r = setups.get(runId) ?? { lab: null, tunables: [], droppedCaches: false, error: null, cleanupError: null };
    setups.set(runId, r);
    return r;
  };
  const problem = (p: string, runId: string | undefined) => {
    problems.push(p);
    log.error(p);
    if (runId) {
      const r = reportOf(runId);
      r.cleanupError = [r.cleanupError, p].filter(Boolean).join("; ").slice(0, 2000);
    }
  };
  let restored = 0;
  // Restoring needs no --allow-tunable: an earlier start with other flags may have changed it.
  const controller = new TunableController({ stateDir: config.stateDir, allowed: new Set() });
  for (const o of await controller.restoreAll()) {
    if (o.runId) reportOf(o.runId).tunables.push({ name: o.name, device: o.device, from: o.original ?? "", to: o.value ?? "", restored: o.ok });
    if (o.ok) {
      restored++;
      log.info(`restored ${where(o.name, o.device)} to ${o.restored}: an earlier agent process changed it and did not put it back`);
    } else {
      problem(`could not restore ${where(o.name, o.device)}: ${o.error}; it stays in the journal`, o.runId);
    }
  }
  const journal = new LabJournal(config.stateDir);
  const lab = new Lab(config.labDir ?? config.stateDir, config.stateDir);
  for (const entry of journal.entries()) {
    const left = await lab.destroy(entry);
    const m = entry.mounted;
    if (entry.runId && m) {
      const { fsType, mkfsCommand, mountOptions, driver, sizeBytes, kind, dio, dioReason, device } = m;
      reportOf(entry.runId).lab = {
        fsType,
        mkfsCommand,
        mountOptions,
        loopDevice: entry.loopDevice ?? "",
        driver,
        imageBytes: sizeBytes,
        removed: left.length === 0,
        ...(kind ? { kind, dio, dioReason, device } : {}),
      };
    }
    if (left.length === 0) {
      restored++;
      log.info(`removed the lab file system ${entry.home}${entry.loopDevice ? ` (${entry.loopDevice})` : ""} an earlier agent process left behind`);
    } else {
      problem(`could not remove the lab file system ${entry.home}: ${left.join("; ")}; it stays in the journal`, entry.runId);
    }
  }
  return { restored, problems, setups };
}

/** The `lab` and `tunables` parts of the capabilities, read now. */
export async function experimentCapabilities(config: ExperimentHostConfig): Promise<Pick<Capabilities, "lab" | "tunables">> {
  const controller = new TunableController({ stateDir: config.stateDir, allowed: new Set(config.allowTunables) });
  const changed = controller.changed();
  const disks = new Set<string>();
  for (const dir of config.allowDirs) {
    const disk = await diskOfPath("/sys", dir, null).catch(() => null);
    if (disk) disks.add(disk);
  }
  // A device left changed (a failed restore on a loop device) is shown too.
  for (const e of changed) if (e.device) disks.add(e.device);
  const current: NonNullable<Capabilities["tunables"]>["current"] = [];
  for (const def of TUNABLES) {
    if (def.writeOnly) continue;
    for (const device of def.scope === "device" ? [...disks] : [null]) {
      if (def.file(device) === null) continue;
      const value = await controller.read(def.name, device).catch(() => null);
      const entry = changed.find((e) => e.name === def.name && e.device === device);
      if (value === null && !entry) continue;
      current.push({ name: def.name, device, value: value?.slice(0, 500) ?? null, changedFrom: entry?.original.slice(0, 500) ?? null });
    }
  }
  let lab: Capabilities["lab"] = null;
  if (config.labDir) {
    const st = await statfs(config.labDir).catch(() => null);
    const devices = describeLabDevices(config.labDevices ?? []);
    lab = { dir: config.labDir, fileSystems: await availableLabFs(), freeBytes: st ? st.bavail * st.bsize : null, ...(devices.length > 0 ? { devices } : {}) };
  }
  return {
    lab,
    tunables: {
      allowed: [...config.allowTunables].slice(0, 64),
      dropCaches: config.allowTunables.includes(DROP_CACHES),
      current: current.slice(0, 256),
    },
  };
}
