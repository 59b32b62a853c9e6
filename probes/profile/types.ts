// The host profile as the agent collects it and as the server and the UI read it back
// (read-profile.ts). Everything is plain JSON (no Dates, no undefined in arrays) because it
// travels in register/heartbeat/finish bodies and is stored as-is. Stored profiles come from
// agents of any version, so a fact that may be missing is nullable here rather than guessed.

export type Medium = "memory" | "ssd" | "disk" | "unknown";

export interface BlockDeviceInfo {
  name: string;
  model: string | null;
  sizeBytes: number | null;
  rotational: boolean | null;
  type: string | null;
  /** The active I/O scheduler, e.g. "mq-deadline" or "none". */
  scheduler: string | null;
  /** Requests the device takes at once (block-device.ts); absent from older agents. */
  hwQueueDepth?: number | null;
}

export interface TargetProfile {
  path: string;
  fsType: string | null;
  /** The mount source as findmnt prints it, e.g. /dev/vda1 or tmpfs. */
  source: string | null;
  mountPoint: string | null;
  mountOptions: string[];
  /** The whole disk under partitions and device-mapper layers, e.g. "vda" or "loop3". */
  device: string | null;
  rotational: boolean | null;
  model: string | null;
  medium: Medium | null;
  totalBytes: number | null;
  freeBytes: number | null;
}

export interface HostProfile {
  collectedAt: string | null;
  hostname: string | null;
  kernel: { release: string | null; version: string | null };
  distro: string | null;
  /** /etc/os-release's ID, ID_LIKE and VERSION_ID (null from agents that did not report them). */
  os: { id: string; idLike: string[]; versionId: string | null } | null;
  cpu: { model: string | null; count: number | null; sockets: number | null };
  /**
   * dirtyableBytes: MemFree + Active(file) + Inactive(file), the memory the kernel's dirty ratios
   * are percentages of; the thresholds are /proc/vmstat's nr_dirty_threshold and
   * nr_dirty_background_threshold in bytes (what the kernel computed from its settings when the
   * profile was read). Absent or null from agents that did not report them.
   */
  memory: { totalBytes: number | null; dirtyableBytes?: number | null; dirtyThresholdBytes?: number | null; dirtyBackgroundThresholdBytes?: number | null };
  /** freeBytesPerNode: node number → that node's MemFree (/sys/devices/system/node/nodeN/meminfo). */
  numa: { nodes: number | null; cpusPerNode?: Record<string, string>; freeBytesPerNode?: Record<string, number> };
  blockDevices: BlockDeviceInfo[];
  targets: TargetProfile[];
  sysctls: Record<string, string>;
  thp: { enabled: string | null; defrag: string | null };
}

/** A run's target as its snapshot records it; the guides' reference runs know no path. */
export type SnapshotTarget = Omit<TargetProfile, "path"> & { path: string | null };

/** The snapshot stored with a run: the host as it was, plus the run's target directory. */
export interface RunProfileSnapshot extends HostProfile {
  target: SnapshotTarget | null;
}
