/** What the schedule forms' server actions answer: a message and the fields at fault (keys as the API names them). */
export interface ScheduleFormState {
  error?: string;
  ok?: string;
  fieldErrors?: Record<string, string[]>;
  /** What was submitted, shown again after a refusal (React resets a form after its action). */
  values?: Partial<{ name: string; hostIds: string[]; probePreset: string; target: string; cron: string | null; intervalMinutes: number | null; timezone: string; jitterSeconds: number; skipIfBusy: boolean; quietStart: string | null; quietEnd: string | null }>;
}
export type ScheduleFormAction = (prev: ScheduleFormState, form: FormData) => Promise<ScheduleFormState>;
