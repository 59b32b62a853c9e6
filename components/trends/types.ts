// The series contract's types (lib/api/schemas/series.ts) under the names the trends components
// use: they take the answers of lib/server/series and lib/server/alerts as plain data (type-only,
// so no zod reaches a client bundle).
import type { AlertView, SeriesSummary } from "@/lib/api/schemas/series";

export type { HeadlineChoice, ProfileChange, SeriesAnnotation, SeriesDetail, SeriesPoint, SeriesSummary, WindowVerdict } from "@/lib/api/schemas/series";
export type SeriesAlert = AlertView;
export type Trend = SeriesSummary["trend"];
