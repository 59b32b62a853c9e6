// The series contract's shapes as TypeScript types, for the trends components: they take the
// answers of lib/server/series and lib/server/alerts as plain data (type-only, so no zod reaches
// a client bundle).
import type { z } from "zod";
import type {
  alertSchema,
  headlineChoiceSchema,
  profileChangeSchema,
  seriesAnnotationSchema,
  seriesDetailSchema,
  seriesPointSchema,
  seriesSummarySchema,
  windowVerdictSchema,
} from "@/lib/api/schemas/series";

export type ProfileChange = z.infer<typeof profileChangeSchema>;
export type SeriesPoint = z.infer<typeof seriesPointSchema>;
export type SeriesAnnotation = z.infer<typeof seriesAnnotationSchema>;
export type SeriesAlert = z.infer<typeof alertSchema>;
export type HeadlineChoice = z.infer<typeof headlineChoiceSchema>;
export type WindowVerdict = z.infer<typeof windowVerdictSchema>;
export type SeriesSummary = z.infer<typeof seriesSummarySchema>;
export type SeriesDetail = z.infer<typeof seriesDetailSchema>;
export type Trend = SeriesSummary["trend"];
