import type { Metadata } from "next";
import { GuideSearch } from "@/components/guides/guide-search";
import { loadGuides, toListItem, toSearchDocument } from "@/lib/guides/catalog";

export const metadata: Metadata = {
  title: "Guides",
  description: "Tuning guides for Linux storage and memory, built from published measurements.",
};

export default function GuidesPage() {
  // Broken references in guide bodies fail the build in /guides/[slug]'s generateStaticParams.
  const guides = loadGuides();
  return (
    <>
      <h1>Guides</h1>
      <p className="lead">
        Tuning guides built from classic, published measurements: what was measured, what it shows, what to tune, and
        how to re-run the test on your own hosts.
      </p>
      <GuideSearch guides={guides.map(toListItem)} documents={guides.map(toSearchDocument)} />
    </>
  );
}
