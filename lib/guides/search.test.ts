import { describe, expect, it } from "vitest";
import { loadGuides, toSearchDocument } from "./catalog";
import { mdxToPlainText } from "./mdx-text";
import { buildQuery, createGuideIndex, makeSnippet, searchGuides, tokenize } from "./search";

describe("tokenize", () => {
  it("keeps compound identifiers whole and adds their parts", () => {
    expect(tokenize("vm.zone_reclaim_mode")).toEqual(["vm.zone_reclaim_mode", "vm", "zone_reclaim_mode", "zone", "reclaim", "mode"]);
    expect(tokenize("data=writeback,")).toEqual(["data=writeback", "data", "writeback"]);
    expect(tokenize("Use noatime.")).toEqual(["Use", "noatime"]);
  });

  it("splits paths into segments and words", () => {
    const t = tokenize("/sys/kernel/mm/transparent_hugepage/enabled");
    expect(t[0]).toBe("sys/kernel/mm/transparent_hugepage/enabled");
    expect(t).toEqual(expect.arrayContaining(["transparent_hugepage", "transparent", "hugepage", "enabled", "kernel"]));
  });

  it("breaks on brackets, quotes and CJK punctuation", () => {
    expect(tokenize('(see "vm.dirty_ratio")')).toEqual(["see", "vm.dirty_ratio", "vm", "dirty_ratio", "dirty", "ratio"]);
    expect(tokenize("性能比拼，测试")).toEqual(["性能比拼", "测试"]);
  });
});

describe("buildQuery", () => {
  it("ANDs the typed words and ORs each word's parts", () => {
    expect(buildQuery("  zone_reclaim   numa ")).toEqual({
      combineWith: "AND",
      queries: [
        { combineWith: "OR", queries: ["zone_reclaim"] },
        { combineWith: "OR", queries: ["numa"] },
      ],
    });
    expect(buildQuery("   ")).toBeNull();
    expect(buildQuery("- *")).toBeNull();
  });
});

describe("searchGuides over the real guides", () => {
  const index = createGuideIndex(loadGuides().map(toSearchDocument));
  const top = (q: string) => searchGuides(index, q)[0]?.id;

  it.each([
    ["zone_reclaim", "linux-memory-numa-databases"],
    ["zone_reclaim_mode", "linux-memory-numa-databases"],
    ["vm.zone_reclaim_mode", "linux-memory-numa-databases"],
    ["transparent_hugepage", "linux-memory-numa-databases"],
    ["vm.dirty_ratio", "storage-media-disk-flash-memory"],
    ["dirty_background", "storage-media-disk-flash-memory"],
    ["noatime", "filesystem-metadata-create-drop"],
    ["iozone ext4", "ext2-ext3-ext4-iozone"],
    ["fallocate xfs", "xfs-preallocation-ndb"],
    ["memcached", "memcached-at-facebook"],
    ["erlang", "erlang-smp"],
  ])("%s → %s first", (query, slug) => {
    expect(top(query)).toBe(slug);
  });

  it("finds partial words as you type and forgives a typo", () => {
    expect(top("zone_rec")).toBe("linux-memory-numa-databases");
    expect(top("memcahced")).toBe("memcached-at-facebook");
  });

  it("returns nothing for words no guide contains", () => {
    expect(searchGuides(index, "kubernetes")).toEqual([]);
    expect(searchGuides(index, "noatime kubernetes")).toEqual([]);
  });
});

describe("makeSnippet", () => {
  const text = mdxToPlainText(
    "Intro words here. Set <Tunable name=\"vm.zone_reclaim_mode\" /> to `0` and watch **zone** reclaim stop. More text follows.",
  );

  it("centres on the longest matched term and marks every matched term", () => {
    const s = makeSnippet(text, ["zone", "vm.zone_reclaim_mode"], 60);
    expect(s).not.toBeNull();
    const marked = s!.parts.filter((p) => p.match).map((p) => p.text);
    expect(marked[0]).toBe("vm.zone_reclaim_mode");
    expect(marked).toContain("zone");
    expect(s!.parts.map((p) => p.text).join("")).toContain("vm.zone_reclaim_mode to 0 and watch zone");
  });

  it("is null when no term occurs in the text", () => {
    expect(makeSnippet(text, ["kubernetes"])).toBeNull();
    expect(makeSnippet(text, [])).toBeNull();
  });
});

describe("mdxToPlainText", () => {
  it("keeps prose, code and component text, drops syntax", () => {
    const body = [
      "## What to tune",
      "",
      "- **Prefer ext4** (<Tunable name=\"mkfs.ext4\" />), see [the guide](/guides/x).",
      "",
      "| A | B |",
      "|---|--:|",
      "| zone_reclaim_mode | 1,024 |",
      "",
      "```sh",
      "cat /proc/sys/vm/zone_reclaim_mode",
      "```",
      "",
      "<DatasetChart id=\"ext-iozone-2009\" facet=\"write\" />",
      "<Reproduce preset=\"sar:paging\" label=\"Watch direct scans with sar -B\" />",
      "> quoted _emphasis_ here",
    ].join("\n");
    expect(mdxToPlainText(body)).toBe(
      "What to tune Prefer ext4 (mkfs.ext4), see the guide. A B zone_reclaim_mode 1,024 cat /proc/sys/vm/zone_reclaim_mode Watch direct scans with sar -B quoted emphasis here",
    );
  });
});
