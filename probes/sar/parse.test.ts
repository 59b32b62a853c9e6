import { describe, expect, it } from "vitest";
import { expectError, expectOk, fixture, one } from "../core/testing";
import { parseSar } from "./parse";

const parse = (name: string) => expectOk(parseSar(fixture("sar", name)));
const value = (name: string, metric: string, dims: Record<string, string>) => one(parse(name).measurements, metric, dims).value;

describe("sar text, sysstat 12.6.1 (real outputs)", () => {
  it("sar -B: paging with %vmeff, samples and Average", () => {
    const r = parse("sar-B.txt");
    expect(r.measurements).toHaveLength(6 * 9);
    expect(value("sar-B.txt", "fault/s", { time: "12:02:03" })).toBe(12420);
    expect(value("sar-B.txt", "pgfree/s", { time: "average" })).toBe(20726.4);
    const vmeff = one(r.measurements, "%vmeff", { time: "12:02:07" });
    expect(vmeff).toEqual({ metric: "%vmeff", value: 0, unit: "%", dims: { section: "paging", time: "12:02:07" } });
    expect(one(r.measurements, "pgpgout/s", { time: "12:02:03" }).unit).toBe("kB/s");
    expect(one(r.measurements, "pgscand/s", { time: "average" }).unit).toBe("1/s");
    expect(r.toolVersion).toBeNull();
    expect(r.warnings).toEqual([]);
  });

  it("sar -f replay of -B", () => {
    expect(value("sar-f-replay-B.txt", "pgpgout/s", { time: "12:02:22" })).toBe(2464772);
    expect(value("sar-f-replay-B.txt", "pgpgout/s", { time: "average" })).toBe(619033.6);
    expect(value("sar-f-replay-B.txt", "majflt/s", { time: "12:02:24" })).toBe(2);
  });

  it("sar -d -p: DEV as the last column", () => {
    const r = parse("sar-d-p.txt");
    expect(one(r.measurements, "wkB/s", { time: "12:02:10", device: "vda" })).toEqual({
      metric: "wkB/s", value: 1936564, unit: "kB/s", dims: { section: "disk", time: "12:02:10", device: "vda" },
    });
    expect(value("sar-d-p.txt", "%util", { time: "average", device: "vda" })).toBe(47.6);
    expect(value("sar-d-p.txt", "await", { time: "12:02:12" })).toBe(3.96);
    expect(one(r.measurements, "await", { time: "12:02:12" }).unit).toBe("ms");
    expect(one(r.measurements, "areq-sz", { time: "12:02:12" }).unit).toBe("kB");
  });

  it("sar -d without -p: DEV as the first column", () => {
    expect(value("sar-d-nop.txt", "wkB/s", { time: "12:02:33", device: "vda" })).toBe(2004);
    expect(value("sar-d-nop.txt", "areq-sz", { time: "average", device: "vda" })).toBe(144);
  });

  it("sar -r and sar -u", () => {
    expect(value("sar-r.txt", "kbmemfree", { time: "12:02:13" })).toBe(21280444);
    expect(value("sar-r.txt", "%memused", { time: "average" })).toBe(1.41);
    expect(one(parse("sar-r.txt").measurements, "kbdirty", { time: "average" }).unit).toBe("kB");
    expect(value("sar-u.txt", "%system", { time: "12:02:16", cpu: "all" })).toBe(2.53);
    expect(value("sar-u.txt", "%idle", { time: "average", cpu: "all" })).toBe(97.99);
  });

  it("four sections with headers repeated every interval and an Average block", () => {
    const r = parse("gen-sar-B-d-r-u.txt");
    expect(new Set(r.measurements.map((m) => m.dims.section))).toEqual(new Set(["cpu", "paging", "memory", "disk"]));
    expect(r.measurements).toHaveLength(3 * (6 + 9 + 11 + 8));
    expect(value("gen-sar-B-d-r-u.txt", "fault/s", { time: "12:28:12" })).toBe(22003);
    expect(value("gen-sar-B-d-r-u.txt", "kbcommit", { time: "average" })).toBe(1509974);
    expect(value("gen-sar-B-d-r-u.txt", "tps", { time: "average", device: "vda" })).toBe(60.5);
    expect(value("gen-sar-B-d-r-u.txt", "%user", { time: "12:28:12", cpu: "all" })).toBe(29.29);
  });
});

describe("sar under the agent's pseudo-terminal", () => {
  it("strips sysstat's colour escapes and \\r\\n line ends", () => {
    const r = parse("gen-sar-pty-color-B-d.txt");
    expect(r.warnings).toEqual([]);
    expect(one(r.measurements, "fault/s", { time: "12:45:24" }).value).toBe(22421);
    expect(one(r.measurements, "wkB/s", { time: "12:45:24", device: "vda" }).value).toBe(804);
    expect(one(r.measurements, "tps", { time: "average", device: "vda" }).value).toBe(76);
    expect(one(r.measurements, "pgfree/s", { time: "average" }).value).toBe(805.5);
    expect(new Set(r.measurements.map((m) => m.dims.device))).toEqual(new Set([undefined, "loop0", "vda"]));
  });

  it("reads the uncoloured S_COLORS=never run", () => {
    expect(value("gen-sar-pty-u.txt", "%idle", { time: "12:45:27", cpu: "all" })).toBe(99.5);
    expect(value("gen-sar-pty-u.txt", "%system", { time: "average", cpu: "all" })).toBe(1.25);
  });
});

describe("sar text, other versions and locales", () => {
  it("sysstat 10: 12-hour times, dev8-0 names, old disk columns, LINUX RESTART", () => {
    const r = parse("hand-sar-10-d-ampm-restart.txt");
    expect(one(r.measurements, "rd_sec/s", { time: "14:00:01", device: "dev8-0" })).toMatchObject({ value: 210.33, unit: "sectors/s" });
    expect(value("hand-sar-10-d-ampm-restart.txt", "svctm", { time: "00:10:01", device: "dev253-0" })).toBe(0.55);
    expect(one(r.measurements, "avgrq-sz", { time: "average", device: "dev8-0" })).toMatchObject({ value: 22.4, unit: "sectors" });
    expect(r.warnings.join()).toMatch(/restarted 1 time/);
  });

  it("sysstat 11 paging across midnight (PM → AM)", () => {
    const r = parse("hand-sar-11-B-ampm.txt");
    expect([...new Set(r.measurements.map((m) => m.dims.time))]).toEqual(["23:55:01", "00:00:01", "00:05:01", "average"]);
    expect(value("hand-sar-11-B-ampm.txt", "%vmeff", { time: "23:55:01" })).toBe(92.39);
    expect(value("hand-sar-11-B-ampm.txt", "pgsteal/s", { time: "average" })).toBe(99.37);
  });

  it("derives %vmeff for sysstat >= 12.7.5", () => {
    const r = parse("hand-sar-12.7.5-B-novmeff.txt");
    expect(value("hand-sar-12.7.5-B-novmeff.txt", "%vmeff", { time: "16:00:01" })).toBe(90);
    expect(value("hand-sar-12.7.5-B-novmeff.txt", "%vmeff", { time: "16:00:02" })).toBe(0);
    expect(r.warnings.join()).toMatch(/12\.7\.5/);
  });

  it.each([
    ["hand-sar-de_DE-u.txt", "%idle", { time: "average", cpu: "all" }, 97.73],
    ["hand-sar-de_DE-u.txt", "%user", { time: "12:02:16" }, 1.01],
    ["hand-sar-fr_FR-r.txt", "%memused", { time: "average" }, 29.88],
    ["hand-sar-fr_FR-r.txt", "kbdirty", { time: "14:05:03" }, 1320],
    ["hand-sar-zh_CN-B.txt", "pgfree/s", { time: "average" }, 2997.5],
    ["hand-sar-es_ES-d-p.txt", "wkB/s", { time: "average", device: "sda" }, 20992],
    ["hand-sar-es_ES-d-p.txt", "await", { time: "10:15:08", device: "nvme0n1" }, 0.5],
  ])("%s: %s %j = %d (translated average label, decimal commas)", (name, metric, dims, expected) => {
    expect(value(name, metric, dims)).toBe(expected);
  });

  it("converts 12:xx AM/PM correctly", () => {
    const text = "12:00:00 AM     CPU     %idle\n12:00:01 AM     all     99.00\n12:30:00 PM     all     98.00\n01:00:00 PM     all     97.00\n";
    expect(expectOk(parseSar(text)).measurements.map((m) => m.dims.time)).toEqual(["00:00:01", "12:30:00", "13:00:00"]);
  });

  it("treats generic tables as other sections", () => {
    const text = "12:00:00      runq-sz  plist-sz   ldavg-1\n12:00:01            1       125      1.35\n12:00:02       IFACE   rxpck/s\n12:00:03          lo      3.00\n";
    const ms = expectOk(parseSar(text)).measurements;
    expect(one(ms, "ldavg-1")).toMatchObject({ value: 1.35, dims: { section: "queue" } });
    expect(one(ms, "rxpck/s")).toMatchObject({ value: 3, unit: "1/s", dims: { section: "network", iface: "lo" } });
  });
});

describe("sadf", () => {
  it("sadf -j -- -B -d -r -u maps keys to sar's column names", () => {
    const r = parse("sadf-B-d-r-u.json");
    // Disk: the 8 columns sar -d prints; sadf's 11.x twins (rd_sec, avgrq-sz, avgqu-sz …) are dropped.
    expect(r.measurements).toHaveLength(5 * (6 + 9 + 11 + 8));
    expect(one(r.measurements, "pgpgout/s", { time: "12:02:22" }).value).toBe(2464772);
    expect(one(r.measurements, "%vmeff", { time: "12:02:23" }).value).toBe(0);
    expect(one(r.measurements, "%util", { time: "12:02:23", device: "vda" })).toMatchObject({ value: 18.8, unit: "%" });
    expect(one(r.measurements, "kbmemfree", { time: "12:02:24" }).value).toBe(21443160);
    expect(one(r.measurements, "%iowait", { time: "12:02:22", cpu: "all" }).value).toBe(34.72);
    expect(r.measurements.some((m) => m.dims.time === "average")).toBe(false);
  });

  it("sadf -j -- -A: per-CPU rows and the other sections generically", () => {
    const ms = parse("sadf-A.json").measurements;
    expect(one(ms, "%iowait", { time: "12:02:22", cpu: "1" }).value).toBe(70.97);
    expect(one(ms, "%sys", { time: "12:02:22", cpu: "all" }).value).toBe(15.54);
    expect(one(ms, "ldavg-1", { time: "12:02:22", section: "queue" }).value).toBe(1.35);
    expect(one(ms, "%fsused", { time: "12:02:22", filesystem: "/dev/vda" }).value).toBe(6.57);
    expect(one(ms, "kbdirty", { time: "12:02:22" }).value).toBe(29616);
  });

  it("reads sysdata-version when sadf prints it", () => {
    const text = JSON.stringify({ sysstat: { "sysdata-version": 2.19, hosts: [{ statistics: [{ timestamp: { time: "10:00:01" }, paging: { pgfree: 5 } }] }] } });
    const r = expectOk(parseSar(text));
    expect(r.toolVersion).toBe("2.19");
    expect(one(r.measurements, "pgfree/s").value).toBe(5);
  });

  it("sadf -d CSV", () => {
    const r = parse("sadf-d-B-d-r-u.csv.txt");
    expect(r.measurements).toHaveLength(5 * (6 + 9 + 11 + 8));
    expect(one(r.measurements, "%system", { time: "12:02:22", cpu: "all" }).value).toBe(17.1);
    expect(one(r.measurements, "aqu-sz", { time: "12:02:23", device: "vda" }).value).toBe(0.36);
    expect(one(r.measurements, "kbcached", { time: "12:02:25" }).value).toBe(2461356);
    expect(one(r.measurements, "pgfree/s", { time: "12:02:24" }).value).toBe(50502);
  });

  it("rejects broken JSON clearly", () => {
    expect(expectError(parseSar('{"sysstat": {"hosts": [')).startsWith("sadf JSON could not be read")).toBe(true);
  });
});

describe("sar errors", () => {
  it("reports sar's own errors", () => {
    expect(expectError(parseSar("Cannot open /var/log/sysstat/sa21: No such file or directory\nPlease check if data collecting is enabled\n"))).toMatch(
      /^sar failed: Cannot open \/var\/log\/sysstat\/sa21/,
    );
  });

  it("tells an empty run from foreign text", () => {
    const banner = fixture("sar", "sar-B.txt").split("\n").slice(0, 3).join("\n");
    expect(expectError(parseSar(banner))).toMatch(/no samples/);
    expect(expectError(parseSar(fixture("iozone", "iozone-auto-64m.txt")))).toBe("not sar output: no sar table found");
  });
});

describe("sar across midnight: a day dim in every form", () => {
  it("text, sadf -j and sadf -d number the days alike", () => {
    const text = "Linux 6.1.0 (h) \t2021-05-02 \t_x86_64_\t(2 CPU)\n\n23:59:58     proc/s   cswch/s\n23:59:59       1.00    100.00\n00:00:00       2.00    200.00\n00:00:01       3.00    300.00\nAverage:       2.00    200.00\n";
    const stat = (date: string, time: string, proc: number) => ({ timestamp: { date, time }, "process-and-context-switch": { proc, cswch: proc * 100 } });
    const json = JSON.stringify({ sysstat: { hosts: [{ statistics: [stat("2021-05-02", "23:59:59", 1), stat("2021-05-03", "00:00:00", 2), stat("2021-05-03", "00:00:01", 3)] }] } });
    const csv = "# hostname;interval;timestamp;proc/s;cswch/s\nh;1;2021-05-02 23:59:59 UTC;1.00;100.00\nh;1;2021-05-03 00:00:00 UTC;2.00;200.00\nh;1;2021-05-03 00:00:01 UTC;3.00;300.00\n";
    const days = (out: string) =>
      expectOk(parseSar(out)).measurements.filter((m) => m.metric === "proc/s" && m.dims.time !== "average").map((m) => `${m.dims.day}@${m.dims.time}=${m.value}`);
    const expected = ["1@23:59:59=1", "2@00:00:00=2", "2@00:00:01=3"];
    expect(days(text)).toEqual(expected);
    expect(days(json)).toEqual(expected);
    expect(days(csv)).toEqual(expected);
  });
});

describe("sadf -d of sysstat <= 11.7", () => {
  it("reads the sum and all rows keyed -1", () => {
    const csv = [
      "# hostname;interval;timestamp;CPU;%user;%nice;%system;%iowait;%steal;%idle",
      "web2;600;2017-05-02 10:10:01 UTC;-1;1.20;0.00;0.50;0.10;0.00;98.20",
      "# hostname;interval;timestamp;INTR;intr/s",
      "web2;600;2017-05-02 10:10:01 UTC;-1;512.33",
      "web2;600;2017-05-02 10:10:01 UTC;0;12.00",
    ].join("\n");
    const r = expectOk(parseSar(csv));
    expect(r.format).toBe("sadf -d (CSV)");
    expect(one(r.measurements, "%idle", { cpu: "all" }).value).toBe(98.2);
    expect(one(r.measurements, "intr/s", { intr: "sum" })).toMatchObject({ value: 512.33, dims: { section: "interrupts" } });
    expect(one(r.measurements, "intr/s", { intr: "0" }).value).toBe(12);
  });
});
