// The host profile as the server and the UI read it. Everything is plain JSON (no Dates, no
// undefined in arrays) because it travels in register/heartbeat/finish bodies and is stored as-is.

export type Medium = "memory" | "ssd" | "disk" | "unknown";

export interface BlockDeviceInfo {
  name: string;
  model: string | null;
  sizeBytes: number;
  rotational: boolean | null;
  type: string;
  /** The active I/O scheduler, e.g. "mq-deadline" or "none". */
  scheduler: string | null;
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
  medium: Medium;
  totalBytes: number | null;
  freeBytes: number | null;
}

export interface HostProfile {
  collectedAt: string;
  hostname: string;
  kernel: { release: string; version: string };
  distro: string | null;
  cpu: { model: string | null; count: number; sockets: number | null };
  memory: { totalBytes: number };
  numa: { nodes: number; cpusPerNode?: Record<string, string> };
  blockDevices: BlockDeviceInfo[];
  targets: TargetProfile[];
  sysctls: Record<string, string>;
  thp: { enabled: string | null; defrag: string | null };
}

/** The snapshot stored with a run: the host as it was, plus the run's target directory. */
export interface RunProfileSnapshot extends HostProfile {
  target: TargetProfile;
}
