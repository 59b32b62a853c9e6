// sadf -j names its sections and fields differently from the column headers sar prints
// ("process-and-context-switch": {"proc": …} is sar's "proc/s"). This table maps every section
// sysstat 9.x–12.8 writes to sar's column names and to the section and row-key dims the text
// parser gives the same table, so a run reads the same whichever form a user brings.

export interface SadfSection {
  /** Our section name; the text parser derives the same one from the column header. */
  section: string;
  /** sadf key → sar column. Keys not listed fall back to `suffix` (see below). */
  columns?: Record<string, string>;
  /** For fields not in `columns`: append "/s" (rates) or keep the key as it is. */
  suffix?: "/s" | "";
  /** The field naming the row (e.g. "iface") and the dims key it becomes. */
  rowKey?: { field: string; dim: string };
  /** Text fields kept as dims (sensor chip, USB ids), never as values. */
  textDims?: Record<string, string>;
  /** Fields that are neither values nor dims (battery status: words in JSON, arrows in text). */
  ignore?: string[];
}

const percent = (names: string[]) => Object.fromEntries(names.map((n) => [n, `%${n}`]));

const CPU: SadfSection = {
  section: "cpu",
  rowKey: { field: "cpu", dim: "cpu" },
  columns: percent(["user", "usr", "nice", "system", "sys", "iowait", "steal", "irq", "soft", "guest", "gnice", "idle"]),
};

const MEMORY_COLUMNS: Record<string, string> = {
  memfree: "kbmemfree", avail: "kbavail", memused: "kbmemused", "memused-percent": "%memused",
  buffers: "kbbuffers", cached: "kbcached", commit: "kbcommit", "commit-percent": "%commit",
  active: "kbactive", inactive: "kbinact", dirty: "kbdirty", shared: "kbshmem", anonpg: "kbanonpg",
  slab: "kbslab", kstack: "kbkstack", pgtbl: "kbpgtbl", vmused: "kbvmused",
  // "frmpg", "bufpg", "campg" of sar -R (pages freed/buffered/cached per second).
  frmpg: "frmpg/s", bufpg: "bufpg/s", campg: "campg/s",
};
/** Swap fields live in sadf's "memory" object but in their own table (sar -S) in the text. */
export const SWAP_COLUMNS: Record<string, string> = {
  swpfree: "kbswpfree", swpused: "kbswpused", "swpused-percent": "%swpused", swpcad: "kbswpcad", "swpcad-percent": "%swpcad",
};

/** Keyed by the section's path in a statistics entry ("network.net-dev"). */
export const SADF_SECTIONS: Record<string, SadfSection> = {
  "cpu-load": CPU,
  "cpu-load-all": CPU,
  "process-and-context-switch": { section: "tasks", suffix: "/s" },
  "swap-pages": { section: "swapping", suffix: "/s" },
  paging: {
    section: "paging",
    suffix: "/s",
    columns: { "vmeff-percent": "%vmeff" },
  },
  "io": {
    section: "io",
    columns: { tps: "tps", rtps: "rtps", wtps: "wtps", dtps: "dtps", bread: "bread/s", bwrtn: "bwrtn/s", bdscd: "bdscd/s" },
  },
  memory: { section: "memory", columns: { ...MEMORY_COLUMNS, ...SWAP_COLUMNS } },
  hugepages: {
    section: "hugepages",
    columns: { hugfree: "kbhugfree", hugused: "kbhugused", "hugused-percent": "%hugused", hugrsvd: "kbhugrsvd", hugsurp: "kbhugsurp" },
  },
  kernel: { section: "inodes", suffix: "" },
  queue: { section: "queue", suffix: "" },
  serial: { section: "serial", suffix: "/s", rowKey: { field: "line", dim: "tty" } },
  disk: {
    section: "disk",
    rowKey: { field: "disk-device", dim: "device" },
    suffix: "",
    columns: {
      rd_sec: "rd_sec/s", wr_sec: "wr_sec/s", dc_sec: "dc_sec/s", rkB: "rkB/s", wkB: "wkB/s", dkB: "dkB/s",
      "util-percent": "%util",
    },
  },
  "network.net-dev": { section: "network", suffix: "/s", rowKey: { field: "iface", dim: "iface" }, columns: { "ifutil-percent": "%ifutil" } },
  "network.net-edev": { section: "network", suffix: "/s", rowKey: { field: "iface", dim: "iface" } },
  "network.net-nfs": { section: "nfs", suffix: "/s" },
  "network.net-nfsd": { section: "nfsd", suffix: "/s" },
  "network.net-sock": { section: "sockets", suffix: "" },
  "network.net-ip": { section: "ip", suffix: "/s" },
  "network.net-eip": { section: "ip-errors", suffix: "/s" },
  "network.net-icmp": { section: "icmp", suffix: "/s" },
  "network.net-eicmp": { section: "icmp-errors", suffix: "/s" },
  "network.net-tcp": { section: "tcp", suffix: "/s" },
  "network.net-etcp": { section: "tcp-errors", suffix: "/s" },
  "network.net-udp": { section: "udp", suffix: "/s" },
  "network.net-sock6": { section: "sockets6", suffix: "" },
  "network.net-ip6": { section: "ip6", suffix: "/s" },
  "network.net-eip6": { section: "ip6-errors", suffix: "/s" },
  "network.net-icmp6": { section: "icmp6", suffix: "/s" },
  "network.net-eicmp6": { section: "icmp6-errors", suffix: "/s" },
  "network.net-udp6": { section: "udp6", suffix: "/s" },
  "network.fchosts": { section: "fchost", suffix: "/s", rowKey: { field: "fchost", dim: "fchost" } },
  "network.softnet": { section: "softnet", suffix: "/s", rowKey: { field: "cpu", dim: "cpu" }, columns: { blg_len: "blg_len" } },
  "power-management.cpu-frequency": { section: "cpu-frequency", rowKey: { field: "number", dim: "cpu" }, columns: { frequency: "MHz" } },
  // sar -m FREQ (A_PWR_FREQ, json_stats.c "cpu-weighted-frequency"): the text prints "CPU wghMHz".
  "power-management.cpu-weighted-frequency": {
    section: "cpu-weighted-frequency", rowKey: { field: "number", dim: "cpu" }, columns: { "weighted-frequency": "wghMHz" },
  },
  "power-management.fan-speed": {
    section: "fan", rowKey: { field: "number", dim: "fan" }, columns: { rpm: "rpm", drpm: "drpm" }, textDims: { device: "device" },
  },
  "power-management.temperature": {
    section: "temperature", rowKey: { field: "number", dim: "temp" }, columns: { degC: "degC", "percent-temp": "%temp" }, textDims: { device: "device" },
  },
  "power-management.voltage-input": {
    section: "voltage", rowKey: { field: "number", dim: "in" }, columns: { inV: "inV", "percent-in": "%in" }, textDims: { device: "device" },
  },
  "power-management.battery": {
    section: "battery", rowKey: { field: "number", dim: "bat" }, columns: { "percent-capacity": "%cap", variation: "cap/min" }, ignore: ["status"],
  },
  "power-management.usb-devices": {
    section: "usb",
    rowKey: { field: "bus_number", dim: "bus" },
    columns: { maxpower: "maxpower" },
    textDims: { idvendor: "idvendor", idprod: "idprod", manufact: "manufact", product: "product" },
  },
  filesystems: { section: "filesystem", suffix: "", rowKey: { field: "filesystem", dim: "filesystem" } },
  "psi.psi-cpu": { section: "psi-cpu", columns: psi("scpu", "") },
  "psi.psi-io": { section: "psi-io", columns: { ...psi("sio", ""), ...psi("fio", "full") } },
  "psi.psi-mem": { section: "psi-mem", columns: { ...psi("smem", ""), ...psi("fmem", "full") } },
};

/** PSI: "some_avg10" → "%scpu-10", "some_avg" → "%scpu"; "full_*" likewise with the f-name. */
function psi(name: string, kind: "" | "full"): Record<string, string> {
  const prefix = kind === "full" ? "full" : "some";
  return {
    [`${prefix}_avg10`]: `%${name}-10`,
    [`${prefix}_avg60`]: `%${name}-60`,
    [`${prefix}_avg300`]: `%${name}-300`,
    [`${prefix}_avg`]: `%${name}`,
  };
}

/** The sar column a sadf field becomes, or null when the field is not a value. */
export function sadfFieldColumn(def: SadfSection, field: string): string | null {
  if (def.rowKey?.field === field || def.textDims?.[field] || def.ignore?.includes(field)) return null;
  const mapped = def.columns?.[field];
  if (mapped) return mapped;
  if (def.suffix === undefined) return null;
  if (field.endsWith("-percent")) return `%${field.slice(0, -"-percent".length)}`;
  return field + def.suffix;
}

// Reverse lookup for the text parser: a column sar prints → the section sadf files it under.
// Computed once from the table above so the two forms cannot drift apart.
const FIXED_COLUMN_SECTION = new Map<string, string>();
for (const def of Object.values(SADF_SECTIONS)) {
  for (const column of Object.values(def.columns ?? {})) {
    if (!FIXED_COLUMN_SECTION.has(column)) FIXED_COLUMN_SECTION.set(column, def.section);
  }
}
for (const column of Object.values(SWAP_COLUMNS)) FIXED_COLUMN_SECTION.set(column, "swap");

// Columns of sections mapped only by suffix: spelled out here as sar prints them.
const SUFFIX_SECTIONS: [string, string[]][] = [
  ["tasks", ["proc/s", "cswch/s"]],
  ["swapping", ["pswpin/s", "pswpout/s"]],
  ["inodes", ["dentunusd", "file-nr", "inode-nr", "pty-nr"]],
  ["queue", ["runq-sz", "plist-sz", "ldavg-1", "ldavg-5", "ldavg-15", "blocked"]],
  ["nfs", ["call/s", "retrans/s", "read/s", "write/s", "access/s", "getatt/s"]],
  ["nfsd", ["scall/s", "badcall/s", "packet/s", "udp/s", "tcp/s", "hit/s", "miss/s", "sread/s", "swrite/s", "saccess/s", "sgetatt/s"]],
  ["sockets", ["totsck", "tcpsck", "udpsck", "rawsck", "ip-frag", "tcp-tw"]],
  ["ip", ["irec/s", "fwddgm/s", "idel/s", "orq/s", "asmrq/s", "asmok/s", "fragok/s", "fragcrt/s"]],
  ["ip-errors", ["ihdrerr/s", "iadrerr/s", "iukwnpr/s", "idisc/s", "odisc/s", "onort/s", "asmf/s", "fragf/s"]],
  ["icmp", ["imsg/s", "omsg/s", "iech/s", "iechr/s", "oech/s", "oechr/s", "itm/s", "itmr/s", "otm/s", "otmr/s", "iadrmk/s", "iadrmkr/s", "oadrmk/s", "oadrmkr/s"]],
  ["icmp-errors", ["ierr/s", "oerr/s", "idstunr/s", "odstunr/s", "itmex/s", "otmex/s", "iparmpb/s", "oparmpb/s", "isrcq/s", "osrcq/s", "iredir/s", "oredir/s"]],
  ["tcp", ["active/s", "passive/s", "iseg/s", "oseg/s"]],
  ["tcp-errors", ["atmptf/s", "estres/s", "retrseg/s", "isegerr/s", "orsts/s"]],
  ["udp", ["idgm/s", "odgm/s", "noport/s", "idgmerr/s"]],
  ["sockets6", ["tcp6sck", "udp6sck", "raw6sck", "ip6-frag"]],
  ["ip6", ["irec6/s", "fwddgm6/s", "idel6/s", "orq6/s", "asmrq6/s", "asmok6/s", "imcpck6/s", "omcpck6/s", "fragok6/s", "fragcr6/s"]],
  ["ip6-errors", ["ihdrer6/s", "iadrer6/s", "iukwnp6/s", "i2big6/s", "idisc6/s", "odisc6/s", "inort6/s", "onort6/s", "asmf6/s", "fragf6/s", "itrpck6/s"]],
  ["icmp6", ["imsg6/s", "omsg6/s", "iech6/s", "iechr6/s", "oechr6/s", "igmbq6/s", "igmbr6/s", "ogmbr6/s", "igmbrd6/s", "ogmbrd6/s", "irtsol6/s", "ortsol6/s", "irtad6/s", "inbsol6/s", "onbsol6/s", "inbad6/s", "onbad6/s"]],
  ["icmp6-errors", ["ierr6/s", "idtunr6/s", "odtunr6/s", "itmex6/s", "otmex6/s", "iprmpb6/s", "oprmpb6/s", "iredir6/s", "oredir6/s", "ipck2b6/s", "opck2b6/s"]],
  ["udp6", ["idgm6/s", "odgm6/s", "noport6/s", "idgmer6/s"]],
  ["fchost", ["fch_rxf/s", "fch_txf/s", "fch_rxw/s", "fch_txw/s"]],
  ["softnet", ["total/s", "dropd/s", "squeezd/s", "rx_rps/s", "flw_lim/s"]],
  ["filesystem", ["MBfsfree", "MBfsused", "%fsused", "%ufsused", "Ifree", "Iused", "%Iused"]],
  ["serial", ["rcvin/s", "xmtin/s", "framerr/s", "prtyerr/s", "brk/s", "ovrun/s"]],
  ["network", ["rxpck/s", "rxerr/s"]],
];
for (const [section, columns] of SUFFIX_SECTIONS) for (const c of columns) FIXED_COLUMN_SECTION.set(c, section);

/** The section of a text table from its first value column sadf knows, or null. */
export function sectionOfColumn(column: string): string | null {
  return FIXED_COLUMN_SECTION.get(column) ?? null;
}
