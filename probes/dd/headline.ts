import { headlineOf, type HeadlineValue } from "../core/probe";
import type { NormalisedResult } from "../core/types";
import type { DdParams } from "./params";

/** dd measures one thing: the throughput of its one write or read. */
export function ddHeadline(result: NormalisedResult, params: DdParams): HeadlineValue[] {
  const m = result.measurements.find((x) => x.metric === "throughput");
  if (!m) return [];
  const write = params.mode !== "read";
  return [headlineOf(m, { noun: `${write ? "write" : "read"} throughput`, betterWhen: "higher", verb: write ? "wrote" : "read" })];
}
