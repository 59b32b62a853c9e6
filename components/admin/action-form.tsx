"use client";

import { useActionState, type ReactNode } from "react";
import type { FormState } from "@/lib/http/form-state";

/** A form bound to a server action that answers with a message (and a token shown once). */
export function ActionForm({
  action,
  children,
  submit,
}: {
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  children: ReactNode;
  submit: string;
}) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, {});
  return (
    <form action={formAction} className="stack">
      {state.error ? (
        <div role="alert" className="alert alert-error">
          {state.error}
        </div>
      ) : null}
      {state.ok ? (
        <div role="status" className="alert alert-ok">
          {state.ok}
          {state.token ? (
            <pre style={{ margin: "0.5rem 0 0" }}>
              <code data-testid="new-token">{state.token}</code>
            </pre>
          ) : null}
        </div>
      ) : null}
      {children}
      <div>
        <button className="btn btn-primary" type="submit" disabled={pending}>
          {submit}
        </button>
      </div>
    </form>
  );
}
