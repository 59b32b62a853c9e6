import { z } from "zod";
import { AppError } from "./app-error";

/** What a form's server action answers: an error to show, a confirmation, or a secret shown once. */
export interface FormState {
  error?: string;
  ok?: string;
  token?: string;
}

/** Runs a form action; a refusal (AppError) or invalid input (zod) becomes a message on the form, anything else is a real failure. */
export async function formState(fn: () => Promise<FormState>): Promise<FormState> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) return { error: err.message };
    if (err instanceof z.ZodError) return { error: err.issues.map((i) => i.message).join(" ") };
    throw err;
  }
}
