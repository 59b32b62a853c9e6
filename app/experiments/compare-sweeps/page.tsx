import type { Metadata } from "next";
import Link from "next/link";
import { SweepOverlay } from "@/components/sweeps/sweep-overlay";
import { requirePageUser } from "@/lib/auth/page-guard";
import { listExperiments } from "@/lib/server/experiments/list-experiments";
import { getSweepView } from "@/lib/server/sweeps/get-sweep";

export const metadata: Metadata = { title: "Two sweeps overlaid" };
export const dynamic = "force-dynamic";

type Query = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

/** ?a=ID&b=ID: two sweeps' IOPS and p99 against queue depth on one chart each; a missing or unknown one is chosen here. */
export default async function CompareSweepsPage({ searchParams }: { searchParams: Promise<Query> }) {
  const sp = await searchParams;
  const a = one(sp.a) ?? "";
  const b = one(sp.b) ?? "";
  await requirePageUser(`/experiments/compare-sweeps?${new URLSearchParams({ a, b })}`);
  const [va, vb] = await Promise.all([a ? getSweepView(a) : null, b ? getSweepView(b) : null]);
  const sweeps = (await listExperiments({ limit: 100 })).filter((e) => e.kind === "sweep");
  return (
    <>
      <p className="muted small">
        <Link href="/experiments">Experiments</Link> / two sweeps
      </p>
      <h1>Two sweeps overlaid</h1>
      {va && vb ? (
        <SweepOverlay a={va} b={vb} />
      ) : (
        <>
          {(a && !va) || (b && !vb) ? (
            <div className="alert alert-warn" role="status" data-testid="overlay-missing">
              {[a && !va ? "A" : null, b && !vb ? "B" : null].filter(Boolean).join(" and ")} is not a sweep you can see: choose again.
            </div>
          ) : null}
          {sweeps.length < 2 ? (
            <div className="empty">Overlaying needs two sweeps; there {sweeps.length === 1 ? "is one" : "are none"} so far.</div>
          ) : (
            <form method="get" className="stack" data-testid="overlay-choose">
              {(["a", "b"] as const).map((side, i) => (
                <label key={side}>
                  Sweep {side.toUpperCase()}
                  <select name={side} defaultValue={(side === "a" ? va?.experimentId : vb?.experimentId) ?? sweeps[i]?.id}>
                    {sweeps.map((s) => (
                      <option key={s.id} value={s.id}>
                        {s.title} ({s.hostName ?? "a removed host"}, {s.createdAt.slice(0, 10)})
                      </option>
                    ))}
                  </select>
                </label>
              ))}
              <div>
                <button className="btn btn-primary" type="submit">
                  Overlay
                </button>
              </div>
            </form>
          )}
        </>
      )}
    </>
  );
}
