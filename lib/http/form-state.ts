/** What a form's server action answers: an error to show, a confirmation, or a secret shown once (lib/auth/action-guard.ts formAction). */
export interface FormState {
  error?: string;
  ok?: string;
  token?: string;
}
