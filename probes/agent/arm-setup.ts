// An experiment arm's setup around one probe run: a fresh loop-mounted file system from the lab,
// kernel settings from the tunables catalogue, a cold page cache. Every part is checked against
// the agent's own flags before anything changes (the server's checks are only a courtesy);
// then the lab is made, the probe is guarded inside it, the settings are journaled, written and
// read back; afterwards the settings are put back and the lab taken down, whatever the probe's
// end. The journals in the state dir cover a crash: the next start reverts what they list.
import { readFile, realpath, statfs } from "node:fs/promises";
import path from "node:path";
import { labImageRefusal } from "../admission";
import { getProbe, validateParams } from "../catalog";
import { isLabFs, checkMountOptions, MIN_IMAGE_BYTES, type LabFs } from "../lab/file-systems";
import { availableLabFs, Lab, type LabFsInfo } from "../lab/lab";
import { checkLabDevice } from "../lab/lab-device";
import { labVolumeTooSmall } from "../lab/sizing";
import { diskOfPath } from "../profile/block-device";
import type { Job, JobSetup, SetupReport } from "../protocol/schemas";
import { getTunable, notArmSetting } from "../tunables/catalogue";
import { TunableController, type Applied } from "../tunables/controller";
import { dropCaches } from "../tunables/drop-caches";
import type { GuardResult } from "./job-guard";
import type { Logger } from "./logger";
import { removeRunDir } from "./run-dir";

export const DROP_CACHES = "vm.drop_caches";

export interface ArmConfig {
  stateDir: string;
  /** The checked `--lab` dir (real path), or null without one. */
  labDir: string | null;
  /** Whole block devices named with `--lab-device` (an arm may format one of them). */
  labDevices?: readonly string[];
  allowTunables: readonly string[];
  log: Logger;
}

type Guard = (job: Job, allowedDirs?: readonly string[]) => Promise<GuardResult>;

const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;

/** The part of a job's setup a person can read in one line ("ext4 lab, vm.dirty_ratio=7, cold cache"). */
export function describeSetup(setup: JobSetup): string {
  const parts = [
    ...(setup.lab
      ? [`${setup.lab.fs} lab ${setup.lab.kind === "device" ? `on ${setup.lab.device}` : `of ${mib(setup.lab.imageBytes)}`}${setup.lab.mountOptions.length ? ` (${setup.lab.mountOptions.join(",")})` : ""}`]
      : []),
    ...Object.entries(setup.tunables ?? {}).map(([k, v]) => `${k}=${v}`),
    ...(setup.dropCaches ? ["caches dropped"] : []),
  ];
  return parts.join(", ") || "nothing";
}

export class ArmSetup {
  private readonly tunables: TunableController;
  private readonly lab: Lab | null;
  private labInfo: LabFsInfo | null = null;
  private readonly applied: Applied[] = [];
  private droppedCaches = false;
  private error: string | null = null;

  constructor(
    private readonly job: Job,
    private readonly setup: JobSetup,
    private readonly config: ArmConfig,
  ) {
    this.tunables = new TunableController({ stateDir: config.stateDir, allowed: new Set(config.allowTunables) });
    this.lab = config.labDir ? new Lab(config.labDir, config.stateDir) : null;
  }

  /** Why this agent's own flags do not allow the setup, or null; reads only, changes nothing. */
  async refusal(): Promise<string | null> {
    const { setup, config } = this;
    const allowed = new Set(config.allowTunables);
    if (setup.dropCaches && !allowed.has(DROP_CACHES)) {
      return `this arm drops the page cache, which this host does not allow: start the agent with --allow-tunable ${DROP_CACHES}`;
    }
    for (const [name, value] of Object.entries(setup.tunables ?? {})) {
      const notSetting = notArmSetting(name);
      if (notSetting) return notSetting;
      if (!allowed.has(name)) return `${name} may not be changed on this host: start the agent with --allow-tunable ${name}`;
      const checked = await this.checkValue(name, value);
      if (checked) return checked;
    }
    if (setup.lab) return this.labRefusal(setup.lab);
    return null;
  }

  /** Host settings are checked against their file now; a device's own choices (schedulers) only once the device is known, when applying. */
  private async checkValue(name: string, value: string): Promise<string | null> {
    const def = getTunable(name);
    if (!def) return `${name} is not a tunable Probebook can change`;
    let current = `[${value}]`;
    const file = def.scope === "host" ? def.file(null) : null;
    if (file) {
      try {
        current = await readFile(file, "utf8");
      } catch (err) {
        return `${name} cannot be read on this host (${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)})`;
      }
    }
    const checked = def.validate(value, current);
    return checked.ok ? null : `${name}: ${checked.error}`;
  }

  private async labRefusal(lab: NonNullable<JobSetup["lab"]>): Promise<string | null> {
    const { config, job } = this;
    if (!config.labDir || !this.lab) return "this arm needs a lab file system, and the agent was started without --lab DIR";
    if (!isLabFs(lab.fs)) return `"${lab.fs}" is not a lab file system (ext2, ext3, ext4, xfs, btrfs)`;
    const have = await availableLabFs();
    if (!have.includes(lab.fs)) return `mkfs for ${lab.fs} is not installed on this host (it has ${have.join(", ") || "none"}); install it or drop the arm`;
    const opts = checkMountOptions(lab.fs, lab.mountOptions);
    if (!opts.ok) return opts.error;
    const target = typeof job.params.target === "string" ? job.params.target : "";
    const real = await realpath(target).catch(() => target);
    if (real !== config.labDir) return `a lab arm's target must be the lab dir ${config.labDir}, not ${target || "(none)"}`;
    const probe = getProbe(job.probe);
    const checked = probe ? validateParams(probe.id, job.params) : null;
    if (!probe || !checked) return `unknown probe "${job.probe}"`;
    if (!checked.ok) return checked.message;
    const probeBytes = probe.requiredFreeBytes(checked.params);
    if (lab.kind === "device") {
      const dev = await checkLabDevice(lab.device ?? "", config.labDevices ?? []);
      if (!dev.ok) return dev.error.includes("--lab-device") ? `${dev.error}: start the agent with --lab-device ${lab.device}` : dev.error;
      // The same rule the server used to size an image (probes/lab/sizing.ts), against the whole device.
      return labVolumeTooSmall(dev.sizeBytes, probeBytes);
    }
    if (lab.imageBytes < MIN_IMAGE_BYTES) return `the lab image must be at least ${mib(MIN_IMAGE_BYTES)}, not ${mib(lab.imageBytes)}`;
    const st = await statfs(config.labDir);
    const noRoom = labImageRefusal(lab.imageBytes, st.bavail * st.bsize);
    if (noRoom) return `the lab dir ${config.labDir} has ${mib(noRoom.freeBytes)} free; a ${mib(lab.imageBytes)} image needs ${mib(noRoom.needsBytes)}`;
    const small = labVolumeTooSmall(lab.imageBytes, probeBytes);
    return small ? `${small}: make the image larger` : null;
  }

  /**
   * Checks, makes the setup and guards the probe inside it. A refusal before anything changed
   * leaves the host as it was; a failure after that is undone by teardown(), which the caller
   * runs in every case.
   */
  async prepare(guard: Guard, isCancelled: () => boolean): Promise<GuardResult> {
    const refused = await this.refusal();
    if (refused) return this.fail(refused);
    const { setup, job } = this;
    let verdict: GuardResult | null = null;
    let disk: string | null;
    try {
      if (setup.lab && this.lab) {
        const device = setup.lab.kind === "device" && setup.lab.device ? { path: setup.lab.device, allowed: this.config.labDevices ?? [] } : undefined;
        this.labInfo = await this.lab.create(setup.lab.fs as LabFs, setup.lab.imageBytes, setup.lab.mountOptions, job.runId, device);
        const how = this.labInfo.kind === "loop-buffered" ? `, without direct I/O: ${this.labInfo.dioReason}` : `, ${this.labInfo.kind}`;
        this.config.log.info(`run ${job.runId}: ${this.labInfo.fsType} on ${this.labInfo.loopDevice} mounted at ${this.labInfo.mountPoint} (driver ${this.labInfo.driver}${how})`);
        verdict = await guard({ ...job, params: { ...job.params, target: this.labInfo.mountPoint } }, [this.labInfo.mountPoint]);
        disk = path.basename(this.labInfo.loopDevice);
      } else {
        verdict = await guard(job);
        disk = verdict.ok ? await diskOfPath("/sys", verdict.target, null) : null;
      }
      if (!verdict.ok) return this.fail(verdict.reason);
      // Cancelled while the lab was made: nothing more to change; the run ends as cancelled.
      if (isCancelled()) return verdict;
      for (const [name, value] of Object.entries(setup.tunables ?? {})) {
        const scope = getTunable(name)?.scope;
        this.applied.push(await this.tunables.apply(name, value, scope === "device" ? disk : null, job.runId));
      }
    } catch (err) {
      // The probe will not run: its run dir goes now (in a lab it would go with the mount anyway).
      if (verdict?.ok) await removeRunDir(verdict.runDir);
      return this.fail(`the arm's setup failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (this.applied.length > 0) this.config.log.info(`run ${job.runId}: set ${this.applied.map((a) => `${a.name}${a.device ? ` (${a.device})` : ""} ${a.original} → ${a.value}`).join(", ")}`);
    return verdict;
  }

  /** Right before the probe starts: write back and drop the page cache when the arm asks. */
  async beforeProbe(): Promise<string | null> {
    if (!this.setup.dropCaches) return null;
    try {
      await dropCaches();
      this.droppedCaches = true;
      return null;
    } catch (err) {
      this.error = `could not drop the page cache: ${err instanceof Error ? err.message : String(err)}`;
      return this.error;
    }
  }

  /** Puts the settings back (before the loop device goes: its queue files go with it), then takes the lab down. */
  async teardown(): Promise<SetupReport> {
    const problems: string[] = [];
    const outcomes = await this.tunables.restoreAll();
    for (const o of outcomes) {
      if (o.ok) continue;
      problems.push(`${o.name}${o.device ? ` (${o.device})` : ""} was not restored: ${o.error}`);
    }
    const stillChanged = new Set(this.tunables.changed().map((e) => `${e.name}|${e.device}`));
    let removed = false;
    if (this.labInfo && this.lab) {
      const left = await this.lab.destroyByMountPoint(this.labInfo.mountPoint);
      problems.push(...left);
      removed = left.length === 0;
    }
    for (const p of problems) this.config.log.error(`run ${this.job.runId}: ${p}; it stays in the journal for the next start`);
    const info = this.labInfo;
    return {
      lab: info
        ? {
            fsType: info.fsType,
            mkfsCommand: info.mkfsCommand,
            mountOptions: info.mountOptions,
            loopDevice: info.loopDevice,
            driver: info.driver,
            imageBytes: info.sizeBytes,
            removed,
            kind: info.kind,
            dio: info.dio,
            dioReason: info.dioReason,
            device: info.device,
          }
        : null,
      tunables: this.applied.map((a) => ({ name: a.name, device: a.device, from: a.original, to: a.value, restored: !stillChanged.has(`${a.name}|${a.device}`) })),
      droppedCaches: this.droppedCaches,
      error: this.error,
      cleanupError: problems.length > 0 ? problems.join("; ").slice(0, 2000) : null,
    };
  }

  private fail(reason: string): GuardResult {
    this.error = reason.slice(0, 2000);
    return { ok: false, reason };
  }
}
