// "What differs": the profile fields whose known values are not all the same across the compared
// runs. A field nobody recorded (imported output has no profile) is unknown, not different.
import { allProbes, getProbe } from "../../probes/catalog";
import type { CompareRun, DiffersModel } from "./types";

type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : typeof v === "number" && Number.isFinite(v) ? String(v) : null);

function gib(bytes: unknown): string | null {
  return typeof bytes === "number" && bytes > 0 ? `${(bytes / 2 ** 30).toFixed(1)} GiB` : null;
}

/** Parameters other than the target directory, as "key=value" in key order. */
export function paramsText(params: Record<string, unknown>): string | null {
  const entries = Object.entries(params)
    .filter(([k, v]) => k !== "target" && v !== undefined)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return entries.length ? entries.join(", ") : null;
}

export interface FieldDef {
  id: string;
  label: string;
}

/** The fields "what differs" looks at, in display order (vm sysctls are added per key). */
export const DIFF_FIELDS: readonly FieldDef[] = [
  { id: "fsType", label: "File system" },
  { id: "medium", label: "Medium" },
  { id: "mountOptions", label: "Mount options" },
  { id: "device", label: "Device" },
  { id: "model", label: "Device model" },
  { id: "scheduler", label: "I/O scheduler" },
  { id: "target", label: "Target directory" },
  { id: "host", label: "Host" },
  { id: "kernel", label: "Kernel" },
  { id: "distro", label: "Distribution" },
  { id: "cpuModel", label: "CPU model" },
  { id: "cpuCount", label: "CPUs" },
  { id: "ram", label: "RAM" },
  { id: "numa", label: "NUMA nodes" },
  { id: "thpEnabled", label: "THP enabled" },
  { id: "thpDefrag", label: "THP defrag" },
  { id: "params", label: "Probe parameters" },
  // Facts a probe adds (its view's differsFacts), in catalog order.
  ...allProbes().flatMap((p) => (p.view.differsFacts ?? []).map((f) => ({ id: f.id, label: f.label }))),
];

/** Parameters without those that only say how a run was driven (the probe's notSetupParams, e.g. a direction on the x axis). */
function setupParams(run: Pick<CompareRun, "probe" | "params">): Record<string, unknown> {
  const notSetup = getProbe(run.probe)?.view.notSetupParams ?? [];
  return Object.fromEntries(Object.entries(run.params).filter(([k]) => !notSetup.includes(k)));
}

/** One run's value for every field (null = not recorded); sysctls appear as "sysctl:<name>". */
export function profileFacts(run: Pick<CompareRun, "probe" | "fsType" | "medium" | "profile" | "params" | "hostName" | "origin">): Record<string, string | null> {
  const p = run.profile ?? {};
  const target = obj(p.target) ?? {};
  const device = str(target.device);
  const devices = Array.isArray(p.blockDevices) ? p.blockDevices.map(obj).filter((d): d is Obj => d !== null) : [];
  const mountOptions = Array.isArray(target.mountOptions) ? target.mountOptions.filter((o): o is string => typeof o === "string") : [];
  const cpu = obj(p.cpu) ?? {};
  const thp = obj(p.thp) ?? {};
  const facts: Record<string, string | null> = {
    fsType: run.fsType ?? str(target.fsType),
    medium: (run.medium ?? str(target.medium)) === "unknown" ? null : (run.medium ?? str(target.medium)),
    mountOptions: mountOptions.length ? mountOptions.join(",") : null,
    device,
    model: str(target.model),
    scheduler: device ? str(devices.find((d) => d.name === device)?.scheduler) : null,
    target: str(target.path) ?? str(run.params.target),
    host: run.origin === "REFERENCE" ? null : str(run.hostName),
    kernel: str(obj(p.kernel)?.release),
    distro: str(p.distro),
    cpuModel: str(cpu.model),
    cpuCount: str(cpu.count),
    ram: gib(obj(p.memory)?.totalBytes),
    numa: str(obj(p.numa)?.nodes),
    thpEnabled: str(thp.enabled),
    thpDefrag: str(thp.defrag),
    params: paramsText(setupParams(run)),
  };
  for (const p of allProbes()) for (const f of p.view.differsFacts ?? []) facts[f.id] = run.probe === p.id ? f.value(run.params) : null;
  const sysctls = obj(p.sysctls) ?? {};
  for (const [k, v] of Object.entries(sysctls)) facts[`sysctl:${k}`] = str(v);
  return facts;
}

function hasProfile(run: Pick<CompareRun, "profile">): boolean {
  return !!run.profile && Object.keys(run.profile).length > 0;
}

/**
 * The fields whose recorded values differ between the runs, with each series' value(s): a
 * series of folded repeats shows "a / b" if its own runs disagree.
 */
export function whatDiffers(series: readonly { key: string; label: string; runs: readonly CompareRun[] }[]): DiffersModel {
  const factsBySeries = series.map((s) => ({ key: s.key, label: s.label, runs: s.runs, facts: s.runs.map(profileFacts) }));
  const sysctlIds = [...new Set(factsBySeries.flatMap((s) => s.facts.flatMap((f) => Object.keys(f).filter((k) => k.startsWith("sysctl:")))))].sort();
  const defs: FieldDef[] = [...DIFF_FIELDS];
  // vm sysctls after the kernel and CPU facts, before THP.
  const thpAt = defs.findIndex((d) => d.id === "thpEnabled");
  defs.splice(thpAt, 0, ...sysctlIds.map((id) => ({ id, label: id.slice("sysctl:".length) })));
  const fields: DiffersModel["fields"] = [];
  for (const def of defs) {
    const known = new Set<string>();
    const values: Record<string, string | null> = {};
    for (const s of factsBySeries) {
      const vals = [...new Set(s.facts.map((f) => f[def.id]).filter((v): v is string => v !== null && v !== undefined))];
      vals.forEach((v) => known.add(v));
      values[s.key] = vals.length ? vals.join(" / ") : null;
    }
    if (known.size > 1) fields.push({ id: def.id, label: def.label, values });
  }
  return {
    fields,
    compared: defs.map((d) => d.label),
    withoutProfile: factsBySeries.filter((s) => !s.runs.some(hasProfile)).map((s) => s.label),
  };
}
