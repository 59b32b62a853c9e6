import { ImageResponse } from "next/og";
import { seriesHex } from "@/components/charts/palette";
import { sharedComparison } from "@/lib/server/comparisons/shared-page";

export const alt = "Probebook comparison: title and compared runs";
export const size = { width: 1200, height: 630 };
export const contentType = "image/png";
export const dynamic = "force-dynamic";

/**
 * The bundled font covers Latin; for other scripts Satori would fetch fonts from the internet,
 * which a self-hosted server may not reach. Those characters become "…" runs instead.
 */
function latin(text: string, max: number): string {
  const t = text.replace(/[^\u0020-\u024f\u2010-\u2027\u00b7\u00d7\u2190-\u21ff\u2200-\u22ff₀-₉]+/g, "…").replace(/(…\s*)+/g, "… ");
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

export default async function Image({ params }: { params: Promise<{ slug: string }> }) {
  const c = await sharedComparison((await params).slug);
  if (!c) return new Response("No shared comparison at this address.", { status: 404 });
  const probes = [...new Set(c.runs.map((r) => r.probe))].join(" + ");
  const shown = c.runs.slice(0, 6);
  return new ImageResponse(
    (
      <div style={{ width: "100%", height: "100%", display: "flex", flexDirection: "column", background: "#0f1419", color: "#e6edf3", padding: "56px 64px", fontSize: 28 }}>
        <div style={{ display: "flex", fontSize: 26, color: "#9aa7b4" }}>
          <span style={{ color: "#e6edf3", fontWeight: 700 }}>Probe</span>
          <span style={{ color: "#4fb3ff", fontWeight: 700 }}>book</span>
          <span style={{ marginLeft: 18 }}>
            {probes} · {c.runs.length} run{c.runs.length === 1 ? "" : "s"}
          </span>
        </div>
        <div style={{ display: "flex", fontSize: 56, fontWeight: 700, lineHeight: 1.15, marginTop: 28 }}>{latin(c.title, 90)}</div>
        <div style={{ display: "flex", flexDirection: "column", marginTop: 36 }}>
          {shown.map((r, i) => (
            <div key={r.id} style={{ display: "flex", alignItems: "center", marginTop: 10 }}>
              <div style={{ width: 22, height: 22, borderRadius: 5, background: seriesHex(i), marginRight: 16 }} />
              <div style={{ display: "flex" }}>{latin(r.label, 70)}</div>
            </div>
          ))}
          {c.runs.length > shown.length ? <div style={{ display: "flex", marginTop: 10, color: "#9aa7b4" }}>+{c.runs.length - shown.length} more</div> : null}
        </div>
      </div>
    ),
    { ...size },
  );
}
