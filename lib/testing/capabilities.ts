import type { Capabilities } from "../../probes/protocol/schemas";

const tool = { installed: true, version: "9.1", path: "/usr/bin/dd" };

/**
 * What a test host's agent reports: every tool installed, /srv/pb allowed, and vm.dirty_ratio
 * (at 20) the one setting experiments may change.
 */
export const tunableHostCapabilities: Capabilities = {
  agentVersion: "1",
  tools: { dd: tool, iozone: tool, fio: tool, sar: tool },
  allowedDirs: ["/srv/pb"],
  tunables: { allowed: ["vm.dirty_ratio"], dropCaches: false, current: [{ name: "vm.dirty_ratio", device: null, value: "20", changedFrom: null }] },
};
