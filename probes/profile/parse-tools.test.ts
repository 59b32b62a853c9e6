import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findMountFor, parseFindmntJson, splitMountOptions } from "./parse-findmnt";
import { parseLsblkJson } from "./parse-lsblk";
import { parseLscpuJson } from "./parse-lscpu";

const fixture = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");

describe("parseLscpuJson", () => {
  it("reads the captured lscpu -J", () => {
    expect(parseLscpuJson(fixture("sysinfo-lscpu.json"))).toEqual({
      model: "AMD EPYC",
      count: 2,
      sockets: 1,
      numaNodes: 1,
      cpusPerNode: { "0": "0,1" },
    });
  });

  it("walks the nested layout of newer util-linux", () => {
    const nested = JSON.stringify({
      lscpu: [
        { field: "CPU(s):", data: "64" },
        {
          field: "Vendor ID:",
          data: "GenuineIntel",
          children: [{ field: "Model name:", data: "Intel(R) Xeon(R) Gold 6338", children: [{ field: "Socket(s):", data: "2" }] }],
        },
        { field: "NUMA:", data: null, children: [{ field: "NUMA node(s):", data: "2" }, { field: "NUMA node0 CPU(s):", data: "0-31" }, { field: "NUMA node1 CPU(s):", data: "32-63" }] },
      ],
    });
    expect(parseLscpuJson(nested)).toEqual({
      model: "Intel(R) Xeon(R) Gold 6338",
      count: 64,
      sockets: 2,
      numaNodes: 2,
      cpusPerNode: { "0": "0-31", "1": "32-63" },
    });
  });

  it("answers nulls for empty or broken output", () => {
    for (const text of ["", "{", "[]", '{"lscpu": 3}', '{"lscpu":[{"field":"CPU(s):","data":"two"}]}']) {
      expect(parseLscpuJson(text)).toEqual({ model: null, count: null, sockets: null, numaNodes: null, cpusPerNode: {} });
    }
  });
});

describe("parseLsblkJson", () => {
  it("reads the captured lsblk -J -b", () => {
    expect(parseLsblkJson(fixture("sysinfo-lsblk-bytes.json"))).toEqual([
      { name: "loop2", model: null, sizeBytes: 536870912, rotational: true, type: "loop" },
      { name: "zram0", model: null, sizeBytes: 0, rotational: false, type: "disk" },
      { name: "vda", model: null, sizeBytes: 274877906944, rotational: true, type: "disk" },
    ]);
  });

  it("accepts the string flags of util-linux < 2.33 and pads in models", () => {
    const old = '{"blockdevices":[{"name":"sda","model":"Samsung SSD 860  ","size":"500107862016","rota":"0","type":"disk"},{"name":"","size":"1"}]}';
    expect(parseLsblkJson(old)).toEqual([
      { name: "sda", model: "Samsung SSD 860", sizeBytes: 500107862016, rotational: false, type: "disk" },
    ]);
  });

  it("answers [] for broken output", () => {
    expect(parseLsblkJson("")).toEqual([]);
    expect(parseLsblkJson('{"blockdevices":{}}')).toEqual([]);
  });
});

describe("parseFindmntJson / findMountFor", () => {
  const mounts = parseFindmntJson(fixture("sysinfo-findmnt.json"));

  it("flattens the whole tree", () => {
    expect(mounts).toHaveLength(21);
    expect(mounts[0]).toEqual({
      target: "/",
      source: "/dev/vda",
      fsType: "ext4",
      options: ["rw", "relatime", "discard", "resv_strict", "resuid=65534", "resgid=65534"],
    });
  });

  it("finds the mount of a path by its longest mount point", () => {
    expect(findMountFor("/tmp", mounts)).toMatchObject({ target: "/", source: "/dev/vda", fsType: "ext4" });
    expect(findMountFor("/srv/probes/fs/m-xfs/run1", mounts)).toEqual({
      target: "/srv/probes/fs/m-xfs",
      source: "/dev/loop2",
      fsType: "xfs",
      options: ["rw", "relatime", "inode64", "logbufs=8", "logbsize=32k", "noquota"],
    });
    expect(findMountFor("/srv/probes/fs/m-xfs", mounts)?.fsType).toBe("xfs");
    // a sibling whose name merely starts with the mount point is not inside it
    expect(findMountFor("/srv/probes/fs/m-xfs2", mounts)?.target).toBe("/");
    expect(findMountFor("/sys/fs/cgroup/memory/x", mounts)?.fsType).toBe("cgroup");
  });

  it("picks the top of stacked mounts", () => {
    const shm = mounts.filter((m) => m.target === "/dev/shm");
    expect(shm).toHaveLength(2);
    expect(findMountFor("/dev/shm/probes", mounts)).toBe(shm[1]);
    expect(findMountFor("/dev/shm/probes", mounts)).toMatchObject({ source: "tmpfs", fsType: "tmpfs" });
  });

  it("answers nothing for broken output", () => {
    expect(parseFindmntJson("not json")).toEqual([]);
    expect(findMountFor("/x", [])).toBeNull();
  });

  it("keeps quoted commas inside one option", () => {
    expect(splitMountOptions('rw,context="system_u:object_r:tmp_t:s0:c127,c456",noexec')).toEqual([
      "rw",
      'context="system_u:object_r:tmp_t:s0:c127,c456"',
      "noexec",
    ]);
    expect(splitMountOptions("")).toEqual([]);
  });
});
