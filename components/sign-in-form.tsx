"use client";

import { useActionState } from "react";

/** What the sign-in action answers: a message and field errors to show, the email to keep. */
export interface SignInState {
  message?: string;
  errors?: { email?: string[]; password?: string[] };
  email?: string;
}

/** The sign-in page passes its server action in (components/ never import app/). */
export function SignInForm({ next, signIn }: { next?: string; signIn: (prev: SignInState, form: FormData) => Promise<SignInState> }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signIn, {});
  return (
    <form action={action} className="stack" noValidate>
      {state.message ? (
        <div role="alert" className="alert alert-error">
          {state.message}
        </div>
      ) : null}
      <input type="hidden" name="next" value={next ?? "/"} />
      <label>
        Email
        <input
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={state.email}
          aria-invalid={state.errors?.email ? true : undefined}
          aria-describedby={state.errors?.email ? "email-error" : undefined}
        />
        {state.errors?.email ? (
          <span id="email-error" className="field-error">
            {state.errors.email.join(" ")}
          </span>
        ) : null}
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={state.errors?.password ? true : undefined}
          aria-describedby={state.errors?.password ? "password-error" : undefined}
        />
        {state.errors?.password ? (
          <span id="password-error" className="field-error">
            {state.errors.password.join(" ")}
          </span>
        ) : null}
      </label>
      <div>
        <button className="btn btn-primary" type="submit" disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </button>
      </div>
    </form>
  );
}
