import type { Metadata } from "next";
import { ImportForm } from "@/components/import-form";
import { requirePageUser } from "@/lib/auth/page-guard";

export const metadata: Metadata = { title: "Import output" };

export default async function ImportPage() {
  await requirePageUser("/import", "OPERATOR");
  return (
    <>
      <h1>Import existing output</h1>
      <p className="lead">
        Years of iozone tables and sar logs are worth keeping. Paste or upload output of iozone, dd, sar (text, or{" "}
        <code>sadf -j</code> JSON) or fio (<code>--output-format=json</code>); Probebook parses it with the same parsers
        as live runs and keeps it as a run you can compare with new ones.
      </p>
      <ImportForm />
    </>
  );
}
