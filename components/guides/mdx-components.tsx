/**
 * The components guide bodies may use, and the HTML elements we restyle. Server components:
 * they read datasets from content/ and hand the chart (a client component) only plain data.
 */
import type { MDXComponents } from "mdx/types";
import Link from "next/link";
import { Children, isValidElement, type ComponentPropsWithoutRef, type ReactNode } from "react";
import { DatasetChart } from "@/components/charts/dataset-chart";
import { getDataset } from "@/content/load";
import type { Dataset } from "@/content/schema";
import { slugify } from "@/lib/guides/format";
import { DatasetTable } from "./dataset-table";
import { ReproduceButton } from "./reproduce-button";
import { TunableLink } from "./tunable-link";

function requireDataset(id: string, tag: string): Dataset {
  const dataset = getDataset(id);
  // assertGuidesValid() reports this at build time already; this names the tag if it is bypassed.
  if (!dataset) throw new Error(`${tag}: dataset "${id}" does not exist in content/data/`);
  return dataset;
}

/**
 * Only the columns and rows the chart draws go to the browser: a single-facet chart of the
 * 273-row benchmark table needs 21 rows of four fields, not the whole file and its notes.
 */
function chartSlice(dataset: Dataset, facet: string | undefined): Dataset {
  const { x, y, series, facet: facetKey, unitColumn } = dataset.chart;
  const keys = [x, y, series, facetKey, unitColumn].filter((k): k is string => k !== undefined);
  const rows =
    facet !== undefined && facetKey ? dataset.rows.filter((r) => String(r[facetKey] ?? "") === facet) : dataset.rows;
  return {
    id: dataset.id,
    title: dataset.title,
    guide: dataset.guide,
    source: dataset.source,
    units: Object.fromEntries(Object.entries(dataset.units).filter(([k]) => keys.includes(k))),
    columns: dataset.columns.filter((c) => keys.includes(c.key)),
    rows: rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k] ?? null]))),
    chart: dataset.chart,
  };
}

/** `select="true"` draws one facet at a time with a picker for the others (all rows go to the browser). */
function GuideDatasetChart({ id, facet, select }: { id: string; facet?: string; select?: string }) {
  const dataset = requireDataset(id, "<DatasetChart>");
  const selectable = select === "true";
  return <DatasetChart dataset={chartSlice(dataset, selectable ? undefined : facet)} facet={facet} selectable={selectable} />;
}

function GuideDatasetTable({ id }: { id: string }) {
  return <DatasetTable dataset={requireDataset(id, "<DatasetTable>")} />;
}

function GuideReproduce({ preset, label }: { preset: string; label: string }) {
  return <ReproduceButton preset={preset} label={label} />;
}

/** Plain text of heading children, for the heading's id ("What to tune" → "what-to-tune"). */
function textOf(node: ReactNode): string {
  return Children.toArray(node)
    .map((child) => {
      if (typeof child === "string" || typeof child === "number") return String(child);
      if (isValidElement<{ children?: ReactNode }>(child)) return textOf(child.props.children);
      return "";
    })
    .join("");
}

/** Headings get ids so sections can be linked (/guides/x#what-to-tune). */
function H2(props: ComponentPropsWithoutRef<"h2">) {
  return <h2 id={slugify(textOf(props.children)) || undefined} {...props} />;
}

function H3(props: ComponentPropsWithoutRef<"h3">) {
  return <h3 id={slugify(textOf(props.children)) || undefined} {...props} />;
}

/** Links between guides navigate client-side; external links stay plain anchors. */
function Anchor({ href = "", ...rest }: ComponentPropsWithoutRef<"a">) {
  if (href.startsWith("/")) return <Link href={href} {...rest} />;
  return <a href={href} rel="noreferrer" {...rest} />;
}

/** GFM tables get the app's table style and scroll sideways on narrow screens. */
function Table(props: ComponentPropsWithoutRef<"table">) {
  return (
    <div className="table-wrap">
      <table className="data" {...props} />
    </div>
  );
}

export const guideMdxComponents: MDXComponents = {
  DatasetChart: GuideDatasetChart,
  DatasetTable: GuideDatasetTable,
  Reproduce: GuideReproduce,
  Tunable: TunableLink,
  h2: H2,
  h3: H3,
  a: Anchor,
  table: Table,
};
