import { allProbes } from "../../../probes/catalog";
import { hostSummary } from "../hosts/host-summary";
import { listHosts } from "../hosts/list-hosts";

/** What the schedule forms offer: every host (online or not) and every probe:preset of the catalog. */
export async function scheduleFormChoices(probe?: string) {
  const hosts = (await listHosts()).map((h) => ({ id: h.id, name: h.name, online: hostSummary(h).online }));
  const presets = allProbes()
    .filter((p) => !probe || p.id === probe)
    .flatMap((p) => Object.entries(p.presets).map(([name, def]) => ({ value: probe ? name : `${p.id}:${name}`, label: `${p.id}: ${name} — ${def.title}` })));
  return { hosts, presets };
}
