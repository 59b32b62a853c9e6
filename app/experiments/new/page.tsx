import type { Metadata } from "next";
import Link from "next/link";
import type { LaunchPreset } from "@/components/launch-form";
import { NewExperimentForm, type ExperimentPrefill } from "@/components/experiments/new-experiment-form";
import { NewSweepForm } from "@/components/sweeps/new-sweep-form";
import { requirePageUser } from "@/lib/auth/page-guard";
import { listExperimentHosts } from "@/lib/server/experiments/list-experiment-hosts";
import { listLaunchHosts } from "@/lib/server/hosts/list-launch-hosts";
import { presetRefs, resolvePreset } from "@/probes/catalog";
import { LAB_FS } from "@/probes/lab/file-systems";
import { TUNABLE_NAMES } from "@/probes/tunables/catalogue";

export const metadata: Metadata = { title: "New experiment" };
export const dynamic = "force-dynamic";

type Query = Record<string, string | undefined>;
const list = (s: string | undefined) => (s ? s.split(",").map((x) => x.trim()).filter(Boolean) : []);
/** ?params= a JSON object (the compared runs' parameters); anything else is ignored. */
function jsonObject(s: string | undefined): Record<string, unknown> | null {
  try {
    const v: unknown = s ? JSON.parse(s) : null;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
const int = (s: string | undefined) => (s && /^\d+$/.test(s) ? Number(s) : null);

/** kind=sweep: one fio workload over a grid of queue depths × job counts, drawn fio-plot style. */
async function NewSweep({ hostId }: { hostId: string | null }) {
  const hosts = await listLaunchHosts();
  return (
    <>
      <p className="muted small">
        <Link href="/experiments">Experiments</Link> / new sweep
      </p>
      <h1>New sweep</h1>
      <p className="muted">
        One fio workload run over a grid of queue depths × job counts (and block sizes if chosen) on one target, the points interleaved. The charts draw IOPS, bandwidth and
        latency against queue depth, and the page states where the device saturates. For two setups compared head to head, start an{" "}
        <Link href="/experiments/new">A/B experiment</Link> instead.
      </p>
      {hosts.length === 0 ? (
        <div className="alert alert-warn">
          No host is registered yet: <Link href="/hosts">register one</Link> and start its agent.
        </div>
      ) : (
        <NewSweepForm hosts={hosts} initialHostId={hostId} />
      )}
    </>
  );
}

/** Query params prefill the form: host, probe, preset, kind=lab|tunables, fs=ext4,xfs, tunable, values=20,5, min, max, warmup=0|1, title, params (JSON), target, trial (a one-click trial the form sizes for the host). */
export default async function NewExperimentPage({ searchParams }: { searchParams: Promise<Query> }) {
  const sp = await searchParams;
  await requirePageUser(`/experiments/new?${new URLSearchParams(Object.entries(sp).filter((e): e is [string, string] => typeof e[1] === "string"))}`, "OPERATOR");
  if (sp.kind === "sweep") return <NewSweep hostId={sp.host ?? null} />;
  const presets: LaunchPreset[] = presetRefs().flatMap((ref) => {
    const p = resolvePreset(ref);
    return p ? [{ ref, probe: p.probeId, title: `${p.probeId}: ${p.title}`, description: p.description, params: p.params as Record<string, unknown>, sizeBeyondRam: p.sizeBeyondRam }] : [];
  });
  const hosts = await listExperimentHosts();
  const preset = sp.probe && sp.preset ? `${sp.probe}:${sp.preset}` : sp.probe ? (presets.find((p) => p.probe === sp.probe)?.ref ?? null) : null;
  const prefill: ExperimentPrefill = {
    hostId: sp.host ?? null,
    preset,
    kind: sp.kind === "lab" || sp.kind === "tunables" ? sp.kind : null,
    fs: list(sp.fs),
    tunable: sp.tunable ?? null,
    values: list(sp.values),
    min: int(sp.min),
    max: int(sp.max),
    warmup: sp.warmup === "0" || sp.warmup === "false" ? false : sp.warmup === "1" || sp.warmup === "true" ? true : null,
    title: sp.title ?? null,
    trial: sp.trial ?? null,
    params: jsonObject(sp.params),
    target: sp.target ?? null,
  };
  return (
    <>
      <p className="muted small">
        <Link href="/experiments">Experiments</Link> / new
      </p>
      <h1>New experiment</h1>
      <p className="muted">
        Two or more arms run the same probe in alternating rounds until the verdict is as precise as asked, the time budget is spent or the maximum is reached; the verdict gives
        each arm&apos;s ratio to the first with its confidence interval, from valid runs only.
        Everything an arm changes is put back after each run. To find where a device saturates instead, start a{" "}
        <Link href="/experiments/new?kind=sweep">queue-depth sweep</Link>.
      </p>
      {hosts.length === 0 ? (
        <div className="alert alert-warn">
          No host is registered yet: <Link href="/hosts">register one</Link> and start its agent with <code>--lab DIR</code> or <code>--allow-tunable NAME</code>.
        </div>
      ) : (
        <NewExperimentForm hosts={hosts} presets={presets} labFileSystems={LAB_FS} tunableNames={TUNABLE_NAMES.filter((n) => n !== "vm.drop_caches")} prefill={prefill} />
      )}
    </>
  );
}
