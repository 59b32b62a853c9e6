import { db } from "../../db";

/** Values the runs list offers in its filters: host names and labels, file system types. */
export async function runFilterChoices(): Promise<{ hosts: string[]; fsTypes: string[] }> {
  const [hosts, labels, fs] = await Promise.all([
    db().host.findMany({ select: { name: true }, orderBy: { name: "asc" }, take: 500 }),
    db().probeRun.findMany({ where: { hostLabel: { not: null } }, distinct: ["hostLabel"], select: { hostLabel: true }, orderBy: { hostLabel: "asc" }, take: 500 }),
    db().probeRun.findMany({ where: { fsType: { not: null } }, distinct: ["fsType"], select: { fsType: true }, orderBy: { fsType: "asc" }, take: 100 }),
  ]);
  return {
    hosts: [...new Set([...hosts.map((h) => h.name), ...labels.map((l) => l.hostLabel!)])],
    fsTypes: fs.map((f) => f.fsType!),
  };
}
