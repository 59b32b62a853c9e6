import type { Metadata } from "next";
import Link from "next/link";
import { LaunchForm, type LaunchHost, type LaunchPreset } from "@/components/launch-form";
import { requirePageUser } from "@/lib/auth/page-guard";
import { db } from "@/lib/db";
import { missingToolMessage, profileTargets } from "@/lib/server/hosts/host-summary";
import { capabilitiesSchema } from "@/probes/agent/protocol";
import { targetFacts } from "@/lib/server/runs/target-facts";
import { probeIds, presetRefs, resolvePreset, sizeBeyondRamMiB } from "@/probes/catalog";

export const metadata: Metadata = { title: "Launch a probe" };
export const dynamic = "force-dynamic";

export default async function NewRunPage({ searchParams }: { searchParams: Promise<{ probe?: string; preset?: string; host?: string }> }) {
  const sp = await searchParams;
  await requirePageUser(`/runs/new?${new URLSearchParams(sp as Record<string, string>)}`, "OPERATOR");
  const presets: LaunchPreset[] = presetRefs().flatMap((ref) => {
    const p = resolvePreset(ref);
    return p ? [{ ref, probe: p.probeId, title: `${p.probeId}: ${p.title}`, description: p.description, params: p.params as Record<string, unknown>, sizeBeyondRam: p.sizeBeyondRam }] : [];
  });
  const wanted = sp.probe && sp.preset ? `${sp.probe}:${sp.preset}` : sp.probe ? presets.find((p) => p.probe === sp.probe)?.ref : undefined;
  const rows = await db().host.findMany({ orderBy: { name: "asc" }, select: { id: true, name: true, profile: true, capabilities: true } });
  const hosts: LaunchHost[] = rows.map((h) => {
    const caps = capabilitiesSchema.safeParse(h.capabilities);
    const targets = profileTargets(h.profile);
    const memTotalBytes = targetFacts(h.profile, null).memTotalBytes;
    const allowed = caps.success ? caps.data.allowedDirs : targets.map((t) => t.path);
    const missingTools: Record<string, string> = {};
    for (const probe of probeIds) {
      const message = missingToolMessage(h.capabilities, probe, h.name);
      if (message) missingTools[probe] = message;
    }
    return {
      id: h.id,
      name: h.name,
      missingTools,
      targets: allowed.map((path) => {
        const t = targets.find((x) => x.path === path);
        const freeBytes = t?.freeBytes ?? null;
        return { path, fsType: t?.fsType ?? null, medium: t?.medium ?? null, freeBytes, sizeBeyondRamMiB: sizeBeyondRamMiB(memTotalBytes, freeBytes) };
      }),
    };
  });
  return (
    <>
      <h1>Launch a probe</h1>
      {hosts.length === 0 ? (
        <div className="alert alert-warn">
          No host is registered yet: <Link href="/hosts">register one</Link> and start its agent, then launch from here.
        </div>
      ) : null}
      <LaunchForm hosts={hosts} presets={presets} initialPreset={wanted && presets.some((p) => p.ref === wanted) ? wanted : null} initialHostId={sp.host ?? null} />
    </>
  );
}
