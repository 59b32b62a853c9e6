import { getDataset, listDatasets } from "@/content/load";
import { datasetToCsv, datasetToJson, downloadFileName, parseDownloadFileName } from "@/lib/guides/dataset-export";

// Downloads of the guide datasets: /guides/data/<id>.csv and /guides/data/<id>.json, written
// once at build time. Any other name is a 404.
export const dynamicParams = false;

export function generateStaticParams(): Array<{ file: string }> {
  return listDatasets().flatMap((d) => [{ file: downloadFileName(d.id, "csv") }, { file: downloadFileName(d.id, "json") }]);
}

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const parsed = parseDownloadFileName(file);
  const dataset = parsed ? getDataset(parsed.id) : null;
  if (!parsed || !dataset) return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain" } });

  const csv = parsed.format === "csv";
  return new Response(csv ? datasetToCsv(dataset) : datasetToJson(dataset), {
    headers: {
      "content-type": csv ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${downloadFileName(dataset.id, parsed.format)}"`,
    },
  });
}
