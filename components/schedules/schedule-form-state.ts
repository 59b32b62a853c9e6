/** What the schedule forms' server actions answer: a message and the fields at fault (keys as the API names them). */
export interface ScheduleFormState {
  error?: string;
  ok?: string;
  fieldErrors?: Record<string, string[]>;
}
export type ScheduleFormAction = (prev: ScheduleFormState, form: FormData) => Promise<ScheduleFormState>;
