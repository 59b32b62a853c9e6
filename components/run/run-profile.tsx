import { readRunProfile } from "@/probes/profile/read-profile";

/** The host as it was when the run ended: what a reader needs to judge the numbers. */
export function RunProfile({ profile }: { profile: unknown }) {
  if (!profile) return null;
  const p = readRunProfile(profile);
  const t = p.target;
  const device = t?.device ? p.blockDevices.find((d) => d.name === t.device) : undefined;
  const rows: [string, string | null][] = [
    ["Target", t ? `${t.path}` : null],
    ["File system", t?.fsType ?? null],
    ["Mount", t ? [t.source, t.mountPoint].filter(Boolean).join(" on ") || null : null],
    ["Mount options", t?.mountOptions.length ? t.mountOptions.join(",") : null],
    ["Device", t?.device ? [t.device, t.model, t.medium].filter(Boolean).join(" · ") : null],
    ["I/O scheduler", device?.scheduler ?? null],
    ["Kernel", p.kernel.release],
    ["Distribution", p.distro],
    ["CPU", p.cpu.model ? `${p.cpu.count ?? "?"} × ${p.cpu.model}` : null],
    ["Memory", p.memory.totalBytes ? `${(p.memory.totalBytes / 2 ** 30).toFixed(1)} GiB` : null],
    ["NUMA nodes", p.numa.nodes === null ? null : String(p.numa.nodes)],
    ["THP", p.thp.enabled ? `${p.thp.enabled} (defrag ${p.thp.defrag ?? "?"})` : null],
    ...Object.entries(p.sysctls).map(([k, v]): [string, string] => [k, v]),
  ];
  const shown = rows.filter((r): r is [string, string] => r[1] !== null);
  if (shown.length === 0) return null;
  return (
    <details data-testid="run-profile" open>
      <summary>
        <strong>Host profile at the time of the run</strong>
      </summary>
      <div className="table-wrap">
        <table className="data">
          <tbody>
            {shown.map(([k, v]) => (
              <tr key={k}>
                <th scope="row">{k}</th>
                <td style={{ overflowWrap: "anywhere" }}>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
