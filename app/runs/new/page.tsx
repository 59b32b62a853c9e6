import type { Metadata } from "next";
import Link from "next/link";
import { LaunchForm, type LaunchPreset } from "@/components/launch-form";
import { requirePageUser } from "@/lib/auth/page-guard";
import { listLaunchHosts } from "@/lib/server/hosts/list-launch-hosts";
import { presetRefs, resolvePreset } from "@/probes/catalog";

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
  const hosts = await listLaunchHosts();
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
