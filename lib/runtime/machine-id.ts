import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";

/**
 * What identifies this machine to every Probebook instance on it, so that they share one "this
 * machine" host. systemd's /etc/machine-id (dbus's copy on older systems) survives reboots and
 * differs between machines, containers and VMs; it is meant to stay private, so only a hash
 * keyed for Probebook is stored. Without it: the host name and the hardware addresses of the
 * network interfaces, which also outlive a reboot. PROBEBOOK_MACHINE_ID overrides both (tests,
 * or containers that share a machine-id).
 */
export function machineId(env: Readonly<Record<string, string | undefined>> = process.env, files: readonly string[] = ["/etc/machine-id", "/var/lib/dbus/machine-id"]): string {
  const override = env.PROBEBOOK_MACHINE_ID?.trim();
  if (override) return keyed(`override:${override}`);
  for (const file of files) {
    try {
      const id = fs.readFileSync(file, "utf8").trim();
      if (/^[0-9a-f]{32}$/i.test(id)) return keyed(`machine-id:${id.toLowerCase()}`);
    } catch {
      // not there: the next source
    }
  }
  const macs = Object.values(os.networkInterfaces())
    .flat()
    .map((i) => i?.mac)
    .filter((m): m is string => !!m && m !== "00:00:00:00:00:00");
  return keyed(`host:${os.hostname()}|${[...new Set(macs)].sort().join(",")}`);
}

function keyed(source: string): string {
  return crypto.createHmac("sha256", "probebook local host").update(source).digest("hex").slice(0, 32);
}
