/**
 * Guide checks: frontmatter, heading structure, MDX components and their
 * references (datasets, presets, tunables), cross-links between guides.
 *
 * Needs gray-matter (through ./load).
 */
import { describe, expect, it } from "vitest";
import { EXPECTED_GUIDE_SLUGS } from "./expected-guides";
import { getDataset, getGuide, listDatasets, listGuides, parseGuide, type Guide } from "./load";
import { presetRefs } from "../probes/catalog";

const EXPECTED_SLUGS = EXPECTED_GUIDE_SLUGS;

const HEADINGS = [
  "What this is about",
  "The original setup",
  "Findings",
  "What to tune",
  "Caveats",
  "Reproduce on your host",
];

/** Probe presets that exist in the probe catalog. */
const PRESETS = new Set(presetRefs());

/** Allowed MDX components and their allowed / required props. */
const COMPONENTS: Record<string, { required: string[]; optional: string[] }> = {
  DatasetChart: { required: ["id"], optional: ["facet", "select"] },
  DatasetTable: { required: ["id"], optional: [] },
  Reproduce: { required: ["preset", "label"], optional: [] },
  Tunable: { required: ["name"], optional: [] },
};

interface ComponentUse {
  name: string;
  props: Record<string, string>;
  raw: string;
}

/** Removes fenced code blocks and inline code spans, which MDX treats as literal text. */
function stripCode(body: string): string {
  return body.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

function componentUses(body: string): ComponentUse[] {
  const uses: ComponentUse[] = [];
  for (const m of stripCode(body).matchAll(/<([A-Za-z][\w.]*)((?:\s+[\w-]+="[^"]*")*)\s*\/>/g)) {
    const props: Record<string, string> = {};
    for (const p of (m[2] ?? "").matchAll(/([\w-]+)="([^"]*)"/g)) props[p[1]!] = p[2]!;
    uses.push({ name: m[1]!, props, raw: m[0] });
  }
  return uses;
}

function guideLinks(body: string): string[] {
  return [...stripCode(body).matchAll(/\]\(\/guides\/([^)#\s]+)\)/g)].map((m) => m[1]!);
}

const guides: Guide[] = listGuides();
const bySlug = new Map(guides.map((g) => [g.slug, g]));
const allTunableNames = new Set(guides.flatMap((g) => g.frontmatter.tunables.map((t) => t.name)));

describe("guide set", () => {
  it("has the ten guides", () => {
    expect(guides.map((g) => g.slug).sort()).toEqual([...EXPECTED_SLUGS].sort());
  });

  it("has unique display orders", () => {
    const orders = guides.map((g) => g.frontmatter.order);
    expect(new Set(orders).size).toBe(orders.length);
  });

  it("getGuide() finds guides and rejects unknown or unsafe slugs", () => {
    expect(getGuide("erlang-smp")?.frontmatter.title).toMatch(/Erlang/);
    expect(getGuide("no-such-guide")).toBeNull();
    expect(getGuide("../package")).toBeNull();
  });

  it("every dataset is used by at least one guide, and by the guide it names", () => {
    for (const d of listDatasets()) {
      const users = guides.filter((g) => g.frontmatter.datasets.includes(d.id));
      expect(users.length, `${d.id} is not referenced by any guide`).toBeGreaterThan(0);
      expect(users.map((g) => g.slug), d.id).toContain(d.guide);
    }
  });

  it("links the guides whose topics meet, in both directions", () => {
    const pairs: Array<[string, string]> = [
      ["storage-media-disk-flash-memory", "ext2-ext3-ext4-iozone"],
      ["linux-memory-numa-databases", "multicore-memory-bandwidth"],
      ["mysql-select-mirroring-failover", "storage-media-disk-flash-memory"],
      ["xfs-preallocation-ndb", "filesystem-metadata-create-drop"],
      ["multicore-memory-bandwidth", "erlang-smp"],
      ["memcached-at-facebook", "erlang-smp"],
    ];
    for (const [a, b] of pairs) {
      expect(guideLinks(bySlug.get(a)!.body), `${a} should link to ${b}`).toContain(b);
      expect(guideLinks(bySlug.get(b)!.body), `${b} should link to ${a}`).toContain(a);
    }
  });
});

describe.each(guides.map((g) => [g.slug, g] as const))("guide %s", (slug, guide) => {
  const fm = guide.frontmatter;
  const uses = componentUses(guide.body);

  it("names its source", () => {
    expect(fm.source.title.length).toBeGreaterThan(0);
    expect(fm.source.author.length).toBeGreaterThan(0);
    expect(String(fm.source.year).length).toBeGreaterThan(0);
  });

  it("has the six headings, in order, and no other level-2 headings (\"Since then\" may precede the last)", () => {
    const h2 = [...guide.body.matchAll(/^## (.+?)\s*$/gm)].map((m) => m[1]);
    const withSince = [...HEADINGS.slice(0, -1), "Since then", HEADINGS[HEADINGS.length - 1]];
    expect([HEADINGS, withSince]).toContainEqual(h2);
  });

  it("sources every \"Since then\" bullet with a link", () => {
    const m = /^## Since then\n([\s\S]*?)^## /m.exec(guide.body);
    if (!m) return;
    const bullets = m[1]!.split("\n").filter((l) => l.startsWith("- "));
    expect(bullets.length).toBeGreaterThan(0);
    for (const b of bullets) {
      expect(b, "a Since then item without a source link").toMatch(/\]\(https?:\/\/[^)\s]+\)/);
    }
  });

  it("uses only the allowed components with the allowed props", () => {
    for (const u of uses) {
      const spec = COMPONENTS[u.name];
      expect(spec, `unknown component in ${u.raw}`).toBeDefined();
      for (const r of spec!.required) expect(u.props[r], `${u.raw} lacks ${r}`).toBeTruthy();
      for (const k of Object.keys(u.props)) {
        expect([...spec!.required, ...spec!.optional], `${u.raw}: unexpected prop ${k}`).toContain(k);
      }
    }
  });

  it("is MDX-safe: no import/export, no stray braces, every < opens an allowed component", () => {
    expect(guide.body).not.toMatch(/^\s*(import|export)\s/m);
    const prose = stripCode(guide.body);
    expect(prose, "braces outside code").not.toMatch(/[{}]/);
    const withoutComponents = prose.replace(/<([A-Za-z][\w.]*)((?:\s+[\w-]+="[^"]*")*)\s*\/>/g, "");
    expect(withoutComponents, "raw < outside code and components").not.toMatch(/</);
    // Every fenced block is closed.
    expect((guide.body.match(/^```/gm) ?? []).length % 2).toBe(0);
  });

  it("references existing datasets (and facets), matching its frontmatter", () => {
    const used = new Set<string>();
    for (const u of uses.filter((x) => x.name === "DatasetChart" || x.name === "DatasetTable")) {
      const id = u.props.id!;
      const d = getDataset(id);
      expect(d, `${u.raw}: no dataset ${id}`).not.toBeNull();
      used.add(id);
      if (u.props.facet !== undefined) {
        const facetKey = d!.chart.facet;
        expect(facetKey, `${u.raw}: dataset has no facet`).toBeDefined();
        expect(d!.rows.map((r) => r[facetKey!]), `${u.raw}: unknown facet value`).toContain(u.props.facet);
      }
    }
    expect([...used].sort()).toEqual([...fm.datasets].sort());
  });

  it("uses only existing probe presets", () => {
    for (const p of fm.presets) expect(PRESETS, `frontmatter preset ${p}`).toContain(p);
    const reproduce = uses.filter((u) => u.name === "Reproduce");
    expect(reproduce.length, "at least one Reproduce button").toBeGreaterThan(0);
    for (const u of reproduce) {
      expect(PRESETS, u.raw).toContain(u.props.preset);
      expect(fm.presets, `${u.raw} should also be listed in frontmatter presets`).toContain(u.props.preset);
    }
  });

  it("links only to existing guides, and related slugs exist", () => {
    for (const r of fm.related) {
      expect(bySlug.has(r), `related ${r}`).toBe(true);
      expect(r).not.toBe(slug);
    }
    for (const l of guideLinks(guide.body)) expect(bySlug.has(l), `link /guides/${l}`).toBe(true);
    expect(guideLinks(guide.body).length, "links to at least one other guide").toBeGreaterThan(0);
  });

  it("explains its tunables, and <Tunable> names exist in the tunables index", () => {
    expect(fm.tunables.length).toBeGreaterThan(0);
    for (const t of fm.tunables) {
      expect(t.recommended.trim().length, t.name).toBeGreaterThan(0);
      expect(t.why.trim().length, t.name).toBeGreaterThan(10);
    }
    for (const u of uses.filter((x) => x.name === "Tunable")) {
      expect(allTunableNames, u.raw).toContain(u.props.name);
    }
  });
});

describe("parseGuide", () => {
  it("names the file and the issue when frontmatter is invalid", () => {
    const bad = "---\ntitle: x\nsummary: y\n---\n\nbody\n";
    expect(() => parseGuide(bad, "/tmp/bad-guide.mdx")).toThrow(/bad-guide\.mdx[\s\S]*source/);
  });

  it("rejects malformed preset ids", () => {
    const fm = [
      "---",
      'title: "t"',
      'summary: "s"',
      'source: { title: "a", author: "b", year: 2009 }',
      "tags: [storage]",
      "tunables: []",
      'presets: ["iozone"]',
      "datasets: []",
      "related: []",
      "order: 1",
      "---",
      "",
      "body",
    ].join("\n");
    expect(() => parseGuide(fm, "/tmp/bad-preset.mdx")).toThrow(/presets/);
  });
});
