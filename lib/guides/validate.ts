/**
 * Build-time checks of what content/load.ts cannot see from frontmatter alone: the references
 * inside guide bodies. The guide pages call assertGuidesValid() from generateStaticParams, so a
 * typo in `<DatasetChart id="…">` fails `next build` with the file and the tag, instead of
 * shipping a page with a broken chart.
 */
import { listDatasets, type Guide } from "@/content/load";
import type { Dataset } from "@/content/schema";
import { tunableAnchor } from "./format";
import { componentUses } from "./mdx-text";

export class GuideReferenceError extends Error {
  constructor(readonly problems: string[]) {
    super(`Guide content refers to things that do not exist:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "GuideReferenceError";
  }
}

const PRESET_ID = /^[a-z][a-z0-9]*:[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The distinct values of the dataset's facet column, as the chart compares them (strings). */
function facetValues(dataset: Dataset): Set<string> {
  const key = dataset.chart.facet;
  if (!key) return new Set();
  return new Set(dataset.rows.map((r) => String(r[key] ?? "")));
}

/** Every problem with the guides' references, as "file: message" lines; empty when all is well. */
export function findReferenceProblems(guides: readonly Guide[], datasets: readonly Dataset[]): string[] {
  const problems: string[] = [];
  const datasetById = new Map(datasets.map((d) => [d.id, d]));
  const slugs = new Set(guides.map((g) => g.slug));
  const tunableNames = new Set(guides.flatMap((g) => g.frontmatter.tunables.map((t) => t.name)));

  // Two different names must not share a row anchor on /tunables, or one link lands on the wrong row.
  const anchorOwner = new Map<string, string>();
  for (const name of tunableNames) {
    const anchor = tunableAnchor(name);
    const other = anchorOwner.get(anchor);
    if (other !== undefined && other !== name) {
      problems.push(`tunables "${other}" and "${name}" get the same anchor #${anchor} on /tunables; rename one`);
    }
    anchorOwner.set(anchor, name);
  }

  for (const guide of guides) {
    const file = `content/guides/${guide.slug}.mdx`;
    const fm = guide.frontmatter;
    for (const id of fm.datasets) {
      if (!datasetById.has(id)) problems.push(`${file}: frontmatter datasets lists "${id}", but content/data/${id}.json does not exist`);
    }
    for (const slug of fm.related) {
      if (!slugs.has(slug)) problems.push(`${file}: related guide "${slug}" does not exist`);
    }
    for (const use of componentUses(guide.body)) {
      const { name, props, raw } = use;
      if (name === "DatasetChart" || name === "DatasetTable") {
        const id = props.id;
        const dataset = id ? datasetById.get(id) : undefined;
        if (!id) {
          problems.push(`${file}: ${raw} has no id`);
        } else if (!dataset) {
          problems.push(`${file}: ${raw} refers to dataset "${id}", but content/data/${id}.json does not exist`);
        } else if (name === "DatasetChart" && props.select !== undefined && (props.select !== "true" || !dataset.chart.facet)) {
          problems.push(`${file}: ${raw}: select="true" is the only value, and needs a dataset with chart.facet`);
        } else if (name === "DatasetChart" && props.facet !== undefined) {
          if (!dataset.chart.facet) {
            problems.push(`${file}: ${raw} asks for facet "${props.facet}", but dataset "${id}" has no chart.facet`);
          } else if (!facetValues(dataset).has(props.facet)) {
            problems.push(
              `${file}: ${raw} asks for facet "${props.facet}", which is not a value of column "${dataset.chart.facet}" in dataset "${id}"`,
            );
          }
        }
      } else if (name === "Tunable") {
        if (!props.name) problems.push(`${file}: ${raw} has no name`);
        else if (!tunableNames.has(props.name)) {
          problems.push(`${file}: ${raw} is not in any guide's frontmatter tunables, so /tunables has no row for it`);
        }
      } else if (name === "Reproduce") {
        if (!props.preset || !PRESET_ID.test(props.preset)) problems.push(`${file}: ${raw} needs preset="probe:preset"`);
        if (!props.label) problems.push(`${file}: ${raw} needs a label`);
      } else {
        problems.push(`${file}: ${raw} is not one of DatasetChart, DatasetTable, Reproduce, Tunable`);
      }
    }
  }
  return problems;
}

/** Throws a GuideReferenceError listing every broken reference. */
export function assertGuidesValid(guides: readonly Guide[], datasets: readonly Dataset[] = listDatasets()): void {
  const problems = findReferenceProblems(guides, datasets);
  if (problems.length > 0) throw new GuideReferenceError(problems);
}
