import type { Metadata } from "next";
import { ImportForm } from "@/components/import-form";
import { requirePageUser } from "@/lib/auth/page-guard";
import { allProbes } from "@/probes/catalog";

export const metadata: Metadata = { title: "Import output" };

export default async function ImportPage() {
  await requirePageUser("/import", "OPERATOR");
  return (
    <>
      <h1>Import existing output</h1>
      <p className="lead">
        Years of benchmark tables and system activity logs are worth keeping. Paste or upload the output of one of the
        tools below; Probebook parses it with the same parsers as live runs and keeps it as a run you can compare with new
        ones.
      </p>
      <ImportForm probes={allProbes().map((p) => ({ id: p.id, label: p.importLabel }))} />
    </>
  );
}
